package report

import (
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

func TestReportNamesCountsIncidentsAndVerdict(t *testing.T) {
	tc, _ := clockd.ParseTimeControl("40/5400+30:1800+30")
	r := &Report{Board: "12", White: "Anand, V", Black: "Carlsen, M", TimeControl: tc}
	r.Add(reconcile.Event{Type: reconcile.TypeComplete, Ply: 75, Side: clockd.White, Moves: reconcile.Moves{White: 38, Black: 37},
		Clock: clockd.Times{White: 2 * time.Second, Black: 611 * time.Second}, At: 5321 * time.Second})
	r.Add(reconcile.Event{Type: reconcile.TypeAnomaly, Kind: reconcile.KindPressWithoutMove, Side: clockd.Black, Article: "7.5.3",
		Detail: "Black pressed the clock but no move appeared.", At: 5330 * time.Second})
	r.Add(reconcile.Event{Type: reconcile.TypeFlag, Side: clockd.Black, Period: 1, MovesCompleted: 37, MovesRequired: 40,
		OpponentCanMate: "yes", MateLine: []string{"a1a8"}, Verdict: reconcile.VerdictLoss, Article: "6.9",
		Reason: "Black's flag fell after 37 completed moves.", Clock: clockd.Times{White: 2 * time.Second}, At: 5388 * time.Second})
	var b strings.Builder
	if err := r.Write(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"Board 12: Anand, V – Carlsen, M", "40/5400+30:1800+30 (standard)",
		"White 38 of 40 (period 1), Black 37 of 40 (period 1)", "press-without-move [black] (7.5.3)",
		"37 moves completed, 40 required; control reached: false", "VERDICT: LOSS (6.9)", "a1a8",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

func TestReportQuietGame(t *testing.T) {
	r := &Report{Board: "3"}
	var b strings.Builder
	r.Write(&b)
	if !strings.Contains(b.String(), "nothing for the arbiter to check") || !strings.Contains(b.String(), "Time control     unknown") {
		t.Errorf("report:\n%s", b.String())
	}
}

// The arbiter's pause and change of a clock are incidents of the report,
// with the change, the times and the alert it settles.
func TestReportListsTheArbitersChanges(t *testing.T) {
	tc, _ := clockd.ParseTimeControl("40/5400+30:1800+30")
	r := &Report{Board: "4", TimeControl: tc}
	r.Add(reconcile.Event{Type: reconcile.TypeAnomaly, Seq: 9, Kind: reconcile.KindPressWithoutMove, Side: clockd.Black, Article: "7.5.3", Detail: "no move", At: 100 * time.Second})
	r.Add(reconcile.Event{Type: reconcile.TypePause, State: "stopped", Article: "6.11", Reason: "The clock was stopped.", At: 110 * time.Second})
	r.Add(reconcile.Event{Type: reconcile.TypeAdjust, Side: clockd.White, From: 5400 * time.Second, To: 5520 * time.Second, Delta: 2 * time.Minute,
		Article: "7.5.5", Reason: "the 2 minutes White gets", Closes: []int{9}, At: 130 * time.Second})
	var b strings.Builder
	if err := r.Write(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"PAUSE", "the arbiter stopped the clock (6.11)", "ADJUST", "white's clock +2:00, from 1:30:00 to 1:32:00 (7.5.5); settles the alert(s) of seq [9]"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

func TestReportListsClaimsAndDecisions(t *testing.T) {
	r := &Report{Board: "5"}
	r.Add(reconcile.Event{Type: reconcile.TypeClaim, Seq: 8, Side: clockd.Black, Article: "10.2", OpponentCanMate: "no", Reason: "Black claims", At: 10 * time.Second})
	r.Add(reconcile.Event{Type: reconcile.TypeDecision, Side: clockd.Black, Claim: 8, Decision: reconcile.DecisionAccepted, Article: "10.2", Reason: "drawn", At: 20 * time.Second})
	var b strings.Builder
	if err := r.Write(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"CLAIM", "black claims a draw (10.2); opponent can mate: no", "DECISION", "ACCEPTED on black's claim (seq 8)"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
}

// Claims and decisions name the arbiter who recorded them; the
// acknowledgements the capture recorded are listed at their times, with
// their arbiters.
func TestReportNamesTheArbiters(t *testing.T) {
	r := &Report{Board: "5"}
	r.Add(reconcile.Event{Type: reconcile.TypeClaim, Seq: 8, Side: clockd.Black, Article: "10.2", OpponentCanMate: "no", Reason: "Black claims",
		At: 10 * time.Second, Arbiter: "Anna Novak"})
	r.Add(reconcile.Event{Type: reconcile.TypeDecision, Side: clockd.Black, Claim: 8, Decision: reconcile.DecisionAccepted, Article: "10.2", Reason: "drawn",
		At: 20 * time.Second, Arbiter: "Bram"})
	r.Ack(15*time.Second, 8, "claim", "Bram")
	r.Ack(30*time.Second, 2, "press-without-move", "")
	var b strings.Builder
	if err := r.Write(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	order := []string{"opponent can mate: no; recorded by Anna Novak", "ACK      the claim alert of seq 8 acknowledged by Bram",
		"(10.2); recorded by Bram", "ACK      the press-without-move alert of seq 2 acknowledged by an arbiter not named"}
	at := 0
	for _, want := range order {
		i := strings.Index(out[at:], want)
		if i < 0 {
			t.Fatalf("report lacks %q after the incidents before it:\n%s", want, out)
		}
		at += i
	}
}
