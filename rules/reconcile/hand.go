package reconcile

import (
	"fmt"
	"slices"
	"time"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules"
)

// The arbiter's hand on the clock. An arbiter stops the clock to settle an
// incident (an illegal move, a press without a move, a clock that added a
// period early, a clock reset), sets a time, and starts the clock again
// (6.10, 6.11, 7.5.5). Each such touch is recorded: the stop as a pause
// when an incident explains it, each face's net change over the stop as an
// adjust event with the rule it fits, and the alerts it settles are closed
// by it.

// adjustTolerance is how far a change may be from the one a rule expects
// and still be taken for it: a clock sets whole seconds, and the reading at
// the stop may be up to a second away from the time it was stopped at.
const adjustTolerance = 1500 * time.Millisecond

// A stop of the clock is taken for the arbiter coming to settle an alert
// when it comes within arbiterWindow of the alert and at most arbiterPlies
// completed moves after it. A later stop (the players stopping the clock
// at the end, long after an alert nobody acted on) is not.
const (
	arbiterWindow = 3 * time.Minute
	arbiterPlies  = 2
)

// incident is an open alert that a change of the clock settles.
type incident struct {
	seq     int           // the anomaly's seq
	at      time.Duration // when it was raised
	plies   int           // moves completed by then (both sides)
	side    clockd.Side   // whose clock the arbiter changes
	delta   time.Duration // by how much (0: to restore)
	to      clockd.Times  // for a restore: the times to set back
	what    Text          // the reason, in words, once the change is seen
	title   Text          // the incident, in words ("Black's press without a move")
	article string        // the article it applies
	// offender: for a penalty, the side whose increment the illegal press
	// earned may also be taken off (7.5.5); inc is that increment.
	offender clockd.Side
	inc      time.Duration
}

// hand is the state of the arbiter's touches (reset with the game).
type hand struct {
	open []incident
	// stop: whether the clock stands, and why. During a stop: the times
	// when it stopped (from), whether a face's time changed since
	// (changed), whether the stop is recorded as the arbiter's pause
	// (pause), and the clock-stopped alert it raised (stopSeq, 0: none).
	stop    handStop
	stopAt  time.Duration
	from    clockd.Times
	changed bool
	pause   bool
	stopSeq int
	unsure  bool   // a change's face was named by the clock's indicators alone
	illegal [2]int // completed illegal moves by side, penalised (7.5.3, 7.5.5)
}

// handStop is whether the clock stands.
type handStop uint8

const (
	notStopped   handStop = iota
	stoppedPlain          // by a player or the arbiter
	// stoppedAfterReset: the clock was reset mid-game and has not run since (the
	// times it showed before are the reset incident's to).
	stoppedAfterReset
)

// stopped reports whether the clock stands.
func (h *hand) stopped() bool { return h.stop != notStopped }

// expect records that the anomaly just emitted (the last of out) is
// settled by a change of side's clock by delta.
func (h *hand) expect(e Event, plies int, side clockd.Side, delta time.Duration, title, what Text, art string) {
	h.open = append(h.open, incident{seq: e.Seq, at: e.At, plies: plies, side: side, delta: delta, title: title, what: what, article: art})
}

// expectPenalty opens the incident of offender's first completed illegal
// move (or press without a move): two minutes (one in rapid and blitz) to
// the opponent, and the increment the press earned taken off (7.5.5).
func (h *hand) expectPenalty(c Config, illegal [2]int, counts Moves, out *[]Event, offender clockd.Side, title Text) {
	if illegal[offender] != 1 {
		return // a second one loses the game: no time to add
	}
	d, art := c.penaltyTime()
	h.expect((*out)[len(*out)-1], counts.White+counts.Black, offender.Other(), d, title, say(TextIncidentPenalty, durationWords(d), sideWord(offender.Other()), possWord(offender)), art)
	in := &h.open[len(h.open)-1]
	in.offender, in.inc = offender, increment(c.TimeControl, counts.Of(offender))
}

// increment is the Fischer increment a press of side earns in the period
// it is in (0 in other modes).
func increment(tc clockd.TimeControl, done int) time.Duration {
	if len(tc.Periods) == 0 {
		return 0
	}
	p := tc.Periods[min(tc.PeriodOf(done), len(tc.Periods))-1]
	if p.Mode != clockd.Fischer {
		return 0
	}
	return p.Increment
}

// penaltyTime is what the opponent gets for a first completed illegal
// move, with the article that says so.
func (c Config) penaltyTime() (time.Duration, string) {
	if c.Class == clockd.Rapid || c.Class == clockd.Blitz {
		return time.Minute, "7.5.5, A.3"
	}
	return 2 * time.Minute, "7.5.5"
}

// clockPaused notes that the clock stopped.
func (h *hand) clockPaused(ev clockd.ClockEvent) {
	if h.stop == notStopped {
		h.stop = stoppedPlain
	}
	h.stopAt, h.from, h.changed = ev.At, ev.Clock, false
	h.pause, h.stopSeq = false, 0
}

// arbitersStop reports whether the stop being decided is the arbiter's:
// an incident the arbiter settles at the clock is open, or a time was
// changed while it stood. It is then recorded as a pause, not an alarm.
func (h *hand) arbitersStop(plies int) bool {
	return h.stopped() && (h.fresh(plies) != nil || h.changed)
}

// fresh is the latest open incident raised shortly before the stop.
func (h *hand) fresh(plies int) *incident {
	for i := len(h.open) - 1; i >= 0; i-- {
		if in := &h.open[i]; h.stopAt-in.at <= arbiterWindow && plies-in.plies <= arbiterPlies {
			return in
		}
	}
	return nil
}

// pauseEvent records the stop as the arbiter's pause (6.11).
func (h *hand) pauseEvent(em *emitter, plies int, out *[]Event, at time.Duration, clock clockd.Times) {
	h.pause = true
	why := Text{Code: TextPauseArbiterSet}
	if in := h.fresh(plies); in != nil {
		why = say(TextPauseToSettle, in.title)
	}
	em.emit(out, at, Event{Type: TypePause, State: StateStopped, By: ByArbiter, Clock: clock, Article: "6.11",
		Text: say(TextPauseStopped, hms(clock.White), hms(clock.Black), why)})
}

// timeChanged notes a face's time changed while the clock stood.
func (h *hand) timeChanged(ref *clockd.Clock, playing bool, at time.Duration, ev clockd.ClockEvent) {
	if !playing || !h.stopped() {
		return // the clock being set before the game, or after it
	}
	h.changed = true
	h.unsure = h.unsure || ev.Inferred
	ref.SetTime(ev.Side, ev.Clock.Of(ev.Side), at)
}

// clockRuns is called when a stopped clock runs again (Resumed, or
// Started after a reset): the stop is decided if it was not yet, and each
// face's net change over it is recorded.
func (h *hand) clockRuns(em *emitter, ended, stopPending bool, plies int, out *[]Event, at time.Duration, clock clockd.Times) (stopDecided bool) {
	if h.stop == stoppedAfterReset {
		if !ended {
			h.adjusted(em, out, at, h.from, clock)
		}
		h.stop, h.unsure = notStopped, false
		return false
	}
	if !h.stopped() {
		return false
	}
	if stopPending && h.changed {
		// the stop is not decided yet: a changed time says whose it was
		stopDecided = true
		h.pauseEvent(em, plies, out, at, h.from)
	}
	if h.changed && !ended {
		h.adjusted(em, out, at, h.from, clock)
	}
	if h.pause {
		em.emit(out, at, Event{Type: TypePause, State: StateRunning, By: ByArbiter, Clock: clock, Article: "6.11",
			Text: say(TextPauseRunning, hms(clock.White), hms(clock.Black))})
	}
	h.stop, h.changed, h.pause, h.stopSeq, h.unsure = notStopped, false, false, 0, false
	return stopDecided
}

// clockReset notes a reset of the clock mid-game: the times it showed
// before are what the arbiter sets back (6.10); the reset anomaly just
// emitted is settled by it.
func (h *hand) clockReset(last Event, plies int, before, now clockd.Times) {
	h.stop, h.from, h.changed = stoppedAfterReset, now, false
	h.expect(last, plies, clockd.White, 0, Text{Code: TextIncidentReset}, Text{Code: TextIncidentResetWhat}, "6.10")
	h.open[len(h.open)-1].to = before
}

// adjusted records each face's change between from and to, with the
// rule it fits, closing the alerts it settles.
func (h *hand) adjusted(em *emitter, out *[]Event, at time.Duration, from, to clockd.Times) {
	var settled []int
	for _, s := range []clockd.Side{clockd.White, clockd.Black} {
		d := to.Of(s) - from.Of(s)
		if d == 0 {
			continue
		}
		e := Event{Type: TypeAdjust, Side: s, From: from.Of(s), To: to.Of(s), Delta: d, Clock: to, Article: "6.10",
			Text: say(TextAdjust, possWord(s), FormatChange(d), hms(from.Of(s)), hms(to.Of(s)))}
		i, why, settles := h.fits(s, to.Of(s), d)
		if i < 0 && h.unsure {
			// The face was named by the clock's indicators alone; a change
			// that is exactly what an alert asks of the other player's
			// clock is that player's.
			if j, w, st := h.fits(s.Other(), to.Of(s), d); j >= 0 && st {
				i, why, settles = j, w, st
				e.Side = s.Other()
				e.Clock = clockd.Times{White: to.Black, Black: to.White}
				e.Text = say(TextAdjust, possWord(e.Side), FormatChange(d), hms(from.Of(s)), hms(to.Of(s)))
			}
		}
		if i >= 0 {
			in := h.open[i]
			e.Article = in.article
			e.Text = say(TextAdjustFits, possWord(e.Side), FormatChange(d), hms(from.Of(s)), hms(to.Of(s)), why, in.article)
			if settles {
				// the change the alert asked for: it is closed
				e.Closes = []int{in.seq}
				settled = append(settled, in.seq)
			}
		}
		if h.unsure {
			e.SideUnsure = true
			e.Text = say(TextAdjustUnsure, e.Text)
		}
		if h.stopSeq > 0 {
			// the clock-stopped alert: the arbiter's hand stopped it
			e.Closes = append(e.Closes, h.stopSeq)
			h.stopSeq = 0
		}
		em.emit(out, at, e)
	}
	kept := h.open[:0]
	for _, in := range h.open {
		if !slices.Contains(settled, in.seq) {
			kept = append(kept, in)
		}
	}
	h.open = kept
}

// fits finds the open incident that a change of side's clock by d (to
// to) belongs to, and words it; settles says the change is the one the
// alert asked for (the increment an illegal press earned, taken off, is
// part of the incident but not what closes it). -1 when none fits.
func (h *hand) fits(s clockd.Side, to, d time.Duration) (i int, why Text, settles bool) {
	near := func(a, b time.Duration) bool { return a-b <= adjustTolerance && b-a <= adjustTolerance }
	for i := len(h.open) - 1; i >= 0; i-- {
		in := h.open[i]
		switch {
		case in.to != (clockd.Times{}):
			if near(to, in.to.Of(s)) {
				return i, in.what, true
			}
		case in.side == s && in.delta != 0 && near(d, in.delta):
			return i, in.what, true
		case in.offender == s && in.inc > 0 && near(d, -in.inc):
			return i, say(TextIncidentIncrement, possWord(s)), false
		}
	}
	return -1, Text{}, false
}

// FormatChange words a change of a clock's time: "+2:00", "-0:30",
// "+1:00:00".
func FormatChange(d time.Duration) string {
	sign := "+"
	if d < 0 {
		sign, d = "-", -d
	}
	s := int64(d / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%s%d:%02d:%02d", sign, s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%s%d:%02d", sign, s/60, s%60)
}

// defaultTimePassed checks, once the default time has passed since the
// clock started, that each player has made a move: White's first, and
// Black's reply. A player who has not is perhaps not at the board (6.7.1);
// the arbiter checks, and decides (an absent player loses, 6.7.1, unless
// the rules of the competition say otherwise).
func (r *roundState) defaultTimePassed(em *emitter, led record, start *chess.Position, defaultTime time.Duration, out *[]Event, at time.Duration) {
	*r = roundDefaultChecked
	var made [2]bool
	for _, p := range led.plies {
		made[p.side] = true
	}
	first := clockd.White
	if start.Turn() == chess.Black {
		first = clockd.Black
	}
	for _, s := range []clockd.Side{first, first.Other()} {
		if made[s] || s != first && !made[first] {
			// the second player's move is due only once the first has moved
			continue
		}
		em.anomaly(out, at, KindDefaultTime, s, false, "6.7.1",
			say(TextDefaultTime,
				durationWords(defaultTime), sideWord(s), sideWord(s)))
		break
	}
}

// roundState is where the round stands for this board: the clock not yet
// started, started with the default time (6.7.1) still to check, or
// started and the default time checked (or not to be checked: a clock
// first read with the game under way).
type roundState uint8

const (
	roundNotStarted roundState = iota
	roundStarted
	roundDefaultChecked
)

// clockWasReset handles the clock set back to the control's starting times
// mid-game: it counts afresh; the record and the move counts stand.
func (h *hand) clockWasReset(em *emitter, plies int, ended bool, before clockd.Times, out *[]Event, at time.Duration, ev clockd.ClockEvent) {
	if !ended {
		em.anomaly(out, at, KindClockReading, 0, true, "6.10",
			say(TextReadingReset,
				hms(ev.Clock.White), hms(ev.Clock.Black), hms(before.White), hms(before.Black)))
		h.clockReset((*out)[len(*out)-1], plies, before, ev.Clock)
	}
}

// pressWithoutMove reports ev, a press with no new move of its side on the
// board: an illegal move (6.2.4, 7.5.3); the opponent's press back, with no
// move of its own, is then expected and no offence.
//
// when words the moment of the press (record.when).
func (h *hand) pressWithoutMove(em *emitter, cfg Config, led record, when Text, guessed bool, out *[]Event, at time.Duration, ev clockd.ClockEvent) {
	if guessed {
		return // whose press it was is not known yet (see learnFaces)
	}
	side := ev.Side
	h.illegal[side]++
	em.anomaly(out, at, KindPressWithoutMove, side, false, "7.5.3",
		say(TextPressWithoutMove,
			sideWord(side), when, possWord(side), cfg.penalty(led.rec, h.illegal, side)))
	h.expectPenalty(cfg, h.illegal, led.counts, out, side, say(TextIncidentPress, possWord(side)))
}

// clockStopped decides a clock stop (6.11) once the board has had ScanLag
// to show the move that ended the game: after the game has ended
// (checkmate, stalemate, a result signalled, a flag) a stopped clock is
// what the players do, and nothing is raised; during the game the arbiter
// is told.
func (h *hand) clockStopped(em *emitter, led record, flagDown [2]bool, ended bool, out *[]Event, at time.Duration, ev clockd.ClockEvent) {
	if ended || led.rec.Status().Over {
		// the record's position ends the game: its game-end is due
		return
	}
	if flagDown[clockd.White] || flagDown[clockd.Black] || ev.Clock.White <= 0 || ev.Clock.Black <= 0 {
		// a clock stops by itself when a flag falls and its time is
		// blocked at zero: the flag is the news, not the stop
		return
	}
	if h.arbitersStop(led.counts.White + led.counts.Black) {
		h.pauseEvent(em, led.counts.White+led.counts.Black, out, at, ev.Clock)
		return
	}
	em.anomaly(out, at, KindClockStopped, 0, true, "6.11",
		say(TextClockStopped,
			hms(ev.Clock.White), hms(ev.Clock.Black)))
	if h.stopped() {
		h.stopSeq = em.seq
	}
}

// illegalPress reports a press completing a position no legal move
// explains; restore is the position the arbiter restores (record.restoreFEN).
func (h *hand) illegalPress(em *emitter, cfg Config, led record, restore string, board rules.Snapshot, out *[]Event, at time.Duration, side clockd.Side) {
	h.illegal[side]++
	kind, article := KindIllegalMove, "7.5.1"
	what := say(TextIllegalPosition, possWord(side))
	if s, san, ok := twoMoves(led.rec, board); ok && s == side {
		kind, article = KindTwoMoves, "7.5"
		what = say(TextIllegalTwoMoves, sideWord(side), san, sideWord(side.Other()))
	}
	em.anomaly(out, at, kind, side, false, article,
		say(TextIllegal,
			sideWord(side), what, restore, sideWord(side), cfg.penalty(led.rec, h.illegal, side)))
	h.expectPenalty(cfg, h.illegal, led.counts, out, side, say(TextIncidentIllegal, possWord(side)))
}

// claimRejected expects the arbiter to add two minutes to the opponent's
// time for the claim c rejected (10.2), by the decision event e.
func (h *hand) claimRejected(e Event, plies int, c *claim) {
	opp := c.side.Other()
	h.expect(e, plies, opp, 2*time.Minute, say(TextIncidentRejected, possWord(c.side)),
		say(TextIncidentRejectedWhat, sideWord(opp), possWord(c.side)), "10.2")
}

// periodEarly expects the arbiter to take back the time the clock added
// for a period too early (ev, reported by e; 6.10).
func (h *hand) periodEarly(e Event, plies int, ev clockd.ClockEvent) {
	h.expect(e, plies, ev.Side, -ev.Added, say(TextIncidentPeriodEarly, possWord(ev.Side)), say(TextIncidentPeriodEarlyWhat, periodWord(ev.Period)), "6.10")
}
