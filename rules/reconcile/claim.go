package reconcile

import (
	"fmt"
	"strings"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
)

// Claims near the end of a period (10.2, and the Guidelines for quickplay
// finishes where no arbiter supervises): a player with little time left
// claims a draw because the opponent cannot win by normal means, or is
// making no effort to. arbiterd freezes what the arbiter decides on, and
// records the decision.

// recentWindow is how far back a claim's record lists the moves played.
const recentWindow = 5 * time.Minute

// Decisions on a claim (the `decision` field of a decision event).
const (
	DecisionAccepted  = "accepted"  // the game is drawn
	DecisionRejected  = "rejected"  // the opponent gets two minutes (10.2)
	DecisionPostponed = "postponed" // the arbiter watches the game go on
)

type claim struct {
	seq  int
	side clockd.Side
	open bool
}

// claimed freezes side's claim: the position, both clocks, the moves since
// the last capture or pawn move, the moves of the last minutes, and whether
// the opponent can still checkmate by any series of legal moves.
func (g *Game) claimed(out *[]Event, at time.Duration, side clockd.Side) {
	opp := side.Other()
	ans, line := g.cfg.canMate(g.rec, opp)
	var recent []string
	for i, p := range g.plies {
		if p.completed() && !p.unverified() && at-p.made.at <= recentWindow {
			recent = append(recent, g.moveText(i))
		}
	}
	quiet := g.rec.Position().HalfMoveClock()
	var why string
	switch ans {
	case MateNo:
		why = fmt.Sprintf("%s cannot checkmate by any series of legal moves: the claim is right at once, the game is drawn (10.2, 6.9)", name(opp))
	case MateYes:
		why = fmt.Sprintf("%s can still checkmate (for example %s). Whether %s cannot win by normal means, or is making no effort to, is the arbiter's judgement: watch the game or decide now (10.2)",
			name(opp), strings.Join(line, " "), name(opp))
	default:
		why = fmt.Sprintf("arbiterd could not tell whether %s can still checkmate; whether %s cannot win by normal means, or is making no effort to, is the arbiter's judgement (10.2)", name(opp), name(opp))
	}
	moves := "none"
	if len(recent) > 0 {
		moves = strings.Join(recent, " ")
	}
	g.emit(out, at, Event{Type: TypeClaim, Side: side, FEN: g.rec.FEN(), Clock: g.clock, Article: "10.2",
		OpponentCanMate: ans, MateLine: line, Quiet: quiet, Recent: recent,
		Reason: fmt.Sprintf("%s claims a draw with White %s, Black %s on the clock. Frozen for the decision: the position (%s); %d plies since the last capture or pawn move; the moves of the last %s: %s. %s.",
			name(side), hms(g.clock.White), hms(g.clock.Black), g.rec.FEN(), quiet, duration(recentWindow), moves, why)})
	g.claims = append(g.claims, claim{seq: g.seq, side: side, open: true})
}

// decided records the arbiter's decision on the claim of seq id.
func (g *Game) decided(out *[]Event, at time.Duration, id int, decision string) {
	i := -1
	for k, c := range g.claims {
		if c.seq == id {
			i = k
		}
	}
	if i < 0 || !g.claims[i].open {
		g.anomaly(out, at, KindBadInput, 0, true, "10.2", fmt.Sprintf("%v: a decision on claim %d, which is not an open claim.", ErrBadAction, id))
		return
	}
	c := &g.claims[i]
	opp := c.side.Other()
	switch decision {
	case DecisionAccepted:
		c.open = false
		g.emit(out, at, Event{Type: TypeDecision, Side: c.side, Claim: id, Decision: decision, Article: "10.2",
			Reason: fmt.Sprintf("The arbiter accepted %s claim: the game is drawn (10.2).", possessive(c.side))})
		if !g.ended {
			g.finish(out, at, "1/2-1/2", "claim", "10.2")
		}
	case DecisionRejected:
		c.open = false
		g.emit(out, at, Event{Type: TypeDecision, Side: c.side, Claim: id, Decision: decision, Article: "10.2",
			Reason: fmt.Sprintf("The arbiter rejected %s claim: add 2 minutes to %s clock (10.2). When the clock shows the time added, arbiterd closes this.", possessive(c.side), possessive(opp))})
		g.hand.expect((*out)[len(*out)-1], g.counts.White+g.counts.Black, opp, 2*time.Minute, possessive(c.side)+" rejected claim",
			fmt.Sprintf("the 2 minutes %s gets for %s rejected claim", name(opp), possessive(c.side)), "10.2")
	case DecisionPostponed:
		g.emit(out, at, Event{Type: TypeDecision, Side: c.side, Claim: id, Decision: decision, Article: "10.2",
			Reason: fmt.Sprintf("The arbiter postponed the decision on %s claim and watches the game.", possessive(c.side))})
	default:
		g.anomaly(out, at, KindBadInput, 0, true, "10.2", fmt.Sprintf("%v: decision %q is not accepted, rejected or postponed.", ErrBadAction, decision))
	}
}
