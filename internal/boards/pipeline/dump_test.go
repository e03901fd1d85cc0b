package pipeline

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/driver/drivertest"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// A board dump that contradicts the image the field updates built means
// updates were lost: plies arbiterd did not see. The pipeline hands a
// dump to the reconciliation as such (Game.Dump), so four unseen plies
// that several move orders explain are reported as unverified, never
// completed as a guess, and the game is followed on from the dump.
func TestDumpContradictingTheImageIsAnAbsence(t *testing.T) {
	var buf bytes.Buffer
	w, err := capture.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(w.Port("board", "dgt"))
	must(w.Meta("timecontrol", "40/5400+30:1800+30"))
	must(w.Data(0, "board", capture.Read, drivertest.DGTBoardDump(drivertest.DGTStartPosition())))
	// The field updates of 1.e4 e5 2.Nf3 Nc6 were lost; the next poll's
	// dump shows the position after them.
	after, err := drivertest.DGTFields("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R")
	must(err)
	must(w.Data(20*time.Second, "board", capture.Read, drivertest.DGTBoardDump(after)))
	must(w.Data(30*time.Second, "board", capture.Read, drivertest.DGTBoardDump(after)))
	evs, _ := replayAll(t, buf.Bytes())
	unverified := 0
	for _, e := range evs {
		switch {
		case e.Type == reconcile.TypeComplete:
			t.Errorf("a move nobody saw was completed: %s", reconcile.Marshal(e))
		case e.Type == reconcile.TypeAnomaly && e.Kind == reconcile.KindUnverified:
			unverified++
		case e.Type == reconcile.TypeAnomaly:
			t.Errorf("unexpected anomaly: %s", reconcile.Marshal(e))
		}
	}
	if unverified != 1 {
		t.Errorf("%d unverified-moves anomalies, want 1:\n%s", unverified, jsonl(evs))
	}
	if !strings.Contains(string(jsonl(evs)), "plies 1 to 4") {
		t.Errorf("the report does not name plies 1 to 4:\n%s", jsonl(evs))
	}
}
