package rules

import (
	"strings"
	"testing"
)

// TestNewGameFirstFault: a FEN with several faults gets the error of the
// first field at fault, whatever kind of check finds it.
func TestNewGameFirstFault(t *testing.T) {
	tests := []struct{ fen, want string }{
		// The side not to move is in check, and the castling right has no rook.
		{"4k2R/8/8/8/8/8/8/4K3 w q - 0 1", "field 2 (side to move): White is to move but Black is in check"},
		// A castling right without its rook, and an impossible en-passant square.
		{"4k3/8/8/8/8/8/8/4K3 w K e6 0 1", "field 3 (castling)"},
		// An impossible en-passant square, and a bad clock.
		{"4k3/8/8/8/8/8/8/4K3 w - e6 x 1", "field 4 (en passant)"},
		// A pawn on the last rank, and two black kings.
		{"P3k3/8/8/8/8/8/8/k3K3 w - - 0 1", "pawn on rank 8"},
		// Two black kings, and a bad side to move.
		{"k3k3/8/8/8/8/8/8/4K3 x - - 0 1", "2 black kings"},
	}
	for _, tc := range tests {
		_, err := NewGame(tc.fen)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewGame(%q) = %v, want an error containing %q", tc.fen, err, tc.want)
		}
	}
}
