package rules

import (
	"unsafe"

	"github.com/notnil/chess"
)

// notnil/chess (v1.10.0, pinned in go.mod) offers no constructor for a move
// with its tags: moves come only from Position.ValidMoves, which generates
// every move of the position (tens of microseconds), or from
// UCINotation.Decode, which formats the whole position into an error message
// it usually throws away and never sets the Check tag. Turning a
// reconstructed sequence into notnil moves that way cost three quarters of
// Reconstruct's time.
//
// So the record builds notnil moves itself, in notnil's own memory layout:
// notnilMove has exactly the fields of chess.Move, in the same order and of
// the same types. The sizes are checked at compile time below, and
// TestNotnilMoveLayout compares every built move field by field with the
// moves notnil generates over thousands of positions, so a notnil upgrade
// that changes the layout fails the build or the tests instead of producing
// wrong moves.
type notnilMove struct {
	s1    chess.Square
	s2    chess.Square
	promo chess.PieceType
	tags  chess.MoveTag
}

// Compile-time check that the two types have the same size.
var (
	_ [unsafe.Sizeof(chess.Move{}) - unsafe.Sizeof(notnilMove{})]byte
	_ [unsafe.Sizeof(notnilMove{}) - unsafe.Sizeof(chess.Move{})]byte
)

// toChessMove returns im as notnil/chess would generate it in its position:
// with the KingSideCastle, QueenSideCastle, Capture, EnPassant and Check tags
// that Position.ValidMoves sets (notnil tags an en-passant capture EnPassant
// but not Capture).
func toChessMove(im move) *chess.Move {
	var tags chess.MoveTag
	switch {
	case im.flags&flagEnPassant != 0:
		tags |= chess.EnPassant
	case im.flags&flagCapture != 0:
		tags |= chess.Capture
	}
	if im.flags&flagCastleK != 0 {
		tags |= chess.KingSideCastle
	}
	if im.flags&flagCastleQ != 0 {
		tags |= chess.QueenSideCastle
	}
	if im.flags&flagCheck != 0 {
		tags |= chess.Check
	}
	m := &notnilMove{s1: chess.Square(im.from), s2: chess.Square(im.to), promo: im.promo, tags: tags}
	return (*chess.Move)(unsafe.Pointer(m))
}

// sameTags reports whether a notnil move carries exactly the tags notnil
// would give im, so that the record can keep the caller's move as it is.
func sameTags(m *chess.Move, im move) bool {
	return m.HasTag(chess.Capture) == (im.flags&flagCapture != 0 && im.flags&flagEnPassant == 0) &&
		m.HasTag(chess.EnPassant) == (im.flags&flagEnPassant != 0) &&
		m.HasTag(chess.KingSideCastle) == (im.flags&flagCastleK != 0) &&
		m.HasTag(chess.QueenSideCastle) == (im.flags&flagCastleQ != 0) &&
		m.HasTag(chess.Check) == (im.flags&flagCheck != 0)
}
