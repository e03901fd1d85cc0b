package bitboard

import (
	"math/bits"
	"os"
	"testing"
)

// perftCases are the standard perft positions with their published leaf
// counts (start position, "Kiwipete", and positions 3–6 of the usual
// suite).
var perftCases = []struct {
	name  string
	fen   string
	nodes []int64 // nodes[d-1] = perft(d)
}{
	{"start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		[]int64{20, 400, 8902, 197281, 4865609, 119060324}},
	{"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		[]int64{48, 2039, 97862, 4085603, 193690690}},
	{"pos3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		[]int64{14, 191, 2812, 43238, 674624, 11030083, 178633661}},
	{"pos4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
		[]int64{6, 264, 9467, 422333, 15833292}},
	{"pos4-mirrored", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
		[]int64{6, 264, 9467, 422333, 15833292}},
	{"pos5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
		[]int64{44, 1486, 62379, 2103487, 89941194}},
	{"pos6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
		[]int64{46, 2079, 89890, 3894594, 164075551}},
}

// perftLimit is the largest leaf count the test runs: small with -short,
// moderate by default (fits the race detector), everything with
// ARBITERD_PERFT_DEEP=1.
func perftLimit() int64 {
	switch {
	case os.Getenv("ARBITERD_PERFT_DEEP") != "":
		return 1 << 62
	case testing.Short():
		return 100_000
	default:
		return 5_000_000
	}
}

func TestPerft(t *testing.T) {
	limit := perftLimit()
	for _, tc := range perftCases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			for d, want := range tc.nodes {
				if want > limit {
					break
				}
				before := p
				if got := p.Perft(d + 1); got != want {
					t.Errorf("perft(%d) = %d, want %d", d+1, got, want)
				}
				if p != before {
					t.Fatalf("perft(%d) did not restore the position: %s", d+1, p.FEN())
				}
			}
		})
	}
}

func BenchmarkPerft(b *testing.B) {
	for _, tc := range perftCases[:2] {
		b.Run(tc.name, func(b *testing.B) {
			p, err := ParseFEN(tc.fen)
			if err != nil {
				b.Fatal(err)
			}
			var nodes int64
			for b.Loop() {
				nodes += p.Perft(4)
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds()/1e6, "Mnodes/s")
		})
	}
}

// perftMakeAll is perft without bulk counting: every leaf move is made
// and unmade, the measure comparable to engines that count made nodes.
func perftMakeAll(p *Position, depth int) int64 {
	if depth == 0 {
		return 1
	}
	var ml MoveList
	p.LegalMoves(&ml)
	var n int64
	for _, m := range ml.Slice() {
		u := p.Make(m)
		n += perftMakeAll(p, depth-1)
		p.Unmake(m, u)
	}
	return n
}

func TestPerftMakeAllAgrees(t *testing.T) {
	for _, tc := range perftCases {
		p, err := ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := perftMakeAll(&p, 2); got != tc.nodes[1] {
			t.Errorf("%s: perftMakeAll(2) = %d, want %d", tc.name, got, tc.nodes[1])
		}
	}
}

func BenchmarkPerftMakeAll(b *testing.B) {
	for _, tc := range perftCases[:2] {
		b.Run(tc.name, func(b *testing.B) {
			p, err := ParseFEN(tc.fen)
			if err != nil {
				b.Fatal(err)
			}
			var nodes int64
			for b.Loop() {
				nodes += perftMakeAll(&p, 4)
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds()/1e6, "Mnodes/s")
		})
	}
}

// TestGivesCheckWith compares GivesCheckWith with GivesCheck on every
// move of every position of the perft trees to depth 3, and SetCheckInfo,
// over what it set at the node before, with CheckInfo.
func TestGivesCheckWith(t *testing.T) {
	var last CheckInfo // SetCheckInfo's, of the node walked before
	var walk func(p *Position, depth int) int
	walk = func(p *Position, depth int) int {
		var ml MoveList
		p.LegalMoves(&ml)
		ci := p.CheckInfo()
		if p.SetCheckInfo(&last); last != ci {
			t.Fatalf("%s: SetCheckInfo %+v over the last node's, CheckInfo %+v", p.FEN(), last, ci)
		}
		n := 0
		for _, m := range ml.Slice() {
			if got, want := p.GivesCheckWith(m, &ci), p.GivesCheck(m); got != want {
				t.Fatalf("%s %s: GivesCheckWith %v, GivesCheck %v", p.FEN(), m, got, want)
			}
			n++
			if depth > 1 {
				u := p.Make(m)
				n += walk(p, depth-1)
				p.Unmake(m, u)
			}
		}
		return n
	}
	for _, c := range perftCases {
		p, err := ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		if n := walk(&p, 3); n == 0 {
			t.Fatalf("%s: no moves walked", c.fen)
		}
	}
}

// TestAttackedExcept compares AttackersOf with each man's own attacks
// (attackersFrom), AttackedWith, AttackedExcept and AttackMap with
// AttackersOf, and HasLegalMoveIn with HasLegalMove, at every
// position of the perft trees to depth 3, for every square, both colours,
// the full occupancy and the occupancy without the side to move's king,
// and every single man of the attacking colour left out.
func TestAttackedExcept(t *testing.T) {
	var scratch MoveList
	var walk func(p *Position, depth int) int
	walk = func(p *Position, depth int) int {
		if got, want := p.HasLegalMoveIn(&scratch), p.HasLegalMove(); got != want {
			t.Fatalf("%s: HasLegalMoveIn %v, HasLegalMove %v", p.FEN(), got, want)
		}
		for _, occ := range [2]uint64{p.All(), p.All() &^ p.Pieces(p.Side(), King)} {
			for c := White; c <= Black; c++ {
				var union uint64
				for s := Square(0); s < 64; s++ {
					if p.AttackersOf(s, c, occ) != 0 {
						union |= 1 << uint(s)
					}
				}
				if got := p.AttackMap(c, occ); got != union {
					t.Fatalf("%s: AttackMap(%v) = %#x, want %#x", p.FEN(), c, got, union)
				}
				for s := Square(0); s < 64; s++ {
					set := p.AttackersOf(s, c, occ)
					if want := attackersFrom(p, s, c, occ); set != want {
						t.Fatalf("%s: AttackersOf(%v, %v) = %#x, want %#x", p.FEN(), s, c, set, want)
					}
					if got := p.AttackedWith(s, c, occ); got != (set != 0) {
						t.Fatalf("%s: AttackedWith(%v, %v) = %v, attackers %#x", p.FEN(), s, c, got, set)
					}
					for b := p.Occupied(c); b != 0; b &= b - 1 {
						except := b & -b
						if got := p.AttackedExcept(s, c, occ, except); got != (set&^except != 0) {
							t.Fatalf("%s: AttackedExcept(%v, %v, %#x) = %v, attackers %#x", p.FEN(), s, c, except, got, set)
						}
					}
				}
			}
		}
		n := 1
		if depth > 1 {
			var ml MoveList
			p.LegalMoves(&ml)
			for _, m := range ml.Slice() {
				u := p.Make(m)
				n += walk(p, depth-1)
				p.Unmake(m, u)
			}
		}
		return n
	}
	for _, c := range perftCases {
		p, err := ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		if n := walk(&p, 3); n < 100 {
			t.Fatalf("%s: %d positions walked", c.fen, n)
		}
	}
}

// attackersFrom is AttackersOf(s, c, occ) the other way round: colour c's
// men each of whose attacks, from its own square, reach s.
func attackersFrom(p *Position, s Square, c Color, occ uint64) uint64 {
	var set uint64
	for b := p.Occupied(c); b != 0; b &= b - 1 {
		from := Square(bits.TrailingZeros64(b))
		var a uint64
		switch p.PieceAt(from).Type() {
		case Pawn:
			a = PawnAttacks(c, from)
		case Knight:
			a = KnightAttacks(from)
		case Bishop:
			a = BishopAttacks(from, occ)
		case Rook:
			a = RookAttacks(from, occ)
		case Queen:
			a = BishopAttacks(from, occ) | RookAttacks(from, occ)
		case King:
			a = KingAttacks(from)
		}
		if a&(1<<uint(s)) != 0 {
			set |= 1 << uint(from)
		}
	}
	return set
}
