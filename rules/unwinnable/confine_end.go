package unwinnable

import (
	"math/bits"

	bb "github.com/arbiterd/arbiterd/rules/bitboard"
)

// Moves that end every chance of a mate by cf.side never occur in a line
// that ends in one, so the confinement proof may leave them out when it
// asks whether a man can ever move or be taken:
//
//   - a move of the other side (the loser) that mates side's fixed king:
//     the game is over (matesSide);
//   - a capture of side's only man besides its king, which leaves a bare
//     king (loneMan);
//   - a capture by that only man of a fixed man next to the loser's fixed
//     king that checks it where every reply takes the capturer back
//     (recaptured): side is then left with a bare king.
//
// Each is judged with every fixed man in place, as the proof's induction
// over a series of legal moves allows: up to the first move that moves or
// takes a fixed man, all of them stand, and that first move is one of the
// above, after which side never mates.

// loneMan returns the type of side's only man besides its king in p, or
// NoPieceType when side has none or more than one.
func loneMan(p *bb.Position, side bb.Color) bb.PieceType {
	own := p.Occupied(side) &^ p.Pieces(side, bb.King)
	if own == 0 || own&(own-1) != 0 {
		return bb.NoPieceType
	}
	return p.PieceAt(bb.Square(bits.TrailingZeros64(own))).Type()
}

// near returns the squares a man of type pt of colour c on s attacks
// whatever stands around it: its neighbours along its lines, its knight
// jumps, its pawn captures.
func near(c bb.Color, pt bb.PieceType, s bb.Square) uint64 {
	if pt == bb.Pawn {
		return bb.PawnsAttack(c, uint64(1)<<uint(s))
	}
	return attacks(pt, s, ^uint64(0))
}

// fixedGuard returns the squares colour c's fixed men other than those on
// except attack whatever the other men do.
func (cf *confinement) fixedGuard(c bb.Color, except uint64) uint64 {
	var g uint64
	for b := cf.fixedOf[c] &^ except; b != 0; b &= b - 1 {
		s := bb.Square(bits.TrailingZeros64(b))
		g |= near(c, cf.pos.PieceAt(s).Type(), s)
	}
	return g
}

// matesSide reports whether the loser's piece of type pt on from, moving
// to t, would checkmate side's fixed king with every fixed man in place:
// it checks from t at contact range (no square between to block), side's
// king cannot take it (t is not next to the king, as for a knight's
// check, or a fixed loser's man guards t) nor step away (each neighbour
// holds side's own fixed man or is attacked by the loser's fixed men or
// by the piece from t), and no other man of side can ever attack t
// (sideAtt). side's king must be fixed.
func (cf *confinement) matesSide(pt bb.PieceType, from, t bb.Square, sideAtt uint64) bool {
	side, loser := cf.side, cf.side.Other()
	king := cf.fixedOf[side] & cf.kings
	if king == 0 {
		return false
	}
	k := bb.Square(bits.TrailingZeros64(king))
	tb := uint64(1) << uint(t)
	if near(loser, pt, t)&king == 0 || sideAtt&tb != 0 {
		return false
	}
	guard := cf.fixedGuard(loser, uint64(1)<<uint(from))
	if guard&tb == 0 && bb.KingAttacks(k)&tb != 0 {
		return false
	}
	guard |= near(loser, pt, t)
	return bb.KingAttacks(k)&^tb&^cf.fixedOf[side]&^guard == 0
}

// recaptured reports whether side's only man, of type pt, taking the
// loser's fixed man on x leaves the loser no reply but to take it back:
// it checks the loser's fixed king from x at contact range, every other
// neighbour of that king holds the loser's own fixed man or is attacked
// by side's fixed king or by the man on x, and a fixed man of the loser
// (its king when side's fixed king does not guard x) attacks x. No pin
// can stop that recapture: side has no other man to pin with.
func (cf *confinement) recaptured(pt bb.PieceType, x bb.Square) bool {
	side, loser := cf.side, cf.side.Other()
	if pt == bb.Pawn || pt == bb.King || pt == bb.NoPieceType {
		return false
	}
	king := cf.fixedOf[loser] & cf.kings
	if king == 0 {
		return false
	}
	k := bb.Square(bits.TrailingZeros64(king))
	xb := uint64(1) << uint(x)
	hit := near(side, pt, x)
	if hit&king == 0 {
		return false
	}
	sideKing := cf.fixedOf[side] & cf.kings
	guard := kingSteps(sideKing) | hit
	if bb.KingAttacks(k)&^xb&^(cf.fixedOf[loser]&^xb)&^guard != 0 {
		return false
	}
	takers := cf.fixedGuard(loser, xb|king)
	if kingSteps(sideKing)&xb == 0 && sideKing != 0 {
		takers |= bb.KingAttacks(k)
	}
	return takers&xb != 0
}

// pieceMoves returns the squares the fixed candidate piece of type pt on
// s could move to with every fixed man in place: the squares of its lines
// up to the first fixed man, other than its own fixed men's and the fixed kings',
// and, for a man of the loser, other than those where it would mate side
// (matesSide).
func (cf *confinement) pieceMoves(pt bb.PieceType, s int, sideAtt uint64) uint64 {
	from := bb.Square(s)
	c := cf.pos.PieceAt(from).Color()
	moves := attacks(pt, from, cf.fixed) &^ cf.fixedOf[c] &^ (cf.kings & cf.fixed)
	if c == cf.side {
		return moves
	}
	for b := moves; b != 0; b &= b - 1 {
		t := bb.Square(bits.TrailingZeros64(b))
		if cf.matesSide(pt, from, t, sideAtt) {
			moves &^= 1 << uint(t)
		}
	}
	return moves
}
