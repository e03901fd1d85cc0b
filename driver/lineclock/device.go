package lineclock

import (
	"time"

	"github.com/arbiterd/arbiterd/clockd"
)

// Device is the device side of the protocol, for emulators and tests: a
// lineclock that keeps time with a clockd.Clock and renders its state as
// protocol lines. Like the Clock, it is pure: every method takes `at` and
// returns the bytes the device would send then.
type Device struct {
	clock         *clockd.Clock
	white         clockd.Face
	model, serial string
	seq           int
	started       bool
}

// NewDevice returns a device showing c, White's time on face white.
func NewDevice(c *clockd.Clock, white clockd.Face, model, serial string) *Device {
	return &Device{clock: c, white: white, model: model, serial: serial, seq: -1}
}

func (d *Device) next() int {
	d.seq = (d.seq + 1) % (MaxSeq + 1)
	return d.seq
}

func (d *Device) faceOf(s clockd.Side) clockd.Face {
	if s == clockd.White {
		return d.white
	}
	return d.white.Other()
}

func (d *Device) sideOf(f clockd.Face) clockd.Side {
	if f == d.white {
		return clockd.White
	}
	return clockd.Black
}

// times returns the left and right times at `at`, to the millisecond.
func (d *Device) times(at time.Duration) (l, r time.Duration) {
	t := d.clock.Times(at)
	l, r = t.Of(d.sideOf(clockd.Left)), t.Of(d.sideOf(clockd.Right))
	return min(l.Truncate(time.Millisecond), MaxTime), min(r.Truncate(time.Millisecond), MaxTime)
}

func (d *Device) line(dst []byte, m Message) []byte {
	out, err := AppendLine(dst, m)
	if err != nil {
		// The device builds every message from valid state; an error here
		// is a bug in Device, and sending nothing is the honest fallback.
		return dst
	}
	return out
}

// Hello returns the greeting line.
func (d *Device) Hello() []byte {
	d.seq = -1
	return d.line(nil, Hello{Version: Version, Model: d.model, Serial: d.serial})
}

// Start starts White's clock and returns the status line that shows it.
func (d *Device) Start(at time.Duration) []byte {
	d.clock.Start(at)
	d.started = true
	return d.Status(at)
}

// Status returns the periodic status line at `at`.
func (d *Device) Status(at time.Duration) []byte {
	l, r := d.times(at)
	s := Status{Seq: d.next(), Left: l, Right: r}
	side, running := d.clock.Running()
	if d.started {
		s.Running = running
		if d.faceOf(side) == clockd.Left {
			s.Turn = TurnLeft
		} else {
			s.Turn = TurnRight
		}
	}
	tc := d.clock.TimeControl()
	for _, f := range [2]clockd.Face{clockd.Left, clockd.Right} {
		side := d.sideOf(f)
		flags := FaceFlags{PerMove: len(tc.Periods) > 0 && tc.Periods[min(d.clock.Period(side), len(tc.Periods))-1].Increment > 0}
		t := l
		if f == clockd.Right {
			t = r
		}
		flags.Fallen = d.started && t == 0
		if f == clockd.Left {
			s.LeftFlags = flags
		} else {
			s.RightFlags = flags
		}
	}
	return d.line(nil, s)
}

// Press presses the lever of face f at `at`; completed is the number of
// moves that side has completed (the device's own count of presses, for a
// clock that counts). It returns a FLAG line if the flag fell before the
// press, then the PRESS line; nothing if f's clock was not running.
func (d *Device) Press(f clockd.Face, at time.Duration, completed int) []byte {
	side, _ := d.clock.Running()
	if !d.started || d.faceOf(side) != f {
		return nil
	}
	var out []byte
	for _, e := range d.clock.Press(side, at, completed) {
		if e.Kind == clockd.Flag {
			l, r := d.times(e.At)
			out = d.line(out, Flag{Seq: d.next(), Face: f, Left: l, Right: r})
		}
	}
	l, r := d.times(at)
	return d.line(out, Press{Seq: d.next(), Face: f, Left: l, Right: r})
}

// Flags returns a FLAG line for a flag that fell by `at`.
func (d *Device) Flags(at time.Duration) []byte {
	var out []byte
	for _, e := range d.clock.Flags(at) {
		l, r := d.times(e.At)
		out = d.line(out, Flag{Seq: d.next(), Face: d.faceOf(e.Side), Left: l, Right: r})
	}
	return out
}
