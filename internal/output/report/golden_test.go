package report

import (
	"github.com/arbiterd/arbiterd/internal/testkit/golden"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// everyIncident is a report with an incident of every type the report
// lists, and acknowledgements with and without an arbiter's name.
func everyIncident(t *testing.T) *Report {
	t.Helper()
	tc, err := clockd.ParseTimeControl("40/5400+30:1800+30")
	if err != nil {
		t.Fatal(err)
	}
	r := &Report{Board: "12", White: "Anand, V", Black: "Carlsen, M", TimeControl: tc}
	s := time.Second
	r.Add(reconcile.Event{Type: reconcile.TypeSession, Port: "/dev/ttyUSB0", State: reconcile.StateDisconnected, At: 610500 * time.Millisecond})
	r.Add(reconcile.Event{Type: reconcile.TypeSession, Port: "/dev/ttyUSB0", State: reconcile.StateResync, At: 615 * s})
	r.Add(reconcile.Event{Type: reconcile.TypeRetract, Reason: reconcile.ReasonTakeback, Ply: 31, At: 1800 * s})
	r.Add(reconcile.Event{Type: reconcile.TypeComplete, Ply: 75, Side: clockd.White, Moves: reconcile.Moves{White: 38, Black: 37},
		Clock: clockd.Times{White: 2 * s, Black: 611 * s}, At: 5321 * s})
	r.Add(reconcile.Event{Type: reconcile.TypeAnomaly, Seq: 9, Kind: reconcile.KindPressWithoutMove, Side: clockd.Black, Article: "7.5.3",
		Detail: "Black pressed the clock but no move appeared.", At: 5330 * s})
	r.Ack(5340*s, 9, string(reconcile.KindPressWithoutMove), "")
	r.Add(reconcile.Event{Type: reconcile.TypePause, State: reconcile.StateStopped, Article: "6.11", Reason: "The clock was stopped.", At: 5341 * s})
	r.Add(reconcile.Event{Type: reconcile.TypeAdjust, Side: clockd.White, From: 2 * s, To: 122 * s, Delta: 2 * time.Minute,
		Article: "7.5.5", Reason: "the 2 minutes White gets", Closes: []int{9}, At: 5350 * s})
	r.Add(reconcile.Event{Type: reconcile.TypePause, State: reconcile.StateRunning, Reason: "The clock runs again.", At: 5351 * s})
	r.Add(reconcile.Event{Type: reconcile.TypeAnomaly, Kind: reconcile.KindPressWithoutMove, NoSide: true, Detail: "A press nobody made.", At: 5352 * s})
	r.Add(reconcile.Event{Type: reconcile.TypeClaim, Side: clockd.Black, Article: "9.2", OpponentCanMate: reconcile.MateYes, Arbiter: "Ana",
		Reason: "Black claims a draw by repetition.", At: 5360 * s})
	r.Add(reconcile.Event{Type: reconcile.TypeDecision, Decision: reconcile.DecisionRejected, Side: clockd.Black, Claim: 14, Article: "10.2",
		Reason: "The arbiter rejected Black's claim.", At: 5370 * s})
	r.Ack(5371*s, 15, "decision", "Ana")
	r.Add(reconcile.Event{Type: reconcile.TypePeriod, Side: clockd.White, Period: 2, Added: 30 * time.Minute, At: 5380 * s})
	r.Add(reconcile.Event{Type: reconcile.TypeFlag, Side: clockd.Black, Period: 1, MovesCompleted: 37, MovesRequired: 40,
		OpponentCanMate: reconcile.MateYes, MateLine: []string{"a1a8"}, Verdict: reconcile.VerdictLoss, Article: "6.9",
		Reason: "Black's flag fell after 37 completed moves.", Clock: clockd.Times{White: 1800 * s}, At: 5388 * s})
	r.Add(reconcile.Event{Type: reconcile.TypeFlag, Side: clockd.White, Period: 2, MovesCompleted: 60, MovesRequired: 0, ControlReached: false,
		OpponentCanMate: reconcile.MateNo, Verdict: reconcile.VerdictDraw, Article: "6.9", Reason: "White's flag fell; Black cannot mate.", At: 9000 * s})
	r.Add(reconcile.Event{Type: reconcile.TypeEnd, Result: "1/2-1/2", Reason: "dead position", Article: "5.2.2", At: 9001 * s})
	r.Ack(9002*s, 30, "flag", "")
	return r
}

// TestReportGolden pins the report of every incident type, in English and
// in Spanish (the events' own sentences stay as the events have them).
func TestReportGolden(t *testing.T) {
	for _, c := range []struct {
		p    *i18n.Printer
		file string
	}{{nil, "report.en.golden"}, {i18n.Spanish, "report.es.golden"}} {
		r := everyIncident(t)
		r.Printer = c.p
		var b strings.Builder
		if err := r.Write(&b); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, c.file, b.String())
	}
}
