package reconcile

import (
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
)

// The arbiter settles a press without a move (7.5.3, 7.5.5): stops the
// clock, gives the opponent two minutes, takes off the increment the press
// earned, and starts the clock again. The stop is the arbiter's pause, not
// an alarm; each change is an adjust event naming its rule; the +2:00
// closes the alert; the reference clock follows the change.
func TestAdjustSettlesAPressWithoutAMove(t *testing.T) {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(5, "e4")
	h.press(5.5, W)
	h.press(8, B) // Black presses without a move
	h.press(8.6, W)
	h.advance(12)
	pwm := h.of(TypeAnomaly)
	if len(pwm) != 1 || pwm[0].Kind != KindPressWithoutMove {
		t.Fatalf("anomalies %v, want one press-without-move", h.anomalies())
	}
	h.halt(20)
	h.setTime(22, W, 2*time.Minute)
	h.setTime(24, B, -30*time.Second) // the increment Black's press earned
	h.resume(30)
	// The reference clock has White's two minutes.
	if got, want := h.g.State().Expected.White, h.clk.White; absDur(got-want) > time.Second {
		t.Errorf("reference clock White %v, displayed %v", got, want)
	}
	h.play(33, "e5")
	h.press(33.5, B)
	h.advance(40)

	h.wantAnomalies(KindPressWithoutMove) // no clock-stopped alarm
	adj := h.of(TypeAdjust)
	if len(adj) != 2 {
		t.Fatalf("adjust events %v, want 2", adj)
	}
	w, b := adj[0], adj[1]
	if w.Side != W || w.Delta != 2*time.Minute || w.To-w.From != 2*time.Minute || w.Article != "7.5.5" ||
		len(w.Closes) != 1 || w.Closes[0] != pwm[0].Seq {
		t.Errorf("White's adjust %+v: want +2:00, 7.5.5, closing seq %d", w, pwm[0].Seq)
	}
	if b.Side != B || b.Delta != -30*time.Second || len(b.Closes) != 0 || !strings.Contains(string(b.Reason), "increment") {
		t.Errorf("Black's adjust %+v: want -0:30, the increment, closing nothing", b)
	}
	pauses := h.of(TypePause)
	if len(pauses) != 2 || pauses[0].State != "stopped" || pauses[1].State != "running" || pauses[0].By != "arbiter" {
		t.Errorf("pause events %v, want stopped then running, by the arbiter", pauses)
	}
	h.wantCompleted(1, 1)
}

// A stop with nothing to settle is an alarm (6.11); when the arbiter then
// changes a time, the change is recorded with no rule to cite and closes
// the alarm, since it was the arbiter's hand.
func TestAdjustWithoutIncident(t *testing.T) {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(5, "e4")
	h.press(5.5, W)
	h.halt(10)
	h.advance(15)
	h.setTime(20, B, 5*time.Minute)
	h.resume(25)
	h.play(30, "e5")
	h.press(30.5, B)
	h.advance(40)
	h.wantAnomalies(KindClockStopped)
	stop := h.of(TypeAnomaly)[0]
	adj := h.of(TypeAdjust)
	if len(adj) != 1 || adj[0].Side != B || adj[0].Delta != 5*time.Minute || adj[0].Article != "6.10" {
		t.Fatalf("adjust events %v, want Black +5:00 (6.10)", adj)
	}
	if len(adj[0].Closes) != 1 || adj[0].Closes[0] != stop.Seq {
		t.Errorf("adjust closes %v, want the clock-stopped alert %d", adj[0].Closes, stop.Seq)
	}
	if len(h.of(TypePause)) != 0 {
		t.Errorf("pause events %v: the stop was reported as an alarm", h.of(TypePause))
	}
}

// A stop and restart with no change of time, no incident: the alarm as
// before, and no adjust event.
func TestStopWithoutChange(t *testing.T) {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(5, "e4")
	h.press(5.5, W)
	h.halt(10)
	h.resume(12)
	h.advance(20)
	h.wantAnomalies(KindClockStopped)
	if n := len(h.of(TypeAdjust)) + len(h.of(TypePause)); n != 0 {
		t.Errorf("%d adjust/pause events, want none", n)
	}
}

// A clock that added the second period at move 39 (clock-counter): the
// arbiter takes the period's time off; the change closes the alert.
func TestAdjustSettlesAClockCounter(t *testing.T) {
	h := newHarness(t, Config{TimeControl: mustTC(t, "2/60+2:30")})
	h.show(0)
	h.start(1)
	h.play(5, "e4")
	h.press(5.5, W)
	h.play(8, "e5")
	h.press(8.5, B)
	h.addPeriod(8.5, B, 2, 30*time.Second) // early: Black has 1 move
	// The control needs 2 moves; the addition came at Black's 1st.
	h.advance(12)
	var counter Event
	for _, e := range h.of(TypeAnomaly) {
		if e.Kind == KindClockCounter {
			counter = e
		}
	}
	if counter.Seq == 0 {
		t.Fatalf("no clock-counter anomaly in %v", h.anomalies())
	}
	h.halt(15)
	h.setTime(17, B, -30*time.Second)
	h.resume(20)
	h.advance(25)
	adj := h.of(TypeAdjust)
	if len(adj) != 1 || len(adj[0].Closes) != 1 || adj[0].Closes[0] != counter.Seq {
		t.Fatalf("adjust %v, want Black -0:30 closing the clock-counter alert %d", adj, counter.Seq)
	}
	if n := len(h.of(TypeAnomaly)); n != 1 {
		t.Errorf("anomalies %v: the arbiter's stop raised an alarm", h.anomalies())
	}
}

func absDur(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

// The default time (6.7.1): once it has passed since the clock started,
// the player whose move is due and not made is named for the arbiter to
// check presence, once; a game in which both have moved raises nothing.
func TestDefaultTime(t *testing.T) {
	for _, tc := range []struct {
		name  string
		moves []string
		want  []Kind // anomaly kinds
		side  string
	}{
		{"White absent", nil, []Kind{KindDefaultTime}, "white"},
		{"Black absent", []string{"e4"}, []Kind{KindDefaultTime}, "black"},
		{"both present", []string{"e4", "e5"}, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Config{TimeControl: mustTC(t, standardTC), DefaultTime: time.Minute})
			h.show(0)
			h.start(1)
			for i, m := range tc.moves {
				h.play(float64(10+10*i), m)
				h.press(float64(11+10*i), []clockd.Side{W, B}[i%2])
			}
			h.advance(60) // not yet
			if n := len(h.of(TypeAnomaly)); n != 0 {
				t.Fatalf("anomalies %v before the default time passed", h.anomalies())
			}
			h.advance(62)
			h.advance(200)
			h.wantAnomalies(tc.want...)
			if tc.side != "" && h.of(TypeAnomaly)[0].Side.String() != tc.side {
				t.Errorf("default-time for %s, want %s", h.of(TypeAnomaly)[0].Side, tc.side)
			}
		})
	}
}

// A claim (10.2) freezes the position, the clocks, the quiet plies and the
// recent moves with the 6.9 answer for the opponent; a rejection expects
// two minutes on the opponent's clock, and the adjustment closes it; an
// acceptance draws the game; a decision on no open claim is bad input.
func TestClaimAndDecisions(t *testing.T) {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(5, "e4")
	h.press(5.5, W)
	h.play(8, "e5")
	h.press(8.5, B)
	h.advance(10)
	h.feed(h.g.Arbiter(sec(12), ArbiterAction{Kind: ActClaim, Side: W}))
	claims := h.of(TypeClaim)
	if len(claims) != 1 {
		t.Fatalf("claim events %v", claims)
	}
	c := claims[0]
	if c.Side != W || c.OpponentCanMate == "no" || c.Quiet != 0 || len(c.Recent) != 2 || c.Recent[0] != "1.e4" ||
		!strings.Contains(string(c.Reason), "judgement") || c.FEN != "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2" {
		t.Errorf("claim %s", Marshal(c))
	}
	h.feed(h.g.Arbiter(sec(20), ArbiterAction{Kind: ActDecide, Claim: c.Seq, Decision: DecisionRejected}))
	h.halt(25)
	h.setTime(27, B, 2*time.Minute)
	h.resume(30)
	adj := h.of(TypeAdjust)
	dec := h.of(TypeDecision)
	if len(dec) != 1 || dec[0].Decision != DecisionRejected || len(adj) != 1 || len(adj[0].Closes) != 1 || adj[0].Closes[0] != dec[0].Seq || adj[0].Article != "10.2" {
		t.Fatalf("decision %v, adjust %v: want the +2:00 to Black to close the rejection", dec, adj)
	}
	h.wantAnomalies() // the arbiter's stop is no alarm
	// Deciding again on a closed claim is bad input; a second claim accepted draws.
	h.feed(h.g.Arbiter(sec(31), ArbiterAction{Kind: ActDecide, Claim: c.Seq, Decision: DecisionAccepted}))
	h.wantAnomalies(KindBadInput)
	h.feed(h.g.Arbiter(sec(40), ArbiterAction{Kind: ActClaim, Side: B}))
	c2 := h.of(TypeClaim)[1]
	h.feed(h.g.Arbiter(sec(41), ArbiterAction{Kind: ActDecide, Claim: c2.Seq, Decision: DecisionAccepted}))
	ends := h.of(TypeEnd)
	if len(ends) != 1 || ends[0].Result != "1/2-1/2" || ends[0].Reason != "claim" {
		t.Errorf("ends %v, want a draw by the accepted claim", ends)
	}
	h.feed(h.g.Arbiter(sec(42), ArbiterAction{Kind: ActClaim, Side: W}))
	h.wantAnomalies(KindBadInput, KindBadInput)
}

// A claim where the opponent cannot checkmate by any series of legal
// moves says the claim is right at once.
func TestClaimAgainstABareKing(t *testing.T) {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC), StartFEN: "8/8/4k3/8/8/3K4/R7/8 w - - 0 1"})
	h.show(0)
	h.start(1)
	h.feed(h.g.Arbiter(sec(5), ArbiterAction{Kind: ActClaim, Side: W}))
	h.feed(h.g.Arbiter(sec(6), ArbiterAction{Kind: ActClaim, Side: B}))
	cl := h.of(TypeClaim)
	if len(cl) != 2 || cl[0].OpponentCanMate != "no" || !strings.Contains(string(cl[0].Reason), "right at once") || cl[1].OpponentCanMate == "no" {
		t.Errorf("claims %v", cl)
	}
}

// A clock reset mid-game (6.10): the arbiter sets the times shown before
// back, and when the clock is started again the change is recorded as
// the restoration, closing the reset's alert.
func TestAdjustRestoresAfterAReset(t *testing.T) {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(5, "e4")
	h.press(5.5, W)
	h.play(9, "e5")
	h.press(9.5, B)
	h.halt(12)
	before := h.clk
	h.clk = clockd.Times{White: 5400 * time.Second, Black: 5400 * time.Second}
	h.clock(clockd.ClockEvent{Kind: clockd.Reset, At: sec(13)})
	h.advance(14)
	var reset Event
	for _, e := range h.of(TypeAnomaly) {
		if e.Kind == KindClockReading {
			reset = e
		}
	}
	if reset.Seq == 0 {
		t.Fatalf("no alert for the reset: %v", h.anomalies())
	}
	h.clk = before
	h.halted = false
	h.feed(h.g.Clock(clockd.ClockEvent{Kind: clockd.Started, At: sec(20), Clock: before}))
	adj := h.of(TypeAdjust)
	if len(adj) != 2 {
		t.Fatalf("adjust events %v, want one per face", adj)
	}
	for _, a := range adj {
		if a.To != before.Of(a.Side) || a.Article != "6.10" || len(a.Closes) != 1 || a.Closes[0] != reset.Seq {
			t.Errorf("adjust %s: want %s's time set back to %v, closing the reset's alert %d", Marshal(a), a.Side, before.Of(a.Side), reset.Seq)
		}
	}
}
