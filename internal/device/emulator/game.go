package emulator

import (
	"strings"
	"unicode"

	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/notnil/chess"
)

// ply is one move of the game to play with the positions around it.
type ply struct {
	move   *chess.Move
	before *chess.Position
	after  *chess.Position
	san    string
}

// parseGame reads the start position and the moves (SAN or UCI) into plies.
func parseGame(startFEN string, moves []string) (*chess.Position, []ply, error) {
	pos := chess.StartingPosition()
	if startFEN != "" {
		opt, err := chess.FEN(startFEN)
		if err != nil {
			return nil, nil, i18n.Errorf("emulator.start-fen", startFEN, err)
		}
		pos = chess.NewGame(opt).Position()
	}
	start := pos
	plies := make([]ply, 0, len(moves))
	for i, tok := range moves {
		m, err := decodeMove(pos, tok)
		if err != nil {
			return nil, nil, i18n.Errorf("emulator.ply", i+1, tok, err)
		}
		san := chess.AlgebraicNotation{}.Encode(pos, m)
		next := pos.Update(m)
		plies = append(plies, ply{move: m, before: pos, after: next, san: san})
		pos = next
	}
	return start, plies, nil
}

// decodeMove accepts SAN ("Nf3", "exd5", "O-O", "e8=Q+") or UCI ("g1f3",
// "e7e8q") and checks legality in pos.
func decodeMove(pos *chess.Position, tok string) (*chess.Move, error) {
	s := strings.TrimRight(tok, "!?")
	s = strings.ReplaceAll(s, "0-0-0", "O-O-O")
	s = strings.ReplaceAll(s, "0-0", "O-O")
	if s == "" {
		return nil, i18n.Errorf("emulator.move.empty")
	}
	if m, err := (chess.AlgebraicNotation{}).Decode(pos, s); err == nil {
		return legal(pos, m)
	}
	if m, err := (chess.UCINotation{}).Decode(pos, s); err == nil {
		return legal(pos, m)
	}
	return nil, i18n.Errorf("emulator.move.illegal", pos.String())
}

// legal returns the position's own copy of m (with its tags) or an error.
func legal(pos *chess.Position, m *chess.Move) (*chess.Move, error) {
	for _, v := range pos.ValidMoves() {
		if v.S1() == m.S1() && v.S2() == m.S2() && v.Promo() == m.Promo() {
			return v, nil
		}
	}
	return nil, i18n.Errorf("emulator.move.illegal", pos.String())
}

// pgnMoves extracts the move tokens of the first game of a PGN text,
// skipping tag pairs, comments, variations, NAGs, move numbers and the
// result. It returns the FEN tag when the game sets one up.
func pgnMoves(text string) (moves []string, fen string, err error) {
	depth := 0 // variation nesting
	line := 1
	inMoves := false
	i := 0
	for i < len(text) {
		c := text[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == '[' && depth == 0:
			end := strings.IndexByte(text[i:], ']')
			if end < 0 {
				return nil, "", i18n.Errorf("emulator.pgn.tag", line)
			}
			if inMoves {
				return moves, fen, nil // the next game begins
			}
			tag := text[i+1 : i+end]
			if name, val, ok := strings.Cut(tag, " "); ok && name == "FEN" {
				fen = strings.Trim(strings.TrimSpace(val), `"`)
			}
			i += end + 1
		case c == '{':
			end := strings.IndexByte(text[i:], '}')
			if end < 0 {
				return nil, "", i18n.Errorf("emulator.pgn.comment", line)
			}
			line += strings.Count(text[i:i+end], "\n")
			i += end + 1
		case c == ';':
			end := strings.IndexByte(text[i:], '\n')
			if end < 0 {
				end = len(text) - i
			}
			i += end
		case c == '(':
			depth++
			i++
		case c == ')':
			if depth == 0 {
				return nil, "", i18n.Errorf("emulator.pgn.paren", line)
			}
			depth--
			i++
		case unicode.IsSpace(rune(c)):
			i++
		default:
			j := i
			for j < len(text) && !strings.ContainsRune(" \t\r\n{}();[", rune(text[j])) {
				j++
			}
			if j == i {
				return nil, "", i18n.Errorf("emulator.pgn.unexpected", line, c)
			}
			tok := text[i:j]
			i = j
			if depth > 0 {
				continue
			}
			inMoves = true
			san, result := sanOf(tok)
			if result {
				return moves, fen, nil
			}
			if san != "" {
				moves = append(moves, san)
			}
		}
	}
	if depth != 0 {
		return nil, "", i18n.Errorf("emulator.pgn.variation")
	}
	return moves, fen, nil
}

// sanOf is the move a movetext token holds, without a move number glued
// to it ("12." or "12...") or a "!" or "?"; it is "" for a NAG or a bare
// number. result says the token is the game's result.
func sanOf(tok string) (san string, result bool) {
	switch {
	case tok == "1-0" || tok == "0-1" || tok == "1/2-1/2" || tok == "*":
		return "", true
	case tok[0] == '$':
		return "", false
	}
	k := 0
	for k < len(tok) && tok[k] >= '0' && tok[k] <= '9' {
		k++
	}
	if k < len(tok) && tok[k] == '.' {
		tok = strings.TrimLeft(tok[k:], ".")
	} else if k == len(tok) {
		return "", false // a bare number
	}
	return strings.TrimRight(tok, "!?"), false
}

// field maps a square to the board's own field number (0 = a8 … 63 = h1
// with White at the bottom); a reversed board (Black at the bottom) turns
// the numbering round.
func field(sq chess.Square, reversed bool) int {
	f := (7-int(sq.Rank()))*8 + int(sq.File())
	if reversed {
		f = 63 - f
	}
	return f
}

// pieceCode is the DGT code of a piece: 0 empty, 1–6 white P R N B K Q,
// 7–12 black p r n b k q.
func pieceCode(p chess.Piece) byte {
	c, ok := whiteCodes[p.Type()]
	if !ok {
		return 0
	}
	if p.Color() == chess.Black {
		c += 6
	}
	return c
}

// whiteCodes are the DGT codes of the white pieces; a black piece's is six
// more.
var whiteCodes = map[chess.PieceType]byte{
	chess.Pawn: 1, chess.Rook: 2, chess.Knight: 3, chess.Bishop: 4, chess.King: 5, chess.Queen: 6,
}
