package rules

import (
	"errors"
	"fmt"
	"strconv"
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

const fenPieceLetters = "KQRBNPkqrbnp"

// parseFEN reads a FEN record. Errors name the field and what is wrong with
// it; the checks run in the order of the fields, so the first fault is the
// one reported.
func parseFEN(fen string) (position, error) {
	f := strings.Fields(fen)
	if len(f) != 6 && len(f) != 4 {
		return position{}, fmt.Errorf("rules: FEN %q has %d fields, want 6 (placement, side to move, castling, en passant, halfmove clock, fullmove number)", fen, len(f))
	}
	ranks := strings.Split(f[0], "/")
	if len(ranks) != 8 {
		return position{}, fmt.Errorf("rules: FEN field 1 (piece placement) %q has %d ranks, want 8", f[0], len(ranks))
	}
	var kings [2]int // white, black
	for i, rs := range ranks {
		r := 7 - i
		file := 0
		for _, c := range rs {
			if c >= '1' && c <= '8' {
				file += int(c - '0')
				continue
			}
			if !strings.ContainsRune(fenPieceLetters, c) {
				return position{}, fmt.Errorf("rules: FEN field 1 (piece placement): rank %d has %q, not a piece letter or digit", r+1, c)
			}
			if file >= 8 {
				return position{}, fmt.Errorf("rules: FEN field 1 (piece placement): rank %d %q has more than 8 squares", r+1, rs)
			}
			switch c {
			case 'P', 'p':
				if r == 0 || r == 7 {
					return position{}, fmt.Errorf("rules: FEN field 1 (piece placement): pawn on rank %d", r+1)
				}
			case 'K':
				kings[0]++
			case 'k':
				kings[1]++
			}
			file++
		}
		if file != 8 {
			return position{}, fmt.Errorf("rules: FEN field 1 (piece placement): rank %d %q has %d squares, want 8", r+1, rs, file)
		}
	}
	for c, n := range kings {
		if n != 1 {
			return position{}, fmt.Errorf("rules: FEN field 1 (piece placement): %d %s kings, want exactly 1", n, bitboard.Color(c))
		}
	}
	names := [2]string{"White", "Black"}
	var us bitboard.Color
	switch f[1] {
	case "w":
		us = bitboard.White
	case "b":
		us = bitboard.Black
	default:
		return position{}, fmt.Errorf("rules: FEN field 2 (side to move) is %q, want w or b", f[1])
	}
	// Placement and side to move are sound so far; bitboard reads them and
	// refuses a position whose side not to move is in check.
	placed, err := bitboard.ParseFEN(f[0] + " " + f[1])
	if err != nil {
		var fe *bitboard.FENError
		if errors.As(err, &fe) && fe.Field == "side to move" {
			return position{}, fmt.Errorf("rules: FEN field 2 (side to move): %s is to move but %s is in check", names[us], names[us.Other()])
		}
		return position{}, fmt.Errorf("rules: FEN %q: %w", fen, err)
	}
	if f[2] != "-" {
		var rights uint8
		for _, c := range f[2] {
			var right uint8
			var side bitboard.Color
			var ks, rs bitboard.Square
			switch c {
			case 'K':
				right, side, ks, rs = bitboard.WhiteKingside, bitboard.White, 4, 7
			case 'Q':
				right, side, ks, rs = bitboard.WhiteQueenside, bitboard.White, 4, 0
			case 'k':
				right, side, ks, rs = bitboard.BlackKingside, bitboard.Black, 60, 63
			case 'q':
				right, side, ks, rs = bitboard.BlackQueenside, bitboard.Black, 60, 56
			default:
				return position{}, fmt.Errorf("rules: FEN field 3 (castling) %q: %q is not one of KQkq", f[2], c)
			}
			if rights&right != 0 {
				return position{}, fmt.Errorf("rules: FEN field 3 (castling) %q repeats %q", f[2], c)
			}
			if placed.PieceAt(ks) != bitboard.MakePiece(side, bitboard.King) || placed.PieceAt(rs) != bitboard.MakePiece(side, bitboard.Rook) {
				return position{}, fmt.Errorf("rules: FEN field 3 (castling) %q: right %q needs the king on %s and a rook on %s", f[2], c, ks, rs)
			}
			rights |= right
		}
	}
	if f[3] != "-" {
		sq, err := bitboard.ParseSquare(f[3])
		wantRank := 5 // rank 6, index 5: White to move after a black double push
		pawnDir := bitboard.Square(-8)
		if us == bitboard.Black {
			wantRank, pawnDir = 2, 8
		}
		if err != nil || sq.Rank() != wantRank {
			return position{}, fmt.Errorf("rules: FEN field 4 (en passant) %q is not a square on rank %d", f[3], wantRank+1)
		}
		them := us.Other()
		if placed.PieceAt(sq+pawnDir) != bitboard.MakePiece(them, bitboard.Pawn) || placed.PieceAt(sq) != bitboard.NoPiece || placed.PieceAt(sq-pawnDir) != bitboard.NoPiece {
			return position{}, fmt.Errorf("rules: FEN field 4 (en passant) %q: no %s pawn can just have pushed two squares past it", f[3], them)
		}
	}
	if len(f) == 6 {
		if h, err := strconv.Atoi(f[4]); err != nil || h < 0 {
			return position{}, fmt.Errorf("rules: FEN field 5 (halfmove clock) %q is not a non-negative number", f[4])
		}
		if n, err := strconv.Atoi(f[5]); err != nil || n < 1 {
			return position{}, fmt.Errorf("rules: FEN field 6 (fullmove number) %q is not a positive number", f[5])
		}
	}
	// Every field has been checked as bitboard checks it.
	p, err := bitboard.ParseFEN(fen)
	if err != nil {
		return position{}, fmt.Errorf("rules: FEN %q: %w", fen, err)
	}
	return position{p}, nil
}
