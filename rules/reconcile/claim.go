package reconcile

import (
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

// claimBook is the draw claims of the game, in the order they were made.
type claimBook []claim

// claimed freezes side's claim: the position, both clocks, the moves since
// the last capture or pawn move, the moves of the last minutes, and whether
// the opponent can still checkmate by any series of legal moves.
//
// recent is the moves of the last recentWindow in words (record.movesSince).
func (cs *claimBook) claimed(em *emitter, cfg Config, led record, recent []string, clock clockd.Times, out *[]Event, at time.Duration, side clockd.Side) {
	opp := side.Other()
	ans, line := cfg.canMate(led.rec, opp)
	quiet := led.rec.Position().HalfMoveClock()
	var why Text
	switch ans {
	case MateNo:
		why = say(TextClaimMateNo, sideWord(opp))
	case MateYes:
		why = say(TextClaimMateYes,
			sideWord(opp), strings.Join(line, " "), sideWord(opp))
	default:
		why = say(TextClaimMateUnknown, sideWord(opp), sideWord(opp))
	}
	var moves any = Text{Code: TextNone}
	if len(recent) > 0 {
		moves = strings.Join(recent, " ")
	}
	em.emit(out, at, Event{Type: TypeClaim, Side: side, FEN: led.rec.FEN(), Clock: clock, Article: "10.2",
		OpponentCanMate: ans, MateLine: line, Quiet: quiet, Recent: recent,
		Text: say(TextClaim,
			sideWord(side), hms(clock.White), hms(clock.Black), led.rec.FEN(), quiet, durationWords(recentWindow), moves, why)})
	*cs = append(*cs, claim{seq: em.seq, side: side, open: true})
}

// decided records the arbiter's decision on the claim of seq id; drawn:
// the arbiter accepted it, and the game is drawn (10.2).
func (cs *claimBook) decided(em *emitter, out *[]Event, at time.Duration, id int, decision string) (drawn bool, rejected *claim) {
	i := -1
	for k, c := range *cs {
		if c.seq == id {
			i = k
		}
	}
	if i < 0 || !(*cs)[i].open {
		em.anomaly(out, at, KindBadInput, 0, true, "10.2", say(TextDecisionNotOpen, badAction, id))
		return false, nil
	}
	c := &(*cs)[i]
	opp := c.side.Other()
	switch decision {
	case DecisionAccepted:
		c.open = false
		em.emit(out, at, Event{Type: TypeDecision, Side: c.side, Claim: id, Decision: decision, Article: "10.2",
			Text: say(TextDecisionAccepted, possWord(c.side))})
		drawn = true
	case DecisionRejected:
		c.open = false
		em.emit(out, at, Event{Type: TypeDecision, Side: c.side, Claim: id, Decision: decision, Article: "10.2",
			Text: say(TextDecisionRejected, possWord(c.side), possWord(opp))})
		rejected = c
	case DecisionPostponed:
		em.emit(out, at, Event{Type: TypeDecision, Side: c.side, Claim: id, Decision: decision, Article: "10.2",
			Text: say(TextDecisionPostponed, possWord(c.side))})
	default:
		em.anomaly(out, at, KindBadInput, 0, true, "10.2", say(TextDecisionUnknown, badAction, decision))
	}
	return drawn, rejected
}
