package unwinnable

import (
	"math/rand/v2"
	"slices"
	"testing"

	bb "github.com/arbiterd/arbiterd/rules/bitboard"
)

// randomPlies plays up to n random legal moves from fen and calls visit
// with the position before each move and the move.
func randomPlies(t *testing.T, rng *rand.Rand, fen string, n int, visit func(p *bb.Position, m bb.Move)) {
	t.Helper()
	p, err := bb.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	var ml bb.MoveList
	for range n {
		p.LegalMoves(&ml)
		if ml.N == 0 {
			return
		}
		m := ml.Moves[rng.IntN(ml.N)]
		visit(&p, m)
		p.Make(m)
	}
}

var randomGameStarts = []string{
	"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"8/2P1k3/8/8/8/8/3Kp3/8 w - - 0 1", // promotions, both sides
	"6k1/5ppp/8/8/8/8/1q3PPP/R5K1 b - - 0 1",
}

// TestMated checks the mate test of the helpmate searches against the
// move generator on every check of random games: a king step to an
// unattacked square is looked for first, and must never hide a mate nor
// invent one.
func TestMated(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var s searcher
	checks, mates := 0, 0
	for i := 0; i < 400; i++ {
		randomPlies(t, rng, randomGameStarts[i%len(randomGameStarts)], 120, func(p *bb.Position, m bb.Move) {
			if !p.GivesCheck(m) {
				return
			}
			s.pos = *p
			s.pos.Make(m)
			checks++
			want := s.pos.IsCheckmate()
			if want {
				mates++
			}
			if got := s.mated(); got != want {
				t.Fatalf("%s after %s: mated() = %v, want %v", p.FEN(), m, got, want)
			}
		})
	}
	if mates == 0 {
		t.Fatalf("%d checks, no mate among them: the test proves nothing", checks)
	}
	t.Logf("%d checks, %d mates", checks, mates)
}

// TestUCILine checks the one-string form of a mate line against each
// move's own UCI text, promotions included.
func TestUCILine(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	promotions := 0
	for i := 0; i < 40; i++ {
		var path []bb.Move
		randomPlies(t, rng, randomGameStarts[i%len(randomGameStarts)], 200, func(_ *bb.Position, m bb.Move) {
			path = append(path, m)
			if m.Promotion() != bb.NoPieceType {
				promotions++
			}
		})
		got := uciLine(path)
		if len(got) != len(path) {
			t.Fatalf("uciLine gave %d moves for %d", len(got), len(path))
		}
		for j, m := range path {
			if got[j] != m.UCI() {
				t.Fatalf("move %d: uciLine says %q, UCI %q", j, got[j], m.UCI())
			}
		}
	}
	if promotions == 0 {
		t.Fatal("no promotion in the random games: the test proves too little")
	}
	if got := uciLine(nil); len(got) != 0 {
		t.Fatalf("uciLine(nil) = %q, want nothing", got)
	}
}

// TestMatingCorners checks the corners the loser's king is driven to:
// those of the bishops' colour when only bishops of one colour can ever
// check it (no other piece, and pawns locked where the winner's king
// cannot free them), all four otherwise.
func TestMatingCorners(t *testing.T) {
	for _, tc := range []struct {
		fen  string
		side bb.Color
		want []bb.Square
	}{
		// Bishops alone, and with a knight: their colour's corners.
		{"8/8/8/4k3/8/8/8/2BKB3 w - - 0 1", bb.White, []bb.Square{0, 63}},
		{"8/8/8/4k3/8/8/8/2K1B1N1 w - - 0 1", bb.White, []bb.Square{0, 63}},
		{"8/8/8/4k3/8/8/8/4KB2 w - - 0 1", bb.White, []bb.Square{7, 56}},
		// Bishops of both colours, or a rook: all four.
		{"8/8/8/4k3/8/8/8/2B1KB2 w - - 0 1", bb.White, []bb.Square{0, 7, 56, 63}},
		{"8/8/8/3k4/8/8/8/2BKR3 w - - 0 1", bb.White, []bb.Square{0, 7, 56, 63}},
		// A chain locked for good, White's king below it, dark bishops.
		{"2b3b1/6B1/1k6/1p1p1pBp/pPpPpPpP/P1P1P1P1/8/4BbK1 w - - 0 1", bb.White, []bb.Square{0, 63}},
		// White's king next to blockers, but guarded ones.
		{"2bk4/1b6/7B/1p1p1p1p/pPpPpPpP/PKP1P1P1/8/6Bb w - - 0 1", bb.White, []bb.Square{0, 63}},
		// The pawn's blocker is one White's king can take: all four.
		{"8/k7/8/6B1/6p1/6P1/8/6K1 b - - 0 1", bb.White, []bb.Square{0, 7, 56, 63}},
		// A pawn that can walk, or a knight beside the pawns: all four.
		{"8/k7/8/6B1/8/6P1/8/6K1 b - - 0 1", bb.White, []bb.Square{0, 7, 56, 63}},
		{"2b3b1/6B1/1k6/1p1p1pBp/pPpPpPpP/P1P1P1P1/8/4NbK1 w - - 0 1", bb.White, []bb.Square{0, 7, 56, 63}},
	} {
		pos, err := bb.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		var s searcher
		s.reset(&pos, tc.side)
		got := s.corners[:s.nCorner]
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s for %s: corners %v, want %v", tc.fen, tc.side, got, tc.want)
		}
		for sq := bb.Square(0); sq < 64; sq++ {
			if s.cornerDist(sq) != s.cornerDistSlow(sq) {
				t.Fatalf("%s: the corner table disagrees with the corners at %v", tc.fen, sq)
			}
		}
	}
}

// TestQuickWeightsByClass checks that quick mode weighs each node with
// the weights of the class of the mating side's material there (its
// strongest piece, the other side's not counted), and full mode always
// with its own: at the query's position, and along plain lines, where a
// promotion or a capture changes the class (every move of a line that
// mates is the pick of its node with that node's weights, and the line is
// the same after a search that left another class's weights).
func TestQuickWeightsByClass(t *testing.T) {
	for _, c := range []struct {
		fen   string
		side  bb.Color
		class weightClass
	}{
		{"6k1/5ppp/8/8/8/8/5PPP/3QR1K1 w - - 0 1", bb.White, queenClass},
		{"6k1/5ppp/8/8/8/8/5PPP/3QR1K1 w - - 0 1", bb.Black, pawnClass},
		{"3qk3/8/8/8/8/8/4P3/R3K3 b - - 0 1", bb.White, rookClass},
		{"3qk3/8/8/8/8/8/4P3/R3K3 b - - 0 1", bb.Black, queenClass},
		{"4k3/4p3/8/8/8/8/2N5/1B2K2R w K - 0 1", bb.White, rookClass},
		{"r3k3/4p3/8/8/8/8/2N5/1B2K3 w - - 0 1", bb.White, minorClass},
		{"r3k3/4p3/8/8/8/8/2N5/1B2K3 w - - 0 1", bb.Black, rookClass},
		{"4k3/2n1p3/8/8/8/8/P7/4K3 b - - 0 1", bb.White, pawnClass},
		{"4k3/2n1p3/8/8/8/8/P7/4K3 b - - 0 1", bb.Black, minorClass},
	} {
		p, err := bb.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := weightClassOf(&p, c.side); got != c.class {
			t.Errorf("%s for %s: class %d, want %d", c.fen, c.side, got, c.class)
		}
		quick := NewAnalyzer(Options{Mode: Quick})
		quick.s.reset(&p, c.side)
		if quick.s.w != quickWeights[c.class] {
			t.Errorf("%s for %s: quick mode weighs with %+v, want class %d's %+v", c.fen, c.side, quick.s.w, c.class, quickWeights[c.class])
		}
		full := NewAnalyzer(Options{Mode: Full})
		full.s.reset(&p, c.side)
		if full.s.weightsHere(); full.s.w != fullWeights {
			t.Errorf("%s for %s: full mode weighs with %+v, want its own", c.fen, c.side, full.s.w)
		}
	}
	for i := range quickWeights {
		for j := range i {
			if quickWeights[i] == quickWeights[j] {
				t.Errorf("classes %d and %d have the same weights: the test cannot tell them apart", j, i)
			}
		}
	}

	var s, x, y searcher
	s.byClass, y.byClass = &quickWeights, &quickWeights
	var ml bb.MoveList
	lines, crossed := 0, 0
	forRandomNodes(t, 41, 40, 80, randomGameStarts, func(_ *searcher, p *bb.Position, side bb.Color) {
		if insufficient(p, side) != "" {
			return
		}
		found, line, _, _ := plainLine(t, &s, p, side, 0, firstLook)
		if !found {
			return
		}
		lines++
		root, cross := weightClassOf(p, side), false
		// The same line after a search that left the weights of
		// another class (its last node's).
		y.reset(p, side)
		y.class = (root + 1) % weightClasses
		y.w = quickWeights[y.class]
		y.limit, y.abort = firstLook, false
		if ok, n := y.plainFind(0, plainDepth, 0); !ok || !slices.Equal(uciLine(y.path[:n]), line) {
			t.Fatalf("%s for %s: the line %v, after another class's weights %v %v", p.FEN(), side, line, ok, uciLine(y.path[:n]))
		}
		x.reset(p, side) // the query's corners
		for i, m := range s.path[:len(line)] {
			class := weightClassOf(&x.pos, side)
			cross = cross || class != root
			x.w = quickWeights[class]
			want, mate, _ := x.pickPlain(x.pos.KingSquare(side.Other()), winnerCheckInfo(&x.pos, side), true, &ml)
			if want != m || mate != (i == len(line)-1) {
				t.Fatalf("%s for %s: move %d of the line %v is %v, the pick with class %d's weights %v (mate %v)", p.FEN(), side, i, line, m, class, want, mate)
			}
			x.pos.Make(m)
		}
		if cross {
			crossed++
		}
	})
	if crossed == 0 {
		t.Fatalf("no line of %d changed class: the test cannot tell weights by node from weights by query", lines)
	}
	t.Logf("%d lines, %d of them changed class", lines, crossed)
}
