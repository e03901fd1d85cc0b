package reconcile

import (
	"fmt"
	"time"
)

// The loop: every input ends by deciding what has fallen due by its time,
// one deadline at a time, earliest first (schedule.go says which).

// advance resolves, in time order, every deadline due by limit. Events it
// produces carry the time of the input that brought them due, at.
func (g *Game) advance(out *[]Event, at, limit time.Duration) {
	if at > g.now {
		g.now = at
	}
	for guard := 0; guard < 1<<16; guard++ {
		due, kind, idx := g.nextDeadline()
		if kind == dueNothing || due > limit {
			return
		}
		g.resolve(out, at, due, kind, idx)
	}
}

// resolve takes the decision of one deadline (kind, with the index of
// what it is about), due at due.
func (g *Game) resolve(out *[]Event, at, due time.Duration, kind deadlineKind, idx int) {
	switch kind {
	case dueSettleHeld:
		pressed := false
		for _, p := range g.waiting.presses {
			pressed = pressed || p.ev.At+g.cfg.ScanLag >= g.changed.at
		}
		g.settle(out, at, pressed)
	case dueJudgePress:
		pr := g.waiting.presses[0]
		g.waiting.presses = g.waiting.presses[1:]
		g.waiting.wait = false
		g.resolvePress(out, at, pr)
		g.snapChecks(pr.ev.Side)
	case dueCompleteByNextMove:
		g.complete(out, at, idx, ByNextMove, g.clock)
	case dueWarnMoveWithoutPress:
		g.plies[idx].warned = true
		if g.join.faces == facesGuessed {
			return // whose presses were seen is not known yet (see learnFaces)
		}
		p := g.plies[idx]
		g.anomaly(out, at, KindMoveWithoutPress, p.side, false, "6.2.1",
			fmt.Sprintf("%s made %s but %s replied before %s pressed the clock. The move is completed only by %s press or next move (6.2.1); check the clocks.",
				name(p.side), g.moveText(idx), name(p.side.Other()), name(p.side), possessive(p.side)))
	case dueCompleteByGameEnd:
		for i := range g.plies {
			if !g.plies[i].completed() {
				g.complete(out, at, i, ByGameEnd, g.clock)
			}
		}
		st := g.rec.Status()
		g.finish(out, at, st.Result, st.Reason, st.Article)
	case dueWarnUnexplained:
		g.unexplained.report()
		g.warnUnexplained(out, at)
	case dueSearchFar:
		g.resyncFar(out, at, due)
	case dueJudgeFlags:
		g.resolveFlags(out, at)
	case dueJudgeStop:
		ev := g.flag.stops[0]
		g.flag.stops = g.flag.stops[1:]
		g.clockStopped(out, at, ev)
	case dueCheckPeriod:
		c := g.flag.checks[idx]
		g.flag.checks = append(g.flag.checks[:idx:idx], g.flag.checks[idx+1:]...)
		done := g.counts.Of(c.ev.Side)
		if c.known {
			done = c.done
		}
		g.checkPeriod(out, at, c.ev, done)
	case dueDefaultTime:
		g.defaultTimePassed(out, at)
	case dueCheckJoin:
		g.join.state = joinedChecked
		g.joinedAtTheStart(out, at)
	}
}
