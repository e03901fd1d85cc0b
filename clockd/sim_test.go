package clockd

import (
	"fmt"
	"time"
)

// hwClock simulates a hardware chess clock, exact to the millisecond, and
// produces the readings a driver would decode from it: times shown to the
// second, turn bits, flag bits. It is the reading generator of the
// interpreter tests.
type hwClock struct {
	tc           TimeControl
	white        Face
	countPresses bool // periods added after N presses (else: at a flag, to both)
	t            [2]time.Duration
	turn         Face
	running      bool
	presses      [2]int
	period       [2]int
	flag         [2]bool // blocked at zero
	flagShown    [2]bool // fell, next period added, runs on
	used         time.Duration
	delayLeft    time.Duration
}

func newHW(tc TimeControl, white Face, countPresses bool) *hwClock {
	h := &hwClock{tc: tc, white: white, countPresses: countPresses, period: [2]int{1, 1}}
	for f := range h.t {
		h.t[f] = tc.Periods[0].Time
	}
	return h
}

// start starts White's face; Fischer adds the increment before move 1.
func (h *hwClock) start() {
	h.turn, h.running = h.white, true
	if p := h.tc.Periods[0]; p.Mode == Fischer {
		h.t[0] += p.Increment
		h.t[1] += p.Increment
	}
	h.newMove()
}

func (h *hwClock) newMove() {
	h.used = 0
	if p := h.tc.period(h.period[h.turn]); p.Mode == Delay {
		h.delayLeft = p.Increment
	} else {
		h.delayLeft = 0
	}
}

// advance runs the clock for d.
func (h *hwClock) advance(d time.Duration) {
	if !h.running {
		return
	}
	f := h.turn
	h.used += d
	if h.delayLeft > 0 {
		k := min(d, h.delayLeft)
		h.delayLeft -= k
		d -= k
	}
	if h.flag[f] {
		return
	}
	h.t[f] -= d
	if h.t[f] > 0 {
		return
	}
	h.t[f] = 0
	next := h.period[f] + 1
	if h.countPresses || next > len(h.tc.Periods) {
		h.flag[f] = true
		return
	}
	// Hardware that cannot count moves adds the next period to both at
	// the first flag of the period.
	for g := range h.t {
		h.t[g] += h.tc.Periods[next-1].Time
		h.period[g] = next
	}
	h.flagShown[f] = true
}

// press is face f pressing its lever.
func (h *hwClock) press(f Face) {
	if f != h.turn || !h.running {
		return
	}
	p := h.tc.period(h.period[f])
	h.presses[f]++
	if !h.flag[f] {
		if p.Mode == Bronstein {
			h.t[f] += min(h.used, p.Increment)
		}
		if h.countPresses && h.period[f] < len(h.tc.Periods) && h.presses[f] == h.tc.Required(h.period[f]) {
			h.period[f]++
			h.t[f] += h.tc.Periods[h.period[f]-1].Time
		}
		if np := h.tc.period(h.period[f]); np.Mode == Fischer {
			h.t[f] += np.Increment
		}
	}
	h.turn = f.Other()
	h.newMove()
}

// show rounds up to the second, as a DGT 3000 display does.
func show(d time.Duration) time.Duration {
	return (d + time.Second - 1) / time.Second * time.Second
}

func (h *hwClock) reading(at time.Duration) Reading {
	fr := func(f Face) FaceReading {
		return FaceReading{Time: show(h.t[f]), Flag: h.flag[f], FlagShown: h.flagShown[f], PerMove: h.tc.period(h.period[f]).Increment > 0}
	}
	return Reading{At: at, Left: fr(Left), Right: fr(Right), Running: h.running,
		LeftTurn: h.turn == Left, RightTurn: h.turn == Right}
}

// simPress is a press the simulation made: who and the display right after.
type simPress struct {
	side  Side
	clock Times
}

// game simulates a game on a hardware clock polled every `poll` of clock
// time; each reading's At is the clock time divided by speedup (an
// emulator running faster than real time). think gives each ply's
// thinking time; a ply whose think time is below the poll produces a press
// merged with the previous one. It returns the readings and the presses.
type game struct {
	hw      *hwClock
	poll    time.Duration
	speedup int64
	now     time.Duration
	nextAt  time.Duration
	reads   []Reading
	presses []simPress
}

func (g *game) sideOf(f Face) Side {
	if f == g.hw.white {
		return White
	}
	return Black
}

func (g *game) times() Times {
	w, b := show(g.hw.t[g.hw.white]), show(g.hw.t[g.hw.white.Other()])
	return Times{White: w, Black: b}
}

// run lets d of clock time pass, taking readings at every poll instant.
func (g *game) run(d time.Duration) {
	end := g.now + d
	for g.nextAt <= end {
		g.hw.advance(g.nextAt - g.now)
		g.now = g.nextAt
		g.reads = append(g.reads, g.hw.reading(g.now/time.Duration(g.speedup)))
		g.nextAt += g.poll
	}
	g.hw.advance(end - g.now)
	g.now = end
}

func (g *game) press() {
	f := g.hw.turn
	g.hw.press(f)
	g.presses = append(g.presses, simPress{side: g.sideOf(f), clock: g.times()})
}

func (p simPress) String() string {
	return fmt.Sprintf("%s %v/%v", p.side, p.clock.White, p.clock.Black)
}
