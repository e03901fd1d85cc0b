package reconcile

import (
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
)

// A clock that adds the next period at a flag reports the flag together
// with the new period's time. Whichever order the two events come in, the
// flag is judged in the period the interpreter names (the one whose time
// ran out), not in the period the clock shows afterwards: after 40
// completed moves it is no loss and play goes on (6.3.1).
func TestFlagJudgedInThePeriodWhoseTimeRanOut(t *testing.T) {
	for _, flagFirst := range []bool{true, false} {
		h := newHarness(t, Config{StartFEN: "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 41",
			TimeControl: mustTC(t, standardTC), Oracle: fixedOracle{"yes", []string{"d8h4"}}})
		h.show(0)
		h.start(1)
		h.play(10, "Bb5")
		h.press(10.5, W) // White's 41st completed move
		h.play(20, "a6")
		h.press(20.5, B)
		h.tick(40)
		flag := clockd.ClockEvent{Kind: clockd.Flag, At: sec(40), Side: W, Period: 1}
		if flagFirst {
			h.clock(flag)
			h.addPeriod(40, W, 2, 1800*time.Second)
		} else {
			h.addPeriod(40, W, 2, 1800*time.Second)
			h.clock(flag)
		}
		h.advance(43)
		h.play(50, "Ba4")
		h.press(50.5, W)
		h.advance(55)
		h.wantAnomalies()
		h.wantCompleted(42, 41)
		f := h.of(TypeFlag)
		if len(f) != 1 || f[0].Verdict != VerdictNone || f[0].Period != 1 || !f[0].ControlReached {
			t.Errorf("flag first %v: flag = %+v, want verdict none in period 1", flagFirst, f)
		}
	}
}
