package chk

import (
	"fmt"
	"testing"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/rules/bitboard"
	"github.com/arbiterd/arbiterd/rules/unwinnable"
)

func TestX(t *testing.T) {
	fen := "8/8/8/8/3k4/1N6/r7/2K5 b - - 0 70"
	r, _ := unwinnable.CanMate(fen, bitboard.White, unwinnable.Options{Mode: unwinnable.Full})
	opt, _ := chess.FEN(fen)
	pos := chess.NewGame(opt).Position()
	for _, u := range r.Line {
		m, err := chess.UCINotation{}.Decode(pos, u)
		if err != nil {
			t.Fatal(err)
		}
		pos = pos.Update(m)
	}
	fmt.Println(len(r.Line), r.Verdict, pos.String(), pos.Status())
	bp, err := bitboard.ParseFEN(pos.String())
	fmt.Println(err)
	_ = bp
}
