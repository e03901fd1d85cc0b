package unwinnable

import (
	"testing"

	bb "github.com/arbiterd/arbiterd/rules/bitboard"
)

func BenchmarkPositionsQuick(b *testing.B) {
	set := readLabelled(b, "positions.txt")
	a := NewAnalyzer(Options{Mode: Quick})
	var pos []bb.Position
	for _, q := range set {
		p, err := bb.ParseFEN(q.fen)
		if err == nil {
			pos = append(pos, p)
		}
	}
	for b.Loop() {
		for i := range pos {
			a.Analyze(&pos[i], bb.White)
		}
	}
}
