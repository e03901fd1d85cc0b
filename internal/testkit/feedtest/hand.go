package feedtest

import (
	"fmt"
	"strings"
	"time"

	"github.com/arbiterd/arbiterd/driver/drivertest"
)

// Touch is one thing a hand does on a DGT board: after a pause, a square
// (DGT field order: 0 = a8 … 63 = h1, White at the h1 end) gets a piece
// (a DGT piece code) or is emptied (0).
type Touch struct {
	After time.Duration // since the touch before
	Field byte
	Piece byte
}

// Hand writes what a player's hand does on a board, touch by touch, as a
// board reports it (one field update each).
type Hand struct {
	board [64]byte
	pause time.Duration
	t     []Touch
}

// NewHand is a hand over the standard starting position.
func NewHand() *Hand { return &Hand{board: drivertest.DGTStartPosition()} }

// field is the DGT field of a square named like "e4".
func field(sq string) byte {
	if len(sq) != 2 || sq[0] < 'a' || sq[0] > 'h' || sq[1] < '1' || sq[1] > '8' {
		panic(fmt.Sprintf("feedtest: %q is not a square", sq))
	}
	return byte('8'-sq[1])*8 + sq[0] - 'a'
}

// Wait pauses the hand before its next touch.
func (h *Hand) Wait(d time.Duration) *Hand {
	h.pause += d
	return h
}

func (h *Hand) touch(f, piece byte) {
	h.board[f] = piece
	h.t = append(h.t, Touch{After: h.pause, Field: f, Piece: piece})
	h.pause = 0
}

// Lift takes the piece on sq into the hand.
func (h *Hand) Lift(sq string) *Hand {
	h.touch(field(sq), 0)
	return h
}

// Put puts down on sq the piece named by a FEN letter ("B", "k").
func (h *Hand) Put(sq string, piece string) *Hand {
	code := strings.Index("PRNBKQprnbkq", piece)
	if len(piece) != 1 || code < 0 {
		panic(fmt.Sprintf("feedtest: %q is not a piece", piece))
	}
	h.touch(field(sq), byte(code+1))
	return h
}

// Move carries the piece on from to to, 0.3 s in the hand; a piece on to
// is taken off first.
func (h *Hand) Move(from, to string) *Hand {
	p := h.board[field(from)]
	if p == 0 {
		panic(fmt.Sprintf("feedtest: no piece on %s", from))
	}
	if h.board[field(to)] != 0 {
		h.Lift(to).Wait(300 * time.Millisecond)
	}
	h.Lift(from).Wait(300 * time.Millisecond)
	h.touch(field(to), p)
	return h
}

// Touches returns what the hand did, in order.
func (h *Hand) Touches() []Touch { return append([]Touch(nil), h.t...) }

// Frames are the touches as the board sends them: each a field update at
// its time since the hand began.
func Frames(ts []Touch) (at []time.Duration, frames [][]byte) {
	var t time.Duration
	for _, x := range ts {
		t += x.After
		at = append(at, t)
		frames = append(frames, drivertest.DGTFieldUpdate(x.Field, x.Piece))
	}
	return at, frames
}

// Still is how long the hesitating hand leaves the board still after each
// move it finally makes: far longer than a feed's settle time.
const Still = 3 * time.Second

// HesitatingHand is a game played by a hand that hesitates, as hands do,
// and the moves it makes. Between its moves the board stands still for
// Still; within them the hand leaves pieces on squares for less than a
// second and holds them in the air for more:
//   - 3...Nf6: the knight put on h6 first and left there 0.8 s;
//   - 5.Bg5: the bishop put on e3, lifted again 0.2 s later, held 1.1 s
//     and put on g5;
//   - 5...O-O: the king put on f8, lifted 0.5 s later, held 0.8 s and put
//     on g8, and then the rook from h8 to f8;
//   - 7.h3: the pawn lifted 0.95 s after it was put on h3 and put back
//     there 0.3 s later (the same move, put down twice).
//
// Each of those provisional squares is a legal move in its position
// (Nh6, Be3, Kf8, and h3 itself).
func HesitatingHand() (*Hand, []string) {
	moves := strings.Fields("e4 e5 Nf3 Nc6 Bc4 Nf6 d3 Be7 Bg5 O-O O-O d6 h3 h6 Bxf6 gxf6")
	h := NewHand()
	next := func() *Hand { return h.Wait(Still) }
	next().Move("e2", "e4")
	next().Move("e7", "e5")
	next().Move("g1", "f3")
	next().Move("b8", "c6")
	next().Move("f1", "c4")
	// 3...Nf6, by way of h6
	next().Move("g8", "h6").Wait(800*time.Millisecond).Lift("h6").Wait(400*time.Millisecond).Put("f6", "n")
	next().Move("d2", "d3")
	next().Move("f8", "e7")
	// 5.Bg5, by way of e3
	next().Move("c1", "e3").Wait(200*time.Millisecond).Lift("e3").Wait(1100*time.Millisecond).Put("g5", "B")
	// 5...O-O, the king on f8 first
	next().Move("e8", "f8").Wait(500*time.Millisecond).Lift("f8").Wait(800*time.Millisecond).Put("g8", "k").
		Wait(600*time.Millisecond).Move("h8", "f8")
	next().Move("e1", "g1").Wait(400*time.Millisecond).Move("h1", "f1")
	next().Move("d7", "d6")
	// 7.h3, put down twice
	next().Move("h2", "h3").Wait(950*time.Millisecond).Lift("h3").Wait(300*time.Millisecond).Put("h3", "P")
	next().Move("h7", "h6")
	next().Move("g5", "f6")
	next().Move("g7", "f6")
	return h, moves
}
