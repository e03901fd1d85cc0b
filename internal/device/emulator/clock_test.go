package emulator

import (
	"testing"
	"time"
)

const sec = time.Second

// step is one thing that happens to the clock in a test: a press by a
// player, or a check of both players' times.
type clockStep struct {
	at           time.Duration
	press        Player // noPlayer: no press
	early        bool
	white, black time.Duration // expected after the step (-1: don't check)
	added        bool          // the press began a period
}

func TestClockModes(t *testing.T) {
	n := noPlayer
	tests := []struct {
		name    string
		periods []Period
		rule    PeriodRule
		steps   []clockStep
	}{
		{"fischer", []Period{{Time: 300 * sec, Increment: 5 * sec}}, AtFlag, []clockStep{
			{at: 0, press: n, white: 305 * sec, black: 305 * sec},
			{at: 10 * sec, press: White, white: 300 * sec, black: 305 * sec},
			{at: 12 * sec, press: n, white: 300 * sec, black: 303 * sec},
			{at: 40 * sec, press: Black, white: 300 * sec, black: 280 * sec},
			{at: 41 * sec, press: Black, white: 299 * sec, black: 280 * sec}, // lever already down: nothing
		}},
		{"bronstein", []Period{{Time: 300 * sec, Increment: 5 * sec, Mode: Bronstein}}, AtFlag, []clockStep{
			{at: 0, press: n, white: 300 * sec, black: 300 * sec},
			{at: 3 * sec, press: White, white: 300 * sec, black: 300 * sec},  // used 3, 3 back
			{at: 13 * sec, press: Black, white: 300 * sec, black: 295 * sec}, // used 10, 5 back
			{at: 14 * sec, press: n, white: 299 * sec, black: 295 * sec},     // runs at once
		}},
		{"simple delay", []Period{{Time: 300 * sec, Increment: 5 * sec, Mode: Delay}}, AtFlag, []clockStep{
			{at: 4 * sec, press: n, white: 300 * sec, black: 300 * sec}, // within the delay
			{at: 3 * sec, press: White, white: 300 * sec, black: 300 * sec},
			{at: 11 * sec, press: Black, white: 300 * sec, black: 297 * sec}, // used 8: 3 off
			{at: 15 * sec, press: n, white: 300 * sec, black: 297 * sec},
			{at: 17 * sec, press: n, white: 299 * sec, black: 297 * sec},
		}},
		{"after presses: a player's own count", []Period{{Moves: 2, Time: 60 * sec, Increment: sec}, {Time: 30 * sec, Increment: sec}}, AfterPresses, []clockStep{
			// Fischer 60+1 with the increment before the first move: 61 each.
			{at: 10 * sec, press: White, white: 52 * sec, black: 61 * sec},
			{at: 20 * sec, press: Black, white: 52 * sec, black: 52 * sec},
			{at: 30 * sec, press: White, white: 43*sec + 30*sec, black: 52 * sec, added: true},
			{at: 40 * sec, press: Black, white: 73 * sec, black: 43*sec + 30*sec, added: true},
			{at: 50 * sec, press: White, white: 64 * sec, black: 73 * sec}, // last period: no more
		}},
		{"early period (counter off by one)", []Period{{Moves: 3, Time: 60 * sec}, {Time: 30 * sec}}, AfterPresses, []clockStep{
			{at: 10 * sec, press: White, early: true, white: 50*sec + 30*sec, black: 60 * sec, added: true},
			{at: 20 * sec, press: Black, white: 80 * sec, black: 50 * sec},
		}},
		{"early period with at-flag hardware", []Period{{Moves: 40, Time: 60 * sec}, {Time: 30 * sec}}, AtFlag, []clockStep{
			{at: 10 * sec, press: White, early: true, white: 80 * sec, black: 60 * sec, added: true},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := newHWClock(tc.periods, tc.rule, false, false)
			c.start(0)
			for i, st := range tc.steps {
				if st.press != noPlayer {
					res := c.press(st.press, st.at, st.early)
					if res.periodAdded != st.added {
						t.Errorf("step %d: period added %v, want %v", i, res.periodAdded, st.added)
					}
				}
				if w := c.remaining(White, st.at); w != st.white {
					t.Errorf("step %d at %s: white %s, want %s", i, st.at, w, st.white)
				}
				if b := c.remaining(Black, st.at); b != st.black {
					t.Errorf("step %d at %s: black %s, want %s", i, st.at, b, st.black)
				}
			}
		})
	}
}

func TestClockFlagAtFlagAddsToBoth(t *testing.T) {
	c := newHWClock([]Period{{Moves: 40, Time: 60 * sec}, {Moves: 20, Time: 30 * sec}, {Time: 15 * sec}}, AtFlag, true, false)
	c.start(0)
	c.press(White, 20*sec, false) // white 40 left
	c.press(Black, 50*sec, false) // black 30 left
	z, ok := c.zeroAt()
	if !ok || z != 90*sec {
		t.Fatalf("white's flag due at %s, want 1m30s", z)
	}
	res := c.flag(z)
	if res.side != White || !res.periodAdded {
		t.Fatalf("flag = %+v", res)
	}
	if w, b := c.remaining(White, z), c.remaining(Black, z); w != 30*sec || b != 60*sec {
		t.Errorf("after the first flag white %s black %s, want 30s and 1m0s", w, b)
	}
	d := c.display(z + 500*time.Millisecond)
	// White is on the right: its face shows the flag and runs on.
	if !d.Right.FlagShown || d.Right.FlagBlocked || d.Left.FlagShown || !d.Running || !d.RightTurn {
		t.Errorf("display after the first flag: %+v", d)
	}
	if d.Right.Time != 30*sec { // 29.5 s rounds up
		t.Errorf("right face shows %s, want 30s", d.Right.Time)
	}
	// Second flag (white again, in period 2): period 3 to both.
	z, _ = c.zeroAt()
	c.flag(z)
	if w, b := c.remaining(White, z), c.remaining(Black, z); w != 15*sec || b != 75*sec {
		t.Errorf("after the second flag white %s black %s", w, b)
	}
	// Last period: blocked at zero, the clock stops.
	z, _ = c.zeroAt()
	res = c.flag(z)
	if res.periodAdded {
		t.Error("a flag in the last period added time")
	}
	d = c.display(z + time.Hour)
	if !d.Right.FlagBlocked || d.Right.Time != 0 || d.Running || d.RightTurn || d.LeftTurn {
		t.Errorf("display after the last flag: %+v", d)
	}
	if _, ok := c.zeroAt(); ok {
		t.Error("a stopped clock still has a flag due")
	}
	if r := c.press(White, z+sec, false); r.accepted {
		t.Error("a stopped clock accepted a press")
	}
}

func TestClockAfterPressesFlagBlocks(t *testing.T) {
	c := newHWClock([]Period{{Moves: 40, Time: 60 * sec}, {Time: 30 * sec}}, AfterPresses, false, false)
	c.start(0)
	z, _ := c.zeroAt()
	if res := c.flag(z); res.periodAdded {
		t.Error("press-counting hardware added a period at the flag")
	}
	if d := c.display(z); !d.Left.FlagBlocked || d.Running {
		t.Errorf("display %+v", d)
	}
}

func TestClockDisplayChanges(t *testing.T) {
	c := newHWClock([]Period{{Time: 10 * sec, Increment: 3 * sec, Mode: Delay}}, AtFlag, false, false)
	c.start(0)
	// Within the delay nothing changes: the first change is at 3 s + 1 s.
	at, ok := c.nextChange(0)
	if !ok || at != 4*sec {
		t.Fatalf("first change at %s, want 4s", at)
	}
	if d := c.display(at - time.Millisecond); d.Left.Time != 10*sec {
		t.Errorf("just before: %s", d.Left.Time)
	}
	if d := c.display(at); d.Left.Time != 9*sec {
		t.Errorf("at the change: %s", d.Left.Time)
	}
	// Counting the changes down to the flag: one per second.
	n := 0
	for t0 := at; ; n++ {
		next, ok := c.nextChange(t0)
		if !ok {
			break
		}
		if next-t0 != sec {
			t.Fatalf("change after %s at %s", t0, next)
		}
		t0 = next
	}
	if n != 9 {
		t.Errorf("%d changes from 9 to 0, want 9", n)
	}
	if z, _ := c.zeroAt(); z != 13*sec {
		t.Errorf("flag at %s, want 13s", z)
	}
}

func TestClockLeverAndFaces(t *testing.T) {
	for _, whiteRight := range []bool{false, true} {
		c := newHWClock([]Period{{Time: 60 * sec}}, AtFlag, whiteRight, false)
		c.start(0)
		d := c.display(0)
		// White runs; Black's lever is down (Black "pressed" to start).
		whiteFaceRunning := d.LeftTurn
		if whiteRight {
			whiteFaceRunning = d.RightTurn
		}
		if !whiteFaceRunning || d.RightHigh != whiteRight {
			t.Errorf("whiteRight %v: start display %+v", whiteRight, d)
		}
		c.press(White, sec, false)
		d = c.display(sec)
		if d.RightHigh == whiteRight || d.LeftTurn != whiteRight {
			t.Errorf("whiteRight %v: after White's press %+v", whiteRight, d)
		}
	}
}
