package emulator

import (
	"testing"
	"time"
)

var immortal = []string{"e4", "e5", "f4", "exf4", "Bc4", "Qh4+", "Kf1", "b5", "Bxb5", "Nf6", "Nf3", "Qh6",
	"d3", "Nh5", "Nh4", "Qg5", "Nf5", "c6", "g4", "Nf6", "Rg1", "cxb5", "h4", "Qg6", "h5", "Qg5", "Qf3",
	"Ng8", "Bxf4", "Qf6", "Nc3", "Bc5", "Nd5", "Qxb2", "Bd6", "Bxg1", "e5", "Qxa1+", "Ke2", "Na6",
	"Nxg7+", "Kd8", "Qf6+", "Nxf6", "Be7#"}

func TestGameReachesEveryPosition(t *testing.T) {
	for _, reversed := range []bool{false, true} {
		for seed := int64(1); seed <= 5; seed++ {
			cfg := Config{Game: immortal, Seed: seed, Speed: 20000, Reversed: reversed,
				Periods: []Period{{Time: 30 * time.Minute, Increment: 10 * time.Second}}}
			b, err := run(t, cfg, 20*time.Second, nil)
			if err != nil {
				t.Fatalf("seed %d: Run: %v", seed, err)
			}
			frames, skipped := splitFrames(b)
			if skipped != 0 {
				t.Errorf("seed %d: %d bytes outside frames", seed, skipped)
			}
			fens := gameFENs(t, "", immortal)
			reached, _ := replayBoard(t, frames, fens, reversed)
			if reached != len(immortal) {
				t.Errorf("reversed %v seed %d: reached %d of %d positions", reversed, seed, reached, len(immortal))
			}
		}
	}
}
