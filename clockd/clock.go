package clockd

import "time"

// EventKind says what an Event (reference clock) or ClockEvent
// (interpreted hardware readings) reports.
type EventKind int

const (
	// Flag: the side's time reached zero (6.1).
	Flag EventKind = iota + 1
	// PeriodAdded: the next period's time was added to the side's clock
	// (6.3.2) — by the reference clock when the side completed the period's
	// moves, by hardware at a flag or after its own count of presses.
	PeriodAdded
	// Started: the clock started; White's clock runs (6.6).
	Started
	// Press: a side pressed its lever; its clock stopped.
	Press
	// Stopped: the clock was stopped or paused (6.11).
	Stopped
	// Resumed: the clock runs again after Stopped.
	Resumed
	// Impossible: a reading the control cannot produce; it is not trusted.
	Impossible
	// Disconnected: the device reports that no clock is connected.
	Disconnected
	// Connected: a clock is reported again after Disconnected.
	Connected
	// Adjusted: a time changed while the clock was stopped (the arbiter
	// set the clock, 6.10 / 7.5.5).
	Adjusted
	// BatteryLow: the device reports a low battery (reported once until it
	// clears).
	BatteryLow
	// Convention: what the clock's turn bits or lever bit say about whose
	// time runs changed meaning, as the displays show (another clock, or a
	// firmware quirk); the interpreter follows the displays.
	Convention
	// Reset: the clock was set back to the control's starting times
	// mid-game; the interpreter counts afresh (periods, presses) from it.
	Reset
	// Running: Side's time runs, as a reading says that the interpreter
	// takes as a whole rather than press by press: the first after a gap
	// in the readings (the device relaying the clock, or arbiterd, was
	// away), or one confirming an untrusted reading. The presses made
	// meanwhile may not be countable; whose turn it is can be read —
	// unless the runner has moved and not yet pressed.
	Running
)

// String returns a lower-case name such as "press" or "period-added".
var eventKindNames = [...]string{Flag: "flag", PeriodAdded: "period-added", Started: "started", Press: "press",
	Stopped: "stopped", Resumed: "resumed", Impossible: "impossible", Disconnected: "disconnected",
	Connected: "connected", Adjusted: "adjusted", BatteryLow: "battery-low", Convention: "convention",
	Reset: "reset", Running: "running"}

func (k EventKind) String() string { return enumName(k, eventKindNames[:], "EventKind") }

// Event is something the reference clock reports.
type Event struct {
	Kind   EventKind
	Side   Side
	At     time.Duration // when it happened (a flag: the exact instant the time reached zero)
	Period int           // Flag: the period it fell in; PeriodAdded: the period that started
	Added  time.Duration // PeriodAdded: the time added
}

// Times is a pair of clock times.
type Times struct{ White, Black time.Duration }

// Of returns the time of side.
func (t Times) Of(s Side) time.Duration {
	if s == Black {
		return t.Black
	}
	return t.White
}

// set sets the time of side.
func (t *Times) set(s Side, d time.Duration) {
	if s == Black {
		t.Black = d
	} else {
		t.White = d
	}
}

type sideState struct {
	// base is the side's time at the start of its current move, adjusted by
	// AddTime/SetTime; for the idle side it is simply its time.
	base      time.Duration
	period    int  // 1-based
	completed int  // completed moves as last told by Press or SetPeriod
	fallen    bool // the flag has fallen (and was reported)
}

// Clock is the reference chess clock: a pure state machine without
// goroutines or timers, exact to the nanosecond (and so to the
// millisecond). Every method takes `at`, the offset since the session
// start; callers pass non-decreasing values (an earlier `at` is treated as
// no time passing).
//
// Law 6.6: Start starts White's clock. Press(side, …) is side completing a
// move: its clock stops, the per-move credit of its mode is applied, and
// the opponent's clock starts. A side whose flag has fallen stays at zero
// and earns no increment or Bronstein credit (like a clock that blocks at
// zero) until time is added to it: by a new period, AddTime or SetTime.
type Clock struct {
	tc       TimeControl
	sides    [2]sideState
	started  bool
	running  bool
	turn     Side
	segStart time.Duration // when the running side's clock last started or resumed
	elapsed  time.Duration // time used in the current move before segStart
}

// NewClock returns a clock set for tc, not started: each side has the
// first period's time.
func NewClock(tc TimeControl) *Clock {
	c := &Clock{tc: tc}
	first := tc.period(1)
	for i := range c.sides {
		c.sides[i] = sideState{base: first.Time, period: 1}
	}
	return c
}

// TimeControl returns the control the clock was set for.
func (c *Clock) TimeControl() TimeControl { return c.tc }

// Start starts White's clock at `at` (6.6). In Fischer mode the first
// period's increment is added to both sides before the first move. A
// second Start does nothing.
func (c *Clock) Start(at time.Duration) {
	if c.started {
		return
	}
	c.started, c.running, c.turn = true, true, White
	c.segStart, c.elapsed = at, 0
	if p := c.tc.period(1); p.Mode == Fischer && p.Increment > 0 {
		for i := range c.sides {
			c.sides[i].base += p.Increment
		}
	}
}

// used is the time the side to move has spent on its current move by at.
func (c *Clock) used(at time.Duration) time.Duration {
	u := c.elapsed
	if c.running && at > c.segStart {
		u += at - c.segStart
	}
	return u
}

// consumed is how much of the side's main time a move of length u uses:
// all of it, except in simple-delay mode where the delay is free.
func (c *Clock) consumed(s Side, u time.Duration) time.Duration {
	if p := c.tc.period(c.sides[s].period); p.Mode == Delay {
		return max(0, u-p.Increment)
	}
	return u
}

// moving reports whether s is the side whose move is in progress.
func (c *Clock) moving(s Side) bool { return c.started && s == c.turn }

// Remaining returns side's time at `at`, never below zero.
func (c *Clock) Remaining(side Side, at time.Duration) time.Duration {
	st := c.sides[side]
	if !c.moving(side) {
		return max(0, st.base)
	}
	return max(0, st.base-c.consumed(side, c.used(at)))
}

// Times returns both sides' times at `at`.
func (c *Clock) Times(at time.Duration) Times {
	return Times{White: c.Remaining(White, at), Black: c.Remaining(Black, at)}
}

// Running returns the side whose clock is running (or would run, when
// stopped) and whether it is running.
func (c *Clock) Running() (Side, bool) { return c.turn, c.started && c.running }

// Started reports whether Start (or a first Press) happened.
func (c *Clock) Started() bool { return c.started }

// Period returns side's current 1-based period.
func (c *Clock) Period(side Side) int { return c.sides[side].period }

// Completed returns side's completed moves as last passed to Press or
// SetPeriod.
func (c *Clock) Completed(side Side) int { return c.sides[side].completed }

// flagAt is when the side to move reaches zero, if its clock runs.
func (c *Clock) flagAt() (time.Duration, bool) {
	if !c.started || !c.running {
		return 0, false
	}
	st := c.sides[c.turn]
	need := st.base
	if p := c.tc.period(st.period); p.Mode == Delay {
		need += p.Increment
	}
	return c.segStart + need - c.elapsed, true
}

// NextFlag returns when the running side's flag will fall, unless the
// clock is stopped or that flag has already been reported. The instant
// may lie in the past when Flags has not yet been called for it.
func (c *Clock) NextFlag() (at time.Duration, side Side, ok bool) {
	if c.started && c.sides[c.turn].fallen {
		return 0, c.turn, false
	}
	at, ok = c.flagAt()
	return at, c.turn, ok
}

// Flags returns the flag events due by `at`, each once.
func (c *Clock) Flags(at time.Duration) []Event {
	fAt, side, ok := c.NextFlag()
	if !ok || fAt > at {
		return nil
	}
	c.sides[side].fallen = true
	return []Event{{Kind: Flag, Side: side, At: fAt, Period: c.sides[side].period}}
}

// Press records that side completed a move at `at`; completed is the
// number of moves side has completed, this one included (6.2.1). It
// returns a Flag event first if side's flag fell before the press and was
// not yet reported, then one PeriodAdded event per period whose move count
// this press reached.
//
// The move's own period decides the Bronstein credit; the period the side
// is in after the press decides the Fischer increment (it is the credit
// for the next move) and the delay of the next move. Pressing before
// Start starts the clock first; a press by the side whose clock is not
// running changes nothing (its lever is already down). A press while the
// clock is stopped passes the move without using time and leaves the
// clock stopped.
func (c *Clock) Press(side Side, at time.Duration, completed int) []Event {
	if !c.started {
		c.Start(at)
	}
	if side != c.turn {
		return nil
	}
	evs := c.Flags(at)
	st := &c.sides[side]
	u := c.used(at)
	r := max(0, st.base-c.consumed(side, u))
	if r == 0 {
		st.fallen = true
	}
	p := c.tc.period(st.period)
	if !st.fallen && p.Mode == Bronstein {
		r += min(u, p.Increment)
	}
	next := max(st.period, c.tc.PeriodOf(completed))
	for q := st.period + 1; q <= next; q++ {
		add := c.tc.period(q).Time
		r += add
		if add > 0 {
			st.fallen = false
		}
		evs = append(evs, Event{Kind: PeriodAdded, Side: side, At: at, Period: q, Added: add})
	}
	if np := c.tc.period(next); !st.fallen && np.Mode == Fischer {
		r += np.Increment
	}
	st.base, st.period, st.completed = r, next, completed
	c.turn = side.Other()
	c.segStart, c.elapsed = at, 0
	return evs
}

// Stop stops the running clock at `at` (the arbiter pauses the game).
func (c *Clock) Stop(at time.Duration) {
	if !c.started || !c.running {
		return
	}
	c.elapsed = c.used(at)
	c.running = false
}

// Resume restarts a stopped clock at `at`; the move in progress continues
// (a simple delay already used is not granted again). Resuming a clock
// that was never started starts it.
func (c *Clock) Resume(at time.Duration) {
	if !c.started {
		c.Start(at)
		return
	}
	if c.running {
		return
	}
	c.segStart, c.running = at, true
}

// settle makes the side's base exact at `at`: a side that ran past zero
// is blocked at zero, so time added afterwards counts from zero.
func (c *Clock) settle(side Side, at time.Duration) {
	st := &c.sides[side]
	if !c.moving(side) {
		st.base = max(0, st.base)
		return
	}
	if used := c.consumed(side, c.used(at)); st.base < used {
		st.base = used
	}
}

// AddTime adds d (negative to remove time, e.g. an increment earned by an
// illegal move, 7.5.5) to side's clock at `at`. The result is never below
// zero; time added to a fallen flag lets the side play on.
func (c *Clock) AddTime(side Side, d time.Duration, at time.Duration) {
	c.settle(side, at)
	c.SetTime(side, c.Remaining(side, at)+d, at)
}

// SetTime sets side's clock to d at `at` (the arbiter corrects the clock,
// 6.10). A negative d counts as zero.
func (c *Clock) SetTime(side Side, d time.Duration, at time.Duration) {
	d = max(0, d)
	st := &c.sides[side]
	if c.moving(side) {
		st.base = c.consumed(side, c.used(at)) + d
	} else {
		st.base = d
	}
	if d > 0 {
		st.fallen = false
	}
}

// SetPeriod sets side's period and completed-move count (the arbiter
// corrects the clock's move counter, 6.10); times are not changed. The
// period is clamped to the control's periods.
func (c *Clock) SetPeriod(side Side, period, completed int) {
	period = max(1, min(period, len(c.tc.Periods)))
	c.sides[side].period = period
	c.sides[side].completed = max(0, completed)
}
