package bitboard

import "math/bits"

// attackedBy reports whether square s is attacked by colour c's pieces
// given occupancy occ.
func (p *Position) attackedBy(s Square, c Color, occ uint64) bool {
	pc := &p.pieces[c]
	if tbl.pawn[c.Other()][s]&pc[Pawn] != 0 || tbl.knight[s]&pc[Knight] != 0 || tbl.king[s]&pc[King] != 0 {
		return true
	}
	if bq := pc[Bishop] | pc[Queen]; bq != 0 && BishopAttacks(s, occ)&bq != 0 {
		return true
	}
	if rq := pc[Rook] | pc[Queen]; rq != 0 && RookAttacks(s, occ)&rq != 0 {
		return true
	}
	return false
}

// AttackersOf returns colour c's pieces attacking s with occupancy occ.
func (p *Position) AttackersOf(s Square, c Color, occ uint64) uint64 {
	pc := &p.pieces[c]
	return tbl.pawn[c.Other()][s]&pc[Pawn] | tbl.knight[s]&pc[Knight] | tbl.king[s]&pc[King] |
		BishopAttacks(s, occ)&(pc[Bishop]|pc[Queen]) | RookAttacks(s, occ)&(pc[Rook]|pc[Queen])
}

// AttackedWith reports whether square s is attacked by colour c's men
// given the occupancy occ: AttackersOf(s, c, occ) != 0, answered by the
// cheap leapers first and without building the set.
func (p *Position) AttackedWith(s Square, c Color, occ uint64) bool { return p.attackedBy(s, c, occ) }

// AttackedExcept is AttackedWith with the men on the squares of except
// left out of the attackers (not of the occupancy): AttackersOf(s, c,
// occ)&^except != 0.
func (p *Position) AttackedExcept(s Square, c Color, occ, except uint64) bool {
	pc := &p.pieces[c]
	keep := ^except
	if (tbl.pawn[c.Other()][s]&pc[Pawn]|tbl.knight[s]&pc[Knight]|tbl.king[s]&pc[King])&keep != 0 {
		return true
	}
	if bq := (pc[Bishop] | pc[Queen]) & keep; bq != 0 && BishopAttacks(s, occ)&bq != 0 {
		return true
	}
	if rq := (pc[Rook] | pc[Queen]) & keep; rq != 0 && RookAttacks(s, occ)&rq != 0 {
		return true
	}
	return false
}

// Attacked reports whether s is attacked by colour c in the position.
func (p *Position) Attacked(s Square, c Color) bool { return p.attackedBy(s, c, p.All()) }

// InCheck reports whether the side to move is in check.
func (p *Position) InCheck() bool {
	return p.attackedBy(p.KingSquare(p.side), p.side.Other(), p.All())
}

// Checkers returns the pieces giving check to the side to move.
func (p *Position) Checkers() uint64 {
	return p.AttackersOf(p.KingSquare(p.side), p.side.Other(), p.All())
}

// pinned returns the pieces of the side to move pinned to their king.
func (p *Position) pinned(k Square) uint64 {
	us, them := p.side, p.side.Other()
	occ := p.All()
	var pins uint64
	snipers := (tbl.orth[k] & (p.pieces[them][Rook] | p.pieces[them][Queen])) |
		(tbl.diag[k] & (p.pieces[them][Bishop] | p.pieces[them][Queen]))
	for snipers != 0 {
		s := Square(bits.TrailingZeros64(snipers))
		snipers &= snipers - 1
		b := tbl.between[k][s] & occ
		if b != 0 && b&(b-1) == 0 && b&p.occ[us] != 0 {
			pins |= b
		}
	}
	return pins
}

// LegalMoves fills ml with every legal move of the side to move.
func (p *Position) LegalMoves(ml *MoveList) {
	ml.N = 0
	p.generate(ml, false)
}

// HasLegalMove reports whether the side to move has any legal move. It is
// cheaper than LegalMoves when only existence matters (mate, stalemate).
func (p *Position) HasLegalMove() bool {
	var ml MoveList
	return p.generate(&ml, true)
}

// HasLegalMoveIn is HasLegalMove with ml as scratch space (its moves are
// overwritten), for callers that ask often and keep a list at hand.
func (p *Position) HasLegalMoveIn(ml *MoveList) bool {
	ml.N = 0
	return p.generate(ml, true)
}

// IsCheckmate reports whether the side to move is checkmated.
func (p *Position) IsCheckmate() bool { return p.InCheck() && !p.HasLegalMove() }

// IsStalemate reports whether the side to move is stalemated.
func (p *Position) IsStalemate() bool { return !p.InCheck() && !p.HasLegalMove() }

// generate appends the legal moves to ml; with stopAtFirst it returns as
// soon as one legal move exists. It returns whether any move was found.
func (p *Position) generate(ml *MoveList, stopAtFirst bool) bool {
	us, them := p.side, p.side.Other()
	own := p.occ[us]
	occ := own | p.occ[them]
	k := p.KingSquare(us)
	checkers := p.AttackersOf(k, them, occ)
	start := ml.N

	if p.genKingSteps(ml, k, occ, stopAtFirst) {
		return true
	}
	if checkers&(checkers-1) != 0 {
		return ml.N > start // double check: only the king may move
	}
	target := ^own
	if checkers != 0 {
		c := Square(bits.TrailingZeros64(checkers))
		target = tbl.between[k][c] | checkers
	} else {
		p.genCastling(ml, k, occ)
		if stopAtFirst && ml.N > start {
			return true
		}
	}
	pins := p.pinned(k)
	if p.genPieceMoves(ml, k, pins, occ, target, stopAtFirst) || p.genPawnMoves(ml, k, pins, occ, target, stopAtFirst) {
		return true
	}
	return ml.N > start
}

// genKingSteps appends the king's steps (castling aside): the destination
// must not be attacked once the king has left its square (so sliders see
// through it). With stopAtFirst it returns true at the first.
func (p *Position) genKingSteps(ml *MoveList, k Square, occ uint64, stopAtFirst bool) bool {
	them := p.side.Other()
	occNoKing := occ &^ (1 << uint(k))
	for t := tbl.king[k] &^ p.occ[p.side]; t != 0; t &= t - 1 {
		to := Square(bits.TrailingZeros64(t))
		if !p.attackedBy(to, them, occNoKing) {
			ml.add(NewMove(k, to))
			if stopAtFirst {
				return true
			}
		}
	}
	return false
}

// genPieceMoves appends the knights', bishops', rooks' and queens' moves
// onto target that the pins (of the king on k) allow. With stopAtFirst it
// returns true at the first.
func (p *Position) genPieceMoves(ml *MoveList, k Square, pins, occ, target uint64, stopAtFirst bool) bool {
	us := p.side
	// A pinned knight can never move.
	for b := p.pieces[us][Knight] &^ pins; b != 0; b &= b - 1 {
		from := Square(bits.TrailingZeros64(b))
		if addMoves(ml, from, tbl.knight[from]&target, k, pins, stopAtFirst) {
			return true
		}
	}
	for b := p.pieces[us][Bishop] | p.pieces[us][Queen]; b != 0; b &= b - 1 {
		from := Square(bits.TrailingZeros64(b))
		if addMoves(ml, from, BishopAttacks(from, occ)&target, k, pins, stopAtFirst) {
			return true
		}
	}
	for b := p.pieces[us][Rook] | p.pieces[us][Queen]; b != 0; b &= b - 1 {
		from := Square(bits.TrailingZeros64(b))
		if addMoves(ml, from, RookAttacks(from, occ)&target, k, pins, stopAtFirst) {
			return true
		}
	}
	return false
}

// addMoves appends the moves from from to the squares of tos that the pins
// (of the king on k) allow. With stopAtFirst it returns true at the first.
func addMoves(ml *MoveList, from Square, tos uint64, k Square, pins uint64, stopAtFirst bool) bool {
	for t := tos; t != 0; t &= t - 1 {
		to := Square(bits.TrailingZeros64(t))
		if pinAllows(pins, k, from, to) {
			ml.add(NewMove(from, to))
			if stopAtFirst {
				return true
			}
		}
	}
	return false
}

// pinAllows tells whether the piece on from may go to to: it is not pinned
// to the king on k, or it stays on the line of the pin.
func pinAllows(pins uint64, k, from, to Square) bool {
	return pins&(1<<uint(from)) == 0 || tbl.line[k][from]&(1<<uint(to)) != 0
}

// genPawnMoves appends the pawns' pushes, captures and en-passant captures
// onto target that the pins (of the king on k) allow, each promotion four
// times. With stopAtFirst it returns true at the first.
func (p *Position) genPawnMoves(ml *MoveList, k Square, pins, occ, target uint64, stopAtFirst bool) bool {
	us := p.side
	opp := p.occ[us.Other()]
	fwd, rank3, promoRank := 8, uint64(0xff0000), uint64(0xff00000000000000)
	if us == Black {
		fwd, rank3, promoRank = -8, 0xff0000000000, 0xff
	}
	for b := p.pieces[us][Pawn]; b != 0; b &= b - 1 {
		from := Square(bits.TrailingZeros64(b))
		one := from + Square(fwd)
		if occ&(1<<uint(one)) == 0 {
			if target&(1<<uint(one)) != 0 && pinAllows(pins, k, from, one) {
				addPawnMove(ml, from, one, promoRank)
				if stopAtFirst {
					return true
				}
			}
			two := one + Square(fwd)
			if rank3&(1<<uint(one)) != 0 && occ&(1<<uint(two)) == 0 && target&(1<<uint(two)) != 0 && pinAllows(pins, k, from, two) {
				ml.add(NewMove(from, two) | FlagDouble)
				if stopAtFirst {
					return true
				}
			}
		}
		for t := tbl.pawn[us][from] & opp & target; t != 0; t &= t - 1 {
			to := Square(bits.TrailingZeros64(t))
			if pinAllows(pins, k, from, to) {
				addPawnMove(ml, from, to, promoRank)
				if stopAtFirst {
					return true
				}
			}
		}
		if p.ep != NoSquare && tbl.pawn[us][from]&(1<<uint(p.ep)) != 0 {
			m := NewMove(from, p.ep) | FlagEnPassant
			if p.epLegal(m, k) {
				ml.add(m)
				if stopAtFirst {
					return true
				}
			}
		}
	}
	return false
}

// addPawnMove appends a pawn's move from from to to: four moves, one a
// piece, when to is on promoRank.
func addPawnMove(ml *MoveList, from, to Square, promoRank uint64) {
	if promoRank&(1<<uint(to)) != 0 {
		for _, pt := range [...]PieceType{Queen, Rook, Bishop, Knight} {
			ml.add(NewMove(from, to) | Move(pt)<<12)
		}
		return
	}
	ml.add(NewMove(from, to))
}

// EnPassantLegal reports whether the side to move has a legal en-passant
// capture: a position's en-passant square counts for repetition (9.2.3)
// only then.
func (p *Position) EnPassantLegal() bool {
	if p.ep == NoSquare {
		return false
	}
	k := p.KingSquare(p.side)
	for b := tbl.pawn[p.side.Other()][p.ep] & p.pieces[p.side][Pawn]; b != 0; b &= b - 1 {
		if p.epLegal(NewMove(Square(bits.TrailingZeros64(b)), p.ep)|FlagEnPassant, k) {
			return true
		}
	}
	return false
}

// epLegal checks an en-passant capture by playing it on a copy of the
// occupancy: two pieces leave the same rank at once, which the pin
// logic above cannot see.
func (p *Position) epLegal(m Move, k Square) bool {
	us, them := p.side, p.side.Other()
	from, to := m.From(), m.To()
	capSq := to - 8
	if us == Black {
		capSq = to + 8
	}
	occ := p.All()&^(1<<uint(from)|1<<uint(capSq)) | 1<<uint(to)
	pc := &p.pieces[them]
	if tbl.knight[k]&pc[Knight] != 0 || tbl.pawn[us][k]&pc[Pawn]&^(1<<uint(capSq)) != 0 {
		return false
	}
	if BishopAttacks(k, occ)&(pc[Bishop]|pc[Queen]) != 0 || RookAttacks(k, occ)&(pc[Rook]|pc[Queen]) != 0 {
		return false
	}
	return true
}

func (p *Position) genCastling(ml *MoveList, k Square, occ uint64) {
	us, them := p.side, p.side.Other()
	ks, qs := uint8(WhiteKingside), uint8(WhiteQueenside)
	if us == Black {
		ks, qs = BlackKingside, BlackQueenside
	}
	if p.castle&ks != 0 && occ&(1<<uint(k+1)|1<<uint(k+2)) == 0 &&
		!p.attackedBy(k+1, them, occ) && !p.attackedBy(k+2, them, occ) {
		ml.add(NewMove(k, k+2) | FlagCastle)
	}
	if p.castle&qs != 0 && occ&(1<<uint(k-1)|1<<uint(k-2)|1<<uint(k-3)) == 0 &&
		!p.attackedBy(k-1, them, occ) && !p.attackedBy(k-2, them, occ) {
		ml.add(NewMove(k, k-2) | FlagCastle)
	}
}

// Perft counts the leaf nodes of the legal move tree to the given depth.
func (p *Position) Perft(depth int) int64 {
	var ml MoveList
	p.LegalMoves(&ml)
	if depth <= 1 {
		if depth <= 0 {
			return 1
		}
		return int64(ml.N)
	}
	var n int64
	for _, m := range ml.Slice() {
		u := p.Make(m)
		n += p.Perft(depth - 1)
		p.Unmake(m, u)
	}
	return n
}

// ParseMove finds the legal move with the given UCI text in p.
func (p *Position) ParseMove(uci string) (Move, bool) {
	var ml MoveList
	p.LegalMoves(&ml)
	for _, m := range ml.Slice() {
		if m.UCI() == uci {
			return m, true
		}
	}
	return 0, false
}

// GivesCheck reports whether the legal move m would put the opponent in
// check, without playing it: a direct check by the piece arriving on the
// destination (or the promoted piece) or a discovered check by a slider
// uncovered by leaving the origin. Castling and en passant are played on
// a copy.
func (p *Position) GivesCheck(m Move) bool {
	if m&(FlagCastle|FlagEnPassant) != 0 {
		q := *p
		q.Make(m)
		return q.InCheck()
	}
	us := p.side
	k := p.KingSquare(us.Other())
	from, to := m.From(), m.To()
	occ := p.All()&^(1<<uint(from)) | 1<<uint(to)
	pt := p.board[from].Type()
	if pr := m.Promotion(); pr != NoPieceType {
		pt = pr
	}
	switch pt {
	case Pawn:
		if tbl.pawn[us][to]&(1<<uint(k)) != 0 {
			return true
		}
	case Knight:
		if tbl.knight[to]&(1<<uint(k)) != 0 {
			return true
		}
	case Bishop, Rook, Queen:
		// Only a slider on a line with the king, nothing between, checks.
		if ln := tbl.line[to][k]; ln != 0 && tbl.between[to][k]&occ == 0 {
			diagonal := to.File() != k.File() && to.Rank() != k.Rank()
			if pt == Queen || (pt == Bishop) == diagonal {
				return true
			}
		}
	}
	// Discovered check: a slider of ours (not the moving piece) beyond
	// the origin, on the line from the king, now sees the king.
	pc := &p.pieces[us]
	keep := ^(uint64(1) << uint(from))
	if tbl.line[k][from]&(pc[Bishop]|pc[Rook]|pc[Queen])&keep == 0 {
		return false
	}
	return BishopAttacks(k, occ)&(pc[Bishop]|pc[Queen])&keep != 0 ||
		RookAttacks(k, occ)&(pc[Rook]|pc[Queen])&keep != 0
}

// CheckInfo holds what GivesCheckWith needs to tell a checking move of
// the side to move by set operations: for each piece type the squares
// from which it would attack the enemy king, and the side's men whose
// departure would uncover a slider on that king. Build it with
// CheckInfo; it is valid until the position changes.
type CheckInfo struct {
	squares [6]uint64
	blocks  uint64 // our men between one of our sliders and the king
	king    Square
}

// CheckInfo returns the check squares and discovered-check candidates
// of the side to move.
func (p *Position) CheckInfo() CheckInfo {
	var ci CheckInfo
	p.SetCheckInfo(&ci)
	return ci
}

// SetCheckInfo sets *ci to p.CheckInfo() in place, without the copy of a
// returned struct (a search calls it at every node).
func (p *Position) SetCheckInfo(ci *CheckInfo) {
	us, them := p.side, p.side.Other()
	k := p.KingSquare(them)
	occ := p.All()
	ci.king = k
	ci.blocks = 0
	ci.squares[Pawn] = tbl.pawn[them][k]
	ci.squares[Knight] = tbl.knight[k]
	ci.squares[Bishop] = BishopAttacks(k, occ)
	ci.squares[Rook] = RookAttacks(k, occ)
	ci.squares[Queen] = ci.squares[Bishop] | ci.squares[Rook]
	pc := &p.pieces[us]
	snipers := tbl.orth[k]&(pc[Rook]|pc[Queen]) | tbl.diag[k]&(pc[Bishop]|pc[Queen])
	for snipers != 0 {
		s := Square(bits.TrailingZeros64(snipers))
		snipers &= snipers - 1
		b := tbl.between[k][s] & occ
		if b != 0 && b&(b-1) == 0 && b&p.occ[us] != 0 {
			ci.blocks |= b
		}
	}
}

// Squares returns the squares from which a man of type pt (not a king)
// would attack the enemy king.
func (ci *CheckInfo) Squares(pt PieceType) uint64 { return ci.squares[pt] }

// Blockers returns the side's men that stand alone between one of its
// sliders and the enemy king: such a man moving off that line checks.
func (ci *CheckInfo) Blockers() uint64 { return ci.blocks }

// King returns the enemy king's square.
func (ci *CheckInfo) King() Square { return ci.king }

// GivesCheckWith is GivesCheck for a legal move m, with ci the position's
// CheckInfo: the same answer, mostly without looking at the board.
func (p *Position) GivesCheckWith(m Move, ci *CheckInfo) bool {
	if m&(FlagCastle|FlagEnPassant) != 0 || m.Promotion() != NoPieceType {
		return p.GivesCheck(m)
	}
	from, to := m.From(), m.To()
	if ci.squares[p.board[from].Type()]&(1<<uint(to)) != 0 {
		return true
	}
	// A blocker that leaves the line uncovers its slider.
	return ci.blocks&(1<<uint(from)) != 0 && tbl.line[from][ci.king]&(1<<uint(to)) == 0
}

// Pinned returns the men of the side to move that are pinned to their
// king (a pinned man may move only along the line through the king and
// the pinning slider: Line(king, from)).
func (p *Position) Pinned() uint64 { return p.pinned(p.KingSquare(p.side)) }

// AppendCastling appends the side to move's legal castling moves to ml,
// as LegalMoves generates them (kingside first); none when in check.
func (p *Position) AppendCastling(ml *MoveList) {
	us := p.side
	rights := uint8(WhiteKingside | WhiteQueenside)
	if us == Black {
		rights = BlackKingside | BlackQueenside
	}
	if p.castle&rights == 0 {
		return
	}
	k := p.KingSquare(us)
	if p.attackedBy(k, us.Other(), p.All()) {
		return
	}
	p.genCastling(ml, k, p.All())
}

// EnPassantMoveLegal reports whether the side to move's pawn on from may
// take en passant (the position has an en-passant square its pawn on
// from attacks, and the capture leaves its king safe).
func (p *Position) EnPassantMoveLegal(from Square) bool {
	if p.ep == NoSquare || tbl.pawn[p.side][from]&(1<<uint(p.ep)) == 0 || p.pieces[p.side][Pawn]&(1<<uint(from)) == 0 {
		return false
	}
	return p.epLegal(NewMove(from, p.ep)|FlagEnPassant, p.KingSquare(p.side))
}

// AttackMap returns the squares colour c's men attack given the occupancy
// occ: the union of AttackersOf over every square, built piece by piece
// (the pawns all at once).
func (p *Position) AttackMap(c Color, occ uint64) uint64 {
	pc := &p.pieces[c]
	a := PawnsAttack(c, pc[Pawn])
	if pc[King] != 0 {
		a |= tbl.king[bits.TrailingZeros64(pc[King])]
	}
	for b := pc[Knight]; b != 0; b &= b - 1 {
		a |= tbl.knight[bits.TrailingZeros64(b)]
	}
	for b := pc[Bishop] | pc[Queen]; b != 0; b &= b - 1 {
		a |= BishopAttacks(Square(bits.TrailingZeros64(b)), occ)
	}
	for b := pc[Rook] | pc[Queen]; b != 0; b &= b - 1 {
		a |= RookAttacks(Square(bits.TrailingZeros64(b)), occ)
	}
	return a
}
