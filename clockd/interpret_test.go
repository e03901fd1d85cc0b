package clockd

import (
	"fmt"
	"testing"
	"time"
)

// lcg is a small deterministic generator for test scripts.
type lcg uint64

func (r *lcg) intn(n int64) int64 {
	*r = *r*6364136223846793005 + 1442695040888963407
	return int64(uint64(*r)>>33) % n
}

// simulate plays `moves` full moves on a simulated hardware clock polled
// every 0.5 s of clock time. Every mergeEvery-th ply (when > 0) is made
// 0.2 s after the previous press, which itself falls 0.1 s after a poll,
// so both presses land between two readings; ply tripleAt starts three
// presses in one interval.
func simulate(t testing.TB, tcText string, white Face, countPresses bool, moves int, think func(r *lcg) time.Duration, mergeEvery, tripleAt int) *game {
	t.Helper()
	tc, err := ParseTimeControl(tcText)
	if err != nil {
		t.Fatal(err)
	}
	g := &game{hw: newHW(tc, white, countPresses), poll: 500 * time.Millisecond, speedup: 7}
	rnd := lcg(seedFor(tcText, mergeEvery))
	g.run(2 * time.Second) // readings before the start
	g.hw.start()
	for ply := 1; ply <= 2*moves; ply++ {
		switch {
		case ply == tripleAt:
			g.run(g.untilPollPlus(think(&rnd), 50*time.Millisecond))
			g.press()
			g.run(100 * time.Millisecond)
			g.press()
			g.run(100 * time.Millisecond)
			g.press()
			ply += 2
		case mergeEvery > 0 && ply%mergeEvery == 0 && ply < 2*moves:
			g.run(g.untilPollPlus(think(&rnd), 100*time.Millisecond))
			g.press()
			g.run(200 * time.Millisecond)
			g.press()
			ply++
		default:
			g.run(think(&rnd))
			g.press()
		}
	}
	g.run(2 * time.Second)
	return g
}

// seedFor varies the random think times between test variants.
func seedFor(s string, k int) uint64 {
	h := uint64(1469598103934665603)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * 1099511628211
	}
	return h + uint64(k)
}

// untilPollPlus lengthens d so that the press after it falls `off` after a
// poll instant.
func (g *game) untilPollPlus(d, off time.Duration) time.Duration {
	end := g.now + d
	end = end - end%g.poll + off
	if end <= g.now {
		end += g.poll
	}
	return end - g.now
}

// checkPresses feeds the readings and checks that every press the
// simulation made comes out, in order, with the right side, and with the
// pressing side's displayed time after the press.
func checkPresses(t *testing.T, g *game, in *Interpreter) []ClockEvent {
	t.Helper()
	var evs []ClockEvent
	for _, r := range g.reads {
		evs = append(evs, in.Feed(r)...)
	}
	var got []ClockEvent
	last := time.Duration(-1)
	for _, e := range evs {
		if e.At < last {
			t.Fatalf("events out of order: %v", e)
		}
		last = e.At
		switch e.Kind {
		case Press:
			got = append(got, e)
		case Impossible:
			t.Errorf("unexpected %v", e)
		}
	}
	if len(got) != len(g.presses) {
		t.Fatalf("%d presses recovered, %d made", len(got), len(g.presses))
	}
	for i, e := range got {
		want := g.presses[i]
		if e.Side != want.side {
			t.Fatalf("press %d: %v, want %v", i+1, e, want)
		}
		lastOfGroup := i+1 == len(got) || !got[i+1].Inferred || e.Detail != got[i+1].Detail || !e.Inferred
		if lastOfGroup && !e.Inferred && e.Clock != want.clock {
			t.Errorf("press %d: clock %v/%v, want %v", i+1, e.Clock.White, e.Clock.Black, want)
		}
		if e.Clock.Of(e.Side) > want.clock.Of(e.Side) {
			t.Errorf("press %d: %v shows more than the clock had (%v)", i+1, e, want)
		}
	}
	return evs
}

func TestInterpreterSimulatedGame(t *testing.T) {
	fischerThink := func(r *lcg) time.Duration { return 2*time.Second + time.Duration(r.intn(38000))*time.Millisecond }
	g := simulate(t, "40/5400+30:1800+30", Right, true, 100, fischerThink, 13, 101)
	in := NewInterpreter(g.hw.tc, WhiteAuto)
	evs := checkPresses(t, g, in)
	if f, ok := in.WhiteFace(); !ok || f != Right {
		t.Errorf("white face %v %v, want right", f, ok)
	}
	inferred, periods := 0, []ClockEvent{}
	for _, e := range evs {
		if e.Kind == Press && e.Inferred {
			inferred++
		}
		if e.Kind == PeriodAdded {
			periods = append(periods, e)
		}
	}
	if inferred < 20 {
		t.Errorf("only %d inferred presses: the merges were not exercised", inferred)
	}
	if len(periods) != 2 || periods[0].Side != White || periods[1].Side != Black ||
		periods[0].Period != 2 || periods[0].Added != 1800*time.Second {
		t.Errorf("period additions %v", periods)
	}
	if evs[0].Kind != Started || evs[0].Side != White {
		t.Errorf("first event %v", evs[0])
	}
	t.Logf("%d readings, %d presses (%d inferred)", len(g.reads), len(g.presses), inferred)
}

func TestInterpreterSimulatedBronstein(t *testing.T) {
	think := func(r *lcg) time.Duration { return 2*time.Second + time.Duration(r.intn(6000))*time.Millisecond }
	g := simulate(t, "600b5", Left, true, 100, think, 11, 0)
	checkPresses(t, g, NewInterpreter(g.hw.tc, WhiteLeft))
}

func TestInterpreterSimulatedDelay(t *testing.T) {
	// With a simple delay a quick second move (shorter than the delay)
	// changes no displayed time, so merged presses cannot be seen at this
	// polling rate (TestInterpreterTable covers a visible one); this game
	// has none.
	think := func(r *lcg) time.Duration { return 8*time.Second + time.Duration(r.intn(6000))*time.Millisecond }
	g := simulate(t, "1200d5", Left, true, 60, think, 0, 0)
	checkPresses(t, g, NewInterpreter(g.hw.tc, WhiteAuto))
}

// TestInterpreterSimulatedVariants: more games, with different merge
// spacing, faces and controls, including a clock that adds the second
// period to both players at the first flag (it cannot count moves).
func TestInterpreterSimulatedVariants(t *testing.T) {
	think := func(lo, spread int64) func(r *lcg) time.Duration {
		return func(r *lcg) time.Duration { return time.Duration(lo+r.intn(spread)) * time.Millisecond }
	}
	for _, v := range []struct {
		tc           string
		white        Face
		countPresses bool
		think        func(*lcg) time.Duration
		merge        int
		wantFlags    int
		wantPeriods  int
	}{
		{"40/5400+30:1800+30", Left, true, think(1000, 60000), 7, 0, 2},
		{"40/5400+30:1800+30", Right, true, think(1500, 5000), 5, 0, 2},
		{"40/5400+30:1800+30", Left, true, think(1000, 30000), 10, 0, 2}, // black's 40th press opens a merged pair
		{"300+3", Left, true, think(1000, 5000), 9, 0, 0},
		{"900b10", Right, true, think(2000, 12000), 6, 0, 0},
		{"40/600+5:1800+5", Left, false, think(2000, 40000), 11, 1, 2},
	} {
		t.Run(fmt.Sprintf("%s/%v/merge%d", v.tc, v.white, v.merge), func(t *testing.T) {
			g := simulate(t, v.tc, v.white, v.countPresses, 100, v.think, v.merge, 0)
			evs := checkPresses(t, g, NewInterpreter(g.hw.tc, WhiteAuto))
			flags, periods := 0, 0
			for _, e := range evs {
				if e.Kind == PeriodAdded {
					periods++
					if e.Period != 2 || e.Added != g.hw.tc.Periods[1].Time {
						t.Errorf("period event %v", e)
					}
				}
				if e.Kind == Flag {
					flags++
					if e.Period != 1 {
						t.Errorf("flag %v: want period 1", e)
					}
				}
			}
			if flags != v.wantFlags || periods != v.wantPeriods {
				t.Errorf("%d flags, %d period additions; want %d, %d", flags, periods, v.wantFlags, v.wantPeriods)
			}
		})
	}
}
