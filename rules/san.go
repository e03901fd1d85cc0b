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
	orig := s
	s = strings.TrimSpace(s)
	s = strings.TrimSuffix(s, "e.p.")
	s = strings.TrimRight(s, "+#!? ")
	bad := func(why string) (move, error) {
		return move{}, fmt.Errorf("%w: %q in %s: %s", ErrIllegalMove, orig, p.FEN(), why)
	}
	if s == "" {
		return bad("empty move")
	}
	var castle uint8
	switch strings.ReplaceAll(s, "0", "O") {
	case "O-O":
		castle = flagCastleK
	case "O-O-O":
		castle = flagCastleQ
	}
	if castle != 0 {
		for _, m := range legal {
			if m.flags&castle != 0 {
				return m, nil
			}
		}
		return bad("castling is not legal here")
	}
	pt := chess.Pawn
	if i := strings.IndexByte("KQRBN", s[0]); i >= 0 {
		pt = chess.PieceType(i + 1)
		s = s[1:]
	}
	promo := chess.NoPieceType
	if n := len(s); n > 0 {
		if i := strings.IndexByte("QRBN", s[n-1]); i >= 0 {
			promo = promoTypes[i]
			s = strings.TrimSuffix(s[:n-1], "=")
		}
	}
	if len(s) < 2 {
		return bad("no destination square")
	}
	to, err := bitboard.ParseSquare(s[len(s)-2:])
	if err != nil {
		return bad("no destination square")
	}
	fromFile, fromRank := -1, -1
	for _, c := range s[:len(s)-2] {
		switch {
		case c == 'x' || c == ':' || c == '-':
		case c >= 'a' && c <= 'h':
			fromFile = int(c - 'a')
		case c >= '1' && c <= '8':
			fromRank = int(c - '1')
		default:
			return bad(fmt.Sprintf("unexpected %q", c))
		}
	}
	var found []move
	for _, m := range legal {
		if bitboard.Square(m.to) != to || pieceType(p.piece(int(m.from))) != pt || m.promo != promo ||
			m.flags&(flagCastleK|flagCastleQ) != 0 ||
			(fromFile >= 0 && int(m.from)%8 != fromFile) || (fromRank >= 0 && int(m.from)/8 != fromRank) {
			continue
		}
		found = append(found, m)
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
