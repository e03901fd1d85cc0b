package pipeline

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// insertAfter puts line into a capture after the last data line at or
// before at, as the live journal writes a marker between reads.
func insertAfter(capt []byte, at time.Duration, line string) []byte {
	var out bytes.Buffer
	done := false
	for _, l := range strings.SplitAfter(string(capt), "\n") {
		if !done && l != "" && l[0] != '#' {
			if f := strings.Fields(l); len(f) > 0 {
				if t, err := capture.ParseSeconds(f[0]); err == nil && t > at {
					out.WriteString(line + "\n")
					done = true
				}
			}
		}
		out.WriteString(l)
	}
	if !done {
		out.WriteString(line + "\n")
	}
	return out.Bytes()
}

// A claim and the arbiter's decision, recorded in the capture as arbiter
// markers, replay to the same claim and decision events.
func TestArbiterMarkersReplay(t *testing.T) {
	capt := captureOf(t, emulator.Config{Game: strings.Fields("e4 e5 Nf3 Nc6 Bb5 a6"), Periods: []emulator.Period{{Time: 300 * time.Second}},
		ThinkTime: func(int) time.Duration { return 6 * time.Second }}, "timecontrol=300")
	capt = insertAfter(capt, 20*time.Second, "#"+FormatClaimMarker(20*time.Second, 1))
	evs, _ := replayAll(t, capt)
	var claim reconcile.Event
	for _, e := range evs {
		if e.Type == reconcile.TypeClaim {
			claim = e
		}
	}
	if claim.Seq == 0 || claim.Side.String() != "black" || claim.At != 20*time.Second || claim.FEN == "" {
		t.Fatalf("claim %s", reconcile.Marshal(claim))
	}
	capt = insertAfter(capt, 25*time.Second, "#"+FormatDecisionMarker(25*time.Second, claim.Seq, reconcile.DecisionAccepted))
	evs, _ = replayAll(t, capt)
	var dec, end reconcile.Event
	for _, e := range evs {
		switch e.Type {
		case reconcile.TypeDecision:
			dec = e
		case reconcile.TypeEnd:
			end = e
		}
	}
	if dec.Claim != claim.Seq || dec.Decision != reconcile.DecisionAccepted || end.Result != "1/2-1/2" || end.Reason != "claim" {
		t.Errorf("decision %s, end %s", reconcile.Marshal(dec), reconcile.Marshal(end))
	}
	// the same capture, the same events
	again, _ := replayAll(t, capt)
	if !bytes.Equal(jsonl(evs), jsonl(again)) {
		t.Error("replay of the arbiter markers is not deterministic")
	}
}

func TestBadArbiterMarker(t *testing.T) {
	for _, m := range []string{"arbiter 1.000000 claim grey", "arbiter x claim white", "arbiter 1.000000 decide 0 accepted",
		"arbiter 1.000000 decide 5 maybe", "arbiter 1.000000 resign white"} {
		capt := fmt.Sprintf("#capture v1\n#port board dgt\n#%s\n", m)
		_, err := Replay(strings.NewReader(capt), Options{}, func(reconcile.Event) error { return nil })
		if err == nil || !strings.Contains(err.Error(), "line 3") || !strings.Contains(err.Error(), "arbiter marker") {
			t.Errorf("%q: error %v, want one naming line 3 and the arbiter marker", m, err)
		}
	}
}

// The arbiter's name in a marker reaches the claim and decision events;
// an acknowledgement marker gives no event, changes none, and is kept for
// the incident report.
func TestArbiterMarkersNameTheArbiter(t *testing.T) {
	capt := captureOf(t, emulator.Config{Game: strings.Fields("e4 e5 Nf3 Nc6 Bb5 a6"), Periods: []emulator.Period{{Time: 300 * time.Second}},
		ThinkTime: func(int) time.Duration { return 6 * time.Second }}, "timecontrol=300")
	plain, _ := replayAll(t, capt)
	acked := insertAfter(capt, 21*time.Second, "#"+capture.MarkerText(capture.Ack(21*time.Second, 3, "claim", "Anna Novak")))
	withAck, p := replayAll(t, acked)
	if !bytes.Equal(jsonl(plain), jsonl(withAck)) {
		t.Error("an acknowledgement marker changed the events")
	}
	if acks := p.Acks(); len(acks) != 1 || acks[0].Claim != 3 || acks[0].Alert != "claim" || acks[0].Arbiter != "Anna Novak" || acks[0].At != 21*time.Second {
		t.Errorf("acks %+v", acks)
	}
	named := insertAfter(capt, 20*time.Second, "#"+capture.MarkerText(capture.Claim(20*time.Second, "white", "Anna Novak")))
	evs, _ := replayAll(t, named)
	for _, e := range evs {
		if e.Type == reconcile.TypeClaim && e.Arbiter != "Anna Novak" {
			t.Errorf("claim %s: want Anna Novak", reconcile.Marshal(e))
		}
	}
	if count(evs, reconcile.TypeClaim) != 1 {
		t.Errorf("%d claims", count(evs, reconcile.TypeClaim))
	}
}
