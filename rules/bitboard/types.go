package bitboard

import "fmt"

// Color is the side of a piece or the side to move.
type Color uint8

// The two colours.
const (
	White Color = 0
	Black Color = 1
)

// Other returns the opposite colour.
func (c Color) Other() Color { return c ^ 1 }

// String returns "white" or "black".
func (c Color) String() string {
	if c == White {
		return "white"
	}
	return "black"
}

// PieceType is a kind of piece without colour.
type PieceType uint8

// The piece types, in the order used to index Position's piece sets.
const (
	Pawn PieceType = iota
	Knight
	Bishop
	Rook
	Queen
	King
	NoPieceType
)

var pieceLetters = [...]byte{'p', 'n', 'b', 'r', 'q', 'k'}

// String returns the lower-case FEN letter of the piece type.
func (pt PieceType) String() string {
	if pt < NoPieceType {
		return string(pieceLetters[pt])
	}
	return "-"
}

// Piece is a coloured piece: colour<<3 | type. NoPiece marks an empty square.
type Piece uint8

// NoPiece is the content of an empty square.
const NoPiece Piece = 0xff

// MakePiece combines a colour and a type.
func MakePiece(c Color, pt PieceType) Piece { return Piece(c)<<3 | Piece(pt) }

// Color returns the piece's colour.
func (p Piece) Color() Color { return Color(p >> 3) }

// Type returns the piece's type.
func (p Piece) Type() PieceType { return PieceType(p & 7) }

// Square is a board square, a1=0 … h8=63.
type Square int8

// NoSquare marks the absence of a square (no en-passant target).
const NoSquare Square = -1

// File returns 0 (a) … 7 (h).
func (s Square) File() int { return int(s) & 7 }

// Rank returns 0 (rank 1) … 7 (rank 8).
func (s Square) Rank() int { return int(s) >> 3 }

// String returns the algebraic name, such as "e4", or "-" for NoSquare.
func (s Square) String() string {
	if s < 0 || s > 63 {
		return "-"
	}
	return string([]byte{byte('a' + s.File()), byte('1' + s.Rank())})
}

// ParseSquare reads an algebraic square name such as "e4".
func ParseSquare(s string) (Square, error) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		return NoSquare, fmt.Errorf("bitboard: bad square %q", s)
	}
	return Square(int(s[1]-'1')*8 + int(s[0]-'a')), nil
}

// Castling rights bits.
const (
	WhiteKingside  = 1
	WhiteQueenside = 2
	BlackKingside  = 4
	BlackQueenside = 8
)

// Move is a move packed in 32 bits: from (6 bits), to (6 bits), promotion
// piece type (3 bits, 0 when none) and flags.
type Move uint32

// Move flags.
const (
	FlagEnPassant Move = 1 << 15
	FlagCastle    Move = 1 << 16
	FlagDouble    Move = 1 << 17
)

// NewMove builds a plain move (no flags, no promotion).
func NewMove(from, to Square) Move { return Move(from) | Move(to)<<6 }

// From returns the origin square.
func (m Move) From() Square { return Square(m & 63) }

// To returns the destination square.
func (m Move) To() Square { return Square(m >> 6 & 63) }

// Promotion returns the promotion piece type, or NoPieceType.
func (m Move) Promotion() PieceType {
	p := PieceType(m >> 12 & 7)
	if p == 0 {
		return NoPieceType
	}
	return p
}

// IsEnPassant reports an en-passant capture.
func (m Move) IsEnPassant() bool { return m&FlagEnPassant != 0 }

// IsCastle reports castling (encoded as the king's move).
func (m Move) IsCastle() bool { return m&FlagCastle != 0 }

// UCI returns the move in UCI long algebraic form, such as "e7e8q".
// Castling is the king's two-square move ("e1g1").
func (m Move) UCI() string {
	s := m.From().String() + m.To().String()
	if p := m.Promotion(); p != NoPieceType {
		s += p.String()
	}
	return s
}

// String is UCI.
func (m Move) String() string { return m.UCI() }

// MoveList is a fixed-capacity list of moves; 256 exceeds the maximum
// number of legal moves in any chess position (218).
type MoveList struct {
	Moves [256]Move
	N     int
}

func (ml *MoveList) add(m Move) { ml.Moves[ml.N] = m; ml.N++ }

// Slice returns the moves as a slice aliasing the list.
func (ml *MoveList) Slice() []Move { return ml.Moves[:ml.N] }
