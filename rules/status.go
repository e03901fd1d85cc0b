package rules

import (
	"math/bits"

	"github.com/arbiterd/arbiterd/rules/bitboard"
	"github.com/notnil/chess"
)

// repKey identifies a position for repetition under Law 9.2.3: the same side
// to move, the same pieces on the same squares, the same castling rights, and
// an en-passant square only when an en-passant capture is actually legal. A
// pawn that has just advanced two squares with no enemy pawn able to take it
// (or only a pinned one) does not make the position different, unlike in
// notnil/chess, which compares the raw en-passant square.
type repKey struct {
	board   [32]byte // two squares per byte, a chess.Piece per nibble
	flags   uint8    // castling rights, and the side to move in bit 4
	passant int8     // square of a legal en-passant capture, or -1
}

// keyOf builds the key of p.
func keyOf(p *position) repKey {
	var k repKey
	for i := 0; i < 32; i++ {
		k.board[i] = byte(p.piece(2*i)) | byte(p.piece(2*i+1))<<4
	}
	k.flags = p.Castling()
	if p.Side() == bitboard.Black {
		k.flags |= 1 << 4
	}
	k.passant = -1
	if p.EnPassantLegal() {
		k.passant = int8(p.EnPassant())
	}
	return k
}

func (g *Game) deriveStatus() Status {
	p := &g.positions[g.Ply()]
	if len(g.legal) == 0 {
		if p.InCheck() {
			res := "1-0"
			if p.Side() == bitboard.White {
				res = "0-1"
			}
			return Status{Over: true, Result: res, Reason: "checkmate", Article: "5.1.1"}
		}
		return Status{Over: true, Result: "1/2-1/2", Reason: "stalemate", Article: "5.2.1"}
	}
	reps := g.Repetitions()
	switch {
	case reps >= 5:
		return Status{Over: true, Result: "1/2-1/2", Reason: "fivefold-repetition", Article: "9.6.1"}
	case p.HalfmoveClock() >= 150:
		// A mate on the 150th ply was caught above: it wins (9.6.2).
		return Status{Over: true, Result: "1/2-1/2", Reason: "seventy-five-moves", Article: "9.6.2"}
	case deadByMaterial(p):
		return Status{Over: true, Result: "1/2-1/2", Reason: "dead-position", Article: "5.2.2"}
	}
	st := Status{Result: "*"}
	if reps >= 3 {
		st.Claimable = append(st.Claimable, "threefold-repetition")
	}
	if p.HalfmoveClock() >= 100 {
		st.Claimable = append(st.Claimable, "fifty-moves")
	}
	return st
}

const (
	lightSquares uint64 = 0x55AA55AA55AA55AA
	darkSquares         = ^lightSquares
)

// deadByMaterial reports the dead positions that simple material makes
// certain: king against king, king and one minor piece against king, and
// kings with bishops only, all standing on squares of one colour. Anything
// subtler is left to the 6.9 / 5.2.2 analyzer (rules/unwinnable).
func deadByMaterial(p *position) bool {
	both := func(pt bitboard.PieceType) uint64 {
		return p.Pieces(bitboard.White, pt) | p.Pieces(bitboard.Black, pt)
	}
	if both(bitboard.Queen)|both(bitboard.Rook)|both(bitboard.Pawn) != 0 {
		return false
	}
	knights, bishops := both(bitboard.Knight), both(bitboard.Bishop)
	if knights != 0 {
		return bits.OnesCount64(knights) == 1 && bishops == 0
	}
	return bishops&lightSquares == 0 || bishops&darkSquares == 0
}

// chessPosition builds the notnil position equal to p.
func chessPosition(p *position) *chess.Position {
	cp := &chess.Position{}
	if err := cp.UnmarshalText([]byte(p.FEN())); err != nil {
		// p is a position parseFEN accepted, or one legal moves reached from
		// it; notnil reads the FEN of every such position.
		panic("rules: notnil/chess rejected an internal FEN: " + err.Error())
	}
	return cp
}
