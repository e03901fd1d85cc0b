package rules

import "github.com/arbiterd/arbiterd/rules/bitboard"

// The legal moves come from bitboard.Position's generator; this file turns
// them into the record's moves, in the record's order.

// appendLegal appends to out the legal moves of p whose origin is in fromMask
// and whose destination is in toMask (for castling: the king's destination or
// the rook's), without flagCheck. ml is scratch space for the generator.
//
// The order is the record's, and it decides the order of Reconstruct's
// candidates: by origin square; one piece's moves by destination, except
// that a king's castlings follow its steps (kingside first) and a pawn's
// moves go single push, double push, captures, en passant, each promotion
// as queen, rook, bishop, knight. bitboard lists each piece's moves in that
// order, but groups the pieces by kind and lists a queen's diagonal moves
// before her straight ones, so the moves are sorted stably by origin, and a
// queen's by destination.
func (p *position) appendLegal(out []move, ml *bitboard.MoveList, fromMask, toMask uint64) []move {
	p.LegalMoves(ml)
	start := len(out)
	us := p.Side()
	opp := p.Occupied(us.Other())
	for _, bm := range ml.Slice() {
		from, to := bm.From(), bm.To()
		if fromMask&(1<<uint(from)) == 0 {
			continue
		}
		m := move{bm: bm, from: int8(from), to: int8(to), promo: chessType[bm.Promotion()]}
		switch {
		case bm.IsCastle():
			rookTo := (from + to) / 2 // the square the king passes over
			if toMask&(1<<uint(to)|1<<uint(rookTo)) == 0 {
				continue
			}
			m.flags = flagCastleQ
			if to > from {
				m.flags = flagCastleK
			}
		case toMask&(1<<uint(to)) == 0:
			continue
		case bm.IsEnPassant():
			m.flags = flagCapture | flagEnPassant
		case opp&(1<<uint(to)) != 0:
			m.flags = flagCapture
		}
		out = append(out, m)
	}
	sortMoves(out[start:], p.Pieces(us, bitboard.Queen))
	return out
}

// sortMoves puts moves listed by bitboard into the record's order (see
// appendLegal); queens are the origins of the side's queens. It is an
// insertion sort: the lists are short and consist of a few sorted runs.
func sortMoves(ms []move, queens uint64) {
	for i := 1; i < len(ms); i++ {
		m := ms[i]
		j := i
		for ; j > 0 && movesBefore(m, ms[j-1], queens); j-- {
			ms[j] = ms[j-1]
		}
		ms[j] = m
	}
}

func movesBefore(a, b move, queens uint64) bool {
	if a.from != b.from {
		return a.from < b.from
	}
	return queens&(1<<uint(a.from)) != 0 && a.to < b.to
}

// genLegal is appendLegal with flagCheck set on the moves that give check.
func (p *position) genLegal(out []move, fromMask, toMask uint64) []move {
	var ml bitboard.MoveList
	start := len(out)
	out = p.appendLegal(out, &ml, fromMask, toMask)
	for i := start; i < len(out); i++ {
		if p.GivesCheck(out[i].bm) {
			out[i].flags |= flagCheck
		}
	}
	return out
}

// legalMoves returns every legal move of p.
func (p *position) legalMoves() []move {
	return p.genLegal(make([]move, 0, 48), ^uint64(0), ^uint64(0))
}
