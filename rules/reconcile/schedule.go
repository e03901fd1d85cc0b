package reconcile

import (
	"strconv"
	"time"
)

// The scheduler: what the Game waits for, and when it falls due. It reads
// the state and changes nothing; the loop (loop.go) takes the earliest
// deadline, applies its decision and asks again.

// deadlineKind is what falls due at a deadline. Deadlines due at the
// same time are taken in the order of the kinds.
type deadlineKind int

const (
	dueSettleHeld           deadlineKind = iota // the held plies are settled
	dueJudgePress                               // the first waiting press is judged
	dueCompleteByNextMove                       // a ply is completed by its side's next move
	dueWarnMoveWithoutPress                     // a ply answered without a press is reported
	dueCompleteByGameEnd                        // the game-ending ply is completed and the game ends
	dueWarnUnexplained                          // an unexplained board is reported
	dueSearchFar                                // a position back from an absence is searched again
	dueJudgeFlags                               // the flags are judged
	dueJudgeStop                                // the first stop of the clock is judged
	dueCheckPeriod                              // a period the clock added is checked against the count
	dueDefaultTime                              // the default time has passed
	dueCheckJoin                                // a clock joined under way is checked against the board
	dueNothing                                  // no deadline is pending
)

var deadlineNames = [...]string{"settle-held", "judge-press", "complete-by-next-move", "warn-move-without-press", "complete-by-game-end", "warn-unexplained", "search-far", "judge-flags", "judge-stop", "check-period", "default-time", "check-join", "nothing"}

func (k deadlineKind) String() string {
	if k < 0 || int(k) >= len(deadlineNames) {
		return "deadlineKind(" + strconv.Itoa(int(k)) + ")"
	}
	return deadlineNames[k]
}

// noDeadline is later than any deadline: advancing to it decides
// everything pending (the end of a session, a result signalled).
const noDeadline = time.Duration(1 << 62)

// nextDeadline finds the earliest pending decision.
func (g *Game) nextDeadline() (due time.Duration, kind deadlineKind, idx int) {
	kind = dueNothing
	lag := g.cfg.ScanLag
	consider := func(d time.Duration, k deadlineKind, i int) {
		if kind == dueNothing || d < due || (d == due && k < kind) {
			due, kind, idx = d, k, i
		}
	}
	if g.view.held.plies != nil {
		consider(g.view.heldDue(g.cfg, &g.waiting, &g.away), dueSettleHeld, 0)
	}
	if len(g.waiting.presses) > 0 && g.facing.known() && !g.away.disconnected && !g.view.settling(&g.away) {
		consider(g.waiting.due(g.cfg, g.view.changed), dueJudgePress, 0)
	}
	if g.away.suspect && g.view.unexplained.on() && g.view.held.plies == nil {
		switch {
		case g.away.far.in == g.view.changed.in && g.away.fromStart && g.join.faces == facesGuessed:
			// A board first read far on, by a clock whose sides are a
			// guess: the side to move is the board's to tell, by the
			// move made from the position (see movedOnFrom), not the
			// clock's; it is awaited.
		case g.away.far.in == g.view.changed.in:
			consider(g.view.rebaseDue(g.cfg, &g.waiting, &g.away), dueSearchFar, 0)
		case lifting(g.view.snap, g.view.placed):
			// a piece lifted (a taken piece, before the capturing one
			// lands): no position to search for until it has stood
			consider(g.view.changed.at+g.cfg.UnexplainedAfter, dueSearchFar, 0)
		default:
			consider(g.view.changed.at+lag, dueSearchFar, 0)
		}
	}
	if g.end == nil {
		g.waiting.plyDeadlines(&g.led, &g.away, g.cfg.ScanLag, g.inputs, consider)
		if n := len(g.led.plies); n > 0 && g.led.rec.Status().Over {
			consider(g.led.plies[n-1].made.at+lag, dueCompleteByGameEnd, n-1)
		}
		if g.view.unexplained.on() && !g.view.unexplained.reported() && !g.away.suspect && !g.away.stale && !g.away.disconnected {
			consider(g.view.unexplained.since.at+g.cfg.UnexplainedAfter, dueWarnUnexplained, 0)
		}
	}
	if len(g.flag.flags) > 0 {
		consider(g.flag.flags[0].At+lag, dueJudgeFlags, 0)
	}
	if len(g.flag.stops) > 0 {
		consider(g.view.stopDue(g.cfg, g.flag.stops[0].At), dueJudgeStop, 0)
	}
	for i, c := range g.flag.checks {
		if !g.waiting.pendingUpTo(c.ev.Side, c.in) {
			consider(c.ev.At+lag, dueCheckPeriod, i)
			break
		}
	}
	if d, ok := g.round.defaultDue(g.cfg.DefaultTime, g.startedAt, g.end != nil); ok {
		consider(d, dueDefaultTime, 0)
	}
	if g.join.state == joinedUnchecked && g.end == nil {
		consider(g.join.at+lag, dueCheckJoin, 0)
	}
	return due, kind, idx
}
