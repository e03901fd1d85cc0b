package unwinnable

import (
	"math/bits"

	bb "github.com/arbiterd/arbiterd/rules/bitboard"
)

// frozenUnwinnable is the semi-static proof for locked pawn structures.
//
// Pawns are split into frozen ones (the square ahead holds a frozen pawn,
// so they never move: the greatest such set) and mobile ones. The squares
// each king and piece can ever reach are over-approximated by flood fills
// in which only frozen pawns are obstacles (every other man can be moved
// out of the way, the opponent cooperating); kings avoid only squares a
// frozen enemy pawn attacks.
//
// A mobile pawn that an enemy king or piece could ever attack may be
// captured and vanish; one that none can attack stays on its file for
// good. A mobile pawn's path is the stretch of its file it can ever stand
// on: up to a frozen pawn, or up to an opposing mobile pawn that can never
// vanish (their paths then cover every square either can reach). A path
// that reaches the last rank means a promotion may come: no proof.
//
// No pawn may ever capture or be captured in a way that changes the
// frozen structure: no pawn, from anywhere on its path, may attack an
// enemy pawn's path; no piece may ever reach a square an enemy pawn could
// attack; no king or piece may ever attack a frozen enemy pawn (for a
// king: one not guarded by a frozen pawn).
//
// With that settled, a mate needs a piece of side, or one of its mobile
// pawns, to attack a square the opposing king can reach. If nothing of
// side can ever attack those squares, side can never give check, let
// alone mate. Otherwise, for each square k where the king could be
// checked: every neighbour of a mated king on k is attacked or occupied
// by side, or occupied by one of the king's own men. The neighbours that
// side can never attack nor stand on must each hold a different man of
// the king's side that can ever stand there (a matching); if that is
// impossible for every k, side can never mate.
func frozenUnwinnable(pos *bb.Position, side bb.Color) bool {
	if pos.EnPassant() != bb.NoSquare {
		return false
	}
	var pawnsOf [2]uint64
	pawnsOf[bb.White], pawnsOf[bb.Black] = pos.Pieces(bb.White, bb.Pawn), pos.Pieces(bb.Black, bb.Pawn)
	pawns := pawnsOf[0] | pawnsOf[1]
	if pawns == 0 {
		return false
	}
	// Greatest set of pawns whose square ahead holds a pawn of the set.
	frozen := pawns
	for {
		next := frozen & pawnsOf[bb.White] & (frozen >> 8)
		next |= frozen & pawnsOf[bb.Black] & (frozen << 8)
		if next == frozen {
			break
		}
		frozen = next
	}
	var attFrozen, frozenOf [2]uint64
	for c := bb.White; c <= bb.Black; c++ {
		frozenOf[c] = frozen & pawnsOf[c]
		attFrozen[c] = bb.PawnsAttack(c, frozenOf[c])
	}
	// Reach of kings and pieces, and what they can ever attack.
	var kingReach, pieceAtt, pieceReachAll [2]uint64
	for c := bb.White; c <= bb.Black; c++ {
		o := c.Other()
		kingReach[c] = flood(pos.Pieces(c, bb.King), frozen|attFrozen[o], kingSteps)
		if kingSteps(kingReach[c])&frozenOf[o]&^attFrozen[o] != 0 {
			return false // the king may take an unguarded frozen pawn
		}
		for pt := bb.Knight; pt <= bb.Queen; pt++ {
			for b := pos.Pieces(c, pt); b != 0; b &= b - 1 {
				from := uint64(1) << uint(bits.TrailingZeros64(b))
				reach, att := pieceReach(pt, from, frozen)
				pieceReachAll[c] |= reach
				pieceAtt[c] |= att
			}
		}
		if pieceAtt[c]&frozenOf[o] != 0 {
			return false // a piece may take a frozen pawn
		}
	}
	// Which mobile pawns may vanish: those an enemy king or piece could
	// ever attack somewhere on the longest stretch they could walk.
	mobile := pawns &^ frozen
	var permanent uint64
	for b := mobile; b != 0; b &= b - 1 {
		s := bits.TrailingZeros64(b)
		c := pos.PieceAt(bb.Square(s)).Color()
		o := c.Other()
		long, _ := walk(c, s, frozen, 0)
		if long&(kingSteps(kingReach[o])|pieceAtt[o]) == 0 {
			permanent |= 1 << uint(s)
		}
	}
	var path, attAny [2]uint64
	for c := bb.White; c <= bb.Black; c++ {
		path[c] = frozenOf[c]
		attAny[c] = attFrozen[c]
		for b := pawnsOf[c] & mobile; b != 0; b &= b - 1 {
			stretch, ok := walk(c, bits.TrailingZeros64(b), frozen, permanent&pawnsOf[c.Other()])
			if !ok {
				return false // may promote
			}
			path[c] |= stretch
			attAny[c] |= bb.PawnsAttack(c, stretch)
		}
	}
	for c := bb.White; c <= bb.Black; c++ {
		o := c.Other()
		if attAny[c]&path[o] != 0 { // a pawn capture may become possible
			return false
		}
		if pieceReachAll[c]&attAny[o] != 0 { // a pawn may take a piece
			return false
		}
	}
	loser := side.Other()
	if kingReach[loser]&attFrozen[side] != 0 { // in check by a frozen pawn now
		return false
	}
	attacks := pieceAtt[side] | attAny[side]
	checks := attacks & kingReach[loser]
	if checks == 0 {
		return true
	}
	// Mating nets. Every square next to a mated king is attacked or
	// occupied by the mating side, or occupied by one of the king's own
	// men. cover holds every square the mating side could ever attack or
	// stand on; the rest of a king's neighbours need one loser's man each.
	cover := pieceAtt[side] | pieceReachAll[side] | attAny[side] | path[side] |
		kingReach[side] | kingSteps(kingReach[side])
	var blockers []uint64 // the squares each loser's man can ever stand on
	for pt := bb.Knight; pt <= bb.Queen; pt++ {
		for b := pos.Pieces(loser, pt); b != 0; b &= b - 1 {
			reach, _ := pieceReach(pt, uint64(1)<<uint(bits.TrailingZeros64(b)), frozen)
			blockers = append(blockers, reach)
		}
	}
	for b := pawnsOf[loser] & mobile; b != 0; b &= b - 1 {
		stretch, _ := walk(loser, bits.TrailingZeros64(b), frozen, permanent&pawnsOf[side])
		blockers = append(blockers, stretch)
	}
	for b := checks; b != 0; b &= b - 1 {
		k := bb.Square(bits.TrailingZeros64(b))
		if canBlock(bb.KingAttacks(k)&^cover&^frozenOf[loser], blockers) {
			return false // a mate with the king on k is not ruled out
		}
	}
	return true
}

// canBlock reports whether the men whose possible squares are blockers can
// stand on every square of need at once, one man a square (a bipartite
// matching that saturates need, found by augmenting paths).
func canBlock(need uint64, blockers []uint64) bool {
	n := bits.OnesCount64(need)
	if n == 0 {
		return true
	}
	if n > len(blockers) {
		return false
	}
	var sq [8]int
	i := 0
	for b := need; b != 0; b &= b - 1 {
		sq[i] = bits.TrailingZeros64(b)
		i++
	}
	var owner [16]int // man standing on sq[j], -1 if none
	for j := range owner {
		owner[j] = -1
	}
	var try func(man int, seen *uint16) bool
	try = func(man int, seen *uint16) bool {
		for j := 0; j < n; j++ {
			if blockers[man]&(1<<uint(sq[j])) == 0 || *seen&(1<<uint(j)) != 0 {
				continue
			}
			*seen |= 1 << uint(j)
			if owner[j] < 0 || try(owner[j], seen) {
				owner[j] = man
				return true
			}
		}
		return false
	}
	matched := 0
	for man := range blockers {
		var seen uint16
		if try(man, &seen) {
			matched++
			if matched == n {
				return true
			}
		}
	}
	return false
}

// walk returns the stretch of its file a pawn of colour c on s can ever
// stand on: forward until the square before a pawn in stops (frozen pawns
// and opposing pawns that never vanish). ok is false when the walk runs
// to the last rank (a promotion).
func walk(c bb.Color, s int, frozen, stops uint64) (stretch uint64, ok bool) {
	step := 8
	if c == bb.Black {
		step = -8
	}
	stop := frozen | stops
	for {
		stretch |= 1 << uint(s)
		s += step
		if s < 8 || s > 55 {
			return stretch, false
		}
		if stop&(1<<uint(s)) != 0 {
			return stretch, true
		}
	}
}

const (
	fileA uint64 = 0x0101010101010101
	fileB uint64 = fileA << 1
	fileG uint64 = fileA << 6
	fileH uint64 = 0x8080808080808080
)

// Steps of a set of squares, all at once: the squares one step of the
// kind (a king's, along a rank or file, along a diagonal, a knight's
// jump) from any square of b, b's own among them when one is a step from
// another.
func kingSteps(b uint64) uint64 { return lineSteps(b) | diagSteps(b) }

func lineSteps(b uint64) uint64 { return b<<8 | b>>8 | (b&^fileH)<<1 | (b&^fileA)>>1 }

func diagSteps(b uint64) uint64 {
	return (b&^fileH)<<9 | (b&^fileA)<<7 | (b&^fileH)>>7 | (b&^fileA)>>9
}

func knightSteps(b uint64) uint64 {
	one := (b&^fileH)<<1 | (b&^fileA)>>1                 // a file aside
	two := (b&^(fileG|fileH))<<2 | (b&^(fileA|fileB))>>2 // two files aside
	return one<<16 | one>>16 | two<<8 | two>>8
}

// flood returns the squares reachable from start by repeated steps
// (one of the set steps above), never entering blocked.
func flood(start, blocked uint64, step func(uint64) uint64) uint64 {
	reach, frontier := start, start
	for frontier != 0 {
		frontier = step(frontier) &^ (reach | blocked)
		reach |= frontier
	}
	return reach
}

// pieceReach returns the squares a piece of type pt starting on from can
// ever stand on when only the blockers block, and every square it
// attacks from them (including blocker squares it could capture on). A
// rook's moves through free squares are chains of one-square steps along
// ranks and files, so the squares it reaches are those such steps reach,
// and it attacks the squares one step from them (a square it attacks
// along a line is one step from the last free square before it); the
// same holds for a bishop along diagonals, and a queen both ways
// (TestPieceReach holds it against a flood by each square's attacks).
func pieceReach(pt bb.PieceType, from, blockers uint64) (reach, att uint64) {
	var step func(uint64) uint64
	switch pt {
	case bb.Knight:
		step = knightSteps
	case bb.Bishop:
		step = diagSteps
	case bb.Rook:
		step = lineSteps
	case bb.Queen, bb.King:
		step = kingSteps
	default:
		return from, 0
	}
	reach = flood(from, blockers, step)
	return reach, step(reach)
}
