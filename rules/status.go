package rules

import (
	"math/bits"

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

// keyOf builds the key of p; legal are p's legal moves.
func keyOf(p *position, legal []move) repKey {
	var k repKey
	for i := 0; i < 32; i++ {
		k.board[i] = byte(p.sq[2*i]) | byte(p.sq[2*i+1])<<4
	}
	k.flags = p.castle
	if p.turn == chess.Black {
		k.flags |= 1 << 4
	}
	k.passant = -1
	if p.ep >= 0 {
		for _, m := range legal {
			if m.flags&flagEnPassant != 0 {
				k.passant = p.ep
				break
			}
		}
	}
	return k
}

func (g *Game) deriveStatus() Status {
	p := &g.positions[g.Ply()]
	if len(g.legal) == 0 {
		if p.inCheck() {
			res := "1-0"
			if p.turn == chess.White {
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
	case p.half >= 150:
		// A mate on the 150th ply was caught above: it wins (9.6.2).
		return Status{Over: true, Result: "1/2-1/2", Reason: "seventy-five-moves", Article: "9.6.2"}
	case deadByMaterial(p):
		return Status{Over: true, Result: "1/2-1/2", Reason: "dead-position", Article: "5.2.2"}
	}
	st := Status{Result: "*"}
	if reps >= 3 {
		st.Claimable = append(st.Claimable, "threefold-repetition")
	}
	if p.half >= 100 {
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
	heavy := p.pieces[chess.WhiteQueen] | p.pieces[chess.BlackQueen] |
		p.pieces[chess.WhiteRook] | p.pieces[chess.BlackRook] |
		p.pieces[chess.WhitePawn] | p.pieces[chess.BlackPawn]
	if heavy != 0 {
		return false
	}
	knights := p.pieces[chess.WhiteKnight] | p.pieces[chess.BlackKnight]
	bishops := p.pieces[chess.WhiteBishop] | p.pieces[chess.BlackBishop]
	if knights != 0 {
		return bits.OnesCount64(knights) == 1 && bishops == 0
	}
	return bishops&lightSquares == 0 || bishops&darkSquares == 0
}

// chessPosition builds the notnil position equal to p.
func chessPosition(p *position) *chess.Position {
	cp := &chess.Position{}
	if err := cp.UnmarshalText([]byte(p.fen())); err != nil {
		// p.fen() is produced from a position parseFEN accepted and legal
		// moves kept legal; notnil reads every such FEN.
		panic("rules: notnil/chess rejected an internal FEN: " + err.Error())
	}
	return cp
}
