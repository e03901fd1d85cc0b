package audit

import (
	"bytes"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"
)

// TestRealGamesWithNoise adds broadcast noise to the clocks of the real
// games of both shared events, none of which has a flag before the
// control: single wrong readings (seconds to half an hour off, either
// way), readings equal to the previous one, readings without their
// increment, missing readings and short garbled runs. Whatever the noise,
// nobody may be accused: no flag-before-control; and possible flags stay
// rare. ARBITERD_AUDIT_NOISE_SEEDS sets the number of noisy copies of
// each round (the long form: 300, about 87,000 games).
func TestRealGamesWithNoise(t *testing.T) {
	seeds := 12
	if testing.Short() {
		seeds = 3
	}
	seeds = envCount(t, "ARBITERD_AUDIT_NOISE_SEEDS", seeds)
	var rounds [][]*Game
	key := ""
	for _, g := range sharedEventGames(t) {
		if k := roundKey(g); k != key || len(rounds) == 0 {
			rounds = append(rounds, nil)
			key = k
		}
		rounds[len(rounds)-1] = append(rounds[len(rounds)-1], g)
	}
	a := New(Options{NoUnwinnable: true})
	// Each game's control as the clean round gives it: a few wrong
	// readings are no reason to judge a round by another.
	clean := make([][]*Report, len(rounds))
	for ri, round := range rounds {
		clean[ri] = a.Round(round)
	}
	games, possible, changed, clockFindings := 0, 0, 0, 0
	// Seeds beyond the default run whose noise once led to an accusation:
	// always run.
	list := []uint64{245}
	for seed := uint64(1); seed <= uint64(seeds); seed++ {
		if !slices.Contains(list, seed) {
			list = append(list, seed)
		}
	}
	for _, seed := range list {
		rng := rand.New(rand.NewPCG(seed, 33))
		for ri, round := range rounds {
			noisy := make([]*Game, len(round))
			for i, g := range round {
				noisy[i] = addNoise(g, rng, 0.02+0.06*rng.Float64())
			}
			for i, r := range a.Round(noisy) {
				games++
				if r.TimeControl != clean[ri][i].TimeControl {
					changed++
					t.Logf("seed %d, %s %s.%s: judged by %s (%s), the clean round's is %s", seed, r.Event, r.Round, r.Board, r.TimeControl, r.TimeControlSource, clean[ri][i].TimeControl)
				}
				clockFindings += newClockFindings(clean[ri][i], r)
				for _, f := range r.Findings {
					switch f.Kind {
					case FlagBeforeControl:
						t.Errorf("seed %d, %s %s.%s: %s accused at move %d: %s", seed, r.Event, r.Round, r.Board, f.Side, f.Move, f.Detail)
						logClocks(t, noisy[i])
					case PossibleFlag:
						possible++
					case ClockData:
						if f.Message.Code == "audit.clock-data.swapped" {
							t.Errorf("seed %d, %s %s.%s: readings said to be swapped: the noise swaps no clocks", seed, r.Event, r.Round, r.Board)
						}
					}
				}
			}
		}
	}
	t.Logf("%d noisy games: %d possible-flag, %d judged by another control than the clean game, %d clock findings the clean game does not have", games, possible, changed, clockFindings)
	if clockFindings*100 > games {
		t.Errorf("%d clock findings the noise made in %d games: more than one in a hundred", clockFindings, games)
	}
	if changed > 1+games/2000 {
		t.Errorf("%d of %d games judged by another control than without the noise", changed, games)
	}
	if possible*100 > games {
		t.Errorf("%d possible flags in %d games: more than one in a hundred", possible, games)
	}
}

// addNoise returns a copy of g whose clock readings carry broadcast noise
// at the given rate per reading.
func addNoise(g *Game, rng *rand.Rand, rate float64) *Game {
	out := *g
	out.Plies = append([]Ply(nil), g.Plies...)
	last := [2]time.Duration{Unknown, Unknown}
	for i := range out.Plies {
		p := &out.Plies[i]
		side := i % 2
		orig := p.Clk
		if p.Clk != Unknown && rng.Float64() < rate {
			switch rng.IntN(5) {
			case 0: // a wrong reading, up to half an hour either way
				off := time.Duration(5+rng.IntN(1800)) * time.Second
				if rng.IntN(2) == 0 {
					off = -off
				}
				p.Clk = max(0, p.Clk+off)
			case 1: // read before the press: the previous reading again
				if last[side] != Unknown {
					p.Clk = last[side]
				}
			case 2: // read without the increment
				p.Clk = max(0, p.Clk-30*time.Second)
			case 3: // missing
				p.Clk = Unknown
			case 4: // a garbled run of the next readings of this side
				for j := i; j < len(out.Plies) && j < i+6; j += 2 {
					if out.Plies[j].Clk != Unknown {
						out.Plies[j].Clk = time.Duration(rng.IntN(7200)) * time.Second
					}
				}
			}
		}
		if orig != Unknown {
			last[side] = orig
		}
	}
	return &out
}

func logClocks(t *testing.T, g *Game) {
	t.Helper()
	var b bytes.Buffer
	for i, p := range g.Plies {
		if i%2 == 0 {
			b.WriteString("\n")
		}
		b.WriteString(p.SAN + " ")
		if p.Clk != Unknown {
			b.WriteString(hms(p.Clk) + " ")
		}
	}
	t.Log(b.String())
}

// envCount is the positive number the environment variable name gives,
// or def when it is unset.
func envCount(t *testing.T, name string, def int) int {
	t.Helper()
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < 1 {
		t.Fatalf("%s=%q: not a positive number", name, s)
	}
	return v
}

// sharedEventGames reads the games of both shared events (World Cup 2025,
// Tata Steel 2026), in the files' order; the test is skipped without them.
func sharedEventGames(t *testing.T) []*Game {
	t.Helper()
	var out []*Game
	for _, name := range []string{"broadcast/worldcup-2025-rounds-3-6.pgn", "broadcast/tata-steel-2026-masters.pgn"} {
		text, err := os.ReadFile(shared(t, name))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, readNamed(t, name, string(text))...)
	}
	return out
}

// newClockFindings counts the findings of an incident of the clocks (time
// added, an increment missing or too many, a period early or late) in the
// noisy game's report n that the clean game's report c does not have on
// that side within a move: incidents the noise made. (Time from nowhere,
// clock-data, is what the noise is: a data fault.)
func newClockFindings(c, n *Report) int {
	count := 0
	for _, f := range n.Findings {
		switch f.Kind {
		case TimeAdded, IncrementExtra, IncrementMissing, PeriodEarly, PeriodLate:
		default:
			continue
		}
		if !slices.ContainsFunc(c.Findings, func(g Finding) bool {
			return g.Kind == f.Kind && g.Side == f.Side && g.Move >= f.Move-1 && g.Move <= f.Move+1
		}) {
			count++
		}
	}
	return count
}
