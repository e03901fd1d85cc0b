package pipeline

import (
	"testing"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules/reconcile"
	"github.com/arbiterd/arbiterd/rules/unwinnable"
)

// The analyzer's "yes" comes with a line that mates, move by move legal;
// its "no" is a proof. White: king and knight; Black: king and rook.
func TestUnwinnableOracle(t *testing.T) {
	const fen = "8/8/8/8/3k4/1N6/r7/2K5 b - - 0 70"
	for _, o := range []UnwinnableOracle{{Options: unwinnable.Options{Mode: unwinnable.Full}}, DefaultOracle().(UnwinnableOracle)} {
		ans, line := o.CanMate(fen, clockd.White)
		if ans != reconcile.MateYes || len(line) == 0 {
			t.Fatalf("%+v: White with a knight against a rook: %s %v, want yes with a line", o.Options, ans, line)
		}
		// Replay the line position by position (the analyzer's lines may
		// run past the 75-move rule of a game record; 6.9 asks about any
		// series of legal moves).
		opt, err := chess.FEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		pos := chess.NewGame(opt).Position()
		for _, u := range line {
			var next *chess.Position
			for _, m := range pos.ValidMoves() {
				if m.String() == u {
					next = pos.Update(m)
				}
			}
			if next == nil {
				t.Fatalf("mate line move %s is not legal in %s", u, pos)
			}
			pos = next
		}
		if pos.Status() != chess.Checkmate || pos.Turn() != chess.Black {
			t.Fatalf("mate line %v ends in %v with %v to move", line, pos.Status(), pos.Turn())
		}
	}
	if a, _ := (UnwinnableOracle{}).CanMate("8/8/8/8/3k4/8/2K5/8 w - - 0 1", clockd.White); a != reconcile.MateNo {
		t.Errorf("bare king: %s", a)
	}
	if a, line := (UnwinnableOracle{}).CanMate("not a fen", clockd.White); a != reconcile.MateUnknown || line != nil {
		t.Errorf("bad FEN: %s %v", a, line)
	}
}
