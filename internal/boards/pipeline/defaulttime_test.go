package pipeline

import (
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// The capture's default-time meta (6.7.1) reaches the reconciliation: a
// Black who takes longer than the default time over the reply is named for
// the arbiter to check presence, once, through a real DGT byte stream.
func TestDefaultTimeFromTheCapture(t *testing.T) {
	think := func(ply int) time.Duration {
		if ply == 2 {
			return 90 * time.Second // Black "arrives" late
		}
		return 5 * time.Second
	}
	capt := captureOf(t, emulator.Config{Game: strings.Fields("e4 e5 Nf3 Nc6"), Periods: []emulator.Period{{Time: 900 * time.Second}}, ThinkTime: think},
		"timecontrol=900", "default-time=60")
	evs, _ := replayAll(t, capt)
	var got []reconcile.Event
	for _, e := range evs {
		if e.Type == reconcile.TypeAnomaly && e.Kind != reconcile.KindClockStopped {
			got = append(got, e)
		}
	}
	if len(got) != 1 || got[0].Kind != reconcile.KindDefaultTime || got[0].Side.String() != "black" || got[0].Article != "6.7.1" {
		t.Fatalf("anomalies:\n%s\nwant one default-time for Black (6.7.1)", jsonl(got))
	}
	// Without the meta, nothing is checked.
	capt = captureOf(t, emulator.Config{Game: strings.Fields("e4 e5 Nf3 Nc6"), Periods: []emulator.Period{{Time: 900 * time.Second}}, ThinkTime: think},
		"timecontrol=900")
	evs, _ = replayAll(t, capt)
	for _, e := range evs {
		if e.Kind == reconcile.KindDefaultTime {
			t.Errorf("default-time anomaly without a default time: %s", reconcile.Marshal(e))
		}
	}
}

func TestBadDefaultTimeMeta(t *testing.T) {
	capt := "#capture v1\n#port board dgt\n#meta default-time=half an hour\n0.000000 board r 8e\n"
	_, err := Replay(strings.NewReader(capt), Options{}, func(reconcile.Event) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "line 3") || !strings.Contains(err.Error(), "default-time") {
		t.Fatalf("error %v, want one naming line 3 and default-time", err)
	}
}
