package reconcile

import (
	"strings"
	"testing"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules"
)

func TestResyncSeveralPliesAreReported(t *testing.T) {
	// The board was away for four plies. After it reconnects the full
	// depth finds them, but in several orders (1.e4 e5 2.Nf3 Nc6 or 1.Nf3
	// Nc6 2.e4 e5 …): arbiterd cannot verify which moves were made, so it
	// completes none of them, says so once, and follows the game on from
	// the board's position: the next moves complete, numbered on.
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.feed(h.g.Session(sec(2), "disconnected", "board"))
	h.press(3, W)
	h.press(4, B)
	h.press(5, W)
	h.press(6, B)
	h.feed(h.g.Session(sec(6.5), "connected", "board"))
	h.play(7, "e4", "e5", "Nf3", "Nc6")
	h.advance(10)
	h.wantCompleted(0, 0)
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	a := h.of(TypeAnomaly)[1]
	if !strings.Contains(a.Detail, "4 plies on") || !strings.Contains(a.Detail, "plies 1 to 4") || !strings.Contains(a.Detail, "several sequences") {
		t.Errorf("unverified-moves detail: %s", a.Detail)
	}
	if c := h.of(TypeComplete); len(c) != 0 {
		t.Fatalf("moves nobody saw were completed: %+v", c)
	}
	h.play(12, "Bb5")
	h.press(12.4, W)
	h.play(15, "a6")
	h.press(15.3, B)
	h.advance(20)
	h.wantCompleted(1, 1)
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	c := h.of(TypeComplete)
	if len(c) != 2 || c[0].Ply != 5 || c[0].SAN != "Bb5" || c[1].Ply != 6 || c[1].SAN != "a6" {
		t.Errorf("completions after the resync: %+v", c)
	}
	// A flag now gets no verdict on the short count.
	h.flag(30, W)
	h.advance(35)
	if f := h.of(TypeFlag); len(f) != 1 || f[0].Verdict != VerdictUnknown {
		t.Errorf("flag %+v", f)
	}
}

func TestResyncAPlyShownBeforeTheAbsenceIsNotVerified(t *testing.T) {
	// White's knight stood on f3 when the board went away, not pressed:
	// the piece may still have been on its way. Back from the absence the
	// board is three plies on. Nf3 is among the plies nobody saw made:
	// reported with them, never completed.
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.opening("e4", "e5")
	h.play(5, "Nf3")
	h.feed(h.g.Session(sec(6), "disconnected", "board"))
	h.press(7, W)
	h.press(8, B)
	h.press(9, W)
	h.press(10, B)
	h.feed(h.g.Session(sec(10.5), "connected", "board"))
	h.play(11, "Nc6", "Bb5", "a6")
	h.advance(15)
	h.wantCompleted(1, 1)
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	a := h.of(TypeAnomaly)[1]
	if a.Ply != 2 || a.Made != 4 || len(a.Plies) != 4 || a.Plies[0] != "Nf3" {
		t.Errorf("unverified-moves: verified ply %d, made %d, plies %v; want 2, 4, from Nf3", a.Ply, a.Made, a.Plies)
	}
	if !strings.Contains(a.Detail, "plies 3 to 6") {
		t.Errorf("unverified-moves detail: %s", a.Detail)
	}
	for _, c := range h.of(TypeComplete) {
		if c.Ply > 2 {
			t.Errorf("a ply nobody saw completed: %+v", c)
		}
	}
	h.play(16, "Ba4")
	h.press(16.4, W)
	h.advance(20)
	h.wantCompleted(2, 1)
}

func TestResyncToAMateEndsTheGame(t *testing.T) {
	// Back from a long absence the board shows a mate no sequence arbiterd
	// searches reaches, and White presses: the record is rebuilt from the
	// board, and the mate on it ends the game (5.1.1), though the moves
	// that led to it were not seen.
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.opening("e4", "e5")
	h.feed(h.g.Session(sec(4), "disconnected", "board"))
	h.feed(h.g.Session(sec(100), "connected", "board"))
	h.setBoard(101, "3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 30")
	h.press(102, W)
	h.advance(130)
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	e := h.of(TypeEnd)
	if len(e) != 1 || e[0].Result != "1-0" || e[0].Reason != "checkmate" {
		t.Errorf("end %+v, want 1-0 by checkmate", e)
	}
}

func TestTheTimeTheBoardWasNotReadIsNotTimeItShowedAPosition(t *testing.T) {
	// A spare queen set down on the board, then the board unplugged for a
	// minute. While it was not read nothing is said of how long it showed
	// the queen; read again, the board must show it for the full waits
	// from then on before the record is rebuilt from it (a minute without
	// a press), not at once because the minute away counted as shown.
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.opening("e4")
	h.put(5, "d5", chess.WhiteQueen)
	h.feed(h.g.Session(sec(6), "disconnected", "board"))
	h.feed(h.g.Session(sec(60), "connected", "board"))
	h.show(61)
	h.advance(120)
	h.wantAnomalies(KindBoardDisconnected)
	h.advance(125)
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	if a := h.of(TypeAnomaly)[1]; a.At < sec(121) {
		t.Errorf("record rebuilt at %v, before 2m1s: less than a minute after the board was read again", a.At)
	}
}

func TestResyncAPieceOnItsWayBeforeTheAbsenceIsNotAMove(t *testing.T) {
	// Black's queen was seen on f6, on her way to g5, when the board went
	// away; meanwhile Black pressed and White played d3 and pressed. The
	// board comes back showing Qg5 and d3. Qf6 then d3 then Qf6-g5 would
	// explain it too, but Qf6 was never completed: from the last verified
	// position the game is Qg5 d3, completed in order by their presses.
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.opening("e4", "e5", "Nf3")
	h.setBoard(5, "rnb1kbnr/pppp1ppp/5q2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
	h.feed(h.g.Session(sec(5.5), "disconnected", "board"))
	h.press(7, B)
	h.press(8, W)
	h.feed(h.g.Session(sec(8.5), "connected", "board"))
	h.setBoard(9, "rnb1kbnr/pppp1ppp/8/4p1q1/4P3/3P1N2/PPP2PPP/RNBQKB1R b KQkq - 0 3")
	h.advance(15)
	h.wantCompletions("1.e4 2.e5 3.Nf3 4.Qg5 5.d3")
	h.wantAnomalies(KindBoardDisconnected)
}

func TestTheEndDecidesAWaitingResyncOnce(t *testing.T) {
	// Back from an absence the board shows what no sequence reaches, and
	// the capture ends before the wait to rebuild the record from it is
	// over. The end decides every deadline at once: the record is rebuilt
	// from the board (reported), once. (The deadline used to be judged by
	// the stamp of the end, earlier than itself, so it fell due again and
	// again, a resync search each time, up to the loop's guard.)
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.opening("e4")
	h.feed(h.g.Session(sec(6), "disconnected", "board"))
	h.feed(h.g.Session(sec(60), "connected", "board"))
	h.put(61, "d5", chess.WhiteQueen)
	h.end(70)
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
}

func TestResyncOnePlyIsAMove(t *testing.T) {
	// One ply made while the board was away is one move, explained
	// unambiguously: its press, seen meanwhile, completes it.
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.feed(h.g.Session(sec(2), "disconnected", "board"))
	h.press(3, W)
	h.feed(h.g.Session(sec(3.5), "connected", "board"))
	h.play(4, "e4")
	h.advance(8)
	h.wantCompleted(1, 0)
	h.wantAnomalies(KindBoardDisconnected)
}

func TestSecondAbsenceIsSearchedAtOnce(t *testing.T) {
	// Back from a first absence, the board shows for a while a position
	// nothing reaches (a white pawn put on g1), then the real one, three
	// plies on: those are followed as unverified plies. The board goes
	// away again before any verified move; six plies later it is back.
	// The deep search reaches that position: arbiterd follows it a scan
	// lag after the board shows it, not after waiting as if the first
	// absence's unreachable position were still on the board.
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(2, "e4")
	h.press(2.2, W)
	away := func(from, back float64, sans ...string) {
		h.feed(h.g.Session(sec(from), "disconnected", "board"))
		for i, s := range sans {
			side := W
			if h.shadow.Position().Turn() == chess.Black {
				side = B
			}
			if err := h.shadow.MoveSAN(s); err != nil {
				t.Fatal(err)
			}
			h.press(from+0.5+float64(i)*0.5, side)
		}
		h.feed(h.g.Session(sec(back), "connected", "board"))
		h.board = rules.SnapshotOf(h.shadow.Position())
	}
	away(3, 6, "c5", "Nf3", "d6")
	h.put(6.5, "g1", chess.WhitePawn) // no legal position
	h.advance(9)
	h.put(9.5, "g1", chess.NoPiece)
	h.advance(12)
	if st := h.g.State(); !strings.HasPrefix(h.shadow.FEN(), strings.Join(strings.Fields(st.FEN)[:2], " ")) {
		t.Fatalf("after the first absence: record %s, board %s\n%s", st.FEN, h.shadow.FEN(), h.jsonl())
	}
	away(13, 17, "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6")
	h.show(17.5)
	h.advance(21)
	if st := h.g.State(); !strings.HasPrefix(h.shadow.FEN(), strings.Join(strings.Fields(st.FEN)[:2], " ")) {
		t.Errorf("3.5 s after the second absence: record %s, board %s\n%s", st.FEN, h.shadow.FEN(), h.jsonl())
	}
}

func TestAPressAtTheDisconnectionsStampIsFromBeforeTheAbsence(t *testing.T) {
	// Black put the queen on g5 and pressed; the daemon was killed right
	// after, and the recovered journal stamps the disconnection at its last
	// record: the press. While it was down, 3.Nc3 Nc6 4.Bc4 Qh4 were played.
	// The press was read before the board went away, so Qg5 is pressed: the
	// board comes back four plies on from it, White to move, as the clock
	// says. Explained from below Qg5, four plies would do too (the queen
	// going d8-h4 at once) with Black to move, against the clock, and
	// White's next move would read as a second move in a row.
	h := queenOnG5Harness(t, true, 6)
	h.clock(clockd.ClockEvent{Kind: clockd.Running, At: sec(20.5), Side: W})
	h.advance(24)
	h.play(25, "d3")
	h.press(25.5, W)
	h.advance(30)
	h.wantCompletions("1.e4 2.e5 3.Nf3 4.Qg5 9.d3")
	h.wantUnverified(4, 4)
}

func TestThePressOfTheNextMoveAfterAnAbsenceCompletesIt(t *testing.T) {
	// As above, but Black's 2...Qg5 was pressed before the daemon was
	// killed: the four plies to the position read (3.Nc3 Nc6 4.Bc4 Qh4)
	// leave White to move, as the clock says after 5.d3. They are laid
	// unverified; White's press, read after the board showed that position,
	// is d3's and completes it, with no alarm of a move without a press.
	h := queenOnG5Harness(t, true, 6.5)
	h.clock(clockd.ClockEvent{Kind: clockd.Running, At: sec(21), Side: W})
	h.play(21, "d3")
	h.press(21, W)
	h.advance(24)
	h.play(25, "a6")
	h.press(25.5, B)
	h.advance(30)
	h.wantCompletions("1.e4 2.e5 3.Nf3 4.Qg5 9.d3 10.a6")
	h.wantUnverified(4, 4)
}
