package clockd

import (
	"encoding/binary"
	"testing"
	"time"
)

// FuzzInterpreter feeds arbitrary readings (decoded from the fuzz bytes,
// 8 bytes each) and checks that the interpreter never panics and keeps its
// promises: events come in the readings' order, presses and flags name a
// side and a period of the control, Running names a side, and Started comes at most once and
// before any press.
func FuzzInterpreter(f *testing.F) {
	f.Add([]byte{0, 0, 10, 0, 10, 0, 0x13, 0, 0, 1, 9, 0, 10, 0, 0x13, 0, 0, 2, 9, 0, 9, 0, 0x15, 0})
	f.Add(make([]byte, 64))
	f.Fuzz(func(t *testing.T, data []byte) {
		tc, _ := ParseTimeControl("2/60+2:30b3")
		in := NewInterpreter(tc, WhiteFace(len(data)%3))
		var at time.Duration
		started, presses := 0, 0
		last := time.Duration(-1)
		for len(data) >= 8 {
			b := data[:8]
			data = data[8:]
			at += time.Duration(b[0]) * 100 * time.Millisecond
			l := time.Duration(int16(binary.BigEndian.Uint16(b[1:]))) * time.Second / 4
			r := time.Duration(int16(binary.BigEndian.Uint16(b[3:]))) * time.Second / 4
			bits := b[5]
			rd := Reading{At: at, Left: FaceReading{Time: l, Flag: bits&0x40 != 0, FlagShown: b[6]&1 != 0},
				Right:   FaceReading{Time: r, Flag: bits&0x80 != 0, FlagShown: b[6]&2 != 0},
				Running: bits&1 != 0, LeftTurn: bits&2 != 0, RightTurn: bits&4 != 0,
				LeverKnown: bits&8 != 0, LeverRightHigh: bits&16 != 0, NoClock: bits&32 != 0 && b[7]&1 != 0}
			for _, e := range in.Feed(rd) {
				if e.At < last || e.At != at {
					t.Fatalf("event %v out of order (reading at %v)", e, at)
				}
				last = e.At
				switch e.Kind {
				case Started:
					started++
					if started > 1 || presses > 0 {
						t.Fatalf("Started again or after a press: %v", e)
					}
				case Press, Flag, PeriodAdded:
					if e.Kind == Press {
						presses++
						if started == 0 {
							t.Fatalf("press before the start: %v", e)
						}
					}
					if e.Side != White && e.Side != Black || e.Period < 1 || e.Period > len(tc.Periods) {
						t.Fatalf("bad event %v", e)
					}
				case Running:
					if e.Side != White && e.Side != Black {
						t.Fatalf("Running names no side: %v", e)
					}
				case Impossible, Stopped, Resumed, Disconnected, Connected, Adjusted, BatteryLow, Convention, Reset:
				default:
					t.Fatalf("unknown kind %v", e)
				}
			}
		}
	})
}
