package rules

import (
	"fmt"
	"strings"

	"github.com/arbiterd/arbiterd/rules/bitboard"
	"github.com/notnil/chess"
)

const sanLetters = " KQRBNP" // by chess.PieceType; pawns get no letter

var promoTypes = [4]chess.PieceType{chess.Queen, chess.Rook, chess.Bishop, chess.Knight}

// sanOf returns the Standard Algebraic Notation of m, legal in p.
func sanOf(p *position, m move) string {
	var b strings.Builder
	switch {
	case m.flags&flagCastleK != 0:
		b.WriteString("O-O")
	case m.flags&flagCastleQ != 0:
		b.WriteString("O-O-O")
	default:
		pt := pieceType(p.piece(int(m.from)))
		if pt == chess.Pawn {
			if m.flags&flagCapture != 0 {
				b.WriteByte(chess.Square(m.from).String()[0])
			}
		} else {
			b.WriteByte(sanLetters[pt])
			b.WriteString(disambiguation(p, m, pt))
		}
		if m.flags&flagCapture != 0 {
			b.WriteByte('x')
		}
		b.WriteString(chess.Square(m.to).String())
		if m.promo != chess.NoPieceType {
			b.WriteByte('=')
			b.WriteByte(sanLetters[m.promo])
		}
	}
	if m.flags&flagCheck != 0 {
		c := *p
		c.apply(m)
		if c.HasLegalMove() {
			b.WriteByte('+')
		} else {
			b.WriteByte('#')
		}
	}
	return b.String()
}

// disambiguation returns the file, rank or square of m's origin when another
// piece of the same kind could also legally go to m's destination.
func disambiguation(p *position, m move, pt chess.PieceType) string {
	sameFile, sameRank, other := false, false, false
	mask := p.Pieces(p.Side(), bbType[pt]) &^ (1 << uint(m.from))
	if mask == 0 {
		return ""
	}
	var ml bitboard.MoveList
	for _, o := range p.appendLegal(nil, &ml, mask, 1<<uint(m.to)) {
		other = true
		sameFile = sameFile || o.from%8 == m.from%8
		sameRank = sameRank || o.from/8 == m.from/8
	}
	from := chess.Square(m.from).String()
	switch {
	case !other:
		return ""
	case !sameFile:
		return from[:1]
	case !sameRank:
		return from[1:]
	}
	return from
}

// parseSAN finds the legal move (among legal, the moves of p) that s names.
// It accepts what real score sheets and PGN files contain: check and
// annotation marks, "0-0" for "O-O", promotion with or without "=", surplus
// disambiguation, long forms such as "Ng1-f3", and a trailing "e.p.".
func parseSAN(p *position, legal []move, s string) (move, error) {
	bad := func(why string) (move, error) {
		return move{}, fmt.Errorf("%w: %q in %s: %s", ErrIllegalMove, s, p.FEN(), why)
	}
	sm, why := readSAN(s)
	if why != "" {
		return bad(why)
	}
	if sm.castle != 0 {
		for _, m := range legal {
			if m.flags&sm.castle != 0 {
				return m, nil
			}
		}
		return bad("castling is not legal here")
	}
	var found []move
	for _, m := range legal {
		if sm.names(p, m) {
			found = append(found, m)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return bad("no legal move matches")
	}
	names := make([]string, len(found))
	for i, m := range found {
		names[i] = m.uci()
	}
	return bad("ambiguous between " + strings.Join(names, ", "))
}

// sanMove is what a move in SAN says: castling (castle), or the piece that
// moves, where to, the promotion, and the file and rank it comes from when
// they are given (-1 when not).
type sanMove struct {
	castle             uint8
	piece, promo       chess.PieceType
	to                 bitboard.Square
	fromFile, fromRank int
}

// readSAN reads a move in SAN (check marks, annotations and "e.p." are
// ignored; 0-0 is O-O); why says what is wrong when it cannot.
func readSAN(s string) (sm sanMove, why string) {
	s = strings.TrimSpace(s)
	s = strings.TrimSuffix(s, "e.p.")
	s = strings.TrimRight(s, "+#!? ")
	if s == "" {
		return sm, "empty move"
	}
	switch strings.ReplaceAll(s, "0", "O") {
	case "O-O":
		sm.castle = flagCastleK
		return sm, ""
	case "O-O-O":
		sm.castle = flagCastleQ
		return sm, ""
	}
	sm.piece, sm.promo = chess.Pawn, chess.NoPieceType
	if i := strings.IndexByte("KQRBN", s[0]); i >= 0 {
		sm.piece = chess.PieceType(i + 1)
		s = s[1:]
	}
	if n := len(s); n > 0 {
		if i := strings.IndexByte("QRBN", s[n-1]); i >= 0 {
			sm.promo = promoTypes[i]
			s = strings.TrimSuffix(s[:n-1], "=")
		}
	}
	if len(s) < 2 {
		return sm, "no destination square"
	}
	to, err := bitboard.ParseSquare(s[len(s)-2:])
	if err != nil {
		return sm, "no destination square"
	}
	sm.to, sm.fromFile, sm.fromRank = to, -1, -1
	for _, c := range s[:len(s)-2] {
		switch {
		case c == 'x' || c == ':' || c == '-':
		case c >= 'a' && c <= 'h':
			sm.fromFile = int(c - 'a')
		case c >= '1' && c <= '8':
			sm.fromRank = int(c - '1')
		default:
			return sm, fmt.Sprintf("unexpected %q", c)
		}
	}
	return sm, ""
}

// names reports whether m, legal in p, is the move sm says (not castling).
func (sm sanMove) names(p *position, m move) bool {
	return bitboard.Square(m.to) == sm.to && pieceType(p.piece(int(m.from))) == sm.piece && m.promo == sm.promo &&
		m.flags&(flagCastleK|flagCastleQ) == 0 &&
		(sm.fromFile < 0 || int(m.from)%8 == sm.fromFile) && (sm.fromRank < 0 || int(m.from)/8 == sm.fromRank)
}
