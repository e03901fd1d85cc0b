package rules

import (
	"errors"
	"strings"

	"github.com/arbiterd/arbiterd/rules/bitboard"
	"github.com/notnil/chess"
)

// position is a position of the record: a bitboard.Position, arbiterd's
// perft-exact position and legal move generator (shared with the 6.9
// analyzer). It is a plain value, so a copy is a snapshot. notnil/chess
// positions are built from it only when a caller asks for one.
type position struct {
	bitboard.Position
}

// move is the record's form of a move: the generator's move plus what the
// notnil tags and SAN need, as facts about the move in the position it was
// generated for.
type move struct {
	bm       bitboard.Move // what bitboard.Position.Make plays
	from, to int8
	promo    chess.PieceType
	flags    uint8
	ord      uint32 // rank among the moves of its position in the record's order (see appendLegal)
}

const (
	flagCapture uint8 = 1 << iota // en passant included
	flagEnPassant
	flagCastleK
	flagCastleQ
	flagCheck // set only by genLegal and the search, which test whether the move gives check
)

func (m move) uci() string {
	s := chess.Square(m.from).String() + chess.Square(m.to).String()
	if m.promo != chess.NoPieceType {
		s += m.promo.String()
	}
	return s
}

// Conversions between notnil's encoding (the outside format) and bitboard's.
var (
	bbType = [...]bitboard.PieceType{
		chess.NoPieceType: bitboard.NoPieceType, chess.King: bitboard.King, chess.Queen: bitboard.Queen,
		chess.Rook: bitboard.Rook, chess.Bishop: bitboard.Bishop, chess.Knight: bitboard.Knight, chess.Pawn: bitboard.Pawn,
	}
	chessType = [...]chess.PieceType{
		bitboard.Pawn: chess.Pawn, bitboard.Knight: chess.Knight, bitboard.Bishop: chess.Bishop,
		bitboard.Rook: chess.Rook, bitboard.Queen: chess.Queen, bitboard.King: chess.King,
		bitboard.NoPieceType: chess.NoPieceType,
	}
	bbColor = [...]bitboard.Color{chess.White: bitboard.White, chess.Black: bitboard.Black}
	// chessPieceOf maps every bitboard.Piece value to the notnil piece
	// (chess.NoPiece for an empty square).
	chessPieceOf = func() (t [256]chess.Piece) {
		for c, cc := range [2]chess.Color{chess.White, chess.Black} {
			for pt := bitboard.Pawn; pt < bitboard.NoPieceType; pt++ {
				t[bitboard.MakePiece(bitboard.Color(c), pt)] = makePiece(chessType[pt], cc)
			}
		}
		return t
	}()
)

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

// piece returns the notnil piece on sq (chess.NoPiece when it is empty).
func (p *position) piece(sq int) chess.Piece {
	return chessPieceOf[p.PieceAt(bitboard.Square(sq))]
}

// apply plays m, which must be legal, on p.
func (p *position) apply(m move) { p.Make(m.bm) }

// fenFields are the codes of a FEN record's fields as errors number them.
var fenFields = map[string]string{
	"placement":       "rules.fen.field.placement",
	"side to move":    "rules.fen.field.side",
	"castling":        "rules.fen.field.castling",
	"en passant":      "rules.fen.field.ep",
	"halfmove clock":  "rules.fen.field.halfmove",
	"fullmove number": "rules.fen.field.fullmove",
}

// parseFEN reads a FEN record with the bitboard codec, which checks the
// fields in order, so the first fault is the one reported; errors (a
// *FENError) name the field by its number and what is wrong with it. The
// record has its six fields, or four without the move counters.
func parseFEN(fen string) (position, error) {
	if n := len(strings.Fields(fen)); n != 6 && n != 4 {
		return position{}, &FENError{Why: Text{"rules.fen.count", []any{fen, n}}}
	}
	p, err := bitboard.ParseFEN(fen)
	if err != nil {
		var fe *bitboard.FENError
		if errors.As(err, &fe) && fenFields[fe.Field] != "" {
			return position{}, &FENError{Why: Text{"rules.fen.field", []any{fen, Text{Code: fenFields[fe.Field]}, fe.Why}}}
		}
		return position{}, &FENError{Why: Text{"rules.fen", []any{fen, err}}, Err: err}
	}
	return position{p}, nil
}
