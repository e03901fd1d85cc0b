package reconcile

import (
	"strings"
	"testing"

	"github.com/arbiterd/arbiterd/clockd"
)

// A clock reset mid-game (the interpreter's Reset) is told to the arbiter
// once, with the times to set back; it begins no period and raises no
// counter alarm, and the record and the counts stand.
func TestClockResetMidGame(t *testing.T) {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(5, "e4")
	h.press(5.5, W)
	h.play(9, "e5")
	h.press(9.5, B)
	h.clock(clockd.ClockEvent{Kind: clockd.Stopped, At: sec(12)})
	h.clock(clockd.ClockEvent{Kind: clockd.Reset, At: sec(15), Period: 1})
	h.clock(clockd.ClockEvent{Kind: clockd.Started, At: sec(20)})
	h.play(25, "Nf3")
	h.press(25.5, W)
	h.advance(30)
	h.wantCompleted(2, 1)
	var resets int
	for _, e := range h.of(TypeAnomaly) {
		if e.Kind == KindClockReading && strings.Contains(e.Detail, "reset") {
			resets++
		}
	}
	if resets != 1 {
		t.Errorf("%d clock-reset alerts, want 1: %v", resets, h.anomalies())
	}
	if p := h.of(TypePeriod); len(p) != 0 {
		t.Errorf("period events %+v, want none", p)
	}
}
