package audit

import (
	"bytes"
	"os"
	"testing"
)

// discard is a sink that keeps nothing.
type discard struct{ games int }

func (d *discard) Report(*Report) error { d.games++; return nil }
func (d *discard) Error(error)          {}

// benchFile audits a shared file from memory the way `arbiterd audit`
// does (a round's games judged together), without the 6.9 analyzer (it
// runs only on the few games that end on time or flag before the
// control), on one core. The games/s metric is what docs/PERFORMANCE.md
// records.
func benchFile(b *testing.B, name string) {
	text, err := os.ReadFile(shared(b, name))
	if err != nil {
		b.Fatal(err)
	}
	a := New(Options{NoUnwinnable: true})
	games := 0
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		var d discard
		st := Stats{Findings: map[string]int{}}
		if err := a.runOne(bytes.NewReader(text), name, &d, &st); err != nil {
			b.Fatal(err)
		}
		games += d.games
	}
	b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
}

// BenchmarkWorldCup: the 200 games of the World Cup file.
func BenchmarkWorldCup(b *testing.B) { benchFile(b, "broadcast/worldcup-2025-rounds-3-6.pgn") }

// BenchmarkTataSteel: the Tata Steel file (91 headers, 56 games with
// moves).
func BenchmarkTataSteel(b *testing.B) { benchFile(b, "broadcast/tata-steel-2026-masters.pgn") }
