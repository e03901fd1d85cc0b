package rules

import (
	"testing"

	"github.com/notnil/chess"
)

// TestSnapshotFEN writes a board's placement as a position to rebuild a
// record from: the side, the castling rights and the move number given, no
// en-passant square and no halfmoves, and it reads back as the same
// placement.
func TestSnapshotFEN(t *testing.T) {
	tests := []struct {
		fen, castling string
		turn          chess.Color
		moveNo        int
		want          string
	}{
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "KQkq", chess.White, 1,
			"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
		{"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2", "Kq", chess.Black, 17,
			"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b Kq - 0 17"},
		{"3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 4 30", "", chess.Black, 0,
			"3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1"},
	}
	for _, tt := range tests {
		opt, err := chess.FEN(tt.fen)
		if err != nil {
			t.Fatal(err)
		}
		s := SnapshotOf(chess.NewGame(opt).Position())
		got := s.FEN(tt.turn, tt.castling, tt.moveNo)
		if got != tt.want {
			t.Errorf("FEN of %s = %q, want %q", tt.fen, got, tt.want)
		}
		g, err := NewGame(got)
		if err != nil {
			t.Fatalf("%q does not read back: %v", got, err)
		}
		if back := SnapshotOf(g.Position()); back.Squares != s.Squares {
			t.Errorf("%q reads back as another placement", got)
		}
	}
}

// TestReconstructStopsAtMaxNodes: a search bounded by MaxNodes gives up
// (Unexplained, Exhausted) instead of trying every sequence; unbounded
// enough, the same search finds the moves.
func TestReconstructStopsAtMaxNodes(t *testing.T) {
	g, err := NewGame("")
	if err != nil {
		t.Fatal(err)
	}
	truth := g.Clone()
	for _, m := range []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"} {
		if err := truth.MoveUCI(m); err != nil {
			t.Fatal(err)
		}
	}
	s := SnapshotOf(truth.Position())
	if r := Reconstruct(g, s, Options{MaxPlies: 6, MaxNodes: 50}); r.Kind != Unexplained || !r.Exhausted {
		t.Errorf("bounded to 50 positions: %v, exhausted %v; want unexplained, exhausted", r.Kind, r.Exhausted)
	}
	if r := Reconstruct(g, s, Options{MaxPlies: 6}); r.Kind == Unexplained || r.Exhausted {
		t.Errorf("default bound: %v, exhausted %v; want the moves found", r.Kind, r.Exhausted)
	}
}
