package rules

import (
	"slices"
	"testing"
)

// TestCandidateOrder pins the order of Ambiguous candidates, which callers
// rely on (rules/reconcile records the first one): sequences are ordered by
// the first move where they differ, moves by origin square, one piece's moves
// by destination (a king's castlings after its steps, a pawn's pushes before
// its captures, promotions as queen, rook, bishop, knight).
func TestCandidateOrder(t *testing.T) {
	tests := []struct {
		name, fen string
		moves     []string // the board shows the position after these
		occupancy bool
		want      []string
	}{
		{
			// The queen reaches h4 in two moves through a4, d4, g4 or d8
			// (h5 would pin the king's step to h7): her diagonal and
			// straight moves interleave by destination.
			name:  "queen routes by destination",
			fen:   "7k/8/8/8/8/8/8/3QK3 w - - 0 1",
			moves: []string{"d1a4", "h8h7", "a4h4"},
			want:  []string{"d1a4 h8h7 a4h4", "d1d4 h8h7 d4h4", "d1g4 h8h7 g4h4", "d1d8 h8h7 d8h4"},
		},
		{
			name:  "pieces by origin square",
			fen:   "",
			moves: []string{"e2e4", "e7e5", "g1f3"},
			want:  []string{"g1f3 e7e5 e2e4", "e2e4 e7e5 g1f3"},
		},
		{
			name: "promotions", fen: "8/4P3/8/8/8/8/k7/4K3 w - - 0 1", moves: []string{"e7e8q"}, occupancy: true,
			want: []string{"e7e8q", "e7e8r", "e7e8b", "e7e8n"},
		},
	}
	for _, tc := range tests {
		g := mustGame(t, tc.fen)
		s := snapAfter(t, tc.fen, tc.moves...)
		s.OccupancyOnly = tc.occupancy
		r := Reconstruct(g, s, Options{})
		var got []string
		for _, c := range r.Candidates {
			got = append(got, uciSeq(c))
		}
		if r.Kind != Ambiguous || !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v %q, want ambiguous %q", tc.name, r.Kind, got, tc.want)
		}
	}
}
