package rules

import (
	"math/bits"

	"github.com/notnil/chess"
)

var promoTypes = [4]chess.PieceType{chess.Queen, chess.Rook, chess.Bishop, chess.Knight}

// genLegal appends to out the legal moves of p whose origin is in fromMask and
// whose destination is in toMask (for castling: the king's destination or the
// rook's destination). Each returned move carries flagCheck when it gives check.
func (p *position) genLegal(out []move, fromMask, toMask uint64) []move {
	us, them := p.turn, p.turn.Other()
	own, opp := p.color[us], p.color[them]
	occ := own | opp
	t := tables
	add := func(from, to int, promo chess.PieceType, flags uint8) {
		m := move{from: int8(from), to: int8(to), promo: promo, flags: flags}
		c := *p
		c.apply(m)
		if c.attacked(int(c.king[us]), them) {
			return
		}
		if c.attacked(int(c.king[them]), us) {
			m.flags |= flagCheck
		}
		out = append(out, m)
	}
	addTarget := func(from int, targets uint64) {
		for targets != 0 {
			to := bits.TrailingZeros64(targets)
			targets &= targets - 1
			var fl uint8
			if opp&(1<<uint(to)) != 0 {
				fl = flagCapture
			}
			add(from, to, chess.NoPieceType, fl)
		}
	}
	dest := ^own & toMask
	for pcs := own & fromMask; pcs != 0; pcs &= pcs - 1 {
		from := bits.TrailingZeros64(pcs)
		switch pieceType(p.sq[from]) {
		case chess.Knight:
			addTarget(from, t.knight[from]&dest)
		case chess.Bishop:
			addTarget(from, bishopAttacks(from, occ)&dest)
		case chess.Rook:
			addTarget(from, rookAttacks(from, occ)&dest)
		case chess.Queen:
			addTarget(from, (bishopAttacks(from, occ)|rookAttacks(from, occ))&dest)
		case chess.King:
			addTarget(from, t.king[from]&dest)
			p.genCastles(from, toMask, add)
		case chess.Pawn:
			p.genPawn(from, occ, opp, toMask, add)
		}
	}
	return out
}

func (p *position) genPawn(from int, occ, opp, toMask uint64, add func(int, int, chess.PieceType, uint8)) {
	us := p.turn
	step, startRank, lastRank := 8, 1, 7
	if us == chess.Black {
		step, startRank, lastRank = -8, 6, 0
	}
	push := func(to int, fl uint8) {
		if toMask&(1<<uint(to)) == 0 {
			return
		}
		if to/8 == lastRank {
			for _, pt := range promoTypes {
				add(from, to, pt, fl)
			}
			return
		}
		add(from, to, chess.NoPieceType, fl)
	}
	one := from + step
	if occ&(1<<uint(one)) == 0 {
		push(one, 0)
		two := one + step
		if from/8 == startRank && occ&(1<<uint(two)) == 0 {
			push(two, flagDouble)
		}
	}
	caps := tables.pawn[us][from]
	for c := caps & opp; c != 0; c &= c - 1 {
		push(bits.TrailingZeros64(c), flagCapture)
	}
	if p.ep >= 0 && caps&(1<<uint(p.ep)) != 0 && toMask&(1<<uint(p.ep)) != 0 {
		add(from, int(p.ep), chess.NoPieceType, flagCapture|flagEnPassant)
	}
}

func (p *position) genCastles(from int, toMask uint64, add func(int, int, chess.PieceType, uint8)) {
	us, them := p.turn, p.turn.Other()
	var kRight, qRight uint8 = castleWK, castleWQ
	home := int(chess.E1)
	if us == chess.Black {
		kRight, qRight, home = castleBK, castleBQ, int(chess.E8)
	}
	if from != home || p.castle&(kRight|qRight) == 0 {
		return
	}
	occ := p.occ()
	if p.castle&kRight != 0 && toMask&(uint64(1)<<uint(home+2)|uint64(1)<<uint(home+1)) != 0 &&
		occ&(uint64(3)<<uint(home+1)) == 0 &&
		!p.attacked(home, them) && !p.attacked(home+1, them) && !p.attacked(home+2, them) {
		add(home, home+2, chess.NoPieceType, flagCastleK)
	}
	if p.castle&qRight != 0 && toMask&(uint64(1)<<uint(home-2)|uint64(1)<<uint(home-1)) != 0 &&
		occ&(uint64(7)<<uint(home-3)) == 0 &&
		!p.attacked(home, them) && !p.attacked(home-1, them) && !p.attacked(home-2, them) {
		add(home, home-2, chess.NoPieceType, flagCastleQ)
	}
}

// legalMoves returns every legal move of p.
func (p *position) legalMoves() []move {
	return p.genLegal(make([]move, 0, 48), ^uint64(0), ^uint64(0))
}

// hasLegalMove reports whether the side to move has any legal move. It
// generates them all; it is used only to tell "+" from "#" in SAN.
func (p *position) hasLegalMove() bool {
	var buf [64]move
	return len(p.genLegal(buf[:0], ^uint64(0), ^uint64(0))) > 0
}

// perft counts leaf nodes at depth d (for tests against known move counts).
func (p *position) perft(d int) int {
	if d == 0 {
		return 1
	}
	ms := p.legalMoves()
	if d == 1 {
		return len(ms)
	}
	n := 0
	for _, m := range ms {
		c := *p
		c.apply(m)
		n += c.perft(d - 1)
	}
	return n
}
