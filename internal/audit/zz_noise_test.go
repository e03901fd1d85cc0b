package audit

import (
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
)

func TestZZNoise(t *testing.T) {
	want, _ := strconv.Atoi(os.Getenv("ZZSEED"))
	if want == 0 {
		t.Skip()
	}
	wr := os.Getenv("ZZROUND")
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
	for seed := uint64(1); seed <= uint64(want); seed++ {
		rng := rand.New(rand.NewPCG(seed, 33))
		for _, round := range rounds {
			noisy := make([]*Game, len(round))
			for i, g := range round {
				noisy[i] = addNoise(g, rng, 0.02+0.06*rng.Float64())
			}
			if seed != uint64(want) {
				continue
			}
			reps := a.Round(noisy)
			for i, r := range reps {
				if r.Round+"."+r.Board != wr && r.Round != wr {
					continue
				}
				t.Logf("%s %s.%s: %s (%s) %+v", r.Event, r.Round, r.Board, r.TimeControl, r.TimeControlSource, r.Findings)
				logClocks(t, noisy[i])
			}
		}
	}
}
