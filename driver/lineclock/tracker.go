package lineclock

import (
	"time"

	"github.com/arbiterd/arbiterd/clockd"
)

// Tracker turns lineclock messages into clockd.Readings for a
// clockd.Interpreter. STATUS lines carry a whole state; PRESS and FLAG
// lines change the last state: after a PRESS the other face runs with the
// times the line gives, so every press the clock reports arrives as its
// own reading and is never merged with the next.
type Tracker struct {
	last clockd.Reading
	have bool
}

// Reading returns the reading m gives, received at `at`; ok is false for
// lines that carry no clock state (HELLO).
func (t *Tracker) Reading(m Message, at time.Duration) (r clockd.Reading, ok bool) {
	switch m := m.(type) {
	case Status:
		r = clockd.Reading{
			At:         at,
			Left:       faceReading(m.Left, m.LeftFlags),
			Right:      faceReading(m.Right, m.RightFlags),
			Running:    m.Running,
			LeftTurn:   m.Turn == TurnLeft,
			RightTurn:  m.Turn == TurnRight,
			BatteryLow: m.BatteryLow,
		}
	case Press:
		r = t.last
		r.At = at
		r.Left.Time, r.Right.Time = m.Left, m.Right
		r.LeftTurn, r.RightTurn = m.Face == clockd.Right, m.Face == clockd.Left
		if !t.have {
			r.Running = true
		}
	case Flag:
		r = t.last
		r.At = at
		r.Left.Time, r.Right.Time = m.Left, m.Right
		if m.Face == clockd.Left {
			r.Left.Flag = true
		} else {
			r.Right.Flag = true
		}
	default:
		return clockd.Reading{}, false
	}
	t.last, t.have = r, true
	return r, true
}

func faceReading(d time.Duration, f FaceFlags) clockd.FaceReading {
	return clockd.FaceReading{Time: d, Flag: f.Fallen, FlagShown: f.Shown, PerMove: f.PerMove}
}
