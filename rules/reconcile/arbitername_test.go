package reconcile

import (
	"strings"
	"testing"
)

// A claim and a decision name the arbiter who recorded them, as the last
// member of their events; without a name the events are as they always
// were.
func TestClaimAndDecisionNameTheArbiter(t *testing.T) {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(5, "e4")
	h.press(5.5, W)
	h.advance(10)
	h.feed(h.g.Arbiter(sec(12), ArbiterAction{Kind: ActClaim, Side: W, Arbiter: "Anna Novak"}))
	c := h.of(TypeClaim)[0]
	if js := string(Marshal(c)); c.Arbiter != "Anna Novak" || !strings.HasSuffix(js, `,"arbiter":"Anna Novak"}`) {
		t.Errorf("claim %s: want the arbiter last", js)
	}
	h.feed(h.g.Arbiter(sec(13), ArbiterAction{Kind: ActDecide, Claim: c.Seq, Decision: DecisionPostponed}))
	d := h.of(TypeDecision)[0]
	if js := string(Marshal(d)); d.Arbiter != "" || strings.Contains(js, `"arbiter":`) {
		t.Errorf("decision without a name %s: want no arbiter member", js)
	}
	h.feed(h.g.Arbiter(sec(14), ArbiterAction{Kind: ActDecide, Claim: c.Seq, Decision: DecisionAccepted, Arbiter: "J. Smith"}))
	d = h.of(TypeDecision)[1]
	if js := string(Marshal(d)); !strings.HasSuffix(js, `,"arbiter":"J. Smith"}`) {
		t.Errorf("decision %s: want the arbiter last", js)
	}
	for _, e := range h.of(TypeEnd) {
		if e.Arbiter != "" {
			t.Errorf("end %s names an arbiter", Marshal(e))
		}
	}
}
