package bitboard

import (
	"math/bits"
)

// Position is a chess position: piece sets per colour and type, a mailbox
// for direct square lookup, side to move, castling rights, en-passant
// target and move counters. The zero value is not a valid position; build
// one with ParseFEN. Position is a plain value: copying it copies the
// position.
type Position struct {
	pieces   [2][6]uint64
	occ      [2]uint64
	board    [64]Piece
	side     Color
	castle   uint8
	ep       Square
	halfmove int
	fullmove int
	hash     uint64
}

// Undo holds what Make needs to restore the position in Unmake. It has
// four fields, the most the compiler keeps a struct in registers for: an
// Undo is then stored where the caller keeps it field by field, where a
// larger struct would be written to the stack and copied with wide loads
// that wait on the narrow stores just made (3 to 4 % of quick mode's time
// on lichess-65k, docs/PERFORMANCE.md).
type Undo struct {
	captured Piece
	castleEP uint16 // the castling rights, and the en-passant square in the high byte
	halfmove int
	hash     uint64
}

// Side returns the side to move.
func (p *Position) Side() Color { return p.side }

// Pieces returns the set of squares holding pieces of colour c and type pt.
func (p *Position) Pieces(c Color, pt PieceType) uint64 { return p.pieces[c][pt] }

// Occupied returns the set of squares holding pieces of colour c.
func (p *Position) Occupied(c Color) uint64 { return p.occ[c] }

// All returns the set of occupied squares.
func (p *Position) All() uint64 { return p.occ[0] | p.occ[1] }

// PieceAt returns the piece on s, or NoPiece.
func (p *Position) PieceAt(s Square) Piece { return p.board[s] }

// KingSquare returns the square of colour c's king.
func (p *Position) KingSquare(c Color) Square {
	return Square(bits.TrailingZeros64(p.pieces[c][King]))
}

// EnPassant returns the en-passant target square or NoSquare.
func (p *Position) EnPassant() Square { return p.ep }

// Castling returns the castling-rights bits (WhiteKingside, …).
func (p *Position) Castling() uint8 { return p.castle }

// HalfmoveClock returns the plies since the last capture or pawn move.
func (p *Position) HalfmoveClock() int { return p.halfmove }

// Hash returns a Zobrist hash of placement, side to move, castling rights
// and en-passant file (whenever a target square is set).
func (p *Position) Hash() uint64 { return p.hash }

func (p *Position) computeHash() uint64 {
	var h uint64
	for s := 0; s < 64; s++ {
		if pc := p.board[s]; pc != NoPiece {
			h ^= tbl.zPiece[pieceIndex(pc)][s]
		}
	}
	h ^= tbl.zCastle[p.castle]
	if p.ep != NoSquare {
		h ^= tbl.zEP[p.ep.File()]
	}
	if p.side == Black {
		h ^= tbl.zSide
	}
	return h
}

func pieceIndex(pc Piece) int { return int(pc.Color())*6 + int(pc.Type()) }

func (p *Position) put(pc Piece, s Square) {
	b := uint64(1) << uint(s)
	p.pieces[pc.Color()][pc.Type()] |= b
	p.occ[pc.Color()] |= b
	p.board[s] = pc
	p.hash ^= tbl.zPiece[pieceIndex(pc)][s]
}

// flip puts pc on the squares of b where it is not and takes it off
// those where it is, in the piece sets only (not the board or the hash).
func (p *Position) flip(pc Piece, b uint64) {
	p.pieces[pc.Color()][pc.Type()] ^= b
	p.occ[pc.Color()] ^= b
}

func (p *Position) remove(s Square) Piece {
	pc := p.board[s]
	b := uint64(1) << uint(s)
	p.pieces[pc.Color()][pc.Type()] &^= b
	p.occ[pc.Color()] &^= b
	p.board[s] = NoPiece
	p.hash ^= tbl.zPiece[pieceIndex(pc)][s]
	return pc
}

// castleMask[s] is the set of castling rights that survive a move from or
// to s (moving a king or rook, or capturing a rook on its home square).
var castleMask = func() (m [64]uint8) {
	for i := range m {
		m[i] = 15
	}
	m[0] &^= WhiteQueenside
	m[7] &^= WhiteKingside
	m[4] &^= WhiteKingside | WhiteQueenside
	m[56] &^= BlackQueenside
	m[63] &^= BlackKingside
	m[60] &^= BlackKingside | BlackQueenside
	return m
}()

// Make plays m, which must be legal in p (as returned by LegalMoves), and
// returns what Unmake needs to take it back.
func (p *Position) Make(m Move) Undo {
	u := Undo{captured: NoPiece, castleEP: uint16(p.castle) | uint16(p.ep)<<8, halfmove: p.halfmove, hash: p.hash}
	from, to := m.From(), m.To()
	us := p.side
	pc := p.board[from]
	if p.ep != NoSquare {
		p.hash ^= tbl.zEP[p.ep.File()]
		p.ep = NoSquare
	}
	p.halfmove++
	switch {
	case m&FlagEnPassant != 0:
		capSq := to - 8
		if us == Black {
			capSq = to + 8
		}
		u.captured = p.remove(capSq)
		p.remove(from)
		p.put(pc, to)
		p.halfmove = 0
	case m&FlagCastle != 0:
		p.remove(from)
		p.put(pc, to)
		rf, rt := to+1, to-1 // kingside: h-file rook to f-file
		if to.File() == 2 {
			rf, rt = to-2, to+1 // queenside: a-file rook to d-file
		}
		p.put(p.remove(rf), rt)
	default:
		if c := p.board[to]; c != NoPiece {
			u.captured = c
			p.flip(c, 1<<uint(to))
			p.hash ^= tbl.zPiece[pieceIndex(c)][to]
			p.halfmove = 0
		}
		if promo := m.Promotion(); promo != NoPieceType {
			p.remove(from)
			p.put(MakePiece(us, promo), to)
		} else {
			// The moving man in one step: its two squares at once.
			p.flip(pc, 1<<uint(from)|1<<uint(to))
			p.board[from], p.board[to] = NoPiece, pc
			z := &tbl.zPiece[pieceIndex(pc)]
			p.hash ^= z[from] ^ z[to]
		}
		if pc.Type() == Pawn {
			p.halfmove = 0
			if m&FlagDouble != 0 {
				p.ep = (from + to) / 2
				p.hash ^= tbl.zEP[p.ep.File()]
			}
		}
	}
	nc := p.castle & castleMask[from] & castleMask[to]
	if nc != p.castle {
		p.hash ^= tbl.zCastle[p.castle] ^ tbl.zCastle[nc]
		p.castle = nc
	}
	if us == Black {
		p.fullmove++
	}
	p.side = us.Other()
	p.hash ^= tbl.zSide
	return u
}

// Unmake takes back m, which must be the last move made, using its Undo.
func (p *Position) Unmake(m Move, u Undo) {
	p.side = p.side.Other()
	us := p.side
	if us == Black {
		p.fullmove--
	}
	from, to := m.From(), m.To()
	switch {
	case m&FlagEnPassant != 0:
		p.put(p.remove(to), from)
		capSq := to - 8
		if us == Black {
			capSq = to + 8
		}
		p.put(u.captured, capSq)
	case m&FlagCastle != 0:
		p.put(p.remove(to), from)
		rf, rt := to+1, to-1
		if to.File() == 2 {
			rf, rt = to-2, to+1
		}
		p.put(p.remove(rt), rf)
	default:
		// The hash is restored whole below: the sets and the board only.
		pc := p.board[to]
		if m.Promotion() != NoPieceType {
			p.flip(pc, 1<<uint(to))
			pc = MakePiece(us, Pawn)
			p.flip(pc, 1<<uint(from))
		} else {
			p.flip(pc, 1<<uint(from)|1<<uint(to))
		}
		p.board[from], p.board[to] = pc, u.captured
		if u.captured != NoPiece {
			p.flip(u.captured, 1<<uint(to))
		}
	}
	p.castle, p.ep, p.halfmove, p.hash = uint8(u.castleEP), Square(u.castleEP>>8), u.halfmove, u.hash
}

// MakeNull passes the move to the other side without moving (used only by
// analysis that needs the opponent's view of a position). It clears the
// en-passant target. Undo with UnmakeNull.
func (p *Position) MakeNull() Undo {
	u := Undo{captured: NoPiece, castleEP: uint16(p.castle) | uint16(p.ep)<<8, halfmove: p.halfmove, hash: p.hash}
	if p.ep != NoSquare {
		p.hash ^= tbl.zEP[p.ep.File()]
		p.ep = NoSquare
	}
	p.side = p.side.Other()
	p.hash ^= tbl.zSide
	return u
}

// UnmakeNull takes back MakeNull.
func (p *Position) UnmakeNull(u Undo) {
	p.side = p.side.Other()
	p.castle, p.ep, p.halfmove, p.hash = uint8(u.castleEP), Square(u.castleEP>>8), u.halfmove, u.hash
}
