package bitboard

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// FENError reports a malformed FEN, naming the field at fault.
type FENError struct {
	FEN   string
	Field string // "placement", "side to move", "castling", "en passant", "halfmove clock", "fullmove number", "fields"
	Msg   string
	Why   Text // Msg as a code and its arguments
}

func (e *FENError) Error() string {
	return fmt.Sprintf("bad FEN %q: %s: %s", e.FEN, e.Field, e.Msg)
}

// SentenceCode is the error's code (Text).
func (e *FENError) SentenceCode() string { return "bitboard.fen" }

// SentenceArgs are the error's arguments: the FEN, the field's name and
// Why.
func (e *FENError) SentenceArgs() []any {
	return []any{e.FEN, say(fieldCodes[e.Field]), e.Why}
}

// ParseFEN reads a position in Forsyth–Edwards Notation. The move counters
// may be omitted (they default to 0 and 1). Besides syntax, it rejects
// positions the move generator cannot handle soundly: not exactly one king
// per side, pawns on the first or last rank, the side not to move in check, castling rights without king and rook on
// their home squares, and an en-passant square without the pawn that just
// made the double step.
func ParseFEN(fen string) (Position, error) {
	var p Position
	bad := func(field string, why error) (Position, error) {
		w, _ := why.(Text)
		return Position{}, &FENError{FEN: fen, Field: field, Msg: why.Error(), Why: w}
	}
	var fa [6]string
	nf := fields(fen, &fa)
	if nf < 2 || nf > 6 {
		return bad("fields", say("bitboard.fen.fields", nf))
	}
	f := fa[:nf]
	for i := range p.board {
		p.board[i] = NoPiece
	}
	p.ep = NoSquare
	p.fullmove = 1
	if err := p.readPlacement(f[0]); err != nil {
		return bad("placement", err)
	}
	if err := p.checkPlacement(); err != nil {
		return bad("placement", err)
	}
	switch f[1] {
	case "w":
		p.side = White
	case "b":
		p.side = Black
	default:
		return bad("side to move", say("bitboard.fen.side", f[1]))
	}
	if err := p.checkSide(); err != nil {
		return bad("side to move", err)
	}
	if len(f) > 2 && f[2] != "-" {
		if err := p.readCastling(f[2]); err != nil {
			return bad("castling", err)
		}
	}
	if err := p.checkCastling(); err != nil {
		return bad("castling", err)
	}
	if len(f) > 3 && f[3] != "-" {
		s, err := ParseSquare(f[3])
		if err != nil {
			return bad("en passant", say("bitboard.fen.ep", f[3]))
		}
		p.ep = s
	}
	if err := p.checkEnPassant(); err != nil {
		return bad("en passant", err)
	}
	if len(f) > 4 {
		n, err := strconv.Atoi(f[4])
		if err != nil || n < 0 {
			return bad("halfmove clock", say("bitboard.fen.halfmove", f[4]))
		}
		p.halfmove = n
	}
	if len(f) > 5 {
		n, err := strconv.Atoi(f[5])
		if err != nil || n < 1 {
			return bad("fullmove number", say("bitboard.fen.fullmove", f[5]))
		}
		p.fullmove = n
	}
	p.hash = p.computeHash()
	return p, nil
}

// readPlacement puts the pieces of a FEN's placement field on p's board.
func (p *Position) readPlacement(placement string) error {
	if n := strings.Count(placement, "/") + 1; n != 8 {
		return say("bitboard.fen.ranks", n)
	}
	rest := placement
	for i := 0; i < 8; i++ {
		row := rest
		if j := strings.IndexByte(rest, '/'); j >= 0 {
			row, rest = rest[:j], rest[j+1:]
		}
		r := 7 - i
		file := 0
		for _, ch := range []byte(row) {
			if ch >= '1' && ch <= '8' {
				file += int(ch - '0')
				if file > 8 {
					break
				}
				continue
			}
			pt := strings.IndexByte("pnbrqk", ch|0x20)
			if pt < 0 {
				return say("bitboard.fen.letter", r+1, ch)
			}
			if file >= 8 {
				file++
				break
			}
			c := White
			if ch >= 'a' {
				c = Black
			}
			p.put(MakePiece(c, PieceType(pt)), Square(r*8+file))
			file++
		}
		if file != 8 {
			return say("bitboard.fen.files", r+1, row, file)
		}
	}
	return nil
}

// readCastling sets p's castling rights from a FEN's castling field (not
// "-").
func (p *Position) readCastling(rights string) error {
	for _, ch := range []byte(rights) {
		var bit uint8
		switch ch {
		case 'K':
			bit = WhiteKingside
		case 'Q':
			bit = WhiteQueenside
		case 'k':
			bit = BlackKingside
		case 'q':
			bit = BlackQueenside
		default:
			return say("bitboard.fen.castling", rights)
		}
		if p.castle&bit != 0 {
			return say("bitboard.fen.castling.twice", ch, rights)
		}
		p.castle |= bit
	}
	return nil
}

// The checks of the position beyond syntax, one per field, run as each
// field is read, so a FEN with several faults is refused for the first
// field at fault.

// checkPlacement: no pawn on the last or first rank, exactly one king per
// side.
func (p *Position) checkPlacement() error {
	for _, r := range [...]int{7, 0} { // in the order a FEN lists the ranks
		if (p.pieces[White][Pawn]|p.pieces[Black][Pawn])&(0xff<<(8*r)) != 0 {
			return say("bitboard.fen.pawn", r+1)
		}
	}
	for c := White; c <= Black; c++ {
		if n := bits.OnesCount64(p.pieces[c][King]); n != 1 {
			return say("bitboard.fen.kings", n, colour("bitboard.fen.kings", c))
		}
	}
	return nil
}

// checkSide: the side not to move is not in check.
func (p *Position) checkSide() error {
	if p.attackedBy(p.KingSquare(p.side.Other()), p.side, p.All()) {
		return say("bitboard.fen.check", colour("bitboard.fen.check", p.side), colour("bitboard.fen.check", p.side.Other()))
	}
	return nil
}

// checkCastling: each right has its king and rook on their home squares.
func (p *Position) checkCastling() error {
	type req struct {
		bit        uint8
		letter     byte
		king, rook Square
		c          Color
	}
	for _, r := range []req{{WhiteKingside, 'K', 4, 7, White}, {WhiteQueenside, 'Q', 4, 0, White}, {BlackKingside, 'k', 60, 63, Black}, {BlackQueenside, 'q', 60, 56, Black}} {
		if p.castle&r.bit != 0 && (p.board[r.king] != MakePiece(r.c, King) || p.board[r.rook] != MakePiece(r.c, Rook)) {
			return say("bitboard.fen.castling.needs", r.letter, colour("bitboard.fen.piece", r.c), r.king.String(), r.rook.String())
		}
	}
	return nil
}

// checkEnPassant: the square is behind a pawn of the side that just moved,
// which can have pushed two squares past it.
func (p *Position) checkEnPassant() error {
	if p.ep == NoSquare {
		return nil
	}
	// The side to move captures; the other side just double-stepped.
	wantRank, pawnSq, from := 5, p.ep-8, p.ep+8
	if p.side == Black {
		wantRank, pawnSq, from = 2, p.ep+8, p.ep-8
	}
	if p.ep.Rank() != wantRank {
		return say("bitboard.fen.ep.rank", p.ep.String(), wantRank+1)
	}
	if p.board[pawnSq] != MakePiece(p.side.Other(), Pawn) || p.board[p.ep] != NoPiece || p.board[from] != NoPiece {
		return say("bitboard.fen.ep.pawn", p.ep.String(), colour("bitboard.fen.piece", p.side.Other()))
	}
	return nil
}

// PlacementFEN writes the FEN of a position set up from a placement:
// board's pieces, side to move, the castling rights given (bits as
// Castling returns them), no en-passant square, no halfmoves, and move
// number fullmove (at least 1). It is FEN's writer; nothing is checked.
func PlacementFEN(board *[64]Piece, side Color, castle uint8, fullmove int) string {
	p := Position{side: side, castle: castle, ep: NoSquare, fullmove: max(fullmove, 1)}
	for s, pc := range board {
		p.board[s] = NoPiece
		if pc != NoPiece {
			p.put(pc, Square(s))
		}
	}
	return p.FEN()
}

// FEN returns the position in Forsyth–Edwards Notation. The en-passant
// square is written after every double step, whether or not a capture
// there is legal, as notnil/chess writes it.
func (p *Position) FEN() string {
	var b strings.Builder
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := 0; f < 8; f++ {
			pc := p.board[r*8+f]
			if pc == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			ch := pieceLetters[pc.Type()]
			if pc.Color() == White {
				ch -= 0x20
			}
			b.WriteByte(ch)
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	b.WriteString([]string{" w ", " b "}[p.side])
	if p.castle == 0 {
		b.WriteByte('-')
	}
	for i, ch := range "KQkq" {
		if p.castle&(1<<uint(i)) != 0 {
			b.WriteRune(ch)
		}
	}
	b.WriteByte(' ')
	b.WriteString(p.ep.String())
	fmt.Fprintf(&b, " %d %d", p.halfmove, p.fullmove)
	return b.String()
}

// fields stores the whitespace-separated fields of s in f, as
// strings.Fields would return them, without allocating; it returns their
// number, which may exceed len(f) (the fields past it are not stored).
func fields(s string, f *[6]string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 { // Unicode spaces separate fields too
			all := strings.Fields(s)
			copy(f[:], all)
			return len(all)
		}
	}
	n := 0
	for i := 0; i < len(s); {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		if i == len(s) {
			break
		}
		j := i
		for j < len(s) && !isSpace(s[j]) {
			j++
		}
		if n < len(f) {
			f[n] = s[i:j]
		}
		n++
		i = j
	}
	return n
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}
