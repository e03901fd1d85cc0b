package emulator

import (
	"fmt"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
)

// Mode is how a period gives time back per move: the modes of clockd
// (Fischer, simple delay, Bronstein), which the emulated clock implements
// the way the hardware does.
type Mode = clockd.Mode

// The clock modes.
const (
	Fischer   = clockd.Fischer
	Delay     = clockd.Delay
	Bronstein = clockd.Bronstein
)

// Period is one period of the hardware clock's setting.
type Period struct {
	Moves     int           // moves (presses) the period covers; 0 for the last period
	Time      time.Duration // time added when the period begins
	Increment time.Duration // Fischer increment or delay per move
	Mode      Mode
}

// PeriodRule is how the hardware clock adds the next period's time.
type PeriodRule int

const (
	// AtFlag adds the next period to both players when the first flag of a
	// period falls, as DGT preset modes do: the clock cannot count moves, so
	// whether the control was reached is the arbiter's question (6.3.1).
	AtFlag PeriodRule = iota
	// AfterPresses adds a player's next period after that player's N-th
	// press in the period: it counts presses, not moves, so an extra or a
	// missing press moves the addition by one move.
	AfterPresses
)

var periodRuleNames = [...]string{AtFlag: "at-flag", AfterPresses: "after-presses"}

func (r PeriodRule) String() string {
	if r >= 0 && int(r) < len(periodRuleNames) {
		return periodRuleNames[r]
	}
	return fmt.Sprintf("PeriodRule(%d)", int(r))
}

// Player is a side of the game.
type Player int

const (
	White Player = 0
	Black Player = 1
)

func (p Player) String() string {
	if p == White {
		return "white"
	}
	return "black"
}

// Other is the opponent.
func (p Player) Other() Player { return 1 - p }

const noPlayer Player = -1

// hwClock models a DGT 3000 in a tournament mode: the truth of the
// emulation's times. It has no timers; every method takes the emulated time
// at which it happens, and the caller asks when the next thing (a display
// change, a flag) will happen.
type hwClock struct {
	periods    []Period
	rule       PeriodRule
	whiteRight bool
	bits2015   bool // turn bits as the 2015 header revision reads them

	base    [2]time.Duration // main time of a side that is not running
	period  [2]int           // index into periods
	presses [2]int           // presses counted in the current period
	blocked [2]bool          // flag fell, blocked at zero
	shown   [2]bool          // flag fell, period added, runs on

	started, stopped bool
	paused           bool // stopped by the arbiter: running is whose clock runs again
	pausedAt         time.Duration
	running          Player
	lastPresser      Player // whose lever is down

	turnStart time.Duration // when the running side's turn began
	segStart  time.Duration // start of the current running segment
	segBase   time.Duration // main time at segStart
	segDelay  time.Duration // delay still to elapse from segStart before main time runs
}

func newHWClock(periods []Period, rule PeriodRule, whiteRight, bits2015 bool) *hwClock {
	c := &hwClock{periods: periods, rule: rule, whiteRight: whiteRight, bits2015: bits2015, running: noPlayer, lastPresser: Black}
	c.base[White] = periods[0].Time
	c.base[Black] = periods[0].Time
	return c
}

func (c *hwClock) last(p Player) bool { return c.period[p] == len(c.periods)-1 }

func (c *hwClock) cur(p Player) Period { return c.periods[c.period[p]] }

// start sets White's clock running (6.6); Fischer adds the increment to
// both before the first move.
func (c *hwClock) start(at time.Duration) {
	if c.started {
		return
	}
	c.started = true
	for _, p := range []Player{White, Black} {
		if pd := c.cur(p); pd.Mode == Fischer {
			c.base[p] += pd.Increment
		}
	}
	c.run(White, at)
}

// run makes p's clock run from at, a new turn.
func (c *hwClock) run(p Player, at time.Duration) {
	c.running = p
	c.turnStart, c.segStart = at, at
	c.segBase = c.base[p]
	c.segDelay = 0
	if pd := c.cur(p); pd.Mode == Delay {
		c.segDelay = pd.Increment
	}
}

// remaining is p's main time at at.
func (c *hwClock) remaining(p Player, at time.Duration) time.Duration {
	if p != c.running || c.stopped {
		return c.base[p]
	}
	run := at - c.segStart - c.segDelay
	if run < 0 {
		run = 0
	}
	r := c.segBase - run
	if r < 0 {
		r = 0
	}
	return r
}

// zeroAt is when the running side's time reaches zero (ok false when no
// clock runs).
func (c *hwClock) zeroAt() (time.Duration, bool) {
	if !c.started || c.stopped || c.running == noPlayer {
		return 0, false
	}
	return c.segStart + c.segDelay + c.segBase, true
}

// pressResult says what a press did.
type pressResult struct {
	accepted    bool // the lever moved (the presser's clock was running)
	periodAdded bool // the presser's next period began
}

// press is p pushing its lever. A lever that is already down does nothing.
// early makes the clock begin p's next period at this press whatever its
// counter says (the counter off by one).
func (c *hwClock) press(p Player, at time.Duration, early bool) pressResult {
	if !c.started || c.stopped || c.running != p {
		return pressResult{}
	}
	rem := c.remaining(p, at)
	pd := c.cur(p)
	switch pd.Mode {
	case Fischer:
		rem += pd.Increment
	case Bronstein:
		used := at - c.turnStart
		if used > pd.Increment {
			used = pd.Increment
		}
		rem += used
	}
	c.base[p] = rem
	c.presses[p]++
	res := pressResult{accepted: true}
	if !c.last(p) && (early || (c.rule == AfterPresses && c.presses[p] >= pd.Moves)) {
		c.period[p]++
		c.base[p] += c.cur(p).Time
		c.presses[p] = 0
		res.periodAdded = true
	}
	c.lastPresser = p
	c.run(p.Other(), at)
	return res
}

// flagResult says what a flag fall did.
type flagResult struct {
	side        Player
	periodAdded bool // AtFlag: the next period was added to both; the clock runs on
}

// flag is the running side's time reaching zero at at (= zeroAt). In a
// period that is not the last, AtFlag adds the next period to both sides
// and the clock runs on with the flag shown; otherwise the time is blocked
// at zero and the clock stops.
func (c *hwClock) flag(at time.Duration) flagResult {
	p := c.running
	c.base[p] = 0
	res := flagResult{side: p}
	if c.rule == AtFlag && !c.last(p) {
		for _, q := range []Player{White, Black} {
			if !c.last(q) {
				c.period[q]++
				c.presses[q] = 0
				c.base[q] += c.cur(q).Time
			}
		}
		c.shown[p] = true
		c.segStart, c.segBase, c.segDelay = at, c.base[p], 0
		res.periodAdded = true
		return res
	}
	c.blocked[p] = true
	c.stopped = true
	c.running = noPlayer
	return res
}

// stop stops the clock for good (the players stop it at the end of a game).
func (c *hwClock) stop(at time.Duration) {
	if c.running != noPlayer && !c.stopped {
		c.base[c.running] = c.remaining(c.running, at)
	}
	c.stopped = true
	c.running = noPlayer
}

// pause stops the running clock for a while (the arbiter's hand, 6.11):
// the running side keeps the turn and its delay still to elapse.
func (c *hwClock) pause(at time.Duration) {
	if !c.started || c.stopped || c.running == noPlayer {
		return
	}
	run := at - c.segStart
	left := max(0, c.segDelay-run)
	c.base[c.running] = c.remaining(c.running, at)
	c.segDelay = left
	c.stopped, c.paused, c.pausedAt = true, true, at
}

// resume starts a paused clock again.
func (c *hwClock) resume(at time.Duration) {
	if !c.paused {
		return
	}
	c.stopped, c.paused = false, false
	c.segStart, c.segBase = at, c.base[c.running]
	c.turnStart += at - c.pausedAt // a pause is not time used (Bronstein)
}

// adjust changes p's time by d while the clock stands (never below zero).
func (c *hwClock) adjust(p Player, d time.Duration) {
	c.base[p] = max(0, c.base[p]+d)
}

// set is the host's SetNRun: both times and which side runs (none, left,
// right), the flags cleared.
func (c *hwClock) set(left, right time.Duration, run Player, at time.Duration) {
	wl, wr := left, right
	if c.whiteRight {
		wl, wr = right, left
	}
	c.base[White], c.base[Black] = wl, wr
	c.blocked = [2]bool{}
	c.shown = [2]bool{}
	c.started = true
	c.stopped = run == noPlayer
	c.running = noPlayer
	if run != noPlayer {
		c.run(run, at)
		c.segDelay = 0
	}
}

// faceOf maps a player to the clock face showing its time.
func (c *hwClock) rightPlayer() Player {
	if c.whiteRight {
		return White
	}
	return Black
}

func ceilSecond(d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	return (d + time.Second - 1) / time.Second * time.Second
}

// display is the clock display at at. A face shows its time rounded up to
// the second, so a display of zero means the flag fell.
func (c *hwClock) display(at time.Duration) Display {
	face := func(p Player) Face {
		return Face{
			Time:        ceilSecond(c.remaining(p, at)),
			FlagBlocked: c.blocked[p],
			FlagShown:   c.shown[p],
			PerMove:     c.cur(p).Increment > 0,
		}
	}
	r := c.rightPlayer()
	d := Display{Right: face(r), Left: face(r.Other()), TurnBits2015: c.bits2015}
	d.Running = c.started && !c.stopped && c.running != noPlayer
	if d.Running {
		d.RightTurn = c.running == r
		d.LeftTurn = !d.RightTurn
	}
	d.RightHigh = c.lastPresser != r
	return d
}

// nextChange is when the displayed time of the running side next changes.
func (c *hwClock) nextChange(at time.Duration) (time.Duration, bool) {
	if !c.started || c.stopped || c.running == noPlayer {
		return 0, false
	}
	d := ceilSecond(c.remaining(c.running, at))
	if d == 0 {
		return 0, false
	}
	t := c.segStart + c.segDelay + c.segBase - (d - time.Second)
	if t <= at {
		t = at + time.Nanosecond
	}
	return t, true
}
