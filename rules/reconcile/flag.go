package reconcile

import (
	"math/bits"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules"
	"github.com/arbiterd/arbiterd/rules/bitboard"
)

// boardReportLag is how long after a move is made the board may report it:
// two scans of about 250 ms.
const boardReportLag = 500 * time.Millisecond

// flagDecision is what the flag stage decides of one flag: its verdict
// (the flag event) and, while the game goes on, the ply of the flagged
// side that the flag caught unpressed (warn; -1: none).
type flagDecision struct {
	verdict Event
	warn    int
}

// decideFlag decides the flag f (see verdict for done, late, a, end and
// oriented; both: both flags fell in the same reading). It changes nothing.
func decideFlag(cfg Config, led record, done int, late atTheFlag, a awayFacts, end *gameEnd, oriented bool, f fallen, both bool) flagDecision {
	d := flagDecision{verdict: cfg.verdict(led, done, late, a, end, oriented, f, both), warn: -1}
	if end != nil {
		return d
	}
	for i := len(led.plies) - 1; i >= 0; i-- {
		p := led.plies[i]
		// a move made after the flag fell is no move the flag
		// caught unpressed (the board reports a move up to a
		// scan or two after it was made)
		// (a move whose press was read after the flag was not
		// completed when it fell either)
		open := !p.completed() || p.pressedAfter(f)
		if p.side == f.Side && open && p.made.at <= f.At+boardReportLag {
			d.warn = i
			break
		}
	}
	return d
}

// flagsEnd is the game's end the verdicts of the flags of one reading lead
// to, in order (result "": none): both flags in the last period, a draw
// (Guidelines III.3.1); else the first flag's draw or loss (6.9).
func flagsEnd(both bool, verdicts []Event) (result, reason, article string) {
	for _, e := range verdicts {
		switch {
		case both && e.Verdict == VerdictDraw:
			result, reason, article = "1/2-1/2", "both-flags", "III.3.1"
		case e.Verdict == VerdictDraw && result == "":
			result, reason, article = "1/2-1/2", "flag", "6.9"
		case e.Verdict == VerdictLoss && result == "":
			result, reason, article = "1-0", "flag", "6.9"
			if e.Side == clockd.White {
				result = "0-1"
			}
		}
	}
	return result, reason, article
}

// atTheFlag is what the record says of the flagged side's moves reported
// right after the flag (see record.completedAtTheFlag): how many of its
// unpressed moves they would complete (k), the first of those and the move
// that would complete it, in words.
type atTheFlag struct {
	k           int
	first, next string
}

// verdict builds the flag event for side's flag (6.3.1, 6.4, 6.9): done
// is the side's count of completed moves when it fell (record.countAtFlag),
// late its moves reported right after it.
func (c Config) verdict(led record, done int, late atTheFlag, a awayFacts, end *gameEnd, oriented bool, f fallen, both bool) Event {
	ev, side := f.ClockEvent, f.Side
	hw := max(ev.Period, 1)
	e := Event{Type: TypeFlag, Side: side, Clock: ev.Clock, Period: hw, MovesCompleted: done}
	if !oriented || a.fromStart {
		// The record is the start position, not the game's (the board
		// shows none it follows, or one first read under way whose
		// moves before are not settled yet): no mate question can be
		// asked of it.
		e.OpponentCanMate = MateUnknown
	} else {
		e.OpponentCanMate, e.MateLine = c.canMate(led.rec, side.Other())
	}
	if c.unjudged(a, end, oriented, &e, side, hw) {
		return e
	}
	// Which period the flag belongs to is the clock interpreter's to say
	// (ev.Period: the period whose time ran out); what that means under
	// the Laws is clockd's Judge.
	j, err := c.TimeControl.Judge(hw, e.MovesCompleted)
	if err != nil {
		e.Verdict, e.Article = VerdictUnknown, "6.4"
		e.Text = say(TextFlagJudgeError, possWord(side), e.MovesCompleted, err,
			mateText(side.Other(), e.OpponentCanMate, Text{Code: TextMateIfNotReached}))
		return e
	}
	c.judged(late, &e, side, j, both)
	return e
}

// unjudged gives the verdict of a flag whose count cannot be judged against
// the control: after the game ended (none), after moves arbiterd could not
// verify, or without a time control (unknown). It reports whether it did.
func (c Config) unjudged(a awayFacts, end *gameEnd, oriented bool, e *Event, side clockd.Side, hw int) bool {
	tc, done, opp := c.TimeControl, e.MovesCompleted, side.Other()
	switch {
	case end != nil:
		e.Verdict, e.Article = VerdictNone, "6.8"
		e.Text = say(TextFlagAfterEnd, possWord(side), end.result, endWord(end.reason))
		if len(tc.Periods) > 0 {
			e.MovesRequired = tc.Required(hw)
			e.ControlReached = e.MovesRequired > 0 && done >= e.MovesRequired
		}
	case !oriented || a.fromStart:
		// arbiterd has not followed this game at all (or not yet: the
		// board was first read under way, and the moves before are not
		// settled): no count, no position.
		if len(tc.Periods) > 0 {
			e.MovesRequired = tc.Required(hw)
		}
		e.Verdict, e.Article = VerdictUnknown, "6.4"
		e.Text = say(TextFlagNotFollowed,
			possWord(side), sideWord(opp))
	case a.unverifiedFrom > 0 || a.stale:
		// Moves were made that arbiterd could not verify: its count is
		// short by at least a.unverified[side] moves, perhaps more.
		if len(tc.Periods) > 0 {
			e.MovesRequired = tc.Required(hw)
		}
		e.Verdict, e.Article = VerdictUnknown, "6.4"
		e.Text = say(TextFlagUnverified,
			possWord(side), a.unverifiedFrom, done, a.unverified[side], mateText(opp, e.OpponentCanMate, Text{Code: TextMateIfNotReached}))
	case len(tc.Periods) == 0:
		e.Verdict, e.Article = VerdictUnknown, "6.4"
		e.Text = say(TextFlagNoControl,
			possWord(side), done, mateText(opp, e.OpponentCanMate, Text{Code: TextMateIfNotReached}))
	default:
		return false
	}
	return true
}

// judged gives the verdict of a flag judged by j: play continues when the
// control was reached (or both flags fell before the last period), a draw
// when both fell in the last, and otherwise a loss, or a draw when the
// opponent cannot checkmate (6.9).
func (c Config) judged(late atTheFlag, e *Event, side clockd.Side, j clockd.Judgement, both bool) {
	done, opp, hw := e.MovesCompleted, side.Other(), e.Period
	eff, required, last := j.Period, j.Required, j.Last
	e.Period = eff
	e.MovesRequired = required
	e.ControlReached = j.Reached
	where := say(TextFlagWhere, possWord(side), periodWord(eff), done)
	if last {
		where = say(TextFlagWhereLast, possWord(side), done)
	}
	switch {
	case both && last:
		e.Verdict, e.Article = VerdictDraw, "III.3.1"
		e.Text = say(TextFlagBothLast, where)
		return
	case both:
		e.Verdict, e.Article = VerdictNone, "III.3.1"
		e.Text = say(TextFlagBoth, where)
		return
	case e.ControlReached:
		e.Verdict, e.Article = VerdictNone, "6.3.1"
		e.Text = say(TextFlagReached, where, required)
		return
	}
	var req any = ""
	if !last {
		req = say(TextFlagRequires, periodWord(eff), required)
	}
	var early any = ""
	if j.Early {
		early = say(TextFlagEarly,
			periodWord(hw), sideWord(side), required, periodWord(eff))
	}
	e.Article = "6.9"
	e.Verdict = VerdictLoss
	if e.OpponentCanMate == MateNo {
		e.Verdict = VerdictDraw
	}
	e.Text = say(TextFlagVerdict, where, req, early, mateText(opp, e.OpponentCanMate, ""))
	if k := late.k; k > 0 {
		// A move reported right after the flag may have been made
		// before it: then it completed an earlier one (6.2.1), and
		// with it the control. The board cannot tell which.
		if j2, err := c.TimeControl.Judge(hw, done+k); err == nil && j2.Reached {
			e.Verdict, e.Article = VerdictUnknown, "6.2.1"
			e.Text = say(TextFlagAtTheFlag,
				where, req, late.next, late.first, j2.Required, mateText(opp, e.OpponentCanMate, ""))
		}
	}
}

// canMate asks the oracle (or the built-in test) about side in the
// position on the board.
func (c Config) canMate(rec *rules.Game, side clockd.Side) (Mate, []string) {
	fen := rec.FEN()
	if c.Oracle != nil {
		ans, line := c.Oracle.CanMate(fen, side)
		switch ans {
		case MateYes:
			if len(line) == 0 {
				return MateUnknown, nil // a "yes" must come with its line
			}
			return ans, append([]string(nil), line...)
		case MateNo:
			return ans, nil
		}
		return MateUnknown, nil
	}
	return MaterialOracle{}.CanMate(fen, side)
}

// MaterialOracle is the built-in, sound but partial 6.9 test: it answers
// "no" when the side has a bare king, or a king and one minor piece against
// a bare king, and "unknown" otherwise. It never answers "yes".
type MaterialOracle struct{}

// CanMate implements MateOracle.
func (MaterialOracle) CanMate(fen string, side clockd.Side) (Mate, []string) {
	pos, err := bitboard.ParseFEN(fen)
	if err != nil {
		return MateUnknown, nil
	}
	us := bitboard.White
	if side == clockd.Black {
		us = bitboard.Black
	}
	own := bits.OnesCount64(pos.Occupied(us)) - 1 // not the king
	other := bits.OnesCount64(pos.Occupied(us.Other())) - 1
	minor := pos.Pieces(us, bitboard.Knight)|pos.Pieces(us, bitboard.Bishop) != 0
	switch {
	case own == 0:
		return MateNo, nil
	case own == 1 && other == 0 && minor:
		return MateNo, nil
	}
	return MateUnknown, nil
}

type periodCheck struct {
	ev clockd.ClockEvent
	in int // the input that reported it: presses after it are not its
	// done is the side's completed moves once every press up to the
	// addition was resolved (known): the count the addition is checked
	// against, whatever later presses completed before the check is due.
	done  int
	known bool
}

// flagState is the periods and flags as the clock showed them and the
// checks they are due.
type flagState struct {
	flags      []fallen
	stops      []clockd.ClockEvent // clock stops not yet decided (6.11)
	checks     []periodCheck
	down       [2]bool // a side's flag has fallen
	sincePress bool    // a flag fell since the latest press
	hwPeriod   [2]int  // the period the clock shows for each side
}

// fallen is a flag awaiting its verdict, with the input that reported it:
// a press read after it, even at the same time, came after the flag.
type fallen struct {
	clockd.ClockEvent
	in int
}

// snapChecks takes the count each period check of side s is judged by,
// once the presses up to its addition are resolved.
//
// first is the input of s's first waiting press (pressFacts.firstIn): a
// check waits while a press up to its addition does.
func (f *flagState) snapChecks(first int, counts Moves, s clockd.Side) {
	for i := range f.checks {
		c := &f.checks[i]
		if c.ev.Side == s && !c.known && first > c.in {
			c.done, c.known = counts.Of(s), true
		}
	}
}

// pressRead: a press was read; a flag that falls from now on fell after it.
func (f *flagState) pressRead() { f.sincePress = false }

// clockFlag records a flag, judged once the presses before it are resolved
// (resolveFlags).
func (f *flagState) clockFlag(inputs int, ev clockd.ClockEvent) {
	if f.down[ev.Side] {
		return
	}
	f.down[ev.Side] = true
	f.sincePress = true
	// The period whose time ran out is the interpreter's to say: it
	// alone sees whether the clock added the next one at the flag.
	if ev.Period < 1 {
		ev.Period = max(1, f.hwPeriod[ev.Side])
	}
	// A period the clock added in the same reading came with this
	// flag: it is not a counter's addition to check against the moves.
	kept := f.checks[:0]
	for _, c := range f.checks {
		if c.ev.Side != ev.Side || c.ev.At != ev.At {
			kept = append(kept, c)
		}
	}
	f.checks = kept
	f.flags = append(f.flags, fallen{ev, inputs})
}

// clockPeriodAdded records a period the clock added, and the check of the
// moves against it when a counter added it.
func (f *flagState) clockPeriodAdded(em *emitter, first int, counts Moves, inputs int, check bool, out *[]Event, at time.Duration, ev clockd.ClockEvent) {
	period := ev.Period
	if period <= f.hwPeriod[ev.Side] {
		period = f.hwPeriod[ev.Side] + 1
	}
	f.hwPeriod[ev.Side] = period
	// A clock may show the flag at 0:00 and add the next period only
	// with the flagged side's next press: while that side's flag is
	// down, an addition is the flag's, not a counter's.
	flagged := f.down[ev.Side]
	f.down[ev.Side] = false
	em.emit(out, at, Event{Type: TypePeriod, Side: ev.Side, Period: period, Added: ev.Added})
	if !f.sincePress && !flagged && check {
		ev.Period = period
		f.checks = append(f.checks, periodCheck{ev: ev, in: inputs})
		f.snapChecks(first, counts, ev.Side)
	}
}

// checkPeriod compares a period addition made at a press with the side's
// completed moves (6.10, 6.3.1). It reports whether the period was added
// too early: the arbiter is then expected to take the time back (see
// hand.periodEarly).
func (f *flagState) checkPeriod(em *emitter, tc clockd.TimeControl, skip bool, out *[]Event, at time.Duration, ev clockd.ClockEvent, done int) (early bool) {
	// With the board showing the starting position mid-game, a clock
	// whose times went up was most likely reset too: no counter to check.
	if skip || ev.Period < 2 {
		return false
	}
	side, tc := ev.Side, tc
	prev := ev.Period - 1
	required := tc.Required(prev)
	added := durationWords(ev.Added)
	switch {
	case required == 0:
		em.anomaly(out, at, KindClockCounter, side, false, "6.10",
			say(TextPeriodNone,
				added, possWord(side), ev.Period, tc.String(), possWord(side)))
	case done < required:
		em.anomaly(out, at, KindClockCounter, side, false, "6.10",
			say(TextPeriodEarly,
				periodWord(ev.Period), added, possWord(side), possWord(side), ordinalWord(done), periodWord(prev), required, added, possWord(side), required))
		early = true
	case done > required:
		em.anomaly(out, at, KindClockCounter, side, false, "6.10",
			say(TextPeriodLate,
				periodWord(ev.Period), added, possWord(side), possWord(side), ordinalWord(done), periodWord(prev), required, done-required, possWord(side)))
	}
	return early
}

// resultSignalled: the kings signal a result; the players stopped the
// clock to signal it, and its stops are no incidents to judge.
func (f *flagState) resultSignalled() { f.stops = nil }

// startPeriod sets the period side's clock shows at the start of a game,
// in which it has completed done moves, and returns it.
func (f *flagState) startPeriod(s clockd.Side, tc clockd.TimeControl, done int) int {
	f.hwPeriod[s] = tc.PeriodOf(done)
	return f.hwPeriod[s]
}

// stopped: the clock was stopped (ev); decided once the board has shown
// what ended the game, if anything did (see clockStopped).
func (f *flagState) stopped(ev clockd.ClockEvent) { f.stops = append(f.stops, ev) }

// takeStop takes the first stop of the clock off the list, to be judged.
func (f *flagState) takeStop() clockd.ClockEvent {
	ev := f.stops[0]
	f.stops = f.stops[1:]
	return ev
}

// takeCheck takes period check i off the list, to be made.
func (f *flagState) takeCheck(i int) periodCheck {
	c := f.checks[i]
	f.checks = append(f.checks[:i:i], f.checks[i+1:]...)
	return c
}

// takeFlags takes off the list the flags that fell in the earliest pending
// reading, to be judged together.
func (f *flagState) takeFlags() []fallen {
	first := f.flags[0].At
	var batch []fallen
	for len(f.flags) > 0 && f.flags[0].At == first {
		batch = append(batch, f.flags[0])
		f.flags = f.flags[1:]
	}
	return batch
}

// gameEnded: once the game has ended no period is checked, and a stopped
// clock is expected.
func (f *flagState) gameEnded() {
	f.checks = nil
	f.stops = nil
}

// clockWasReset: the clock was reset; it shows the first period again,
// and no flag.
func (f *flagState) clockWasReset() {
	f.hwPeriod = [2]int{1, 1}
	f.down = [2]bool{}
}
