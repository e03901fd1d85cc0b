package rules

import (
	"strings"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/rules/bitboard"
)

// Snapshot is what a board reports at one moment: a piece per square, in the
// board's own frame (rotate it with Rotated when Black sits at the bottom).
type Snapshot struct {
	// Squares holds the piece on each square, indexed by chess.Square (A1=0 … H8=63).
	Squares [64]chess.Piece
	// Unknown has bit i set when square i holds a code the board could not
	// identify (DGT "magic" codes 13–15 or corrupt values).
	Unknown uint64
	// OccupancyOnly marks a board that senses presence only: a square is
	// occupied iff Squares[i] != chess.NoPiece; the piece values mean nothing.
	OccupancyOnly bool
}

// SnapshotOf returns the snapshot a board would report for p.
func SnapshotOf(p *chess.Position) Snapshot {
	var s Snapshot
	b := p.Board()
	for i := 0; i < 64; i++ {
		s.Squares[i] = b.Piece(chess.Square(i))
	}
	return s
}

// Rotated turns the board round: a1 becomes h8, b1 becomes g8, and so on,
// with the unknown marks moving along.
func (s Snapshot) Rotated() Snapshot {
	r := s
	r.Unknown = 0
	for i := 0; i < 64; i++ {
		r.Squares[63-i] = s.Squares[i]
		if s.Unknown&(1<<uint(i)) != 0 {
			r.Unknown |= 1 << uint(63-i)
		}
	}
	return r
}

// Orientation says which edge of the board White sits at.
type Orientation int

const (
	WhiteBottom Orientation = iota // a1 is at the board's own a1 corner
	BlackBottom                    // the board is turned round: its a1 corner holds h8
)

func (o Orientation) String() string {
	if o == BlackBottom {
		return "black-bottom"
	}
	return "white-bottom"
}

// matches reports whether s shows the placement of t (occupancy only when
// either is occupancy-only). A snapshot with unknown codes matches nothing.
func (s Snapshot) matches(t Snapshot) bool {
	if s.Unknown != 0 || t.Unknown != 0 {
		return false
	}
	occ := s.OccupancyOnly || t.OccupancyOnly
	for i := range s.Squares {
		if occ {
			if (s.Squares[i] != chess.NoPiece) != (t.Squares[i] != chess.NoPiece) {
				return false
			}
		} else if s.Squares[i] != t.Squares[i] {
			return false
		}
	}
	return true
}

// DetectOrientation recognises start (nil = the standard starting position)
// in s either way round. It returns false when s shows neither. A position
// that looks the same both ways round (the start position on an
// occupancy-only board) is reported as WhiteBottom, the usual setup.
func DetectOrientation(s Snapshot, start *chess.Position) (Orientation, bool) {
	if start == nil {
		start = chess.StartingPosition()
	}
	want := SnapshotOf(start)
	if s.matches(want) {
		return WhiteBottom, true
	}
	if s.Rotated().matches(want) {
		return BlackBottom, true
	}
	return WhiteBottom, false
}

// FEN writes the FEN of s, a full snapshot, as a position with turn to
// move, the castling rights in castling (a subset of "KQkq"), no
// en-passant square and move number moveNo: the position a record is
// rebuilt from when the board shows what no sequence of moves reaches.
func (s Snapshot) FEN(turn chess.Color, castling string, moveNo int) string {
	var board [64]bitboard.Piece
	for i, pc := range s.Squares {
		board[i] = bitboard.NoPiece
		if pc != chess.NoPiece {
			k := bbKindOf[pc]
			board[i] = bitboard.MakePiece(k.c, k.t)
		}
	}
	var castle uint8
	for i, ch := range "KQkq" {
		if strings.ContainsRune(castling, ch) {
			castle |= 1 << uint(i)
		}
	}
	return bitboard.PlacementFEN(&board, bbColor[turn], castle, moveNo)
}
