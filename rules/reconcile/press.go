package reconcile

import (
	"strconv"
	"time"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules"
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
	d, cands := g.waiting.decidePress(&g.view, &g.led, &g.away, g.cfg, g.away.pressIgnored(g.end != nil, g.atStart, pr), at, pr)
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

// pendingPress is a press waiting for the move it completes.
type pendingPress struct {
	ev clockd.ClockEvent
	in int // the input that reported it (see Game.inputs)
}

// pressQueue is the presses that wait for the moves they complete (the press
// is the commit point, 6.2.1), and what the latest presses expect.
type pressQueue struct {
	presses []pendingPress
	// back: the latest press was the opponent's press without a move; the
	// press back of the side it names, with no move of its own, is
	// expected.
	back backExpected
	wait bool // the first pending press waits for the board to stand still (see resolvePress)
	// turn is the clock's latest word on the side to move (see clockTurn).
	turn clockWord
}

// backExpected names the side whose press back is expected, if any.
type backExpected uint8

const (
	noBackExpected backExpected = iota
	whiteBackExpected
	blackBackExpected
)

// clockWord is what the clock last said about the side to move: toMove,
// at at, when the board showed snap (see board: whether it had been read
// since it was last away). A press hands the move to the other side; a
// reading taken as a whole (clockd.Running) names the runner.
type clockWord struct {
	board  wordBoard // wordNone: the clock has said nothing
	toMove clockd.Side
	at     time.Duration
	snap   rules.Snapshot
}

// wordBoard is what the board showed when the clock gave its word.
type wordBoard uint8

const (
	wordNone wordBoard = iota // no word yet
	// wordUnread: given while the board was not read (disconnected):
	// snap is not known yet (see Game.board).
	wordUnread
	wordOnBoard // given about snap, the board as it was read
	// wordUndumped: given after the board was back and before it was
	// read whole (field updates laid on the image of before the
	// absence): it is about the position the board's first dump shows.
	wordUndumped
)

// clockSpoke reports whether the clock has started, been pressed or said
// whose time runs.
func (q *pressQueue) clockSpoke(started bool) bool {
	return started || len(q.presses) > 0 || q.turn.seen()
}

// retractable is how many plies at the end of the record a correction may
// replace after an absence: the trailing uncompleted ones and the
// unverified ones below them.
func (q *pressQueue) retractable(led *ledger, a *absence) int {
	n := q.trailing(led, a)
	for i := len(led.plies) - 1 - n; i >= 0 && led.plies[i].unverified(); i-- {
		n++
	}
	return n
}

// clockTurn is the side to move by the clock in the position the board
// shows: the latest word of the clock (a press, or a reading taken as a
// whole) after the board went away, unless the board has changed since it
// was read then — the runner's own move may be the change, not yet
// pressed. A word from while the board was not read speaks of the position
// the board is first read with after it when that reading is a dump (the
// board read afresh), of the position before it when it is a field update
// (a change), and goes stale as the board changes (see Game.board).
func (q *pressQueue) clockTurn(awayAt time.Duration, board rules.Snapshot) (chess.Color, bool) {
	t := q.turn
	if !t.seen() || t.at <= awayAt || (t.board != wordUnread && t.snap != board) {
		return chess.White, false
	}
	if t.toMove == clockd.White {
		return chess.White, true
	}
	return chess.Black, true
}

// clockSays records the clock's word that side is to move, at at.
func (q *pressQueue) clockSays(a *absence, snap rules.Snapshot, side clockd.Side, at time.Duration) {
	w := clockWord{board: wordOnBoard, toMove: side, at: at, snap: snap}
	switch {
	case a.disconnected:
		w.board = wordUnread
	case a.undumped:
		w.board = wordUndumped
	}
	q.turn = w
}

// trailing is the number of plies after the last completed one.
// A ply its side has already pressed for (the press is waiting to be
// resolved) stays replaceable only while it is the last ply: a slide may
// still end after the press is read, but once the opponent has replied
// the pressed move is settled.
func (q *pressQueue) trailing(led *ledger, a *absence) int {
	n := 0
	for i := len(led.plies) - 1; i >= 0 && !led.plies[i].completed(); i-- {
		if i < len(led.plies)-1 && q.pressedFor(led, a, i) {
			break
		}
		n++
	}
	return n
}

// pressedFor reports whether a pending press of the ply's side came after
// the ply was made.
func (q *pressQueue) pressedFor(led *ledger, a *absence, i int) bool {
	return q.pressWaitsFor(led, a, i, false)
}

// unpressedTail is how many plies at the end of the record nobody
// completed or pressed for before the board went away: shown before the
// absence, they may never have been made (a piece seen on its way).
func (q *pressQueue) unpressedTail(led *ledger, a *absence) int {
	n := 0
	for i := len(led.plies) - 1; i >= 0 && !led.plies[i].completed() && !q.pressWaitsFor(led, a, i, true); i-- {
		n++
	}
	return n
}

// pressedBefore reports whether a press waiting to be resolved may
// complete ply i; beforeAway: only a press read before the board went away.
func (q *pressQueue) pressWaitsFor(led *ledger, a *absence, i int, beforeAway bool) bool {
	p := led.plies[i]
	for _, pr := range q.presses {
		if (!beforeAway || a.before(pr.ev.At, pr.in)) && pr.ev.Side == p.side && !pr.stamp().before(p.made) {
			return true
		}
	}
	return false
}

// stamp is when the press was reported.
func (p pendingPress) stamp() stamp { return stamp{p.ev.At, p.in} }

// backOf is the press back expected of side s.
func backOf(s clockd.Side) backExpected {
	if s == clockd.Black {
		return blackBackExpected
	}
	return whiteBackExpected
}

// seen reports whether the clock has given a word.
func (w clockWord) seen() bool { return w.board != wordNone }

// pendingUpTo reports whether a press of side s reported by input in
// or before it is still waiting. A period check waits for the presses up
// to the addition it checks, and no later ones: in a scramble the side's
// next press may complete another move before the check is due, and that
// move is not the one the clock added the period at.
func (q *pressQueue) pendingUpTo(s clockd.Side, in int) bool {
	for _, p := range q.presses {
		if p.ev.Side == s && p.in <= in {
			return true
		}
	}
	return false
}

// laterPresses counts the presses of pr's side that wait after pr: the
// clock was read late (the board, which relays it, was away), or one
// reading showed several presses, and the side pressed again before pr was
// resolved.
func (q *pressQueue) laterPresses(pr pendingPress) int {
	n := 0
	for _, p := range q.presses {
		if p.ev.Side == pr.ev.Side && p.in > pr.in {
			n++
		}
	}
	return n
}

// pressesRead reports whether several presses of side wait: they complete
// its moves in the order made (see resolvePress), not by next move.
func (q *pressQueue) pressesRead(side clockd.Side) bool {
	for _, p := range q.presses {
		if p.ev.Side == side && q.laterPresses(p) > 0 {
			return true
		}
	}
	return false
}

// due is when the first pending press is judged: ScanLag after it.
// When it would be an illegal move but the board is still changing (a
// piece in the hand, a move going on), it is judged once the board has
// stood still for ScanLag, or UnexplainedAfter after the press.
func (q *pressQueue) due(cfg Config, changed stamp) time.Duration {
	at, lag := q.presses[0].ev.At, cfg.ScanLag
	due := at + lag
	if q.wait {
		due = max(due, min(changed.at+lag, at+cfg.UnexplainedAfter))
	}
	return due
}

// plyDeadlines gives consider the deadlines of the uncompleted plies: a
// ply completed by its side's next move, or reported made without a press
// once the opponent has replied (6.2.1).
func (q *pressQueue) plyDeadlines(led *ledger, a *absence, lag time.Duration, inputs int, consider func(d time.Duration, k deadlineKind, i int)) {
	for i, p := range led.plies {
		if p.completed() {
			continue
		}
		own, opp := -1, -1
		for j := i + 1; j < len(led.plies); j++ {
			if led.plies[j].side == p.side {
				if own < 0 {
					own = j
				}
			} else if opp < 0 {
				opp = j
			}
		}
		switch {
		case own >= 0 && q.pressesRead(p.side):
			// several presses of the side wait: they complete its
			// moves in order (see resolvePress)
		case own >= 0 && q.pressedFor(led, a, i):
			// a press of the side made after the ply waits (the
			// board away, or back and not settled): it completes the
			// ply when presses are judged again, not the next move
		case own >= 0:
			consider(led.plies[own].made.at+lag, dueCompleteByNextMove, i)
		case opp >= 0 && !p.warned && !q.pendingUpTo(p.side, inputs) && !led.plies[opp].unverified() && !led.couldNotPress(i):
			consider(led.plies[opp].made.at+lag, dueWarnMoveWithoutPress, i)
		}
	}
}
