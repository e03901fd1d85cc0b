package audit

import (
	"bytes"
	"io"
	"os"
	"testing"
)

// BenchmarkWorldCup audits the 200 games of the World Cup file from
// memory, without the 6.9 analyzer (it runs only on the few games that
// end on time or flag before the control), on one core. The games/s
// metric is what docs/PERFORMANCE.md records.
func BenchmarkWorldCup(b *testing.B) {
	text, err := os.ReadFile(shared(b, "broadcast/worldcup-2025-rounds-3-6.pgn"))
	if err != nil {
		b.Fatal(err)
	}
	a := New(Options{NoUnwinnable: true})
	games := 0
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		rd := NewReader(bytes.NewReader(text), "worldcup.pgn")
		for {
			g, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			a.Game(g)
			games++
		}
	}
	b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
}
