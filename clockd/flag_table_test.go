package clockd

import (
	"fmt"
	"testing"
	"time"
)

// flagClock is a deliberately plain clock for the flag table: whole
// seconds, one reading per second of play and one per press, White on the
// left face, turn bits as real boards set them.
type flagClock struct {
	tc      TimeControl
	t       [2]time.Duration
	period  [2]int // 1-based
	moves   [2]int // presses = completed moves here
	turn    Face
	counter bool // adds the next period at the press completing the control
	both    bool // a flag-add clock adds the next period to both sides
	at      time.Duration
	out     []Reading
}

func newFlagClock(tc TimeControl, counter, both bool) *flagClock {
	c := &flagClock{tc: tc, counter: counter, both: both, period: [2]int{1, 1}}
	c.t = [2]time.Duration{tc.Periods[0].Time, tc.Periods[0].Time}
	c.read(func(r *Reading) { r.Running = false })
	c.read(nil)
	return c
}

func (c *flagClock) read(mod func(*Reading)) {
	c.at += time.Second
	r := Reading{At: c.at, Left: FaceReading{Time: c.t[Left]}, Right: FaceReading{Time: c.t[Right]},
		Running: true, LeftTurn: c.turn == Left, RightTurn: c.turn == Right, LeverKnown: true, LeverRightHigh: c.turn == Right}
	if mod != nil {
		mod(&r)
	}
	c.out = append(c.out, r)
}

// play: the side to move thinks 2 s (two readings) and presses.
func (c *flagClock) play() {
	f := c.turn
	for i := 0; i < 2; i++ {
		c.t[f] -= time.Second
		c.read(nil)
	}
	c.moves[f]++
	if c.counter {
		if r := c.tc.Required(c.period[f]); r > 0 && c.moves[f] == r {
			c.period[f]++
			c.t[f] += c.tc.Periods[c.period[f]-1].Time
		}
	}
	c.turn = f.Other()
	c.read(nil)
}

// flag runs the side to move out of time. A flag-add clock then adds the
// next period (to that side, or to both) with the flag shown, in the same
// reading or after a reading at 0:00 (zeroFirst); a counter clock, or any
// clock in the last period, blocks at zero.
func (c *flagClock) flag(zeroFirst bool) {
	f := c.turn
	c.t[f] = time.Second
	c.read(nil)
	c.t[f] = 0
	last := c.period[f] == len(c.tc.Periods)
	if c.counter || last {
		c.read(func(r *Reading) {
			fr := &r.Left
			if f == Right {
				fr = &r.Right
			}
			fr.Flag = true
		})
		return
	}
	shown := func(r *Reading) {
		fr := &r.Left
		if f == Right {
			fr = &r.Right
		}
		fr.FlagShown = true
	}
	if zeroFirst {
		c.read(shown)
	}
	add := func(g Face) {
		if c.period[g] < len(c.tc.Periods) {
			c.period[g]++
			c.t[g] += c.tc.Periods[c.period[g]-1].Time
		}
	}
	add(f)
	if c.both {
		add(f.Other())
	}
	c.t[f] -= time.Second
	c.read(shown)
}

// TestFlagOwnerTable: over one-, two- and three-period controls, counter
// and flag-add clocks, the next period added to the flagged side only or
// to both, flags before, at and after each control, and both orders in
// which a flag-add clock can show a flag (the flag with the new time, or
// 0:00 first), the flag is reported once, in the period whose time ran
// out, and Judge's verdict follows 6.3.1 and 6.4.
func TestFlagOwnerTable(t *testing.T) {
	controls := []string{"60", "2/30:20", "2/30:2/20:15"}
	n := 0
	for _, text := range controls {
		tc, err := ParseTimeControl(text)
		if err != nil {
			t.Fatal(err)
		}
		for _, counter := range []bool{true, false} {
			for _, both := range []bool{false, true} {
				for _, zeroFirst := range []bool{false, true} {
					// White's flag after `moves` completed moves, in the
					// period the clock is in by then.
					for moves := 0; moves <= 5; moves++ {
						name := fmt.Sprintf("%s/counter=%v/both=%v/zero-first=%v/moves=%d", text, counter, both, zeroFirst, moves)
						t.Run(name, func(t *testing.T) {
							checkFlagOwner(t, tc, counter, both, zeroFirst, moves)
						})
						n++
					}
				}
			}
		}
	}
	t.Logf("%d cases", n)
}

func checkFlagOwner(t *testing.T, tc TimeControl, counter, both, zeroFirst bool, moves int) {
	c := newFlagClock(tc, counter, both)
	var want []int // periods of White's flags, in order
	for m := 0; m < moves; m++ {
		c.play() // White
		c.play() // Black
	}
	want = append(want, c.period[Left])
	c.flag(zeroFirst)
	in := NewInterpreter(tc, WhiteLeft)
	var flags []ClockEvent
	for _, r := range c.out {
		for _, ev := range in.Feed(r) {
			switch ev.Kind {
			case Flag:
				flags = append(flags, ev)
			case Impossible:
				t.Fatalf("impossible reading: %v", ev)
			}
		}
	}
	if len(flags) != len(want) {
		t.Fatalf("flags %v, want White's in periods %v", flags, want)
	}
	for i, ev := range flags {
		if ev.Side != White || ev.Period != want[i] {
			t.Errorf("flag %v, want White's in period %d", ev, want[i])
		}
		j, err := tc.Judge(ev.Period, moves)
		if err != nil {
			t.Fatal(err)
		}
		// The reference: the control of the period whose time ran out.
		cum, last := 0, false
		for p := 1; p <= ev.Period; p++ {
			if p == len(tc.Periods) {
				last = true
				break
			}
			cum += tc.Periods[p-1].Moves
		}
		if j.Last != last || (!last && (j.Required != cum || j.Reached != (moves >= cum))) {
			t.Errorf("judged %+v for period %d after %d moves (want last=%v required=%d)", j, ev.Period, moves, last, cum)
		}
		if j.Reached && last {
			t.Errorf("a control reached in the last period: %+v", j)
		}
	}
}

// TestJudge pins the pure verdict rule, including time a clock added too
// early (the control stays where the moves put it, 6.3.1).
func TestJudge(t *testing.T) {
	tc, err := ParseTimeControl("40/5400+30:20/1800+30:900+30")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		period, moves int
		want          Judgement
	}{
		{1, 0, Judgement{Period: 1, Required: 40}},
		{1, 39, Judgement{Period: 1, Required: 40}},
		{1, 40, Judgement{Period: 1, Required: 40, Reached: true}},
		{1, 45, Judgement{Period: 1, Required: 40, Reached: true}},
		{2, 39, Judgement{Period: 1, Required: 40, Early: true}},
		{2, 40, Judgement{Period: 2, Required: 60}},
		{2, 59, Judgement{Period: 2, Required: 60}},
		{2, 60, Judgement{Period: 2, Required: 60, Reached: true}},
		{3, 59, Judgement{Period: 2, Required: 60, Early: true}},
		{3, 20, Judgement{Period: 1, Required: 40, Early: true}},
		{3, 60, Judgement{Period: 3, Last: true}},
		{3, 90, Judgement{Period: 3, Last: true}},
		{4, 90, Judgement{Period: 3, Last: true}},
	} {
		got, err := tc.Judge(c.period, c.moves)
		if err != nil || got != c.want {
			t.Errorf("Judge(%d, %d) = %+v, %v; want %+v", c.period, c.moves, got, err, c.want)
		}
	}
	one, _ := ParseTimeControl("300+3")
	if got, _ := one.Judge(1, 100); got != (Judgement{Period: 1, Last: true}) {
		t.Errorf("one period: %+v", got)
	}
	if _, err := (TimeControl{}).Judge(1, 0); err == nil {
		t.Error("no control: no error")
	}
	if _, err := tc.Judge(0, 0); err == nil {
		t.Error("period 0: no error")
	}
}
