package clockd

import "testing"

// TestInterpreterGap: after a gap in the readings (the device relaying the
// clock was away, or arbiterd was), a reading no single interval explains is
// the clock's state as it is, not an untrusted reading; one that an interval
// explains is read as usual; and whose time runs is said first, so that the
// side to move is known although the presses made meanwhile may not be.
func TestInterpreterGap(t *testing.T) {
	gap := Reading{} // a zero reading in the list stands for a call of Gap
	tests := []struct {
		name  string
		tc    string
		reads []Reading
		want  string
	}{
		{"presses beyond counting: the times are taken as they are", "900+10",
			// nine presses with their increments: more than one interval holds
			[]Reading{rd(0, 900, 900, "L", true), rd(60, 880, 900, "L", true), gap,
				rd(100, 930, 925, "R", true), rd(101, 930, 924, "R", true), rd(105, 929, 935, "L", true)},
			"started running:black press:black"},
		{"the same readings without the gap are not trusted at first", "900+10",
			[]Reading{rd(0, 900, 900, "L", true), rd(60, 880, 900, "L", true),
				rd(100, 930, 925, "R", true), rd(101, 930, 924, "R", true), rd(105, 929, 935, "L", true)},
			"started impossible impossible running:black press:black"},
		{"an even number of presses leaves the turn as it was", "300",
			[]Reading{rd(0, 300, 300, "L", true), rd(10, 290, 300, "L", true), gap,
				rd(50, 270, 280, "L", true), rd(51, 269, 280, "L", true)},
			"started running:white press:white~ press:black~"},
		{"one press across the gap", "300",
			[]Reading{rd(0, 300, 300, "L", true), rd(10, 290, 300, "L", true), gap,
				rd(20, 285, 295, "R", true)},
			"started running:black press:white"},
		{"a flag that fell while the clock was not read", "900+10",
			[]Reading{rd(0, 900, 900, "L", true), rd(60, 880, 900, "L", true), gap,
				with(rd(1000, 20, 0, "R", true), func(r *Reading) { r.Right.Flag = true })},
			"started running:black press:white flag:black"},
		{"a stopped clock: nothing runs", "900+10",
			[]Reading{rd(0, 900, 900, "L", true), rd(60, 880, 900, "L", true), gap,
				rd(100, 930, 925, "R", false)},
			"started stopped"},
		{"a gap before the first reading changes nothing", "300",
			[]Reading{gap, rd(0, 300, 300, "L", true), rd(10, 290, 300, "L", true)},
			"started"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tc, err := ParseTimeControl(tt.tc)
			if err != nil {
				t.Fatal(err)
			}
			in := NewInterpreter(tc, WhiteLeft)
			var evs []ClockEvent
			for _, r := range tt.reads {
				if r == gap {
					in.Gap()
					continue
				}
				evs = append(evs, in.Feed(r)...)
			}
			if got := kinds(evs); got != tt.want {
				t.Fatalf("events %q, want %q\n%v", got, tt.want, evs)
			}
		})
	}
}
