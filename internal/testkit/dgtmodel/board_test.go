package dgtmodel_test

import (
	"math/rand/v2"

	"github.com/notnil/chess"
)

// op is one physical act on the board: a piece set down on a square, or
// the square emptied (piece NoPiece: a piece lifted).
type op struct {
	sq    chess.Square
	piece chess.Piece
}

// howMove says how a player's hand makes a move.
type howMove struct {
	slide       bool // a slider is set down on a square of its path first
	victimFirst bool // a capture: the captured piece is lifted before the capturing one
	rookFirst   bool // castling: the rook is moved before the king
}

// moveOps returns the physical acts that make m in pos.
func moveOps(rng *rand.Rand, pos *chess.Position, m *chess.Move, how howMove) []op {
	b := pos.Board()
	from, to := m.S1(), m.S2()
	mover := b.Piece(from)
	placed := mover
	if m.Promo() != chess.NoPieceType {
		placed = chess.NewPiece(m.Promo(), mover.Color())
	}
	if m.HasTag(chess.KingSideCastle) || m.HasTag(chess.QueenSideCastle) {
		rank := from.Rank()
		rf, rt := chess.NewSquare(chess.FileH, rank), chess.NewSquare(chess.FileF, rank)
		if m.HasTag(chess.QueenSideCastle) {
			rf, rt = chess.NewSquare(chess.FileA, rank), chess.NewSquare(chess.FileD, rank)
		}
		rook := b.Piece(rf)
		king := []op{{from, chess.NoPiece}, {to, mover}}
		rk := []op{{rf, chess.NoPiece}, {rt, rook}}
		if how.rookFirst {
			return append(rk, king...)
		}
		return append(king, rk...)
	}
	victim := chess.NoSquare
	switch {
	case m.HasTag(chess.EnPassant):
		victim = chess.NewSquare(to.File(), from.Rank())
	case b.Piece(to) != chess.NoPiece:
		victim = to
	}
	if victim != chess.NoSquare {
		if how.victimFirst {
			return []op{{victim, chess.NoPiece}, {from, chess.NoPiece}, {to, placed}}
		}
		return []op{{from, chess.NoPiece}, {victim, chess.NoPiece}, {to, placed}}
	}
	if how.slide && placed == mover {
		if path := between(from, to); len(path) > 0 && isSlider(mover) {
			mid := path[rng.IntN(len(path))]
			return []op{{from, chess.NoPiece}, {mid, mover}, {mid, chess.NoPiece}, {to, mover}}
		}
	}
	return []op{{from, chess.NoPiece}, {to, placed}}
}

func isSlider(p chess.Piece) bool {
	t := p.Type()
	return t == chess.Bishop || t == chess.Rook || t == chess.Queen
}

// between lists the squares strictly between a and b on a rank, file or
// diagonal (nil when they are not on one line).
func between(a, b chess.Square) []chess.Square {
	df := int(b.File()) - int(a.File())
	dr := int(b.Rank()) - int(a.Rank())
	if !(df == 0 || dr == 0 || df == dr || df == -dr) {
		return nil
	}
	sf, sr := sign(df), sign(dr)
	var out []chess.Square
	f, r := int(a.File())+sf, int(a.Rank())+sr
	for f != int(b.File()) || r != int(b.Rank()) {
		out = append(out, chess.NewSquare(chess.File(f), chess.Rank(r)))
		f, r = f+sf, r+sr
	}
	return out
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// board is the DGT board: what stands on it, and what it has reported.
// It scans all fields periodically and reports each field that differs
// from what it last reported, the changes of one scan in any order.
type board struct {
	rotated bool
	phys    [64]byte // by field
	sent    [64]byte // by field
}

func newBoard(pos *chess.Position, rotated bool) *board {
	b := &board{rotated: rotated}
	for sq := chess.A1; sq <= chess.H8; sq++ {
		b.phys[fieldOf(sq, rotated)] = pieceCode(pos.Board().Piece(sq))
	}
	b.sent = b.phys
	return b
}

func (b *board) apply(o op) { b.phys[fieldOf(o.sq, b.rotated)] = pieceCode(o.piece) }

// showsAMoveFrom reports whether the board, as it stands or as it was last
// reported, shows the position after some legal move from pos.
func (b *board) showsAMoveFrom(pos *chess.Position) bool {
	for _, m := range pos.ValidMoves() {
		after := pos.Update(m).Board()
		var want [64]byte
		for sq := chess.A1; sq <= chess.H8; sq++ {
			want[fieldOf(sq, b.rotated)] = pieceCode(after.Piece(sq))
		}
		if want == b.phys || want == b.sent {
			return true
		}
	}
	return false
}

// scan returns the field updates of one scan.
func (b *board) scan(rng *rand.Rand) [][]byte {
	var changed []int
	for f := range 64 {
		if b.phys[f] != b.sent[f] {
			changed = append(changed, f)
		}
	}
	rng.Shuffle(len(changed), func(i, j int) { changed[i], changed[j] = changed[j], changed[i] })
	out := make([][]byte, 0, len(changed))
	for _, f := range changed {
		b.sent[f] = b.phys[f]
		out = append(out, fieldUpdate(f, b.phys[f]))
	}
	return out
}
