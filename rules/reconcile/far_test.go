package reconcile

import (
	"testing"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/rules"
)

// A snapshot with pieces lifted and nothing else changed is a lift; a
// piece put down anywhere, or nothing changed, is not.
func TestLiftedFrom(t *testing.T) {
	start := rules.SnapshotOf(chess.StartingPosition())
	lifted := start
	lifted.Squares[chess.G1] = chess.NoPiece
	twice := lifted
	twice.Squares[chess.E2] = chess.NoPiece
	moved := lifted
	moved.Squares[chess.F3] = chess.WhiteKnight
	for _, tc := range []struct {
		name string
		p, s rules.Snapshot
		want bool
	}{
		{"one piece lifted", start, lifted, true},
		{"two pieces lifted", start, twice, true},
		{"a piece put down", start, moved, false},
		{"a piece put back", lifted, start, false},
		{"nothing changed", start, start, false},
	} {
		if got := liftedFrom(tc.p, tc.s); got != tc.want {
			t.Errorf("%s: liftedFrom = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// The fewest plies made, counted from below k plies that may never have
// been made: a complete search that tried the sequences replacing them
// bounds it from there as from the record's position; a search its budget
// stopped at cost c bounds it by c-k only.
func TestLeastBelowUnpressedPlies(t *testing.T) {
	complete := rules.Result{Kind: rules.Unexplained, Least: resyncPlies + 1}
	stopped := rules.Result{Kind: rules.Unexplained, Exhausted: true, Least: 6}
	for _, tc := range []struct {
		res     rules.Result
		k, want int
	}{
		{complete, 0, resyncPlies + 1},
		{complete, 1, resyncPlies + 1},
		{stopped, 0, 6},
		{stopped, 2, 4},
		{stopped, 9, 1},
		{rules.Result{Kind: rules.Forward}, 1, 1},
	} {
		if got := least(tc.res, tc.k); got != tc.want {
			t.Errorf("least(%+v, %d) = %d, want %d", tc.res, tc.k, got, tc.want)
		}
	}
}
