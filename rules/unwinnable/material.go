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
	// A lone knight against a king with only queens: take the knight on
	// k+(1,2) from the king on k (any other placement is a reflection).
	// The neighbours k+(0,1) and k+(1,1) touch the knight, so a queen on
	// either takes it (nothing can pin her: the knight is the mating
	// side's only piece); both must be empty and held by the mating king,
	// which must then stand on k+(0,2). Then k+(1,0) is on the board, not
	// attacked, and a queen blocking it takes the knight up the file.
	if bishops == 0 && bits.OnesCount64(knights) == 1 && lmen == l(bb.Queen) && !doubleCheck(pos, loser) {
		return "a knight cannot mate a king whose men are all queens: a queen can always take the checking knight"
	}
	// Bishops all on one colour against a king whose men are rooks,
	// queens and bishops of that colour. Without pawns, a double check by
	// two bishops never arises (a bishop that uncovers one bishop's line
	// moves parallel to the other line through the king, so it cannot
	// check along it). Under a single check along the diagonal k+(dx,dy),
	// the neighbours k+(dx,0) and k+(0,dy) are on the board, of the other
	// colour, and touch k+(dx,dy) orthogonally: a rook or queen on either
	// would take the checking bishop or block there (no bishop can pin
	// it along a rank or file); no other man of the king can stand on
	// them, and only the mating king could attack them, but no square
	// next to both is free of the mated king. So no mate exists.
	if knights == 0 {
		for _, colour := range [2]uint64{lightSquares, darkSquares} {
			if bishops&^colour == 0 && l(bb.Pawn)|l(bb.Knight)|l(bb.Bishop)&^colour == 0 && !doubleCheck(pos, loser) {
				return "bishops on one colour cannot mate a king whose men are rooks, queens and bishops of that colour: the check can always be blocked or the bishop taken"
			}
		}
	}
	return ""
}

// doubleCheck reports whether loser is to move and in check from two men
// now (possible in a FEN, though not with the material rules' pieces
// after any legal move).
func doubleCheck(pos *bb.Position, loser bb.Color) bool {
	return pos.Side() == loser && bits.OnesCount64(pos.Checkers()) > 1
}
