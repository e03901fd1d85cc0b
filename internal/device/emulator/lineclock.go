package emulator

import (
	"context"
	"errors"
	"io"
	"sync"
	"syscall"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/driver/lineclock"
)

// Status intervals of the lineclock protocol (docs/lineclock.md): a STATUS
// line at least every 500 ms while the clock runs, every 5 s otherwise.
const (
	lineClockRunning = 500 * time.Millisecond
	lineClockIdle    = 5 * time.Second
)

// LineClock is the emulated game's clock as a separate USB clock on a line
// of its own, speaking the lineclock protocol (driver/lineclock): a board
// emulated with Config.NoClock has no clock attached, and this device
// reports the presses instead. It follows the emulation through its notes
// (pass Observe as Config.Observe): every press the emulated clock accepts
// presses this clock's running lever, and the players stopping the clock
// stops it. Its time is its own clockd.Clock (lineclock.Device), so its
// flag falls when that clock says, which agrees with the board's model to
// well under a second.
//
// It is pure like the emulation: Take(at) returns what the device sent up
// to emulated time at; Run writes that to a line in (scaled) real time.
// It is safe for concurrent use (Observe is called on the emulator's Run
// goroutine while Run writes).
type LineClock struct {
	mu        sync.Mutex
	clock     *clockd.Clock
	dev       *lineclock.Device
	white     clockd.Face
	completed [2]int
	stopped   bool
	emitted   time.Duration // statuses generated up to here
	out       []Chunk
	signal    chan struct{}
	t0        time.Time // when the first Run began: emulated time 0
	runs      int
}

// NewLineClock returns a lineclock set for tc, White's time on the right
// face when whiteOnRight; it greets and starts White's clock at time 0, as
// the board emulation begins play.
func NewLineClock(tc clockd.TimeControl, whiteOnRight bool) *LineClock {
	white := clockd.Left
	if whiteOnRight {
		white = clockd.Right
	}
	c := &LineClock{clock: clockd.NewClock(tc), white: white, signal: make(chan struct{}, 1)}
	c.dev = lineclock.NewDevice(c.clock, white, "EMU-LC1", "0001")
	hello := c.dev.Hello()
	c.out = append(c.out, Chunk{At: 0, Data: append(hello, c.dev.Start(0)...)})
	return c
}

// Observe takes the emulation's notes: "press" presses the lever of the
// side whose clock runs (the board's clock accepts a press only from that
// side, so both clocks alternate alike), "stop" stops the clock.
func (c *LineClock) Observe(n Note) {
	c.mu.Lock()
	defer c.mu.Unlock()
	// Live, Run may have reported a status for a moment after the note's
	// time (the two emulations count from nearly the same instant): the
	// device's time never goes back, or it would show time given back.
	at := max(n.At, c.emitted)
	switch n.Kind {
	case "press":
		c.advance(at)
		side, running := c.clock.Running()
		if !running || c.stopped {
			return
		}
		c.completed[side]++
		f := c.white
		if side == clockd.Black {
			f = f.Other()
		}
		c.add(at, c.dev.Press(f, at, c.completed[side]))
	case "stop":
		c.advance(at)
		if c.stopped {
			return
		}
		c.stopped = true
		c.clock.Stop(at)
		c.add(at, c.dev.Status(at))
	default:
		return
	}
	select {
	case c.signal <- struct{}{}:
	default:
	}
}

func (c *LineClock) add(at time.Duration, b []byte) {
	if len(b) > 0 {
		c.out = append(c.out, Chunk{At: at, Data: b})
	}
}

// advance generates the periodic STATUS lines and the FLAG lines due by at.
func (c *LineClock) advance(at time.Duration) {
	for {
		interval := lineClockIdle
		if _, running := c.clock.Running(); running && !c.stopped {
			interval = lineClockRunning
		}
		next := c.emitted + interval
		if nf, _, ok := c.clock.NextFlag(); ok && !c.stopped && nf <= at && nf < next {
			nf = max(nf, c.emitted)
			c.add(nf, c.dev.Flags(nf))
			c.emitted = nf
			continue
		}
		if next > at {
			return
		}
		c.add(next, c.dev.Status(next))
		c.emitted = next
	}
}

// Take returns what the clock sent up to emulated time at (in order,
// chunk by chunk) and forgets it.
func (c *LineClock) Take(at time.Duration) []Chunk {
	c.mu.Lock()
	defer c.mu.Unlock()
	if at > c.emitted {
		c.advance(at)
	}
	out := c.out
	c.out = nil
	return out
}

// Run writes the clock's lines to w in (scaled) real time — speed is
// emulated time per real time, as Config.Speed — until ctx is done or a
// write fails. Start it with the board emulation's Run, so both count
// emulated time from the same moment. A pty with no host yet (EIO) loses
// the lines, as a USB clock's would be.
//
// Run may be called again after it returned: that is the clock plugged
// back in (on a new line). Emulated time goes on from the first Run; what
// the clock said while unplugged is lost, and it greets and reports its
// status again.
func (c *LineClock) Run(ctx context.Context, w io.Writer, speed float64) error {
	if speed <= 0 {
		speed = 1
	}
	c.mu.Lock()
	if c.runs == 0 {
		c.t0 = time.Now()
	}
	t0 := c.t0
	now := func() time.Duration { return time.Duration(float64(time.Since(t0)) * speed) }
	if c.runs > 0 {
		at := max(now(), c.emitted)
		c.advance(at)
		c.out = []Chunk{{At: at, Data: append(c.dev.Hello(), c.dev.Status(at)...)}}
		c.emitted = at
	}
	c.runs++
	c.mu.Unlock()
	tick := time.NewTicker(max(time.Duration(float64(lineClockRunning)/speed)/2, time.Millisecond))
	defer tick.Stop()
	for {
		for _, ch := range c.Take(now()) {
			if _, err := w.Write(ch.Data); err != nil && !lostOnPTY(err) {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				return err
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		case <-c.signal:
		}
	}
}

// lostOnPTY tells a write that found no host on a pty (EIO): the bytes are
// lost, as on a cable nobody listens to.
func lostOnPTY(err error) bool { return errors.Is(err, syscall.EIO) }
