package reconcile

import (
	"strconv"
	"time"
)

// The press decision: what a waiting press comes to (decidePress, which
// changes nothing) and how that is applied (judgePress). The press is the
// commit point (6.2.1): it completes the move of its side the board showed
// at the press, or it is a press without a move (7.5.3), an illegal move
// (7.5.1), a press back that gives the turn back, or a press of moves made
// while the board was not read.

// resolvePress commits a press: the move of the pressing side that the
// board showed at the press (or shortly after) is completed.
func (g *Game) resolvePress(out *[]Event, at time.Duration, pr pendingPress) {
	if !g.judgePress(out, at, pr) {
		// the plies the board showed around the press (or reported up to
		// two scans after it, or that replace the move the press would
		// complete: the board's latest word on it) are accepted first; a
		// correction of a completed move waits for its own deadline.
		// The press is judged again after what settling decided.
		g.settle(out, at, true)
		g.work.then(step{kind: stepJudgeAgain, press: pr})
	}
}

// judgePress applies what the press pr comes to (decidePress), or reports
// false when held plies are to be settled first.
func (g *Game) judgePress(out *[]Event, at time.Duration, pr pendingPress) (judged bool) {
	d, cands := g.waiting.decidePress(&g.view, &g.led, &g.away, g.cfg, g.away.pressIgnored(g.end != nil, g.atStart, g.resetAt, pr), at, pr)
	side := pr.ev.Side
	if d != pressNotJudged {
		g.waiting.back = noBackExpected // whatever it comes to, the press back was this or is no more
	}
	switch d {
	case pressAfterHeld:
		return false
	case pressWaitsForBoard:
		g.waiting.presses = append([]pendingPress{pr}, g.waiting.presses...)
		g.waiting.wait = true
	case pressIllegalMove:
		g.hand.illegalPress(&g.em, g.cfg, &g.led, &g.view, out, at, side)
	case pressOfAbsence:
		g.away.absorb[side]--
	case pressNoMove:
		g.away.endAbsorbing(pr)
		g.hand.pressWithoutMove(&g.em, g.cfg, &g.led, &g.waiting, g.join.faces == facesGuessed, out, at, pr.ev)
	case pressCompletesPly:
		g.away.endAbsorbing(pr)
		g.completeByPress(out, at, pr, cands)
	}
	return true
}

// pressDecision is what a press comes to when it is judged.
type pressDecision uint8

const (
	pressNotJudged     pressDecision = iota // see pressIgnored
	pressGivesTurnBack                      // the turn given back after the opponent's press without a move: no offence
	pressAfterHeld                          // the plies the board showed around it are accepted first, and it is judged again
	pressWaitsForBoard                      // the board is still changing: judged again once it stands still
	pressIllegalMove                        // it completes a position no legal move explains (7.5.1)
	pressOfAbsence                          // a press of a move made while the board was not read (see absorbs)
	pressNoMove                             // no move of its side to complete (7.5.3)
	pressCompletesPly                       // it completes a ply of its side (6.2.1)
)

var pressDecisionNames = [...]string{"not-judged", "gives-turn-back", "after-held", "waits-for-board",
	"illegal-move", "of-absence", "no-move", "completes-ply"}

func (d pressDecision) String() string {
	if int(d) >= len(pressDecisionNames) {
		return "pressDecision(" + strconv.Itoa(int(d)) + ")"
	}
	return pressDecisionNames[d]
}

// decidePress decides, at at, what the press pr comes to on the record,
// the board and the absence as they stand, with the uncompleted plies of
// its side (cands). It changes nothing.
func (q *pressQueue) decidePress(v *boardView, led *ledger, a *absence, cfg Config, ignored bool, at time.Duration, pr pendingPress) (d pressDecision, cands []int) {
	ev := pr.ev
	if ignored {
		return pressNotJudged, nil
	}
	side := ev.Side
	cands = led.uncompleted(side)
	if len(cands) == 0 && q.back == backOf(side) && !placedBy(v.snap, led.boards[len(led.boards)-1], side) {
		// The opponent pressed without a move, which started this side's
		// clock; pressing back gives the turn back and is no offence.
		return pressGivesTurnBack, cands
	}
	if v.held.first(pr, cands, v.changed) {
		// the plies the board showed around the press (or reported up to
		// two scans after it, or that replace the move the press would
		// complete: the board's latest word on it) are accepted first; a
		// correction of a completed move waits for its own deadline
		return pressAfterHeld, cands
	}
	if v.unexplained.on() && v.held.plies == nil && placedBy(v.snap, led.boards[len(led.boards)-1], side) && (len(cands) == 0 || v.unexplained.since.before(pr.stamp())) {
		// The board showed at the press, and still shows, a position
		// nothing explains, in which the pressing side has put a piece
		// where the record has none: its move is illegal. A piece merely
		// missing (in a hand, or captured while the opponent moves), the
		// opponent's piece in the hand, or a transient that began after
		// the press, is not the presser's move.
		if !q.wait && at < v.changed.at+cfg.ScanLag && at < ev.At+cfg.UnexplainedAfter {
			// The board is still changing: the same press is judged once
			// it stands still (the piece may be going on to where a
			// correction of the record explains it).
			return pressWaitsForBoard, cands
		}
		return pressIllegalMove, cands
	}
	if a.absorbs(pr, len(cands) > 0) {
		return pressOfAbsence, cands
	}
	if len(cands) == 0 {
		return pressNoMove, cands
	}
	return pressCompletesPly, cands
}

// pressIgnored reports whether a press is not judged at all: made while
// the board shows the starting position instead of the game (players
// trying the clock, or pressing a reset clock), after the game ended, or
// once the board had gone away while arbiterd cannot follow the position
// it came back with (it completes nothing arbiterd can check, and it is no
// illegal move either; presses from before the absence are judged on what
// the board showed then).
func (a *absence) pressIgnored(ended, atStart bool, resetAt time.Duration, pr pendingPress) bool {
	ev := pr.ev
	return (atStart && ev.At >= resetAt) || ended || (a.stale && !a.before(ev.At, pr.in))
}

// first reports whether the held plies are to be settled before the
// press is judged: the board showed them around the press, or reported
// them up to two scans after it, or they replace the move the press would
// complete with one whose piece is not then taken (a piece in the hand
// looks like that).
func (h *held) first(pr pendingPress, cands []int, changed stamp) bool {
	if h.plies == nil || h.replaces != replacesNothing {
		return false
	}
	ev := pr.ev
	return len(cands) == 0 || changed.before(pr.stamp()) ||
		(!ev.Inferred && changed.at <= ev.At+boardReportLag) || h.kind == heldSlide ||
		(h.from <= cands[len(cands)-1] && !takenLater(h.plies)) // replaces
}

// absorbs reports whether the press is that of a move made while the
// board was not read (read in the merged reading after the board came
// back, or with no move to complete): it completes nothing arbiterd
// verified, and it is not a press without a move.
func (a *absence) absorbs(pr pendingPress, hasMove bool) bool {
	ev, side := pr.ev, pr.ev.Side
	return a.absorb[side] > 0 && (!hasMove || (ev.Inferred && !a.before(ev.At, pr.in)))
}

// endAbsorbing ends the absence's presses once a press is read live.
func (a *absence) endAbsorbing(pr pendingPress) {
	if !pr.ev.Inferred {
		a.absorb[pr.ev.Side] = 0
	}
}
