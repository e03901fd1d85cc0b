package unwinnable

import (
	"strings"
	"testing"

	"github.com/notnil/chess"

	bb "github.com/arbiterd/arbiterd/rules/bitboard"
)

// assertMateLine replays line from fen with notnil/chess (an independent
// move generator) and fails unless every move is legal and the last one
// checkmates the opponent of side.
func assertMateLine(t testing.TB, fen string, side bb.Color, line []string) {
	t.Helper()
	f := strings.Fields(fen)
	f = append(f, []string{"w", "-", "-", "0", "1"}[max(0, len(f)-1):]...)
	opt, err := chess.FEN(strings.Join(f, " "))
	if err != nil {
		t.Fatalf("notnil rejects %q: %v", fen, err)
	}
	g := chess.NewGame(opt)
	for i, s := range line {
		m, err := chess.UCINotation{}.Decode(g.Position(), s)
		if err != nil {
			t.Fatalf("%s: move %d %q of %v is not legal: %v", fen, i+1, s, line, err)
		}
		if err := g.Move(m); err != nil {
			t.Fatalf("%s: move %d %q of %v rejected: %v", fen, i+1, s, line, err)
		}
	}
	want := chess.Black
	if side == bb.Black {
		want = chess.White
	}
	if g.Method() != chess.Checkmate || g.Position().Turn() != want {
		t.Fatalf("%s: line %v does not end in mate by %s (method %s, %s to move)", fen, line, side, g.Method(), g.Position().Turn())
	}
}
