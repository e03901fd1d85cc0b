package emulator

import (
	"math/rand"
	"testing"
	"time"
)

// BenchmarkPlayLongGame: a whole 45-ply game with a 90+30 clock (about
// 5,000 emulated seconds, a clock frame for each) emulated at once.
func BenchmarkPlayLongGame(b *testing.B) {
	em, err := New(Config{Game: immortal, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	var n int
	for b.Loop() {
		n = 0
		for _, c := range em.Play() {
			n += len(c.Data)
		}
	}
	b.ReportMetric(float64(n), "bytes/game")
}

// BenchmarkRun80Plies: an 80-ply random game under 40/90+30:30+30 run
// over a pipe at speed 20000, as the end-to-end tests do.
func BenchmarkRun80Plies(b *testing.B) {
	cfg := Config{Game: randomGame(rand.New(rand.NewSource(1)), 80), Seed: 1, Speed: 20000, Periods: []Period{{Moves: 40, Time: 90 * time.Minute, Increment: 30 * time.Second}, {Time: 30 * time.Minute, Increment: 30 * time.Second}}}
	em, err := New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	chunks := em.Play()
	game := chunks[len(chunks)-1].At
	for b.Loop() {
		if _, err := run(b, cfg, time.Minute, nil); err != nil {
			b.Fatal(err)
		}
	}
	// The floor is the emulated length of the game divided by the speed.
	b.ReportMetric(game.Seconds(), "emulated-s/game")
	b.ReportMetric(game.Seconds()/cfg.Speed*1e3, "floor-ms/game")
}
