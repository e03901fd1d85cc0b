package reconcile

import (
	"testing"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/rules"
)

// lifted counts the pieces a snapshot has lifted off another when nothing
// else changed, and is -1 when a piece was put down anywhere.
func TestLifted(t *testing.T) {
	start := rules.SnapshotOf(chess.StartingPosition())
	one := start
	one.Squares[chess.G1] = chess.NoPiece
	two := one
	two.Squares[chess.E2] = chess.NoPiece
	moved := one
	moved.Squares[chess.F3] = chess.WhiteKnight
	unknown := one
	unknown.Unknown = 1 << chess.A3
	for _, tc := range []struct {
		name string
		p, s rules.Snapshot
		want int
	}{
		{"one piece lifted", start, one, 1},
		{"two pieces lifted", start, two, 2},
		{"a piece put down", start, moved, -1},
		{"a piece put back", one, start, -1},
		{"an unknown code", start, unknown, -1},
		{"nothing changed", start, start, 0},
	} {
		if got := lifted(tc.p, tc.s); got != tc.want {
			t.Errorf("%s: lifted = %d, want %d", tc.name, got, tc.want)
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
