package dgtmodel_test

import (
	"fmt"
	"strings"
)

// Faces of the clock, seen from its front.
const (
	left  = 0
	right = 1
)

func faceName(f int) string { return [2]string{"left", "right"}[f] }

// convention is the meaning of byte-9 bits D3/D4.
type convention int

const (
	convOld  convention = iota // D3 = left runs, D4 = right runs (pre-2015 text, real boards)
	convNew                    // D3 = right runs, D4 = left runs (2015 header revision)
	convNone                   // neither bit is ever set
)

func (c convention) String() string { return [3]string{"d3left", "d3right", "none"}[c] }

func (c convention) turnBit(face int) byte {
	if c == convNone {
		return 0
	}
	if (face == left) == (c == convOld) {
		return stD3
	}
	return stD4
}

// Clock modes.
type mode int

const (
	modePlain mode = iota
	modeFischer
	modeBronstein
	modeDelay
)

func (m mode) String() string { return [4]string{"plain", "fischer", "bronstein", "delay"}[m] }

// period is one period of a control: moves (0 for the last), its time.
type period struct {
	moves int
	ms    int64
}

// control is a time control the model plays and the text it is written as
// (docs/timecontrol.md).
type control struct {
	periods []period
	mode    mode
	perMove int64 // increment or delay, ms (a multiple of 1000)
}

func (c control) String() string {
	var parts []string
	for i, p := range c.periods {
		s := ""
		if i < len(c.periods)-1 {
			s = fmt.Sprintf("%d/", p.moves)
		}
		s += fmt.Sprint(p.ms / 1000)
		switch c.mode {
		case modeFischer:
			s += fmt.Sprintf("+%d", c.perMove/1000)
		case modeBronstein:
			s += fmt.Sprintf("b%d", c.perMove/1000)
		case modeDelay:
			s += fmt.Sprintf("d%d", c.perMove/1000)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ":")
}

// cum is the number of moves periods 1..p require together (0 for the
// last period: it covers all remaining moves).
func (c control) cum(p int) int {
	if p >= len(c.periods) {
		return 0
	}
	n := 0
	for _, q := range c.periods[:p] {
		n += q.moves
	}
	return n
}

// clockCfg is how the DGT 3000 is set up.
type clockCfg struct {
	tc      control
	flagAdd bool // the next period is added when a period's time runs out (FIDE events), not at a counted move
	addBoth bool // flagAdd: the next period goes to both faces at the first flag
	conv    convention
	// shownUntilPress: the D6 flag indicator of a face goes off at that
	// face's next press (else it stays for the rest of the game).
	shownUntilPress bool
	// blockStops: a flag blocked at zero stops the clock (running bit off);
	// else the running bit stays on with the blocked face not counting.
	blockStops bool
	battery    bool
}

// flagRec is a flag as the clock saw it: the face and the period whose
// time ran out.
type flagRec struct {
	at     int64
	face   int
	period int
	added  bool // the clock added the next period and ran on
}

// counterAdd is a period added at a press (counter clock).
type counterAdd struct {
	face, period, presses int
}

// dgt3000 is the clock, exact to the millisecond. Nothing in it is taken
// from arbiterd: it follows the behaviour the protocol text and the real
// bytes describe.
type dgt3000 struct {
	cfg       clockCfg
	remain    [2]int64
	period    [2]int // 1-based
	presses   [2]int
	shown     [2]bool
	blocked   [2]bool
	running   bool
	stopped   bool // stopped after the game (running off, not a flag)
	paused    bool // stopped by the arbiter, to run again
	run       int  // the face whose time runs (or will when started)
	delayLeft int64
	turnStart [2]int64 // Bronstein: the main time at the start of the turn
	flags     []flagRec
	adds      []counterAdd
}

func newClock(cfg clockCfg, whiteFace int) *dgt3000 {
	c := &dgt3000{cfg: cfg, run: whiteFace}
	for f := range 2 {
		c.period[f] = 1
		c.remain[f] = cfg.tc.periods[0].ms
		if cfg.tc.mode == modeFischer {
			c.remain[f] += cfg.tc.perMove // the increment before the first move
		}
	}
	return c
}

func (c *dgt3000) start() {
	c.running = true
	c.beginTurn()
}

func (c *dgt3000) beginTurn() {
	c.turnStart[c.run] = c.remain[c.run]
	c.delayLeft = 0
	if c.cfg.tc.mode == modeDelay {
		c.delayLeft = c.cfg.tc.perMove
	}
}

const never = int64(1) << 62

// counting reports whether a face's time is going down now.
func (c *dgt3000) counting() bool { return c.running && !c.blocked[c.run] }

// untilFlag is the time until the running face's time reaches zero.
func (c *dgt3000) untilFlag() int64 {
	if !c.counting() {
		return never
	}
	return c.delayLeft + c.remain[c.run]
}

// untilTick is the time until the running face's display changes (it
// shows the time rounded up to the second, so 0:00 only at the flag).
func (c *dgt3000) untilTick() int64 {
	if !c.counting() {
		return never
	}
	r := c.remain[c.run]
	shown := (r + 999) / 1000
	return c.delayLeft + r - (shown-1)*1000
}

func (c *dgt3000) advance(dt int64) {
	if !c.counting() || dt <= 0 {
		return
	}
	d := min(dt, c.delayLeft)
	c.delayLeft -= d
	dt -= d
	c.remain[c.run] -= dt
	if c.remain[c.run] < 0 {
		panic("clock model advanced past a flag")
	}
}

// flag handles the running face's time reaching zero at time at.
func (c *dgt3000) flag(at int64) {
	f := c.run
	p := c.period[f]
	n := len(c.cfg.tc.periods)
	rec := flagRec{at: at, face: f, period: p}
	if c.cfg.flagAdd && p < n {
		rec.added = true
		next := c.cfg.tc.periods[p].ms
		c.period[f] = p + 1
		c.remain[f] = next
		c.shown[f] = true
		c.turnStart[f] = c.remain[f]
		if c.cfg.addBoth {
			g := 1 - f
			if c.period[g] == p {
				c.period[g] = p + 1
				c.remain[g] += next
			}
		}
	} else {
		c.remain[f] = 0
		c.blocked[f] = true
		if c.cfg.blockStops {
			c.running = false
		}
	}
	c.flags = append(c.flags, rec)
}

// press is the player of face f pressing the lever. It does something
// only when f's side of the lever is high (f's time runs).
func (c *dgt3000) press(f int) bool {
	if !c.running || c.run != f || c.blocked[f] {
		return false
	}
	tc := c.cfg.tc
	c.presses[f]++
	switch tc.mode {
	case modeFischer:
		c.remain[f] += tc.perMove
	case modeBronstein:
		c.remain[f] += min(tc.perMove, c.turnStart[f]-c.remain[f])
	}
	if !c.cfg.flagAdd && c.period[f] < len(tc.periods) && c.presses[f] == tc.cum(c.period[f]) {
		c.period[f]++
		c.remain[f] += tc.periods[c.period[f]-1].ms
		c.adds = append(c.adds, counterAdd{face: f, period: c.period[f], presses: c.presses[f]})
	}
	if c.cfg.shownUntilPress {
		c.shown[f] = false
	}
	c.run = 1 - f
	c.beginTurn()
	return true
}

// stop is the arbiter stopping the clock after the game.
func (c *dgt3000) stop() {
	c.running = false
	c.stopped = true
}

// pause is the arbiter stopping the clock mid-game (6.11): nothing runs,
// the running face keeps its turn and any delay still to elapse.
func (c *dgt3000) pause() {
	c.running = false
	c.paused = true
}

// resume starts the paused clock again.
func (c *dgt3000) resume() {
	if c.paused {
		c.running, c.paused = true, false
	}
}

// adjust is the arbiter changing face f's time by d ms while it stands.
func (c *dgt3000) adjust(f int, d int64) {
	c.remain[f] = max(0, c.remain[f]+d)
	c.turnStart[f] += d // Bronstein gives back time used, not time set
}

// message is the BWTIME the clock sends now.
func (c *dgt3000) message() []byte {
	show := func(f int) faceShow {
		return faceShow{
			secs:    int((c.remain[f] + 999) / 1000),
			blocked: c.blocked[f],
			perMove: c.cfg.tc.mode != modePlain,
			shown:   c.shown[f],
		}
	}
	var st byte
	if c.running {
		st |= stRunning
	}
	if c.run == right {
		st |= stLeverRight
	}
	if c.cfg.battery {
		st |= stBattery
	}
	st |= c.cfg.conv.turnBit(c.run)
	return bwtime(show(right), show(left), st)
}
