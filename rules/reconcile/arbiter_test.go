package reconcile

import (
	"testing"
	"time"
)

func TestArbiterActions(t *testing.T) {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(3, "e4")
	h.press(3.2, W)
	h.play(5, "e5")
	h.press(5.2, B)
	h.advance(8)
	h.feed(h.g.Arbiter(sec(9), ArbiterAction{Kind: ActTakeBack, Ply: 1}))
	h.wantCompleted(1, 0)
	if r := h.of(TypeRetract); len(r) != 1 || r[0].Reason != ReasonTakeback || r[0].Ply != 2 {
		t.Fatalf("retract = %+v", r)
	}
	h.feed(h.g.Arbiter(sec(10), ArbiterAction{Kind: ActTakeBack, Ply: 7}))
	h.feed(h.g.Arbiter(sec(11), ArbiterAction{Kind: ActSetClock, Side: B, Time: 5000 * time.Second}))
	if c := h.g.State().Clock; c.Black != 5000*time.Second {
		t.Errorf("clock %+v", c)
	}
	h.feed(h.g.Arbiter(sec(12), ArbiterAction{Kind: ActSetClock, Side: B, Time: -1}))
	h.feed(h.g.Arbiter(sec(13), ArbiterAction{Kind: 99}))
	h.feed(h.g.Session(sec(14), "sleeping", "board"))
	h.wantAnomalies(KindBadInput, KindBadInput, KindBadInput, KindBadInput)
}
