package unwinnable

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	bb "github.com/arbiterd/arbiterd/rules/bitboard"
)

// eachSquare is the union of f over the squares of b.
func eachSquare(b uint64, f func(bb.Square) uint64) uint64 {
	var r uint64
	for ; b != 0; b &= b - 1 {
		r |= f(bb.Square(bits.TrailingZeros64(b)))
	}
	return r
}

// pieceReachBySquares is pieceReach computed square by square: a flood
// by each reached square's attacks, with the blockers as the board's
// men, and the union of the attacks of every square reached.
func pieceReachBySquares(pt bb.PieceType, from, blockers uint64) (reach, att uint64) {
	step := func(s bb.Square) uint64 { return attacks(pt, s, blockers) }
	reach, frontier := from, from
	for frontier != 0 {
		frontier = eachSquare(frontier, step) &^ (reach | blockers)
		reach |= frontier
	}
	return reach, eachSquare(reach, step)
}

// TestPieceReach holds the set steps (kingSteps, lineSteps, diagSteps,
// knightSteps) against the attacks of each square, and pieceReach, which
// floods by them, against the flood by each reached square's attacks:
// random sets of starting squares among random blockers, from empty
// boards to crowded ones, for every piece type.
func TestPieceReach(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	full := ^uint64(0)
	steps := []struct {
		name string
		set  func(uint64) uint64
		one  func(bb.Square) uint64
	}{
		{"kingSteps", kingSteps, bb.KingAttacks},
		{"knightSteps", knightSteps, bb.KnightAttacks},
		{"lineSteps", lineSteps, func(s bb.Square) uint64 { return bb.RookAttacks(s, full) }},
		{"diagSteps", diagSteps, func(s bb.Square) uint64 { return bb.BishopAttacks(s, full) }},
	}
	for i := 0; i < 20000; i++ {
		// Blockers on none of the squares, or on about 1/16, 1/8, 1/4,
		// 1/2 or 3/4 of them.
		var blockers uint64
		switch rng.IntN(6) {
		case 1:
			blockers = rng.Uint64() & rng.Uint64() & rng.Uint64() & rng.Uint64()
		case 2:
			blockers = rng.Uint64() & rng.Uint64() & rng.Uint64()
		case 3:
			blockers = rng.Uint64() & rng.Uint64()
		case 4:
			blockers = rng.Uint64()
		case 5:
			blockers = rng.Uint64() | rng.Uint64()
		}
		from := uint64(1) << uint(rng.IntN(64))
		if i%4 == 0 {
			from |= rng.Uint64() & rng.Uint64() & rng.Uint64()
		}
		for _, st := range steps {
			if got, want := st.set(from), eachSquare(from, st.one); got != want {
				t.Fatalf("%s(%#x) = %#x, want %#x", st.name, from, got, want)
			}
		}
		for _, pt := range []bb.PieceType{bb.Pawn, bb.Knight, bb.Bishop, bb.Rook, bb.Queen, bb.King} {
			r, a := pieceReach(pt, from, blockers)
			wr, wa := pieceReachBySquares(pt, from, blockers)
			if r != wr || a != wa {
				t.Fatalf("pieceReach(%v, %#x, %#x) = %#x, %#x; want %#x, %#x", pt, from, blockers, r, a, wr, wa)
			}
		}
	}
}
