package reconcile

import (
	"strings"
	"testing"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules"
)

func TestGapTooLongToReconstruct(t *testing.T) {
	// The board was away for six plies, more than the search between
	// scans reaches: a deeper search finds how many, arbiterd says which
	// plies it cannot verify, judges no press as an illegal move, gives no
	// flag verdict on the short count — and follows the game on: the moves
	// after the absence complete again, numbered on.
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(2, "d4")
	h.press(2.2, W)
	h.play(3, "d5")
	h.press(3.2, B)
	h.feed(h.g.Session(sec(4), "disconnected", "board"))
	for i := 0; i < 6; i++ {
		h.press(5+float64(i), clockd.Side(i%2))
	}
	h.feed(h.g.Session(sec(12), "connected", "board"))
	h.play(12.5, "c4", "e6", "Nc3", "Nf6", "Bg5", "Be7")
	h.play(15, "e3")
	h.press(15.5, W)
	h.play(17, "O-O")
	h.press(17.5, B)
	h.advance(20)
	h.flag(30, W)
	h.advance(40)
	h.wantCompleted(2, 2)
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	a := h.of(TypeAnomaly)[1]
	if !strings.Contains(a.Detail, "after ply 2") || !strings.Contains(a.Detail, "plies 3 to 8") {
		t.Errorf("unverified-moves detail: %s", a.Detail)
	}
	c := h.of(TypeComplete)
	if len(c) != 4 || c[2].Ply != 9 || c[2].SAN != "e3" || c[3].Ply != 10 || c[3].SAN != "O-O" {
		t.Errorf("completions %+v", c)
	}
	f := h.of(TypeFlag)
	if len(f) != 1 || f[0].Verdict != VerdictUnknown || !strings.Contains(string(f[0].Reason), "could not be verified") {
		t.Fatalf("flag %+v", f)
	}
	if len(h.of(TypeEnd)) != 0 {
		t.Error("the game was ended on an unverified count")
	}
}

func TestGapBeyondTheDeepSearchRebuildsTheRecord(t *testing.T) {
	// Ten plies while the board was away: no search reaches the position,
	// so arbiterd rebuilds its record from the board and follows the game
	// on: once the position has stood for UnexplainedAfter with a press
	// made while it stood (TestGapBeyondTheDeepSearchStoodStill), or, as
	// here, as soon as the board shows it with one legal move made — a
	// piece in the hand is put down, not moved, so the position was real.
	h := gapBeyondTheDeepSearch(t)
	h.advance(27)
	h.wantAnomalies(KindBoardDisconnected)
	h.play(28, "e5")
	h.press(28.4, B)
	h.advance(30)
	h.wantRebuiltAfterPly1("then showed a move made")
	h.play(40, "f3")
	h.press(40.3, W)
	h.play(43, "Nc6")
	h.press(43.2, B)
	h.advance(50)
	h.wantCompleted(2, 2) // e4, then e5, f3 and Nc6
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	c := h.of(TypeComplete)
	// e5 is the move the board showed made from the rebuilt position, by
	// Black, completed by its press; the fewest plies that fit are
	// numbered before it: at least 9, and an odd number since e4 was ply 1
	// and Black is to move.
	if len(c) != 4 || c[1].SAN != "e5" || c[1].By != ByPress || c[1].Ply%2 != 0 || c[1].Ply < 12 ||
		c[2].SAN != "f3" || c[2].Ply != c[1].Ply+1 || c[3].SAN != "Nc6" || c[3].Ply != c[2].Ply+1 {
		t.Errorf("completions %+v", c)
	}
	if st := h.g.State(); st.FEN != h.shadow.FEN() && !strings.HasPrefix(h.shadow.FEN(), strings.Join(strings.Fields(st.FEN)[:3], " ")) {
		t.Errorf("record %s, board %s", st.FEN, h.shadow.FEN())
	}
}

func TestGapBeyondTheDeepSearchStoodStill(t *testing.T) {
	// The same return; the board stands still, and nobody presses.
	// Rebuilding the record is final, and a piece held in a hand looks the
	// same: the position must stand for UnexplainedAfter with a press made
	// while it stood (the player had finished the move), or six times as
	// long without one.
	h := gapBeyondTheDeepSearch(t)
	h.advance(70)
	h.wantAnomalies(KindBoardDisconnected)
	h.advance(76)
	h.wantRebuiltAfterPly1("position the board shows")
	h.play(80, "e5")
	h.press(80.3, B)
	h.play(83, "f3")
	h.press(83.2, W)
	h.advance(90)
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	if got := h.completedAt("e5"); got < 12 || got%2 != 0 {
		t.Errorf("e5 completed at ply %d, want an even ply from 12 on\n%s", got, h.jsonl())
	}
	if h.completedAt("f3") != h.completedAt("e5")+1 {
		t.Errorf("f3 at ply %d after e5 at %d", h.completedAt("f3"), h.completedAt("e5"))
	}
}

// wantRebuiltAfterPly1 checks that the record was rebuilt from the board
// after the gap of gapBeyondTheDeepSearch: the disconnection and the
// unverified-moves anomaly, from ply 1, saying why (phrase).
func (h *harness) wantRebuiltAfterPly1(phrase string) {
	h.t.Helper()
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	if a := h.of(TypeAnomaly)[1]; !strings.Contains(a.Detail, "after ply 1") || !strings.Contains(a.Detail, phrase) {
		h.t.Errorf("unverified-moves detail: %s", a.Detail)
	}
}

// gapBeyondTheDeepSearch plays 1.e4, takes the board away for ten plies
// (10...Be3, every one pressed) and shows it again at 15.5 s.
func gapBeyondTheDeepSearch(t *testing.T) *harness {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(2, "e4")
	h.press(2.2, W)
	h.feed(h.g.Session(sec(3), "disconnected", "board"))
	sans := []string{"c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6", "Be3"}
	for i, s := range sans {
		if err := h.shadow.MoveSAN(s); err != nil {
			t.Fatal(err)
		}
		h.press(4+float64(i), clockd.Side((i+1)%2))
	}
	h.feed(h.g.Session(sec(15), "connected", "board"))
	h.board = rules.SnapshotOf(h.shadow.Position())
	h.show(15.5)
	return h
}

// immortal18 is the Immortal Game before 18.Bd6: lifting the bishop from
// f4 leaves a board that four plies also explain (18.Bc1 Qa3 19.Bb2 Qxb2,
// the bishop captured on b2).
const immortal18 = "rnb1k1nr/p2p1ppp/8/1pbN1N1P/4PBP1/3P1Q2/PqP5/R4KR1 w kq - 0 18"
