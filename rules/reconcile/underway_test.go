package reconcile

import (
	"testing"

	"github.com/arbiterd/arbiterd/clockd"
)

func TestBoardFirstReadWithTheGameUnderWay(t *testing.T) {
	// The daemon is killed before it read the board; restarted, it reads
	// the board first after 1.e4 e5 were made and pressed. Those two plies
	// were not seen: reported as unverified, not completed. The game goes on
	// from them, and the presses read before the board showed the game are
	// never judged as presses without a move.
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.start(0.5)
	h.feed(h.g.Session(sec(0.9), "disconnected", "board"))
	h.unseen("e4", "e5")
	h.dump(5.2)
	h.feed(h.g.Session(sec(5.3), "connected", "board"))
	h.clock(clockd.ClockEvent{Kind: clockd.Running, At: sec(5.5), Side: W})
	h.play(7.8, "f4")
	h.press(8.1, W)
	h.play(9.7, "exf4")
	h.press(10.4, B)
	h.play(11.5, "Bc4")
	h.press(12.1, W)
	h.advance(20)
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	for san, ply := range map[string]int{"f4": 3, "exf4": 4, "Bc4": 5} {
		if got := h.completedAt(san); got != ply {
			t.Errorf("%s completed at ply %d, want %d\n%s", san, got, ply, h.jsonl())
		}
	}
}

func TestPressesBeforeTheBoardShowsTheGameAreNotJudged(t *testing.T) {
	// The clock runs and is pressed while the board shows no game arbiterd
	// can follow (pieces still being set up): nothing is there to judge
	// the presses against, so none is a press without a move (7.5.3), then
	// or once the start position is set up.
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.setBoard(0, "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1")
	h.start(0.5)
	h.press(2, W)
	h.press(3, B)
	h.advance(15)
	h.wantAnomalies(KindUnexplainedPosition)
	h.setBoard(20, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
	h.play(25, "e4")
	h.press(25.2, W)
	h.advance(30)
	h.wantAnomalies(KindUnexplainedPosition)
	h.wantCompleted(1, 0)
}

func TestAFlagBeforeTheBoardShowsTheGameIsNotJudged(t *testing.T) {
	// arbiterd started with the game far on: the board shows a position
	// it cannot follow from the start, so it has no count of completed
	// moves and no position. A flag then is no loss on a count of zero.
	h := newHarness(t, Config{TimeControl: mustTC(t, "2/60:60")})
	h.setBoard(0, "r4rk1/pp2qppp/2n1bn2/2bpp3/4P3/2NP1N2/PPPBBPPP/R2Q1RK1 w - - 4 10")
	h.start(0.5)
	h.press(2, W)
	h.press(3, B)
	h.flag(61, W)
	h.advance(80)
	f := h.of(TypeFlag)
	if len(f) != 1 || f[0].Verdict != VerdictUnknown || f[0].OpponentCanMate != MateUnknown {
		t.Fatalf("flag %+v, want verdict unknown", f)
	}
	if e := h.of(TypeEnd); len(e) != 0 {
		t.Errorf("the game was ended: %+v", e)
	}
}
