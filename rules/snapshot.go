package rules

import "github.com/notnil/chess"

// Snapshot is what a board reports: a piece per square, in the board's own frame.
type Snapshot struct {
	Squares       [64]chess.Piece
	Unknown       uint64
	OccupancyOnly bool
}

func SnapshotOf(p *chess.Position) Snapshot {
	var s Snapshot
	b := p.Board()
	for i := 0; i < 64; i++ {
		s.Squares[i] = b.Piece(chess.Square(i))
	}
	return s
}

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

type Orientation int

const (
	WhiteBottom Orientation = iota
	BlackBottom
)

func (o Orientation) String() string {
	if o == BlackBottom {
		return "black-bottom"
	}
	return "white-bottom"
}

func (s Snapshot) matches(t Snapshot) bool {
	if s.Unknown != 0 {
		return false
	}
	for i := range s.Squares {
		if s.OccupancyOnly || t.OccupancyOnly {
			if (s.Squares[i] != chess.NoPiece) != (t.Squares[i] != chess.NoPiece) {
				return false
			}
		} else if s.Squares[i] != t.Squares[i] {
			return false
		}
	}
	return true
}

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
