package clockd

import (
	"fmt"
	"reflect"
	"testing"
	"time"
)

// ms and sec write test times exactly.
func ms(n int64) time.Duration  { return time.Duration(n) * time.Millisecond }
func sec(n int64) time.Duration { return time.Duration(n) * time.Second }

// op is one step of a reference-clock script.
type op func(c *Clock) []Event

func start(at time.Duration) op { return func(c *Clock) []Event { c.Start(at); return nil } }
func press(s Side, at time.Duration, completed int) op {
	return func(c *Clock) []Event { return c.Press(s, at, completed) }
}
func stop(at time.Duration) op   { return func(c *Clock) []Event { c.Stop(at); return nil } }
func resume(at time.Duration) op { return func(c *Clock) []Event { c.Resume(at); return nil } }
func addTime(s Side, d, at time.Duration) op {
	return func(c *Clock) []Event { c.AddTime(s, d, at); return nil }
}
func setTime(s Side, d, at time.Duration) op {
	return func(c *Clock) []Event { c.SetTime(s, d, at); return nil }
}
func flags(at time.Duration) op { return func(c *Clock) []Event { return c.Flags(at) } }

// moves plays n full moves from move `from` (1-based): White uses dw and
// Black db on each, starting at at0 with White to move.
func moves(from, n int, at0, dw, db time.Duration) op {
	return func(c *Clock) []Event {
		var evs []Event
		at := at0
		for i := 0; i < n; i++ {
			at += dw
			evs = append(evs, c.Press(White, at, from+i)...)
			at += db
			evs = append(evs, c.Press(Black, at, from+i)...)
		}
		return evs
	}
}

func added(s Side, at time.Duration, period int, d time.Duration) Event {
	return Event{Kind: PeriodAdded, Side: s, At: at, Period: period, Added: d}
}
func flagEv(s Side, at time.Duration, period int) Event {
	return Event{Kind: Flag, Side: s, At: at, Period: period}
}

// TestClockTable holds hand-computed cases: each script runs, then both
// remaining times are compared at `at`, exactly.
func TestClockTable(t *testing.T) {
	tests := []struct {
		name   string
		tc     string
		ops    []op
		at     time.Duration
		white  time.Duration
		black  time.Duration
		events []Event
	}{
		{"fischer: increment before the first move", "5400+30", []op{start(0)}, 0, sec(5430), sec(5430), nil},
		{"fischer: white runs from the start", "5400+30", []op{start(0)}, sec(100), sec(5330), sec(5430), nil},
		{"fischer: first press", "5400+30", []op{start(0), press(White, sec(10), 1)}, sec(15), sec(5450), sec(5425), nil},
		{"fischer: exact milliseconds", "5400+30", []op{start(0), press(White, ms(12345), 1)}, ms(12345), ms(5447655), sec(5430), nil},
		{"fischer: one full move", "300+2", []op{start(0), press(White, ms(4500), 1), press(Black, ms(11500), 1)}, ms(11500), ms(299500), sec(297), nil},
		{"fischer: stop and resume", "5400+30", []op{start(0), stop(sec(10)), resume(sec(50)), press(White, sec(60), 1)}, sec(60), sec(5440), sec(5430), nil},
		{"fischer: stopped clock does not run", "5400+30", []op{start(0), stop(sec(10))}, sec(1000), sec(5420), sec(5430), nil},
		{"fischer: press while stopped passes the move, clock stays stopped", "300", []op{start(0), stop(sec(5)), press(White, sec(100), 1)}, sec(200), sec(295), sec(300), nil},
		{"fischer: press by the idle side changes nothing", "300+2", []op{start(0), press(Black, sec(5), 1)}, sec(10), sec(292), sec(302), nil},
		{"fischer: press before start starts the clock", "300+2", []op{press(White, sec(5), 1)}, sec(5), sec(304), sec(302), nil},
		{"bronstein: move shorter than the delay gives all back", "300b5", []op{start(0), press(White, sec(3), 1)}, sec(3), sec(300), sec(300), nil},
		{"bronstein: move longer than the delay gives back the delay", "300b5", []op{start(0), press(White, sec(8), 1)}, sec(8), sec(297), sec(300), nil},
		{"bronstein: move equal to the delay", "300b5", []op{start(0), press(White, sec(5), 1)}, sec(5), sec(300), sec(300), nil},
		{"bronstein: main time runs at once", "300b5", []op{start(0)}, sec(2), sec(298), sec(300), nil},
		{"bronstein: milliseconds", "300b5", []op{start(0), press(White, ms(5001), 1), press(Black, ms(5500), 1)}, ms(5500), ms(299999), sec(300), nil},
		{"delay: main time waits for the delay", "300d5", []op{start(0)}, sec(4), sec(300), sec(300), nil},
		{"delay: main time runs after the delay", "300d5", []op{start(0)}, sec(7), sec(298), sec(300), nil},
		{"delay: move shorter than the delay, unused delay lost", "300d5", []op{start(0), press(White, sec(3), 1)}, sec(3), sec(300), sec(300), nil},
		{"delay: move longer than the delay", "300d5", []op{start(0), press(White, sec(8), 1)}, sec(8), sec(297), sec(300), nil},
		{"delay: stop inside the delay keeps the delay used", "300d5", []op{start(0), stop(sec(3)), resume(sec(100)), press(White, sec(104), 1)}, sec(104), sec(298), sec(300), nil},
		{"multi: period added on completing the move count (6.3.2 carry-over)", "2/60:30", []op{start(0), moves(1, 2, 0, sec(10), sec(1))}, sec(22), sec(70), sec(88),
			[]Event{added(White, sec(21), 2, sec(30)), added(Black, sec(22), 2, sec(30))}},
		{"multi: FIDE control after 40 moves", "40/5400+30:1800+30", []op{start(0), moves(1, 40, 0, sec(10), sec(20))}, sec(1200), sec(8030), sec(7630),
			[]Event{added(White, sec(1180), 2, sec(1800)), added(Black, sec(1200), 2, sec(1800))}},
		{"multi: the period's own increment after the control", "2/60+5:30+10", []op{start(0), press(White, sec(1), 1), press(Black, sec(2), 1), press(White, sec(3), 2)}, sec(3), sec(108), sec(69),
			[]Event{added(White, sec(3), 2, sec(30))}},
		{"multi: three periods", "1/10:1/20:30", []op{start(0), press(White, sec(4), 1), press(Black, sec(5), 1), press(White, sec(11), 2)}, sec(11), sec(50), sec(29),
			[]Event{added(White, sec(4), 2, sec(20)), added(Black, sec(5), 2, sec(20)), added(White, sec(11), 3, sec(30))}},
		{"multi: a count that jumps two periods adds both", "1/10:1/20:30", []op{start(0), press(White, sec(4), 2)}, sec(4), sec(56), sec(10),
			[]Event{added(White, sec(4), 2, sec(20)), added(White, sec(4), 3, sec(30))}},
		{"multi: press without a completed move adds nothing", "1/10:30", []op{start(0), press(White, sec(4), 0)}, sec(4), sec(6), sec(10), nil},
		{"multi: delay per period", "1/60d5:30d10", []op{start(0), press(White, sec(3), 1), press(Black, sec(3), 1), press(White, sec(15), 2)}, sec(15), sec(88), sec(90),
			[]Event{added(White, sec(3), 2, sec(30)), added(Black, sec(3), 2, sec(30))}},
		{"multi: bronstein credit of the move's own period", "1/60b5:30b5", []op{start(0), press(White, sec(3), 1)}, sec(3), sec(90), sec(60),
			[]Event{added(White, sec(3), 2, sec(30))}},
		{"flag: exact instant, once", "60", []op{start(0), flags(ms(59999)), flags(sec(60)), flags(sec(61))}, sec(70), 0, sec(60),
			[]Event{flagEv(White, sec(60), 1)}},
		{"flag: after a press, exact milliseconds", "60+1", []op{start(0), press(White, ms(10500), 1), flags(ms(71499)), flags(ms(71500))}, ms(71500), ms(51500), 0,
			[]Event{flagEv(Black, ms(71500), 1)}},
		{"flag: a late press reports the flag and earns no increment", "10+2", []op{start(0), press(White, sec(13), 1)}, sec(13), 0, sec(12),
			[]Event{flagEv(White, sec(12), 1)}},
		{"flag: bronstein, fallen flag gets nothing back", "10b5", []op{start(0), press(White, sec(12), 1)}, sec(12), 0, sec(10),
			[]Event{flagEv(White, sec(10), 1)}},
		{"flag: delay falls after the delay", "60d5", []op{start(0), flags(ms(64999)), flags(sec(65))}, sec(65), 0, sec(60),
			[]Event{flagEv(White, sec(65), 1)}},
		{"flag: in the second period", "1/10:5", []op{start(0), press(White, sec(4), 1), press(Black, sec(5), 1), flags(sec(16))}, sec(16), 0, sec(14),
			[]Event{added(White, sec(4), 2, sec(5)), added(Black, sec(5), 2, sec(5)), flagEv(White, sec(16), 2)}},
		{"flag: time added after the flag lets the side play on", "10", []op{start(0), flags(sec(10)), addTime(White, sec(60), sec(12)), flags(ms(71999)), flags(sec(72))}, sec(72), 0, sec(10),
			[]Event{flagEv(White, sec(10), 1), flagEv(White, sec(72), 1)}},
		{"add time to the idle side (penalty 7.5.5)", "300", []op{start(0), addTime(Black, sec(120), sec(10))}, sec(10), sec(290), sec(420), nil},
		{"add time to the running side", "300", []op{start(0), addTime(White, sec(120), sec(10))}, sec(20), sec(400), sec(300), nil},
		{"remove an increment earned by an illegal move", "300+5", []op{start(0), press(White, sec(10), 1), addTime(White, -sec(5), sec(10))}, sec(10), sec(295), sec(305), nil},
		{"set the idle side", "300", []op{start(0), setTime(Black, sec(100), sec(10))}, sec(10), sec(290), sec(100), nil},
		{"set the running side", "300", []op{start(0), setTime(White, sec(50), sec(10))}, sec(20), sec(40), sec(300), nil},
		{"set the running side inside a delay", "300d5", []op{start(0), setTime(White, sec(100), sec(2))}, sec(8), sec(97), sec(300), nil},
		{"set below zero is zero", "300", []op{start(0), setTime(Black, -sec(5), sec(1))}, sec(1), sec(299), 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tc, err := ParseTimeControl(tt.tc)
			if err != nil {
				t.Fatal(err)
			}
			c := NewClock(tc)
			var evs []Event
			for _, o := range tt.ops {
				evs = append(evs, o(c)...)
			}
			if w, b := c.Remaining(White, tt.at), c.Remaining(Black, tt.at); w != tt.white || b != tt.black {
				t.Errorf("at %v: white %v black %v, want white %v black %v", tt.at, w, b, tt.white, tt.black)
			}
			if !reflect.DeepEqual(evs, tt.events) {
				t.Errorf("events\n got %v\nwant %v", evs, tt.events)
			}
		})
	}
	if len(tests) < 30 {
		t.Fatalf("only %d cases", len(tests))
	}
}

// TestClockOneMoveLate: the reference clock adds the second period when the
// player has completed 40 moves, not at the 40th press: a press without a
// move (7.5.3) in between makes the addition come one press later than a
// clock counting presses would make it.
func TestClockOneMoveLate(t *testing.T) {
	tc, _ := ParseTimeControl("40/5400+30:1800+30")
	c := NewClock(tc)
	c.Start(0)
	at := time.Duration(0)
	completed := 0
	for p := 1; p <= 41; p++ {
		at += sec(5)
		if p != 10 { // press 10 comes without a move
			completed++
		}
		evs := c.Press(White, at, completed)
		at += sec(5)
		c.Press(Black, at, p)
		wantAdd := p == 41
		if got := len(evs) == 1 && evs[0].Kind == PeriodAdded; got != wantAdd {
			t.Fatalf("press %d (completed %d): events %v, want period added: %v", p, completed, evs, wantAdd)
		}
	}
	if c.Period(White) != 2 || c.Completed(White) != 40 {
		t.Fatalf("white period %d completed %d", c.Period(White), c.Completed(White))
	}
}

// TestClockInvariants checks, over many pseudo-random games, properties
// that hold for every mode: a Bronstein move never ends with more time
// than it started with, a delay move never loses more than its length
// minus the delay, a Fischer move gains exactly increment minus time used,
// and NextFlag agrees with Remaining.
func TestClockInvariants(t *testing.T) {
	seed := uint64(1)
	rnd := func(n int64) int64 {
		seed = seed*6364136223846793005 + 1442695040888963407
		return int64(seed>>33) % n
	}
	for _, s := range []string{"300+2", "300b5", "300d5", "3/120+1:2/60b3:30d2"} {
		tc, _ := ParseTimeControl(s)
		for game := 0; game < 50; game++ {
			c := NewClock(tc)
			c.Start(0)
			at := time.Duration(0)
			done := [2]int{}
			for ply := 0; ply < 40; ply++ {
				side, _ := c.Running()
				before := c.Remaining(side, at)
				p := tc.period(c.Period(side))
				u := ms(rnd(12000))
				if fAt, fs, ok := c.NextFlag(); !ok || fs != side || c.Remaining(side, fAt) != 0 || (fAt > at && c.Remaining(side, fAt-1) == 0) {
					t.Fatalf("%s: NextFlag %v %v %v inconsistent with Remaining", s, fAt, fs, ok)
				}
				at += u
				done[side]++
				evs := c.Press(side, at, done[side])
				after := c.Remaining(side, at)
				var add time.Duration
				for _, e := range evs {
					if e.Kind == PeriodAdded {
						add += e.Added
					}
				}
				if len(evs) > 0 && evs[0].Kind == Flag || before <= u && p.Mode != Delay {
					break // flag fell; the rest of the game is not this property's concern
				}
				np := tc.period(c.Period(side))
				var want time.Duration
				switch p.Mode {
				case Fischer:
					want = before - u + add
					if np.Mode == Fischer {
						want += np.Increment
					}
				case Bronstein:
					want = before - u + min(u, p.Increment) + add
					if after-add > before {
						t.Fatalf("%s: bronstein move ended with more time than it began", s)
					}
				case Delay:
					if before <= u-p.Increment {
						break
					}
					want = before - max(0, u-p.Increment) + add
				}
				if np.Mode == Fischer && p.Mode != Fischer {
					want += np.Increment
				}
				if want != 0 && after != want {
					t.Fatalf("%s game %d ply %d: %v mode, before %v used %v added %v: after %v, want %v", s, game, ply, p.Mode, before, u, add, after, want)
				}
			}
		}
	}
}

func ExampleClock() {
	tc, _ := ParseTimeControl("40/5400+30:1800+30")
	c := NewClock(tc)
	c.Start(0)
	c.Press(White, 12*time.Second, 1)
	fmt.Println(c.Remaining(White, 12*time.Second), c.Remaining(Black, 20*time.Second))
	// Output: 1h30m48s 1h30m22s
}
