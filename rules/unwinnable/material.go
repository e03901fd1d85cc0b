package unwinnable

import (
	"math/bits"

	bb "github.com/arbiterd/arbiterd/rules/bitboard"
)

const (
	lightSquares uint64 = 0x55aa55aa55aa55aa
	darkSquares         = ^lightSquares
)

// insufficient returns why side's material can never mate in pos, or ""
// when the material rules prove nothing. Each rule is a theorem about
// every position with that material, so it holds for every position
// reachable from pos too as long as the material does not grow (which
// needs a pawn, and each rule demands the relevant side has none).
func insufficient(pos *bb.Position, side bb.Color) string {
	loser := side.Other()
	w := func(pt bb.PieceType) uint64 { return pos.Pieces(side, pt) }
	l := func(pt bb.PieceType) uint64 { return pos.Pieces(loser, pt) }
	men := pos.Occupied(side) &^ w(bb.King)
	if men == 0 {
		return "only a king remains, and a king alone never gives check"
	}
	if w(bb.Pawn)|w(bb.Rook)|w(bb.Queen) != 0 {
		return ""
	}
	lmen := pos.Occupied(loser) &^ l(bb.King)
	knights, bishops := w(bb.Knight), w(bb.Bishop)
	// A single minor piece against a bare king: every mating net needs
	// the mated king's own men to block its flight squares.
	if bits.OnesCount64(men) == 1 && lmen == 0 {
		return "a single minor piece cannot mate a bare king"
	}
	// Bishops all on one colour attack only that colour. A king in check
	// stands on that colour, and its orthogonal neighbours are of the
	// other colour: each must be blocked by one of the king's own men.
	// Men that can only ever stand on the bishops' colour (bishops of that
	// colour, without pawns, knights, rooks or queens to become or reach
	// the other colour) cannot do it.
	if knights == 0 {
		for _, colour := range [2]uint64{lightSquares, darkSquares} {
			if bishops&^colour == 0 && l(bb.Pawn)|l(bb.Knight)|l(bb.Rook)|l(bb.Queen) == 0 && l(bb.Bishop)&^colour == 0 {
				return "bishops on one colour cannot mate a king whose men all stand on that colour"
			}
		}
	}
	// A lone knight against king and queen: the queen can always take a
	// knight that gives a mating check (it must stand next to the king's
	// flight squares the queen blocks).
	if bishops == 0 && bits.OnesCount64(knights) == 1 && bits.OnesCount64(lmen) == 1 && l(bb.Queen) != 0 {
		return "a knight cannot mate a king and queen: the queen can always take the checking knight"
	}
	return ""
}
