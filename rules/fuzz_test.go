package rules

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/notnil/chess"
)

// FuzzReconstruct builds a record of random plies, takes the board a few
// random plies later, edits squares as the fuzzer says, and checks that
// Reconstruct never panics and that every explanation it gives is true.
//
// Input: [record plies, extra plies, options, (square, code)…].
func FuzzReconstruct(f *testing.F) {
	f.Add([]byte{0, 1, 0})
	f.Add([]byte{10, 2, 0x13})
	f.Add([]byte{30, 4, 0x23, 12, 0})
	f.Add([]byte{20, 3, 0x80, 28, 1, 35, 7})        // kings on the centre squares
	f.Add([]byte{5, 1, 0x40, 12, 14})               // an unknown code
	f.Add([]byte{60, 2, 0x31, 3, 2, 60, 9, 61, 12}) // edits in a long game
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 3 {
			return
		}
		rng := rand.New(rand.NewPCG(uint64(data[0]), 99))
		g, _ := NewGame("")
		truth, _ := NewGame("")
		n := playRandom(t, truth, rng, int(data[0]%80))
		for i := 1; i <= n; i++ {
			if err := g.Move(truth.chessMoveAt(i)); err != nil {
				t.Fatal(err)
			}
		}
		playRandom(t, truth, rng, int(data[1]%5))
		s := SnapshotOf(truth.Position())
		opt := Options{MaxPlies: 1 + int(data[2]&3), Retractable: int(data[2]>>2) & 3}
		s.OccupancyOnly = data[2]&0x40 != 0
		for i := 3; i+1 < len(data); i += 2 {
			sq := int(data[i] % 64)
			code := chess.Piece(data[i+1] % 16)
			s.Squares[sq] = code
			if code > chess.BlackPawn && data[2]&0x80 != 0 {
				s.Unknown |= 1 << uint(sq)
			}
		}
		r := Reconstruct(g, s, opt)
		check := func(seq []*chess.Move) {
			if !reaches(g.PositionAt(r.From), seq, s) {
				t.Fatalf("%v from %d: %s does not reach the snapshot", r.Kind, r.From, uciSeq(seq))
			}
		}
		switch r.Kind {
		case NoChange:
			check(nil)
		case TakeBack:
			if r.From >= g.Ply() {
				t.Fatalf("take-back to %d at ply %d", r.From, g.Ply())
			}
			check(nil)
		case Forward, Correction:
			if len(r.Moves) == 0 || len(r.Moves) > opt.MaxPlies {
				t.Fatalf("%v with %d moves", r.Kind, len(r.Moves))
			}
			check(r.Moves)
		case Ambiguous:
			if len(r.Candidates) < 2 {
				t.Fatalf("ambiguous with %d candidates", len(r.Candidates))
			}
			for _, c := range r.Candidates {
				check(c)
			}
		case UnknownPieces:
			if len(r.Unknown) == 0 {
				t.Fatal("unknown pieces without squares")
			}
			for _, sq := range r.Unknown {
				if s.Unknown&(1<<uint(sq)) == 0 && (s.OccupancyOnly || (s.Squares[sq] >= chess.NoPiece && s.Squares[sq] <= chess.BlackPawn)) {
					t.Fatalf("square %s reported unknown", sq)
				}
			}
		case ResultSignal:
			if r.Signal != "1-0" && r.Signal != "0-1" && r.Signal != "1/2-1/2" {
				t.Fatalf("signal %q", r.Signal)
			}
		case Unexplained:
		default:
			t.Fatalf("kind %v", r.Kind)
		}
	})
}

// FuzzNewGame feeds arbitrary text as a FEN: it is rejected with an error or
// read into a position whose FEN reads back to itself, in the record and in
// notnil/chess.
func FuzzNewGame(f *testing.F) {
	for _, tc := range specialMoves {
		f.Add(tc.fen)
	}
	f.Add("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -")
	f.Add("8/8/8/8/8/8/8/8 w - - 0 1")
	f.Add("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2")
	f.Fuzz(func(t *testing.T, fen string) {
		g, err := NewGame(fen)
		if err != nil {
			if g != nil {
				t.Fatal("a game and an error")
			}
			return
		}
		out := g.FEN()
		h, err := NewGame(out)
		if err != nil || h.FEN() != out {
			t.Fatalf("%q read as %q, which reads back as %v / %v", fen, out, h, err)
		}
		if g.Position().String() != out {
			t.Fatalf("%q: notnil reads %q as %q", fen, out, g.Position().String())
		}
		for _, m := range g.legal {
			c := g.Clone()
			if err := c.MoveUCI(m.uci()); err != nil && !c.status.Over {
				t.Fatalf("%s in %s: %v", m.uci(), out, err)
			}
		}
	})
}

// FuzzMoveSAN feeds arbitrary text as a SAN move in a few positions: it is
// rejected with ErrIllegalMove or plays a legal move.
func FuzzMoveSAN(f *testing.F) {
	for _, tc := range specialMoves {
		f.Add(uint8(0), tc.san)
	}
	for _, s := range []string{"O-O-O", "0-0", "exd6e.p.", "Nbd7", "e8=Q+", "Kxe2#", "", "x", "=Q", "a9", "Rh1h8"} {
		f.Add(uint8(1), s)
	}
	f.Fuzz(func(t *testing.T, which uint8, san string) {
		tc := specialMoves[int(which)%len(specialMoves)]
		g := mustGame(t, tc.fen)
		err := g.MoveSAN(san)
		if err != nil {
			if !errors.Is(err, ErrIllegalMove) || g.Ply() != 0 {
				t.Fatalf("MoveSAN(%q): %v, ply %d", san, err, g.Ply())
			}
			return
		}
		if g.Ply() != 1 {
			t.Fatalf("MoveSAN(%q) played %d plies", san, g.Ply())
		}
	})
}
