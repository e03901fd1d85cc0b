package rules

import "github.com/arbiterd/arbiterd/rules/bitboard"

// The legal moves come from bitboard.Position's generator; this file turns
// them into the record's moves, in the record's order.

// appendLegal appends to out the legal moves of p whose origin is in fromMask
// and whose destination is in toMask (for castling: the king's destination or
// the rook's), in bitboard's order, each with its rank in the record's order
// (ord), and without flagCheck. ml is scratch space for the generator.
//
// The record's order decides the order of Reconstruct's candidates: by origin
// square; one piece's moves by destination, except that a king's castlings
// follow its steps (kingside first) and a pawn's moves go single push, double
// push, captures, en passant, each promotion as queen, rook, bishop, knight.
// bitboard lists each piece's moves in that order, but groups the pieces by
// kind and lists a queen's diagonal moves before her straight ones; so ord is
// the origin, then for a queen the destination, then bitboard's index.
func (p *position) appendLegal(out []move, ml *bitboard.MoveList, fromMask, toMask uint64) []move {
	p.LegalMoves(ml)
	us := p.Side()
	opp := p.Occupied(us.Other())
	queens := p.Pieces(us, bitboard.Queen)
	for i, bm := range ml.Slice() {
		from, to := bm.From(), bm.To()
		if fromMask&(1<<uint(from)) == 0 {
			continue
		}
		var flags uint8
		switch {
		case bm.IsCastle():
			// The king passes over the square the rook lands on.
			if toMask&(1<<uint(to)|1<<uint((from+to)/2)) == 0 {
				continue
			}
			flags = flagCastleQ
			if to > from {
				flags = flagCastleK
			}
		case toMask&(1<<uint(to)) == 0:
			continue
		case bm.IsEnPassant():
			flags = flagCapture | flagEnPassant
		case opp&(1<<uint(to)) != 0:
			flags = flagCapture
		}
		ord := uint32(from)<<16 | uint32(i)
		if queens&(1<<uint(from)) != 0 {
			ord |= uint32(to) << 8
		}
		out = append(out, move{bm: bm, from: int8(from), to: int8(to), promo: chessType[bm.Promotion()], flags: flags, ord: ord})
	}
	return out
}

// sortMoves puts moves into the record's order. It is an insertion sort:
// the lists are short and consist of a few sorted runs.
func sortMoves(ms []move) {
	for i := 1; i < len(ms); i++ {
		m := ms[i]
		j := i
		for ; j > 0 && m.ord < ms[j-1].ord; j-- {
			ms[j] = ms[j-1]
		}
		ms[j] = m
	}
}

// genLegal appends every legal move of p to out, in the record's order,
// with flagCheck set on the moves that give check.
func (p *position) genLegal(out []move) []move {
	var ml bitboard.MoveList
	start := len(out)
	out = p.appendLegal(out, &ml, ^uint64(0), ^uint64(0))
	sortMoves(out[start:])
	ci := p.CheckInfo()
	for i := start; i < len(out); i++ {
		if p.GivesCheckWith(out[i].bm, &ci) {
			out[i].flags |= flagCheck
		}
	}
	return out
}
