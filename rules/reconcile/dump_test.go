package reconcile

import (
	"strings"
	"testing"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules"
)

func TestRestartLiftedPieceIsNoSequence(t *testing.T) {
	// The daemon was restarted (the board away and back, its dump the
	// same position); then White lifts the bishop and puts it on d6. The
	// lifted bishop must not be taken for four plies in which it was
	// captured (finding R3): 18.Bd6 is completed by White's press.
	h := newHarness(t, Config{TimeControl: mustTC(t, "900+10"), StartFEN: immortal18})
	h.show(0)
	h.start(1)
	h.feed(h.g.Session(sec(2), "disconnected", "board"))
	h.show(2.4) // the start-up dump, before the session says connected
	h.feed(h.g.Session(sec(2.5), "connected", "board"))
	h.put(3, "f4", chess.NoPiece)
	h.advance(3.3)
	h.put(3.5, "d6", chess.WhiteBishop)
	if err := h.shadow.MoveSAN("Bd6"); err != nil {
		t.Fatal(err)
	}
	h.press(3.8, W)
	h.advance(6)
	h.wantAnomalies(KindBoardDisconnected)
	c := h.of(TypeComplete)
	if len(c) != 1 || c[0].SAN != "Bd6" || c[0].Ply != 1 || c[0].By != ByPress {
		t.Fatalf("completions %+v\n%s", c, h.jsonl())
	}
}

func TestRestartHeldLongStillNoMoves(t *testing.T) {
	// As above, but the bishop stays in the hand for longer than the scan
	// lag: the four plies that explain the board are moves nobody saw, so
	// they are reported, never completed; then the bishop lands, and the
	// board (one move from the last verified position) is followed again.
	h := newHarness(t, Config{TimeControl: mustTC(t, "900+10"), StartFEN: immortal18})
	h.show(0)
	h.start(1)
	h.feed(h.g.Session(sec(2), "disconnected", "board"))
	h.feed(h.g.Session(sec(2.5), "connected", "board"))
	h.put(3, "f4", chess.NoPiece)
	h.advance(6)
	for _, c := range h.of(TypeComplete) {
		t.Errorf("completed %s, a move nobody made", c.SAN)
	}
	for _, m := range h.of(TypeMove) {
		t.Errorf("announced %s, a move nobody made", m.SAN)
	}
	if h.g.State().Completed != (Moves{White: 17, Black: 17}) {
		t.Errorf("counts %+v", h.g.State().Completed)
	}
	// The bishop lands: the plies that explained the hand are replaced by
	// the one move the board now shows, and White's press completes it.
	h.put(7, "d6", chess.WhiteBishop)
	if err := h.shadow.MoveSAN("Bd6"); err != nil {
		t.Fatal(err)
	}
	h.press(7.3, W)
	h.play(9, "Bxg1")
	h.press(9.4, B)
	h.advance(12)
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	c := h.of(TypeComplete)
	if len(c) != 2 || c[0].SAN != "Bd6" || c[0].Ply != 1 || c[1].SAN != "Bxg1" || c[1].Ply != 2 {
		t.Fatalf("completions %+v\n%s", c, h.jsonl())
	}
	if h.g.State().Completed != (Moves{White: 18, Black: 18}) {
		t.Errorf("counts %+v", h.g.State().Completed)
	}
	// the count is verified again: a flag gets its verdict
	h.flag(20, B)
	h.advance(25)
	if f := h.of(TypeFlag); len(f) != 1 || f[0].Verdict == VerdictUnknown {
		t.Errorf("flag %+v", f)
	}
}

func TestDumpContradictingTheImageResyncs(t *testing.T) {
	// Field updates were lost: arbiterd's image still shows 1.e4 e5 while
	// three more plies were played. The board dump that shows them is no
	// move: the plies are reported as unverified, no press is judged
	// illegal, and the next moves complete again (finding R2).
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(2, "e4")
	h.press(2.3, W)
	h.play(3, "e5")
	h.press(3.3, B)
	for i, s := range []string{"Nf3", "Nc6", "Bb5"} {
		if err := h.shadow.MoveSAN(s); err != nil {
			t.Fatal(err)
		}
		h.press(5+float64(i)/2, clockd.Side(i%2)) // the clock's presses are seen
	}
	// the keep-alive dump, within the scan lag of the first lost press
	h.board = rules.SnapshotOf(h.shadow.Position())
	h.feed(h.g.Dump(sec(6.3), h.board))
	h.advance(10)
	h.wantCompleted(1, 1)
	h.wantAnomalies(KindUnverified)
	if a := h.of(TypeAnomaly); len(a) == 1 && !strings.Contains(a[0].Detail, "plies 3 to 5") {
		t.Errorf("detail %s", a[0].Detail)
	}
	h.play(12, "a6")
	h.press(12.3, B)
	h.play(14, "Ba4")
	h.press(14.3, W)
	h.advance(20)
	h.wantCompleted(2, 2)
	h.wantAnomalies(KindUnverified)
	c := h.of(TypeComplete)
	if n := len(c); n != 4 || c[2].SAN != "a6" || c[2].Ply != 6 || c[3].SAN != "Ba4" || c[3].Ply != 7 {
		t.Errorf("completions %+v", c)
	}
}

func TestDumpOneLostUpdateIsAMove(t *testing.T) {
	// The update that put the knight on f3 was lost: the image shows it
	// lifted. The dump shows it on f3: one move, completed by the press.
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.put(2, "g1", chess.NoPiece)
	if err := h.shadow.MoveSAN("Nf3"); err != nil {
		t.Fatal(err)
	}
	h.board = rules.SnapshotOf(h.shadow.Position())
	h.press(2.5, W)
	h.feed(h.g.Dump(sec(2.8), h.board))
	h.advance(5)
	h.wantCompleted(1, 0)
	h.wantAnomalies()
	// a dump that agrees with the image changes nothing
	h.feed(h.g.Dump(sec(6), h.board))
	h.play(7, "Nf6")
	h.press(7.2, B)
	h.advance(9)
	h.wantCompleted(1, 1)
	h.wantAnomalies()
}

func TestLostUpdatesOfACaptureWaitForTheNextDump(t *testing.T) {
	// The field updates of 18...Bxg1 in the Immortal Game are lost: the
	// keep-alive dump shows the rook lifted off g1, the bishop still on
	// c5 (it is in the hand, already on its way). Black presses before the
	// next dump. Four plies explain the lifted rook (…Bxg1, a White move
	// and back, …Bc5) with Black to move, against the press; rebuilding
	// the record from that transient derailed the rest of the game. The
	// press came after the board's latest reading, so the board is read
	// again first: the next dump shows the capture made.
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	immortal := strings.Fields("e4 e5 f4 exf4 Bc4 Qh4+ Kf1 b5 Bxb5 Nf6 Nf3 Qh6 d3 Nh5 Nh4 Qg5 Nf5 c6 g4 Nf6 Rg1 cxb5 h4 Qg6 h5 Qg5 Qf3 Ng8 Bxf4 Qf6 Nc3 Bc5 Nd5 Qxb2 Bd6")
	h.opening(immortal...)
	at := float64(2 + len(immortal))
	h.dump(at) // the keep-alive dump agrees with the image
	// the rook lifted off g1, its update lost: the next dump shows it
	h.board.Squares[squareOf(t, "g1")] = chess.NoPiece
	h.dump(at + 1)
	h.press(at+1.9, B)
	if err := h.shadow.MoveSAN("Bxg1"); err != nil {
		t.Fatal(err)
	}
	h.board = rules.SnapshotOf(h.shadow.Position())
	h.dump(at + 2.6) // after ScanLag: the held plies fell due before it
	h.advance(at + 5)
	h.wantAnomalies()
	if p := h.completedAt("Bxg1"); p != 36 {
		t.Errorf("18...Bxg1 completed at ply %d, want 36\n%s", p, h.jsonl())
	}
}
