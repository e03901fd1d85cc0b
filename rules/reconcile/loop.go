package reconcile

import (
	"time"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules"
)

// The loop: every input ends by deciding what has fallen due by its time,
// one deadline at a time, earliest first (schedule.go says which). A
// decision does not call back into the loop: what it leads to, and what is
// to be done after that, it hands to the loop as steps (work.then), and the
// loop takes them before anything else, in the order they were handed over
// and each step's own before the next.
//
// With game.go it is the spine: it reads the parts and hands each stage the
// values it decides on (boardInput, pressInput, the record, the absence's
// facts), takes the decision the stage hands back (a boardChange, a
// pressVerdict, a flagDecision, a settleKind, a rebuildPlan) and applies it
// to the parts through their methods. No stage reads or calls another.

// stepKind is a piece of the loop's work.
type stepKind uint8

const (
	stepDeadlines    stepKind = iota // decide the next deadline due by limit, and again
	stepSignalledEnd                 // end the game with the result the kings signal, unless it has ended
	stepLookAgain                    // look at the board again if it has moved on from the record
	stepJudgeAgain                   // judge again a press that waited for the held plies
	stepSnapChecks                   // take the period checks of the side that pressed
)

// step is one piece of the loop's work: its kind and what it is about.
type step struct {
	kind   stepKind
	limit  time.Duration // stepDeadlines: decide those due by then
	guard  int           // stepDeadlines: how many were decided in this turn
	signal string        // stepSignalledEnd: the result
	press  pendingPress  // stepJudgeAgain, stepSnapChecks
}

// work is the loop's steps: those the step under way has handed over
// (emitted, in order) and those still to do (steps, the next on top).
type work struct {
	steps, emitted []step
}

// then hands s to the loop, to be done once the step under way has
// finished and before any step handed over earlier.
func (w *work) then(s step) { w.emitted = append(w.emitted, s) }

// next is the step to do next, if any: the steps handed over last come
// first, in the order they were handed over.
func (w *work) next() (step, bool) {
	for i := len(w.emitted) - 1; i >= 0; i-- {
		w.steps = append(w.steps, w.emitted[i])
	}
	w.emitted = w.emitted[:0]
	n := len(w.steps)
	if n == 0 {
		return step{}, false
	}
	s := w.steps[n-1]
	w.steps = w.steps[:n-1]
	return s, true
}

// advance resolves, in time order, every deadline due by limit. Events it
// produces carry the time of the input that brought them due, at.
func (g *Game) advance(out *[]Event, at, limit time.Duration) {
	g.work.then(step{kind: stepDeadlines, limit: limit})
	g.drain(out, at)
}

// drain does the loop's work until none is left: the steps handed over
// last are on top, in the order they were handed over.
func (g *Game) drain(out *[]Event, at time.Duration) {
	for s, ok := g.work.next(); ok; s, ok = g.work.next() {
		g.step(out, at, s)
	}
}

// step does one piece of the loop's work.
func (g *Game) step(out *[]Event, at time.Duration, s step) {
	switch s.kind {
	case stepDeadlines:
		if at > g.now {
			g.now = at
		}
		if s.guard >= 1<<16 {
			return
		}
		due, kind, idx := g.nextDeadline()
		if kind == dueNothing || due > s.limit {
			return
		}
		g.resolve(out, at, due, kind, idx)
		s.guard++
		g.work.then(s)
	case stepSignalledEnd:
		if g.end == nil {
			g.finish(out, at, s.signal, "result-signalled", "–")
		}
	case stepLookAgain:
		g.lookAgain(out, at)
	case stepJudgeAgain:
		g.resolvePress(out, at, s.press)
	case stepSnapChecks:
		g.snapChecks(s.press.ev.Side)
	}
}

// snapChecks gives the period checks of side s, when any wait, the count
// they are judged by once the presses up to their additions are judged.
func (g *Game) snapChecks(s clockd.Side) {
	if len(g.flag.checks) > 0 {
		g.flag.snapChecks(g.waiting.firstIn(s), g.led.counts, s)
	}
}

// nextDeadline finds the earliest pending decision: each part says when
// its own falls due (schedule.go), and the loop takes the earliest.
func (g *Game) nextDeadline() (due time.Duration, kind deadlineKind, idx int) {
	kind = dueNothing
	lag := g.cfg.ScanLag
	consider := func(d time.Duration, k deadlineKind, i int) {
		if kind == dueNothing || d < due || (d == due && k < kind) {
			due, kind, idx = d, k, i
		}
	}
	if g.view.held.plies != nil {
		consider(g.view.heldDue(g.cfg, g.waiting.pressFacts, g.away.awayFacts), dueSettleHeld, 0)
	}
	if d, ok := g.waiting.due(g.view.boardFacts, g.away.awayFacts, g.cfg); ok && g.facing.known() {
		consider(d, dueJudgePress, 0)
	}
	if g.away.suspect && g.view.unexplained.on() && g.view.held.plies == nil {
		switch {
		case g.away.far.in == g.view.changed.in && g.away.fromStart && g.join.faces == facesGuessed:
			// A board first read far on, by a clock whose sides are a
			// guess: the side to move is the board's to tell, by the
			// move made from the position (see movedOnFrom), not the
			// clock's; it is awaited.
		case g.away.far.in == g.view.changed.in:
			consider(g.view.rebaseDue(g.cfg, g.waiting.pressFacts, g.away.awayFacts), dueSearchFar, 0)
		case lifting(g.view.snap, g.view.placed):
			// a piece lifted (a taken piece, before the capturing one
			// lands): no position to search for until it has stood
			consider(g.view.changed.at+g.cfg.UnexplainedAfter, dueSearchFar, 0)
		default:
			consider(g.view.changed.at+lag, dueSearchFar, 0)
		}
	}
	if g.end == nil {
		g.waiting.plyDeadlines(g.led.record, g.away.mark(), g.cfg.ScanLag, g.inputs, consider)
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

// resolve takes the decision of one deadline (kind, with the index of
// what it is about), due at due.
func (g *Game) resolve(out *[]Event, at, due time.Duration, kind deadlineKind, idx int) {
	switch kind {
	case dueSettleHeld:
		pressed := false
		for _, p := range g.waiting.presses {
			pressed = pressed || p.ev.At+g.cfg.ScanLag >= g.view.changed.at
		}
		g.settle(out, at, pressed)
	case dueJudgePress:
		pr, vd := g.waiting.judgeFirst(g.pressInput(at))
		g.applyPress(out, at, pr, vd)
		g.work.then(step{kind: stepSnapChecks, press: pr})
	case dueCompleteByNextMove:
		g.led.complete(&g.em, out, at, idx, ByNextMove, g.clock)
	case dueWarnMoveWithoutPress:
		g.led.warned(idx)
		if g.join.faces == facesGuessed {
			return // whose presses were seen is not known yet (see learnFaces)
		}
		p := g.led.plies[idx]
		g.em.anomaly(out, at, KindMoveWithoutPress, p.side, false, "6.2.1",
			say(TextMoveWithoutPress,
				sideWord(p.side), g.led.moveText(idx), sideWord(p.side.Other()), sideWord(p.side), possWord(p.side)))
	case dueCompleteByGameEnd:
		for i := range g.led.plies {
			if !g.led.plies[i].completed() {
				g.led.complete(&g.em, out, at, i, ByGameEnd, g.clock)
			}
		}
		st := g.led.rec.Status()
		g.finish(out, at, st.Result, st.Reason, st.Article)
	case dueWarnUnexplained:
		g.view.unexplained.report()
		g.view.warnUnexplained(&g.em, g.led.record, g.start, g.cfg.MaxPlies, g.facing.known(), out, at)
	case dueSearchFar:
		g.resyncFar(out, at, due)
	case dueJudgeFlags:
		g.resolveFlags(out, at)
	case dueJudgeStop:
		ev := g.flag.takeStop()
		g.hand.clockStopped(&g.em, g.led.record, g.flag.down, g.end != nil, out, at, ev)
	case dueCheckPeriod:
		c := g.flag.takeCheck(idx)
		done := g.led.counts.Of(c.ev.Side)
		if c.known {
			done = c.done
		}
		if g.flag.checkPeriod(&g.em, g.cfg.TimeControl, g.end != nil || g.atStart != nil, out, at, c.ev, done) {
			g.hand.periodEarly((*out)[len(*out)-1], g.led.counts.White+g.led.counts.Black, c.ev)
		}
	case dueDefaultTime:
		g.round.defaultTimePassed(&g.em, g.led.record, g.start, g.cfg.DefaultTime, out, at)
	case dueCheckJoin:
		g.join.checked()
		g.led.joinedAtTheStart(&g.em, g.away.awayFacts, g.clock, g.cfg.TimeControl, g.facing.known() && g.end == nil, out, at)
	}
}

// resolveFlags decides the flags that fell in the earliest pending reading
// (decideFlag) and applies the verdicts: the moves their sides' next moves
// completed before the flag first, the ply a flag caught unpressed, the
// game's end. Flags reported in the same reading fell in an unknown order
// (Guidelines III.3.1).
func (g *Game) resolveFlags(out *[]Event, at time.Duration) {
	batch := g.flag.takeFlags()
	both := len(batch) >= 2 && batch[0].Side != batch[1].Side
	var verdicts []Event
	for _, f := range batch {
		side := f.Side
		if g.end == nil {
			g.led.completedByNextMove(&g.em, g.clock, out, at, side, f.At)
		}
		d := decideFlag(g.cfg, g.led.record, g.led.countAtFlag(f), g.led.atTheFlag(side, f.At), g.away.awayFacts, g.end, g.facing.known(), f, both)
		if d.warn >= 0 {
			g.led.warned(d.warn)
			g.em.anomaly(out, at, KindMoveWithoutPress, side, false, "6.2.1",
				say(TextFlagNotPressed, sideWord(side), g.led.moveText(d.warn)))
		}
		g.em.emit(out, at, d.verdict)
		verdicts = append(verdicts, d.verdict)
	}
	if g.end != nil {
		return
	}
	if result, reason, article := flagsEnd(both, verdicts); result != "" {
		g.finish(out, at, result, reason, article)
	}
}

// settle accepts the several plies the board has been showing: what they
// come to is the board stage's decision (decideSettle), applied here.
func (g *Game) settle(out *[]Event, at time.Duration, pressed bool) {
	h := g.view.accept()
	moves, from := h.plies, h.from
	r := notRebuilt
	switch decideSettle(h, pressed, g.led.plies, g.away.awayFacts) {
	case settleRemerge, settleRecommit:
		if h.replaces == mergesCompleted {
			g.away.unlaid(g.led.remerge(&g.em, g.inputs, g.clock, out, at, from, moves))
		} else {
			g.away.unlaid(g.led.recommit(&g.em, g.inputs, g.clock, out, at, from, moves))
		}
		if n := len(g.led.boards); !sameBoard(g.led.boards[n-1], g.view.snap) {
			g.process(out, at) // the board has moved on meanwhile
		}
		return
	case settleTakeBack:
		g.away.unlaid(g.led.retract(&g.em, out, at, h.backTo, nil, retractSeen))
		return
	case settleLookAfresh:
		g.process(out, at)
		return
	case settleUnverify:
		r = g.unverify(out, at, from, moves, h.ambiguous)
	case settleCheckTurn:
		r = g.rebuildOnTheClocksTurn(out, at, from, moves)
		if r == notRebuilt {
			g.away.backInStep()
			g.away.unlaid(g.led.replace(&g.em, g.inputs, out, at, from, moves))
		}
	case settleAdd:
		if h.away() {
			g.away.backInStep()
		}
		g.away.unlaid(g.led.replace(&g.em, g.inputs, out, at, from, moves)) // retracts nothing when the plies are added
	}
	if r == rebuiltBehind {
		g.process(out, at)
		g.work.then(step{kind: stepLookAgain}) // after what the board decided
		return
	}
	g.lookAgain(out, at)
}

// lookAgain reconciles the board again when it has moved on from the
// record's last position meanwhile.
func (g *Game) lookAgain(out *[]Event, at time.Duration) {
	if n := len(g.led.boards); !sameBoard(g.led.boards[n-1], g.view.snap) {
		g.process(out, at)
	}
}

// finish ends the game.
func (g *Game) finish(out *[]Event, at time.Duration, result, reason, article string) {
	g.end = &gameEnd{result, reason}
	g.waiting.dropAll()
	g.flag.gameEnded()
	g.em.emit(out, at, Event{Type: TypeEnd, Result: result, Reason: Reason(reason), Article: article})
}

// resyncFar handles a board that, back from an absence, has shown for
// ScanLag a position no sequence of up to MaxPlies moves reaches. A deeper
// search finds how many plies at least were made; the record is brought to
// the board's position by the shortest sequence, whose plies are reported
// as not verified (decideFar). When nothing reaches it and the board has
// shown it for UnexplainedAfter, the record is rebuilt from the board's
// position itself.
//
// due is the time the deadline fell due: the wait for rebaseDue is over
// when due reaches it, even when the events are stamped earlier (the end
// of a capture decides every deadline at once; comparing the stamp, the
// deadline fell due again and again, a search each time).
func (g *Game) resyncFar(out *[]Event, at, due time.Duration) {
	g.away.searchFar()
	mark := g.away.mark()
	res := explain(g.led.record, g.view.snap, resyncPlies, g.waiting.retractable(g.led.record, mark),
		g.waiting.above(g.led.record, mark, g.away.resyncing()))
	kind, moves := decideFar(res)
	switch kind {
	case farLay:
		g.view.unexplained.clear()
		if g.unverify(out, at, res.From, moves, res.Kind == rules.Ambiguous) == rebuiltBehind {
			g.process(out, at)
		}
		return
	case farTakeBack:
		g.view.unexplained.clear()
		g.away.backInStep()
		g.away.unlaid(g.led.retract(&g.em, out, at, res.From, nil, retractSeen))
		return
	case farNoChange:
		g.view.unexplained.clear()
		if !g.away.unsure(g.led.plies) {
			g.away.backInStep()
		}
		return
	}
	if g.movedOnFrom(out, at) {
		return
	}
	// The plies the board showed before the absence and nobody completed
	// may never have been made (a piece seen on its way): the search tried
	// the sequences that replace them too, and the fewest plies made count
	// from below them.
	k := g.waiting.unpressedTail(g.led.record, mark)
	from, fewest := g.led.rec.Ply()-k, least(res, k)
	if max(at, due) < g.view.rebaseDue(g.cfg, g.waiting.pressFacts, g.away.awayFacts) {
		// Wait: a piece in a hand, or one knocked over, is no position
		// to rebuild the record from; one the board keeps showing is.
		g.away.waitFar(farPosition{in: g.view.changed.in, snap: g.view.snap, least: fewest, from: from, fen: g.led.rec.FEN(),
			placed: g.view.placed})
		return
	}
	g.away.noFar()
	if g.rebase(out, at, from, fewest, Text{Code: TextWhyUnreachable}) {
		g.view.unexplained.clear()
		return
	}
	// Nothing can be built from what the board shows (unknown codes, an
	// occupancy-only board, no legal position): presses made since the
	// absence are not judged on the stale record, and arbiterd tries
	// again when the board changes.
	g.away.lost(g.led.plyBase + g.led.rec.Ply())
	g.away.reportUnverified(&g.em, out, at, say(TextUnverifiedLost,
		g.led.plyBase+g.led.rec.Ply(), g.led.counts.White, g.led.counts.Black, resyncPlies, g.led.plyBase+g.led.rec.Ply()+1), Event{})
}

// movedOnFrom rebuilds the record from the far position the board showed
// before, when what it shows now is that position with one legal move made
// (movedOn), and follows the move.
func (g *Game) movedOnFrom(out *[]Event, at time.Duration) bool {
	mark := g.away.mark()
	b, ok := movedOn(g.led.record, g.away.far, g.view.snap, g.waiting.retractable(g.led.record, mark),
		g.waiting.above(g.led.record, mark, g.away.resyncing()), g.waiting.unpressedTail(g.led.record, mark))
	if !ok || !g.rebuild(out, at, b) {
		return false
	}
	g.process(out, at)
	return true
}

// unverify brings the record to the board's position by moves that
// replace the plies after from, made while the board was not read: they
// are recorded, not completed, not counted, and reported (planLay). When
// the clock's turn has the record rebuilt instead, it says so as
// rebuildOnTheClocksTurn.
func (g *Game) unverify(out *[]Event, at time.Duration, from int, moves []*chess.Move, ambiguous bool) rebuildOutcome {
	g.resolveBefore(out, at)
	back, keepIn, firstLaid := planLay(g.led.rec, g.away.awayFacts, g.view.snap, g.view.held.in, from, moves)
	g.away.notFromStart() // the plies made before the board was first read are these
	if len(moves) > 0 {
		if r := g.rebuildOnTheClocksTurn(out, at, from, moves); r != notRebuilt {
			return r
		}
	}
	if from < g.led.rec.Ply() {
		g.away.unlaid(g.led.retract(&g.em, out, at, from, moves, retractSeen))
	}
	// A ply the board showed before the absence and nobody completed is not
	// verified either: the piece may have been on its way (the board
	// caught a slide half made), and what became of it was not seen. It
	// stays in the record, with the plies made meanwhile, unverified.
	kept := countTrailing(g.led.plies)
	verified := g.led.plyBase + g.led.rec.Ply() - kept
	l := g.led.layUnverified(at, kept, moves)
	if len(l.words) == 0 {
		return notRebuilt
	}
	seen := g.waiting.dropUnseen(g.away.mark(), keepIn)
	g.away.laidUnverified(l.n, seen, verified, len(l.words), firstLaid)
	g.away.reportLaid(&g.em, g.led.record, out, at, back, verified, l, ambiguous)
	return notRebuilt
}

// rebuildOnTheClocksTurn checks the side to move after moves against the
// clock's (checkTurn) and applies what it says: the plies laid unchecked,
// or the record rebuilt from the board (rebuiltFromBoard), or from the
// position the moves reach, the board having moved on from it
// (rebuiltBehind: the caller looks at it again).
func (g *Game) rebuildOnTheClocksTurn(out *[]Event, at time.Duration, from int, moves []*chess.Move) rebuildOutcome {
	turn, ok := g.waiting.clockTurn(g.away.at, g.view.snap)
	kind, b := checkTurn(g.led.rec, g.led.plyBase, g.away.awayFacts, g.away.laid, turn, ok, g.view.snap, g.view.held.in, from, moves)
	switch kind {
	case turnUnknown:
		g.away.laidUnchecked()
		return notRebuilt
	case turnAgrees:
		return notRebuilt
	case turnRebase:
		if g.rebase(out, at, b.from, b.least, b.why) {
			return rebuiltFromBoard
		}
		return notRebuilt
	}
	if !g.rebuild(out, at, b) {
		return notRebuilt
	}
	g.view.unexplained.clear()
	return rebuiltBehind
}

// rebase rebuilds the record from the position the board shows, when no
// sequence of moves from the record reaches it or the clock says the one
// found has the wrong side to move: the side to move is the clock's
// (clockTurn), else the record's; the ply numbers go on from the fewest
// plies that can have been made.
//
// why says how the board's position stands to the record ("which no
// sequence of moves arbiterd can check reaches").
func (g *Game) rebase(out *[]Event, at time.Duration, from, least int, why Text) bool {
	turn := g.led.rec.PositionAt(from).Turn()
	if t, ok := g.waiting.clockTurn(g.away.at, g.view.snap); ok {
		turn = t
	}
	return g.rebuild(out, at, rebuild{snap: g.view.snap, from: from, least: least, why: why, turn: turn})
}

// rebuild rebuilds the record as b says (see rebase), as planRebuild plans
// it; it reports whether it could (rebuildable).
func (g *Game) rebuild(out *[]Event, at time.Duration, b rebuild) bool {
	if !rebuildable(g.led.rec, b) {
		return false
	}
	g.resolveBefore(out, at)
	p := planRebuild(g.led.record, g.away.awayFacts, b)
	g.away.notFromStart()
	if p.from < g.led.rec.Ply() {
		g.away.unlaid(g.led.retract(&g.em, out, at, p.from, nil, retractSeen)) // superseded by the board's position
	}
	g.led.followFrom(p.rec, p.verified+p.made)
	g.view.held.release()
	var seen [2]int
	if !p.again {
		seen = g.waiting.dropUnseen(g.away.mark(), b.keepIn)
	}
	g.away.rebuilt(p.n, seen, p.verified, !p.again)
	g.away.reportRebuilt(&g.em, g.led.record, out, at, p.first, b.why, p.verified, p.made, p.n)
	if st := p.rec.Status(); st.Over {
		// The board shows a game that has ended, by a move nobody saw: a
		// mate or a stalemate on the board ends it all the same.
		g.finish(out, at, st.Result, st.Reason, st.Article)
	}
	return true
}

// resolveBefore resolves the presses made before the board went away: they
// are judged on the record as it was then, before it is brought to the
// board's position. No plies are held then (the record is brought to the
// board's position only once what was held is settled, or when nothing
// is), so no press waits for them (see resolvePress) and each is judged at
// once.
func (g *Game) resolveBefore(out *[]Event, at time.Duration) {
	for len(g.waiting.presses) > 0 && g.away.before(g.waiting.presses[0].ev.At, g.waiting.presses[0].in) {
		pr := g.waiting.shift()
		g.judgePress(out, at, pr, g.waiting.judge(g.pressInput(at), pr))
		g.snapChecks(pr.ev.Side)
	}
}

// resolvePress commits a press: the move of the pressing side that the
// board showed at the press (or shortly after) is completed.
func (g *Game) resolvePress(out *[]Event, at time.Duration, pr pendingPress) {
	g.applyPress(out, at, pr, g.waiting.judge(g.pressInput(at), pr))
}

// applyPress applies the verdict vd on the press pr, or, when the held
// plies are to be settled first, settles them and judges it again.
func (g *Game) applyPress(out *[]Event, at time.Duration, pr pendingPress, vd pressVerdict) {
	if !g.judgePress(out, at, pr, vd) {
		// the plies the board showed around the press (or reported up to
		// two scans after it, or that replace the move the press would
		// complete: the board's latest word on it) are accepted first; a
		// correction of a completed move waits for its own deadline.
		// The press is judged again after what settling decided.
		g.settle(out, at, true)
		g.work.then(step{kind: stepJudgeAgain, press: pr})
	}
}

// pressInput is what the press stage is handed to judge a press: the
// board, the record and what the absence says of the board.
func (g *Game) pressInput(at time.Duration) pressInput {
	return pressInput{board: g.view.boardFacts, led: g.led.record, away: g.away.awayFacts, cfg: g.cfg, at: at,
		ended: g.end != nil, atStart: g.atStart}
}

// judgePress applies what the press pr comes to (see judge), or reports
// false when held plies are to be settled first.
func (g *Game) judgePress(out *[]Event, at time.Duration, pr pendingPress, vd pressVerdict) (judged bool) {
	side := pr.ev.Side
	switch vd.decision {
	case pressAfterHeld:
		return false
	case pressIllegalMove:
		g.view.unexplained.report() // the press judged what the board shows
		g.hand.illegalPress(&g.em, g.cfg, g.led.record, g.led.restoreFEN(), g.view.snap, out, at, side)
	case pressOfAbsence:
		g.away.absorbed(side)
	case pressNoMove:
		g.away.endAbsorbing(pr)
		guessed := g.join.faces == facesGuessed
		if !guessed {
			// the opponent's clock runs: its press back, with no move,
			// gives the turn back
			g.waiting.expectBack(side.Other())
		}
		g.hand.pressWithoutMove(&g.em, g.cfg, g.led.record, g.led.when(pr.ev), guessed, out, at, pr.ev)
	case pressCompletesPly:
		g.away.endAbsorbing(pr)
		if g.led.pressed(&g.em, out, at, pr, vd.cands, vd.ply, g.clock) {
			st := g.led.rec.Status()
			g.finish(out, at, st.Result, st.Reason, st.Article)
			return true
		}
		// keep the reference clock in step: a completed move, at the press
		g.ref.Press(side, pr.ev.At, g.led.counts.Of(side))
	}
	return true
}

// process reads the board (the board stage, boardView.read) and applies
// what it found, and again as long as a rebuild of the record leaves the
// board moved on from the position rebuilt (see rebuildOnTheClocksTurn).
func (g *Game) process(out *[]Event, at time.Duration) {
	for g.processOnce(out, at) == rebuiltBehind {
	}
}

// boardInput is what the board stage is handed to read the board: the
// record, and what the absence and the press queue say of it now.
func (g *Game) boardInput(at time.Duration) boardInput {
	return boardInput{led: g.led.record, cfg: g.cfg, inputs: g.inputs, at: at, away: g.away.awayFacts,
		plies: g.waiting.ofRecord(g.led.record, g.away.awayFacts, g.view.snap)}
}

// processOnce reads the board once and applies what it found to the other
// parts; it reports rebuiltBehind when the board is to be looked at again.
func (g *Game) processOnce(out *[]Event, at time.Duration) rebuildOutcome {
	c := g.view.read(g.boardInput(at))
	if c.kind == changeCheckTurn {
		if r := g.rebuildOnTheClocksTurn(out, at, c.from, c.moves); r != notRebuilt {
			return r // the plies laid unchecked had the wrong side to move
		}
		g.away.backInStep()
		c = g.view.forwardInStep(g.boardInput(at), c.from, c.moves)
	}
	if c.inStep {
		g.away.backInStep()
	}
	if c.suspect {
		g.away.suspectBoard()
	}
	switch c.kind {
	case changeReplace:
		g.away.unlaid(g.led.replace(&g.em, g.inputs, out, at, c.from, c.moves))
	case changeTakeBack:
		g.away.unlaid(g.led.retract(&g.em, out, at, c.from, nil, retractSeen))
	case changeSignal:
		g.flag.resultSignalled()
		// everything pending is decided first, then the game ends
		g.work.then(step{kind: stepDeadlines, limit: noDeadline})
		g.work.then(step{kind: stepSignalledEnd, signal: c.signal})
	}
	return notRebuilt
}
