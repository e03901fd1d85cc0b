package rules

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/notnil/chess"
)

// position is arbiterd's own compact chess position: a mailbox for lookups and
// bitboards for move generation. It is a plain value, so a copy is a snapshot.
// notnil/chess positions are built from it only when a caller asks for one.
type position struct {
	sq     [64]chess.Piece
	pieces [13]uint64 // by chess.Piece
	color  [3]uint64  // by chess.Color
	turn   chess.Color
	castle uint8 // castleWK | castleWQ | castleBK | castleBQ
	ep     int8  // en-passant target square after a double pawn push, or -1
	half   int   // plies since the last pawn move or capture (9.3, 9.6.2)
	full   int   // full-move number, as in FEN
	king   [3]int8
}

const (
	castleWK uint8 = 1 << iota
	castleWQ
	castleBK
	castleBQ
)

// move is the internal form of a move. The flags are facts about the move in
// the position it was generated for.
type move struct {
	from, to int8
	promo    chess.PieceType
	flags    uint8
}

const (
	flagCapture uint8 = 1 << iota
	flagEnPassant
	flagCastleK
	flagCastleQ
	flagDouble
	flagCheck // set only by moves that the generator confirmed give check
)

func (m move) uci() string {
	s := chess.Square(m.from).String() + chess.Square(m.to).String()
	if m.promo != chess.NoPieceType {
		s += m.promo.String()
	}
	return s
}

func pieceColor(p chess.Piece) chess.Color {
	switch {
	case p >= chess.WhiteKing && p <= chess.WhitePawn:
		return chess.White
	case p >= chess.BlackKing && p <= chess.BlackPawn:
		return chess.Black
	}
	return chess.NoColor
}

func pieceType(p chess.Piece) chess.PieceType {
	if p < chess.WhiteKing || p > chess.BlackPawn {
		return chess.NoPieceType
	}
	return chess.PieceType((int(p)-1)%6 + 1)
}

func makePiece(t chess.PieceType, c chess.Color) chess.Piece {
	if c == chess.Black {
		return chess.Piece(int(t) + 6)
	}
	return chess.Piece(t)
}

func (p *position) occ() uint64 { return p.color[chess.White] | p.color[chess.Black] }

func (p *position) put(sq int, pc chess.Piece) {
	b := uint64(1) << uint(sq)
	p.sq[sq] = pc
	p.pieces[pc] |= b
	p.color[pieceColor(pc)] |= b
	if pieceType(pc) == chess.King {
		p.king[pieceColor(pc)] = int8(sq)
	}
}

func (p *position) remove(sq int) {
	pc := p.sq[sq]
	if pc == chess.NoPiece {
		return
	}
	b := uint64(1) << uint(sq)
	p.sq[sq] = chess.NoPiece
	p.pieces[pc] &^= b
	p.color[pieceColor(pc)] &^= b
}

// castleLoss[sq] is the set of castling rights lost when a move starts or ends on sq.
var castleLoss = func() (t [64]uint8) {
	t[chess.A1], t[chess.E1], t[chess.H1] = castleWQ, castleWK|castleWQ, castleWK
	t[chess.A8], t[chess.E8], t[chess.H8] = castleBQ, castleBK|castleBQ, castleBK
	return t
}()

// apply plays m, which must be legal, on p.
func (p *position) apply(m move) {
	from, to := int(m.from), int(m.to)
	pc := p.sq[from]
	us := p.turn
	p.remove(from)
	if m.flags&flagEnPassant != 0 {
		if us == chess.White {
			p.remove(to - 8)
		} else {
			p.remove(to + 8)
		}
	}
	p.remove(to)
	if m.promo != chess.NoPieceType {
		pc = makePiece(m.promo, us)
	}
	p.put(to, pc)
	switch {
	case m.flags&flagCastleK != 0:
		r := p.sq[from+3]
		p.remove(from + 3)
		p.put(from+1, r)
	case m.flags&flagCastleQ != 0:
		r := p.sq[from-4]
		p.remove(from - 4)
		p.put(from-1, r)
	}
	p.castle &^= castleLoss[from] | castleLoss[to]
	p.ep = -1
	if m.flags&flagDouble != 0 {
		p.ep = int8((from + to) / 2)
	}
	if pieceType(pc) == chess.Pawn || m.flags&flagCapture != 0 || m.promo != chess.NoPieceType {
		p.half = 0
	} else {
		p.half++
	}
	if us == chess.Black {
		p.full++
	}
	p.turn = us.Other()
}

// attacked reports whether sq is attacked by a piece of colour by.
func (p *position) attacked(sq int, by chess.Color) bool {
	t := tables
	occ := p.occ()
	if t.knight[sq]&p.pieces[makePiece(chess.Knight, by)] != 0 {
		return true
	}
	if t.king[sq]&p.pieces[makePiece(chess.King, by)] != 0 {
		return true
	}
	// A pawn of colour by attacks sq iff a pawn of the other colour on sq would attack it.
	if t.pawn[by.Other()][sq]&p.pieces[makePiece(chess.Pawn, by)] != 0 {
		return true
	}
	q := p.pieces[makePiece(chess.Queen, by)]
	if bishopAttacks(sq, occ)&(p.pieces[makePiece(chess.Bishop, by)]|q) != 0 {
		return true
	}
	return rookAttacks(sq, occ)&(p.pieces[makePiece(chess.Rook, by)]|q) != 0
}

func (p *position) inCheck() bool {
	return p.attacked(int(p.king[p.turn]), p.turn.Other())
}

// parseFEN reads a FEN record. Errors name the field and what is wrong with it.
func parseFEN(fen string) (position, error) {
	var p position
	p.ep = -1
	f := strings.Fields(fen)
	if len(f) != 6 && len(f) != 4 {
		return p, fmt.Errorf("rules: FEN %q has %d fields, want 6 (placement, side to move, castling, en passant, halfmove clock, fullmove number)", fen, len(f))
	}
	ranks := strings.Split(f[0], "/")
	if len(ranks) != 8 {
		return p, fmt.Errorf("rules: FEN field 1 (piece placement) %q has %d ranks, want 8", f[0], len(ranks))
	}
	for i, rs := range ranks {
		r := 7 - i
		file := 0
		for _, c := range rs {
			if c >= '1' && c <= '8' {
				file += int(c - '0')
				continue
			}
			pc, ok := fenPieces[c]
			if !ok {
				return p, fmt.Errorf("rules: FEN field 1 (piece placement): rank %d has %q, not a piece letter or digit", r+1, c)
			}
			if file >= 8 {
				return p, fmt.Errorf("rules: FEN field 1 (piece placement): rank %d %q has more than 8 squares", r+1, rs)
			}
			if pieceType(pc) == chess.Pawn && (r == 0 || r == 7) {
				return p, fmt.Errorf("rules: FEN field 1 (piece placement): pawn on rank %d", r+1)
			}
			p.put(r*8+file, pc)
			file++
		}
		if file != 8 {
			return p, fmt.Errorf("rules: FEN field 1 (piece placement): rank %d %q has %d squares, want 8", r+1, rs, file)
		}
	}
	for _, c := range []chess.Color{chess.White, chess.Black} {
		if n := bits.OnesCount64(p.pieces[makePiece(chess.King, c)]); n != 1 {
			return p, fmt.Errorf("rules: FEN field 1 (piece placement): %d %s kings, want exactly 1", n, strings.ToLower(c.Name()))
		}
	}
	switch f[1] {
	case "w":
		p.turn = chess.White
	case "b":
		p.turn = chess.Black
	default:
		return p, fmt.Errorf("rules: FEN field 2 (side to move) is %q, want w or b", f[1])
	}
	if p.attacked(int(p.king[p.turn.Other()]), p.turn) {
		return p, fmt.Errorf("rules: FEN field 2 (side to move): %s is to move but %s is in check", p.turn.Name(), p.turn.Other().Name())
	}
	if f[2] != "-" {
		for _, c := range f[2] {
			var right uint8
			var k, r chess.Piece
			var ks, rs chess.Square
			switch c {
			case 'K':
				right, k, r, ks, rs = castleWK, chess.WhiteKing, chess.WhiteRook, chess.E1, chess.H1
			case 'Q':
				right, k, r, ks, rs = castleWQ, chess.WhiteKing, chess.WhiteRook, chess.E1, chess.A1
			case 'k':
				right, k, r, ks, rs = castleBK, chess.BlackKing, chess.BlackRook, chess.E8, chess.H8
			case 'q':
				right, k, r, ks, rs = castleBQ, chess.BlackKing, chess.BlackRook, chess.E8, chess.A8
			default:
				return p, fmt.Errorf("rules: FEN field 3 (castling) %q: %q is not one of KQkq", f[2], c)
			}
			if p.castle&right != 0 {
				return p, fmt.Errorf("rules: FEN field 3 (castling) %q repeats %q", f[2], c)
			}
			if p.sq[ks] != k || p.sq[rs] != r {
				return p, fmt.Errorf("rules: FEN field 3 (castling) %q: right %q needs the king on %s and a rook on %s", f[2], c, ks, rs)
			}
			p.castle |= right
		}
	}
	if f[3] != "-" {
		sq, ok := squareByName(f[3])
		wantRank := 5 // rank 6, index 5: White to move after a black double push
		pawnDir := -8
		if p.turn == chess.Black {
			wantRank, pawnDir = 2, 8
		}
		if !ok || sq/8 != wantRank {
			return p, fmt.Errorf("rules: FEN field 4 (en passant) %q is not a square on rank %d", f[3], wantRank+1)
		}
		them := p.turn.Other()
		if p.sq[sq+pawnDir] != makePiece(chess.Pawn, them) || p.sq[sq] != chess.NoPiece || p.sq[sq-pawnDir] != chess.NoPiece {
			return p, fmt.Errorf("rules: FEN field 4 (en passant) %q: no %s pawn can just have pushed two squares past it", f[3], strings.ToLower(them.Name()))
		}
		p.ep = int8(sq)
	}
	p.full = 1
	if len(f) == 6 {
		h, err := strconv.Atoi(f[4])
		if err != nil || h < 0 {
			return p, fmt.Errorf("rules: FEN field 5 (halfmove clock) %q is not a non-negative number", f[4])
		}
		n, err := strconv.Atoi(f[5])
		if err != nil || n < 1 {
			return p, fmt.Errorf("rules: FEN field 6 (fullmove number) %q is not a positive number", f[5])
		}
		p.half, p.full = h, n
	}
	return p, nil
}

var fenPieces = map[rune]chess.Piece{
	'K': chess.WhiteKing, 'Q': chess.WhiteQueen, 'R': chess.WhiteRook, 'B': chess.WhiteBishop, 'N': chess.WhiteKnight, 'P': chess.WhitePawn,
	'k': chess.BlackKing, 'q': chess.BlackQueen, 'r': chess.BlackRook, 'b': chess.BlackBishop, 'n': chess.BlackKnight, 'p': chess.BlackPawn,
}

const fenLetters = " KQRBNPkqrbnp"

func squareByName(s string) (int, bool) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		return 0, false
	}
	return int(s[1]-'1')*8 + int(s[0]-'a'), true
}

// fen encodes p as FEN; the en-passant square is written after every double
// push, as notnil/chess does, so FEN() and Position().String() agree.
func (p *position) fen() string {
	var b strings.Builder
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := 0; f < 8; f++ {
			pc := p.sq[r*8+f]
			if pc == chess.NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteByte(fenLetters[pc])
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	b.WriteString(" " + p.turn.String() + " ")
	cr := ""
	for i, c := range "KQkq" {
		if p.castle&(1<<uint(i)) != 0 {
			cr += string(c)
		}
	}
	if cr == "" {
		cr = "-"
	}
	b.WriteString(cr + " ")
	if p.ep >= 0 {
		b.WriteString(chess.Square(p.ep).String())
	} else {
		b.WriteString("-")
	}
	fmt.Fprintf(&b, " %d %d", p.half, p.full)
	return b.String()
}
