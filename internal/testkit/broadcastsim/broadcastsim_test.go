package broadcastsim_test

import (
	"io"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/arbiterd/arbiterd/internal/audit"
	"github.com/arbiterd/arbiterd/internal/testkit/broadcastsim"
)

func generate(t *testing.T, seed uint64, opt broadcastsim.Options) *broadcastsim.Round {
	t.Helper()
	r, err := broadcastsim.Generate(seed, opt)
	if err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	return r
}

// TestPGNReads: the PGN reads with the audit's reader and says what the
// truth says was published.
func TestPGNReads(t *testing.T) {
	for seed := uint64(1); seed <= 60; seed++ {
		r := generate(t, seed, broadcastsim.Options{})
		rd := audit.NewReader(strings.NewReader(r.PGN), "round.pgn")
		for i := 0; ; i++ {
			g, err := rd.Next()
			if err == io.EOF {
				if i != len(r.Games) {
					t.Fatalf("seed %d: %d games read, %d written", seed, i, len(r.Games))
				}
				break
			}
			if err != nil {
				t.Fatalf("seed %d: %v\n%s", seed, err, r.PGN)
			}
			want := r.Games[i]
			if g.Tag("Round") != strconv.Itoa(r.Number)+"."+strconv.Itoa(want.Board) || g.Result != want.Result || g.Tag("TimeControl") != r.Tag {
				t.Fatalf("seed %d board %d: tags %v result %q", seed, want.Board, g.Tags, g.Result)
			}
			if len(g.Plies) != len(want.Plies) {
				t.Fatalf("seed %d board %d: %d plies read, %d written", seed, want.Board, len(g.Plies), len(want.Plies))
			}
			for j, p := range g.Plies {
				w := want.Plies[j]
				clk, emt := audit.Unknown, audit.Unknown
				if w.Clk >= 0 {
					clk = secondsOf(w.Clk)
				}
				if w.EMT >= 0 {
					emt = secondsOf(w.EMT)
				}
				if p.SAN != w.SAN || p.Clk != clk || p.EMT != emt {
					t.Fatalf("seed %d board %d ply %d: read %s %v %v, wrote %s %v %v", seed, want.Board, j, p.SAN, p.Clk, p.EMT, w.SAN, clk, emt)
				}
			}
		}
	}
}

func secondsOf(v float64) (d timeDuration) { return timeDuration(int64(v)) * 1e9 }

// TestPhysics: with no noise the readings are the clock, and the clock
// obeys the physics: each move costs its time and earns the increment of
// the period in force after the press, and every change beyond that is a
// recorded period, extra press or time added; every overrun of the time on
// the display is a recorded flag.
func TestPhysics(t *testing.T) {
	for seed := uint64(1); seed <= 120; seed++ {
		r := generate(t, seed, broadcastsim.Options{Profile: "clean"})
		ps := r.Control.Periods
		inc := func(period int) float64 { return ps[period-1].Increment.Seconds() }
		for _, g := range r.Games {
			if g.CutOff {
				t.Fatalf("seed %d: a clean round cut a game off", seed)
			}
			fail := func(format string, args ...any) {
				t.Helper()
				t.Fatalf("seed %d board %d (%s, %s): %s\n%v", seed, g.Board, r.ControlText, g.Mode, strings.TrimSpace(sprintf(format, args...)), g.Incidents)
			}
			extra := map[[2]int]float64{}
			flagAt := map[[2]int]bool{}
			for _, in := range g.Incidents {
				k := [2]int{int(in.Side), in.Move}
				switch in.Kind {
				case broadcastsim.TimeAdded:
					extra[k] += in.Seconds
				case broadcastsim.ExtraPress:
					extra[k] += in.Seconds
				case broadcastsim.FlagBeforeControl, broadcastsim.FlagAfterControl, broadcastsim.FlagLastPeriod:
					flagAt[k] = true
				}
			}
			given := map[[2]int]float64{} // at the opponent's flag, before the move
			for _, a := range g.Additions {
				extra[[2]int{int(a.Side), a.Move}] += ps[a.Period-1].Time.Seconds()
				if a.ByOpponent {
					given[[2]int{int(a.Side), a.Move}] += ps[a.Period-1].Time.Seconds()
				}
			}
			prev := [2]*broadcastsim.Ply{}
			for i := range g.Plies {
				p := &g.Plies[i]
				if p.Clk != math.Floor(p.Clock+1e-9) || !p.ClkOK || p.EMT != math.Floor(p.Think+1e-9) || !p.EMTOK {
					fail("ply %d: published %v/%v for clock %v think %v", i, p.Clk, p.EMT, p.Clock, p.Think)
				}
				if p.Clock < 0 || p.Think <= 0 {
					fail("ply %d: clock %v think %v", i, p.Clock, p.Think)
				}
				k := [2]int{int(p.Side), p.Move}
				before := ps[0].Time.Seconds() + ps[0].Increment.Seconds()
				if q := prev[p.Side]; q != nil {
					before = q.Clock
				}
				prev[p.Side] = p
				ranOut := p.Think >= before+given[k] && before+given[k] > 0
				if ranOut && !flagAt[k] {
					fail("ply %d: %s's move %d took %.1f s with %.1f s on the clock and no flag is recorded", i, p.Side, p.Move, p.Think, before)
				}
				standing := g.Mode == broadcastsim.Counting && (before == 0 || ranOut)
				if standing || (flagAt[k] && p.Clock == 0) {
					// a counting clock at 0:00 until the count, or a flag in
					// the last period
					if p.Clock != 0 && math.Abs(p.Clock-ps[p.Period-1].Time.Seconds()-inc(p.Period)) > 1e-6 {
						fail("ply %d: a clock at 0:00 shows %.3f", i, p.Clock)
					}
					continue
				}
				want := before - p.Think + inc(p.Period) + extra[k]
				if math.Abs(p.Clock-want) > 1e-6 {
					fail("ply %d: %s's move %d: clock %.3f, the physics says %.3f (before %.3f, think %.3f)", i, p.Side, p.Move, p.Clock, want, before, p.Think)
				}
			}
			// a flag before the control: the moves completed are fewer
			// than those of the periods the clock had given
			for _, in := range g.Flags() {
				if in.Seconds <= 0 {
					fail("flag %v without an overstep", in)
				}
				req := 0
				for _, pp := range ps[:len(ps)-1] {
					req += pp.Moves
					if in.Move-1 < req {
						break
					}
				}
				if in.Move-1 >= req {
					fail("flag %v after every control", in)
				}
			}
		}
	}
}

// TestDeterministic: a seed is a round.
func TestDeterministic(t *testing.T) {
	for seed := uint64(1); seed <= 10; seed++ {
		a, b := generate(t, seed, broadcastsim.Options{}), generate(t, seed, broadcastsim.Options{})
		if a.PGN != b.PGN {
			t.Fatalf("seed %d: two rounds", seed)
		}
	}
}

// TestCoverage: over a few hundred rounds the generator makes every kind
// of round, clock, incident and noise it is meant to.
func TestCoverage(t *testing.T) {
	seen := map[string]int{}
	for seed := uint64(1); seed <= 250; seed++ {
		r := generate(t, seed, broadcastsim.Options{})
		seen["control "+r.ControlText]++
		seen["tag "+r.TagKind]++
		seen["profile "+r.Profile]++
		if ok, _ := r.Identifiable(); ok {
			seen["identifiable"]++
		}
		for _, g := range r.Games {
			seen["mode "+g.Mode.String()]++
			if g.CutOff {
				seen["cut off"]++
			}
			if g.Offset != [2]int{} {
				seen["miscount"]++
			}
			for _, in := range g.Incidents {
				seen[in.Kind]++
				if in.Kind == broadcastsim.FlagBeforeControl {
					switch {
					case in.Hidden:
						seen["hidden flag"]++
					case in.Evidence:
						seen["evident flag"]++
					default:
						seen["flag without evidence"]++
					}
				}
				if (in.Kind == broadcastsim.PeriodEarly || in.Kind == broadcastsim.PeriodLate) && in.Evidence {
					seen["visible "+in.Kind]++
				}
			}
			for _, p := range g.Plies {
				if p.Clk < 0 {
					seen["missing clk"]++
				} else if !p.ClkOK {
					seen["damaged clk"]++
				}
			}
		}
	}
	var want []string
	for _, c := range broadcastsim.Controls {
		want = append(want, "control "+c.Text)
	}
	for _, p := range broadcastsim.Profiles {
		want = append(want, "profile "+p)
	}
	want = append(want, "tag notation", "tag text", "tag absent", "tag wrong", "identifiable",
		"mode counting", "mode at-flag", "mode at-flag-both", "cut off", "miscount",
		broadcastsim.FlagBeforeControl, broadcastsim.FlagAfterControl, broadcastsim.FlagLastPeriod,
		broadcastsim.PeriodEarly, broadcastsim.PeriodLate, broadcastsim.TimeAdded, broadcastsim.ExtraPress,
		"hidden flag", "evident flag", "flag without evidence", "visible period-early", "visible period-late",
		"missing clk", "damaged clk")
	for _, w := range want {
		if seen[w] == 0 {
			t.Errorf("no %s in 250 rounds", w)
		}
	}
	t.Logf("%v", seen)
}
