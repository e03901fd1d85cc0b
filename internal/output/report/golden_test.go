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
	// The events' texts; their English here is shortened in detail and
	// reason (the English report prints those), and one anomaly has none
	// (a stream written before events had texts: shown as it came).
	tx := func(code string, args ...any) reconcile.Text { return reconcile.Text{Code: code, Args: args} }
	white, black := tx(reconcile.TextWhite), tx(reconcile.TextBlack)
	whites, blacks := tx(reconcile.TextWhitePossessive), tx(reconcile.TextBlackPossessive)
	twoMinutes := tx(reconcile.TextMinutes, 2)
	first := tx(reconcile.TextPeriodNames[0])
	r.Add(reconcile.Event{Type: reconcile.TypeSession, Port: "/dev/ttyUSB0", State: reconcile.StateDisconnected, At: 610500 * time.Millisecond})
	r.Add(reconcile.Event{Type: reconcile.TypeSession, Port: "/dev/ttyUSB0", State: reconcile.StateResync, At: 615 * s})
	r.Add(reconcile.Event{Type: reconcile.TypeRetract, Reason: reconcile.ReasonTakeback, Ply: 31, At: 1800 * s})
	r.Add(reconcile.Event{Type: reconcile.TypeComplete, Ply: 75, Side: clockd.White, Moves: reconcile.Moves{White: 38, Black: 37},
		Clock: clockd.Times{White: 2 * s, Black: 611 * s}, At: 5321 * s})
	r.Add(reconcile.Event{Type: reconcile.TypeAnomaly, Seq: 9, Kind: reconcile.KindPressWithoutMove, Side: clockd.Black, Article: "7.5.3",
		Detail: "Black pressed the clock but no move appeared.", At: 5330 * s,
		Text: tx(reconcile.TextPressWithoutMove, black, tx(reconcile.TextWhen, tx(reconcile.TextWhenAfter, "38.Qe2"), "0:00:02", "0:10:11"), blacks,
			tx(reconcile.TextPenaltyFirst, blacks, twoMinutes, whites, "7.5.5"))})
	r.Ack(5340*s, 9, string(reconcile.KindPressWithoutMove), "")
	r.Add(reconcile.Event{Type: reconcile.TypePause, State: reconcile.StateStopped, Article: "6.11", Reason: "The clock was stopped.", At: 5341 * s,
		Text: tx(reconcile.TextPauseStopped, "0:00:02", "0:10:11", tx(reconcile.TextPauseToSettle, tx(reconcile.TextIncidentPress, blacks)))})
	r.Add(reconcile.Event{Type: reconcile.TypeAdjust, Side: clockd.White, From: 2 * s, To: 122 * s, Delta: 2 * time.Minute,
		Article: "7.5.5", Reason: "the 2 minutes White gets", Closes: []int{9}, At: 5350 * s,
		Text: tx(reconcile.TextAdjustFits, whites, "+2:00", "0:00:02", "0:02:02", tx(reconcile.TextIncidentPenalty, twoMinutes, white, blacks), "7.5.5")})
	r.Add(reconcile.Event{Type: reconcile.TypePause, State: reconcile.StateRunning, Reason: "The clock runs again.", At: 5351 * s,
		Text: tx(reconcile.TextPauseRunning, "0:02:02", "0:10:11")})
	r.Add(reconcile.Event{Type: reconcile.TypeAnomaly, Kind: reconcile.KindPressWithoutMove, NoSide: true, Detail: "A press nobody made.", At: 5352 * s})
	r.Add(reconcile.Event{Type: reconcile.TypeClaim, Side: clockd.Black, Article: "9.2", OpponentCanMate: reconcile.MateYes, Arbiter: "Ana",
		Reason: "Black claims a draw by repetition.", At: 5360 * s,
		Text: tx(reconcile.TextClaim, black, "0:02:02", "0:09:40", "8/8/8/8/8/5k2/8/R5K1 b - - 4 39", 4, tx(reconcile.TextMinutes, 5), "38.Qe2 38...Kf3",
			tx(reconcile.TextClaimMateYes, white, "a1a8", white))})
	r.Add(reconcile.Event{Type: reconcile.TypeDecision, Decision: reconcile.DecisionRejected, Side: clockd.Black, Claim: 14, Article: "10.2",
		Reason: "The arbiter rejected Black's claim.", At: 5370 * s,
		Text: tx(reconcile.TextDecisionRejected, blacks, whites)})
	r.Ack(5371*s, 15, "decision", "Ana")
	r.Add(reconcile.Event{Type: reconcile.TypePeriod, Side: clockd.White, Period: 2, Added: 30 * time.Minute, At: 5380 * s})
	r.Add(reconcile.Event{Type: reconcile.TypeFlag, Side: clockd.Black, Period: 1, MovesCompleted: 37, MovesRequired: 40,
		OpponentCanMate: reconcile.MateYes, MateLine: []string{"a1a8"}, Verdict: reconcile.VerdictLoss, Article: "6.9",
		Reason: "Black's flag fell after 37 completed moves.", Clock: clockd.Times{White: 1800 * s}, At: 5388 * s,
		Text: tx(reconcile.TextFlagVerdict, tx(reconcile.TextFlagWhere, blacks, first, 37), tx(reconcile.TextFlagRequires, first, 40), "",
			tx(reconcile.TextMateYes, white, black, ""))})
	r.Add(reconcile.Event{Type: reconcile.TypeFlag, Side: clockd.White, Period: 2, MovesCompleted: 60, MovesRequired: 0, ControlReached: false,
		OpponentCanMate: reconcile.MateNo, Verdict: reconcile.VerdictDraw, Article: "6.9", Reason: "White's flag fell; Black cannot mate.", At: 9000 * s,
		Text: tx(reconcile.TextFlagVerdict, tx(reconcile.TextFlagWhereLast, whites, 60), "", "", tx(reconcile.TextMateNo, black, ""))})
	r.Add(reconcile.Event{Type: reconcile.TypeEnd, Result: "1/2-1/2", Reason: "dead position", Article: "5.2.2", At: 9001 * s})
	r.Ack(9002*s, 30, "flag", "")
	return r
}

// TestReportGolden pins the report of every incident type, in English and
// in Spanish (the events' sentences from their texts; English prints
// their detail and reason).
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
