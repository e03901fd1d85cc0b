package unwinnable

import (
	"math/bits"

	bb "github.com/arbiterd/arbiterd/rules/bitboard"
)

// frozenUnwinnable is the semi-static proof for locked pawn structures.
//
// It first checks that the pawn structure can never change: every pawn is
// blocked by a pawn straight ahead, no pawn can capture now, no piece can
// ever reach a square where an enemy pawn could take it, and no piece can
// ever take a pawn (a king only an unprotected one, since a pawn's
// protector is itself frozen). The squares each piece can ever reach are
// over-approximated by flood fills in which only pawns are obstacles
// (other pieces can always be moved away, the opponent cooperating).
//
// With the structure frozen, no pawn moves, promotes or gives a new check.
// A mate then needs a piece of side to attack a square the opposing king
// can reach. If side's pieces, from every square they can reach and seeing
// through everything but pawns, attack none of those squares, side can
// never give check, let alone mate.
func frozenUnwinnable(pos *bb.Position, side bb.Color) bool {
	if pos.EnPassant() != bb.NoSquare {
		return false
	}
	pawns := pos.Pieces(bb.White, bb.Pawn) | pos.Pieces(bb.Black, bb.Pawn)
	if pawns == 0 {
		return false
	}
	var pawnAtt [2]uint64 // squares attacked by each side's pawns
	for c := bb.White; c <= bb.Black; c++ {
		p := pos.Pieces(c, bb.Pawn)
		if c == bb.White {
			if (p<<8)&^pawns != 0 { // a pawn with no pawn ahead
				return false
			}
			pawnAtt[c] = (p&^fileA)<<7 | (p&^fileH)<<9
		} else {
			if (p>>8)&^pawns != 0 {
				return false
			}
			pawnAtt[c] = (p&^fileA)>>9 | (p&^fileH)>>7
		}
	}
	for c := bb.White; c <= bb.Black; c++ {
		if pawnAtt[c]&pos.Occupied(c.Other()) != 0 { // a capture is possible now
			return false
		}
	}
	var attacks [2]uint64 // what each side's pieces can ever attack
	var kingReach [2]uint64
	for c := bb.White; c <= bb.Black; c++ {
		enemyPawns := pos.Pieces(c.Other(), bb.Pawn)
		forbidden := pawnAtt[c.Other()]
		// King: never onto a pawn or a square a frozen enemy pawn attacks.
		k := pos.Pieces(c, bb.King)
		kr := flood(k, pawns|forbidden, bb.KingAttacks)
		// Taking an enemy pawn needs it unprotected by its own pawns.
		if kingSteps(kr)&enemyPawns&^pawnAtt[c.Other()] != 0 {
			return false
		}
		kingReach[c] = kr
		for pt := bb.Knight; pt <= bb.Queen; pt++ {
			for b := pos.Pieces(c, pt); b != 0; b &= b - 1 {
				from := uint64(1) << uint(bits.TrailingZeros64(b))
				reach, att := pieceReach(pt, from, pawns)
				if reach&forbidden != 0 || att&enemyPawns != 0 {
					return false
				}
				attacks[c] |= att
			}
		}
	}
	loser := side.Other()
	if kingReach[loser]&pawnAtt[side] != 0 { // in check by a pawn now
		return false
	}
	return attacks[side]&kingReach[loser] == 0
}

const (
	fileA uint64 = 0x0101010101010101
	fileH uint64 = 0x8080808080808080
)

func kingSteps(b uint64) uint64 {
	var r uint64
	for ; b != 0; b &= b - 1 {
		r |= bb.KingAttacks(bb.Square(bits.TrailingZeros64(b)))
	}
	return r
}

// flood returns the squares reachable from start by repeated steps given
// by step, never entering blocked.
func flood(start, blocked uint64, step func(bb.Square) uint64) uint64 {
	reach, frontier := start, start
	for frontier != 0 {
		var next uint64
		for b := frontier; b != 0; b &= b - 1 {
			next |= step(bb.Square(bits.TrailingZeros64(b)))
		}
		next &^= reach | blocked
		reach |= next
		frontier = next
	}
	return reach
}

// pieceReach returns the squares a piece of type pt starting on from can
// ever stand on when only pawns block, and every square it attacks from
// them (including pawn squares it could capture).
func pieceReach(pt bb.PieceType, from, pawns uint64) (reach, att uint64) {
	step := func(s bb.Square) uint64 {
		switch pt {
		case bb.Knight:
			return bb.KnightAttacks(s)
		case bb.Bishop:
			return bb.BishopAttacks(s, pawns)
		case bb.Rook:
			return bb.RookAttacks(s, pawns)
		default:
			return bb.BishopAttacks(s, pawns) | bb.RookAttacks(s, pawns)
		}
	}
	reach = flood(from, pawns, step)
	for b := reach; b != 0; b &= b - 1 {
		att |= step(bb.Square(bits.TrailingZeros64(b)))
	}
	return reach, att
}
