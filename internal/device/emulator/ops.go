package emulator

import (
	"math/rand"
	"time"

	"github.com/notnil/chess"
)

// physOp is a physical change of one square: a piece lifted (piece ==
// chess.NoPiece) or placed. at is relative to the start of the sequence.
type physOp struct {
	at    time.Duration
	sq    chess.Square
	piece chess.Piece
}

// opBuilder lays physical ops out in time with human-looking gaps.
type opBuilder struct {
	rng   *rand.Rand
	board [64]chess.Piece
	t     time.Duration
	ops   []physOp
	// gapMin, gapMax bound the pause between two hand actions.
	gapMin, gapMax time.Duration
}

func newOpBuilder(rng *rand.Rand, pos *chess.Position) *opBuilder {
	b := &opBuilder{rng: rng, gapMin: 80 * time.Millisecond, gapMax: 350 * time.Millisecond}
	for sq, p := range pos.Board().SquareMap() {
		b.board[sq] = p
	}
	return b
}

func (b *opBuilder) gap() {
	b.t += b.gapMin + time.Duration(b.rng.Int63n(int64(b.gapMax-b.gapMin)+1))
}

func (b *opBuilder) lift(sq chess.Square) {
	if b.board[sq] == chess.NoPiece {
		return
	}
	b.gap()
	b.board[sq] = chess.NoPiece
	b.ops = append(b.ops, physOp{at: b.t, sq: sq})
}

func (b *opBuilder) place(sq chess.Square, p chess.Piece) {
	b.gap()
	b.board[sq] = p
	b.ops = append(b.ops, physOp{at: b.t, sq: sq, piece: p})
}

func (b *opBuilder) chance(pct int) bool { return b.rng.Intn(100) < pct }

// between lists the squares strictly between a and b on a rank, file or
// diagonal (nil when they are not on one line).
func between(a, b chess.Square) []chess.Square {
	df := int(b.File()) - int(a.File())
	dr := int(b.Rank()) - int(a.Rank())
	if df != 0 && dr != 0 && abs(df) != abs(dr) {
		return nil
	}
	sf, sr := sign(df), sign(dr)
	var out []chess.Square
	f, r := int(a.File())+sf, int(a.Rank())+sr
	for f != int(b.File()) || r != int(b.Rank()) {
		out = append(out, chess.Square(r*8+f))
		f += sf
		r += sr
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
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

// carry moves the piece on from to to, already lifted or not: it may slide
// over the empty squares in between (seen by the board if it dwells long
// enough), and may "straddle" (appear on the next square before it leaves
// the last one).
func (b *opBuilder) carry(from, to chess.Square, p chess.Piece, slide bool) {
	path := between(from, to)
	cur := from
	if slide && len(path) > 0 {
		for _, sq := range path {
			if b.board[sq] != chess.NoPiece {
				break
			}
			if b.chance(20) && b.board[cur] == p {
				b.place(sq, p) // straddling: on both squares for a moment
				b.lift(cur)
			} else {
				b.lift(cur)
				b.place(sq, p)
			}
			cur = sq
		}
	}
	if b.board[to] != chess.NoPiece { // replacing a captured piece in one go
		b.lift(cur)
		b.gap()
		b.board[to] = p
		b.ops = append(b.ops, physOp{at: b.t, sq: to, piece: p})
		return
	}
	if cur != from && b.chance(20) && b.board[cur] == p {
		b.place(to, p)
		b.lift(cur)
		return
	}
	b.lift(cur)
	b.place(to, p)
}

// moveOps produces the physical ops of move m made from pos, with the noise
// of real hands: slides, captures either way round, castling either piece
// first, en passant, promotion. wrong puts the piece on a wrong square
// first and corrects it.
func moveOps(rng *rand.Rand, pos *chess.Position, m *chess.Move, wrong bool) []physOp {
	b := newOpBuilder(rng, pos)
	s1, s2 := m.S1(), m.S2()
	p := b.board[s1]
	slides := p.Type() == chess.Bishop || p.Type() == chess.Rook || p.Type() == chess.Queen || p.Type() == chess.Pawn
	slide := slides && b.chance(50)

	switch {
	case m.HasTag(chess.KingSideCastle) || m.HasTag(chess.QueenSideCastle):
		r1, r2 := rookCastleSquares(s1, s2)
		rook := b.board[r1]
		if b.chance(50) { // king first
			b.carry(s1, s2, p, b.chance(50))
			b.carry(r1, r2, rook, false)
		} else { // rook first
			b.carry(r1, r2, rook, b.chance(50))
			b.carry(s1, s2, p, false)
		}
		return b.ops
	case m.HasTag(chess.EnPassant):
		victim := chess.NewSquare(s2.File(), s1.Rank())
		if b.chance(50) {
			b.lift(victim)
			b.carry(s1, s2, p, false)
		} else {
			b.carry(s1, s2, p, false)
			b.lift(victim)
		}
		return b.ops
	}

	newPiece := p
	if m.Promo() != chess.NoPieceType {
		newPiece = chess.NewPiece(m.Promo(), p.Color())
	}
	if wrong {
		b.wrongSquare(s1, s2, p)
		s1 = b.lastSquare(p, s1)
	}
	capture := b.board[s2] != chess.NoPiece
	switch {
	case capture && b.chance(40): // captured piece off first
		b.lift(s2)
		b.carryPromo(s1, s2, p, newPiece, slide)
	case capture && b.chance(50): // own piece up, captured piece off, own piece down
		b.lift(s1)
		b.lift(s2)
		b.board[s1] = p // carry from the hand
		b.carryFromHand(s1, s2, p, newPiece)
	default: // own piece straight onto the captured one (or a quiet move)
		b.carryPromo(s1, s2, p, newPiece, slide)
	}
	return b.ops
}

// carryPromo carries p to s2; for a promotion the pawn is put down on the
// last rank and swapped for the new piece, or the new piece put down
// directly.
func (b *opBuilder) carryPromo(s1, s2 chess.Square, p, newPiece chess.Piece, slide bool) {
	if newPiece == p {
		b.carry(s1, s2, p, slide)
		return
	}
	if b.board[s2] == chess.NoPiece && b.chance(40) {
		b.carry(s1, s2, p, false)
		b.lift(s2)
		b.place(s2, newPiece)
		return
	}
	if b.board[s2] != chess.NoPiece {
		b.lift(s1)
		b.lift(s2)
		b.place(s2, newPiece)
		return
	}
	b.lift(s1)
	b.place(s2, newPiece)
}

// carryFromHand finishes a move whose piece is already in the hand.
func (b *opBuilder) carryFromHand(s1, s2 chess.Square, p, newPiece chess.Piece) {
	b.board[s1] = chess.NoPiece
	b.place(s2, newPiece)
}

// wrongSquare puts p (from s1) on an empty square next to s2 first, and
// lifts it again after a pause long enough for the board to see it.
func (b *opBuilder) wrongSquare(s1, s2 chess.Square, p chess.Piece) {
	w := chess.NoSquare
	// Prefer the square one step beyond s2 on the same line, then any
	// empty neighbour of s2.
	df, dr := sign(int(s2.File())-int(s1.File())), sign(int(s2.Rank())-int(s1.Rank()))
	cands := [][2]int{{df, dr}, {1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
	for _, c := range cands {
		if c == [2]int{0, 0} {
			continue
		}
		f, r := int(s2.File())+c[0], int(s2.Rank())+c[1]
		if f < 0 || f > 7 || r < 0 || r > 7 {
			continue
		}
		sq := chess.Square(r*8 + f)
		if b.board[sq] == chess.NoPiece {
			w = sq
			break
		}
	}
	if w == chess.NoSquare {
		return // no empty square around: nothing wrong to do
	}
	b.lift(s1)
	b.place(w, p)
	b.t += 600*time.Millisecond + time.Duration(b.rng.Int63n(int64(600*time.Millisecond)))
}

// lastSquare is where p now stands after wrongSquare (s1 when it did not
// move).
func (b *opBuilder) lastSquare(p chess.Piece, s1 chess.Square) chess.Square {
	if n := len(b.ops); n > 0 && b.ops[n-1].piece == p {
		return b.ops[n-1].sq
	}
	return s1
}

func rookCastleSquares(k1, k2 chess.Square) (chess.Square, chess.Square) {
	r := k1.Rank()
	if k2.File() > k1.File() {
		return chess.NewSquare(chess.FileH, r), chess.NewSquare(chess.FileF, r)
	}
	return chess.NewSquare(chess.FileA, r), chess.NewSquare(chess.FileD, r)
}

// diffOps turns the board of from into the board of to: every square whose
// piece must go is lifted first, then the new pieces are placed. Used to
// take a move back and for the kings signal.
func diffOps(rng *rand.Rand, from, to [64]chess.Piece) []physOp {
	b := &opBuilder{rng: rng, board: from, gapMin: 150 * time.Millisecond, gapMax: 400 * time.Millisecond}
	for sq := 0; sq < 64; sq++ {
		if from[sq] != chess.NoPiece && from[sq] != to[sq] {
			b.lift(chess.Square(sq))
		}
	}
	for sq := 0; sq < 64; sq++ {
		if to[sq] != chess.NoPiece && from[sq] != to[sq] {
			b.place(chess.Square(sq), to[sq])
		}
	}
	return b.ops
}

func boardOf(pos *chess.Position) [64]chess.Piece {
	var out [64]chess.Piece
	for sq, p := range pos.Board().SquareMap() {
		out[sq] = p
	}
	return out
}
