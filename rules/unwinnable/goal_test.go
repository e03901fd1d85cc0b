package unwinnable

import (
	"slices"
	"testing"

	bb "github.com/arbiterd/arbiterd/rules/bitboard"
)

// Mates that can only happen on squares of one colour, far from the
// nearest corner: the goal-directed search must find them, and the line
// must replay as a mate.
func TestGoalDirectedSearch(t *testing.T) {
	for _, tc := range []struct {
		fen  string
		side bb.Color
	}{
		// White's light bishop mates only on a light square; its king
		// and pawn are walled in. Black's king must walk to a8.
		{"7k/8/8/3B4/8/6p1/1b4Pp/2b4K w - - 0 1", bb.White},
		// White's dark bishop against light bishops: mate on h8.
		{"k7/1b6/2b5/3b4/4b3/1pB2b2/pP4b1/K6b w - - 0 1", bb.White},
		// Every pawn locked, Black's light bishop alone below the wall
		// against a king on dark squares: Black must give it up on f3,
		// where g2 takes and g4 takes back, free to promote.
		{"k1b5/8/8/1pBp1p1p/1PbP1PpP/6P1/6P1/K3B3 b - - 0 1", bb.Black},
	} {
		pos, err := bb.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		a := NewAnalyzer(Options{Mode: Full})
		s := &a.s
		s.reset(&pos, tc.side)
		r, ok := s.goalLDS(2_000_000, goalTargets, goalMaxDisc, true)
		if !ok || r.Verdict != Winnable {
			t.Fatalf("%s: goal-directed search found no mate in %d nodes", tc.fen, s.nodes)
		}
		assertMateLine(t, tc.fen, tc.side, r.Line)
		if s.pos != pos {
			t.Fatalf("%s: the search changed the position", tc.fen)
		}
	}
}

func TestBreakSquares(t *testing.T) {
	for _, tc := range []struct {
		fen  string
		side bb.Color
		want uint64
	}{
		// f3: g2 takes there, g4 takes back with f2 free. h3 too
		// (h2 free); e3 and the rest are attacked by one side only.
		{"k1b5/8/8/1pBp1p1p/1PbP1PpP/6P1/6P1/K3B3 b - - 0 1", bb.Black, 1<<21 | 1<<23},
		// For White: a pawn retaking on f3 or h3 would stand blocked.
		{"k1b5/8/8/1pBp1p1p/1PbP1PpP/6P1/6P1/K3B3 b - - 0 1", bb.White, 0},
		// Black's pawns can push.
		{"4k3/p7/8/8/8/8/P7/4K3 w - - 0 1", bb.Black, 0},
	} {
		pos, err := bb.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := breakSquares(&pos, tc.side); got != tc.want {
			t.Errorf("%s for %v: %#x, want %#x", tc.fen, tc.side, got, tc.want)
		}
	}
}

func TestKingDistances(t *testing.T) {
	// A wall on the fourth rank with one gap on h4: from a1 to a8 the
	// king must go round through h4 (14 steps instead of 7).
	wall := uint64(0x7f) << 24
	var d [64]int8
	kingDistances(&d, 56, wall) // a8
	for _, c := range []struct {
		sq   bb.Square
		want int8
	}{{56, 0}, {48, 1}, {39, 7}, {31, 7}, {0, 14}, {24, unreachable}} {
		if d[c.sq] != c.want {
			t.Errorf("distance from %v to a8: %d, want %d", c.sq, d[c.sq], c.want)
		}
	}
}

func TestMakeGoalsColour(t *testing.T) {
	// White mates with a light bishop only: every target it ranks first
	// is a light square.
	pos, err := bb.ParseFEN("7k/8/8/3B4/8/6p1/1b4Pp/2b4K w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	a := NewAnalyzer(Options{Mode: Full})
	a.s.reset(&pos, bb.White)
	gs := a.s.makeGoals(nil, 4)
	if len(gs) == 0 {
		t.Fatal("no targets")
	}
	for _, g := range gs {
		if lightSquares&(1<<uint(g.t)) == 0 {
			t.Errorf("target %v is a dark square", g.t)
		}
	}
}

// cutDetours and shortcut2 remove a detour inserted at the start of a
// mating line.
func TestCutDetours(t *testing.T) {
	fen := "8/8/8/4k3/8/8/8/4K2R w - - 0 1"
	r, err := CanMate(fen, bb.White, Options{Mode: Full})
	if err != nil || r.Verdict != Winnable {
		t.Fatalf("CanMate: %v %v", r.Verdict, err)
	}
	line := append([]string{"h1h2", "e5e4", "h2h1", "e4e5"}, r.Line...)
	assertMateLine(t, fen, bb.White, line)
	pos, _ := bb.ParseFEN(fen)
	a := NewAnalyzer(Options{Mode: Full})
	a.s.reset(&pos, bb.White)
	var path []bb.Move
	var undo []bb.Undo
	for _, u := range line {
		m, ok := a.s.pos.ParseMove(u)
		if !ok {
			t.Fatalf("move %s not legal", u)
		}
		path = append(path, m)
		undo = append(undo, a.s.pos.Make(m))
	}
	for i := len(path) - 1; i >= 0; i-- {
		a.s.pos.Unmake(path[i], undo[i])
	}
	for _, cut := range []struct {
		name string
		fn   func([]bb.Move) []bb.Move
	}{{"cutDetours", a.s.cutDetours}, {"shortcut2", func(p []bb.Move) []bb.Move {
		a.s.limit = a.s.nodes + 1_000_000
		return a.s.shortcut2(p)
	}}} {
		out := cut.fn(slices.Clone(path))
		if len(out) > len(r.Line) {
			t.Fatalf("%s kept %d plies of %d, want at most %d", cut.name, len(out), len(path), len(r.Line))
		}
		uci := make([]string, len(out))
		for i, m := range out {
			uci[i] = m.UCI()
		}
		assertMateLine(t, fen, bb.White, uci)
		if a.s.pos != pos {
			t.Fatalf("%s changed the position", cut.name)
		}
	}
}

// The probe for the shortest mates finds a back-rank mate at once.
func TestProbeShort(t *testing.T) {
	for _, tc := range []struct {
		fen  string
		side bb.Color
	}{
		{"6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1", bb.White},
		{"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", bb.White},
		{"r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1", bb.Black},
	} {
		pos, err := bb.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		a := NewAnalyzer(Options{Mode: Quick})
		a.s.reset(&pos, tc.side)
		r, ok := a.s.probeShort(probeBudget, probeDisc)
		if !ok || len(r.Line) > 4 {
			t.Fatalf("%s: probe gave %v %v", tc.fen, ok, r.Line)
		}
		assertMateLine(t, tc.fen, tc.side, r.Line)
	}
}

// TestGoalLDSPlain checks the searches goalLDS shares its nodes among:
// the same targets with and without the plain heuristic, which comes
// first when asked for; and quick mode's goal-directed search for a lone
// knight or bishop, which comes first of all, before any look of the
// plain heuristic, and leaves it out.
func TestGoalLDSPlain(t *testing.T) {
	targets := func(gs []goal) (ts []bb.Square, plain int) {
		for _, g := range gs {
			if g.plain {
				plain++
				continue
			}
			ts = append(ts, g.t)
		}
		return ts, plain
	}
	for _, tc := range []struct {
		fen  string
		side bb.Color
	}{
		{"8/5k2/6p1/4Kn2/5N2/8/8/4r2q w - - 2 70", bb.White}, // a lone knight
		{"B5k1/6pp/3K4/1r6/8/8/8/8 b - - 1 57", bb.White},    // a lone bishop
		{"6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", bb.White},  // a rook and pawns
	} {
		pos, err := bb.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		var got [2][]bb.Square
		for i, plain := range []bool{false, true} {
			a := NewAnalyzer(Options{Mode: Quick})
			s := &a.s
			s.reset(&pos, tc.side)
			s.goalLDS(50, goalTargets, goalMaxDisc, plain)
			ts, n := targets(s.goals)
			if plain && (n != 1 || !s.goals[0].plain) || !plain && n != 0 {
				t.Errorf("%s for %s, plain %v: %d plain searches among %d, want one first with plain, none without", tc.fen, tc.side, plain, n, len(s.goals))
			}
			got[i] = ts
		}
		if len(got[0]) == 0 || !slices.Equal(got[0], got[1]) {
			t.Errorf("%s for %s: targets %v without the plain search, %v with it", tc.fen, tc.side, got[0], got[1])
		}
		// What quick mode does for the query.
		a := NewAnalyzer(Options{Mode: Quick, NodeBudget: 2_000})
		a.Analyze(&pos, tc.side)
		lone := loneMan(&pos, tc.side)
		_, n := targets(a.s.goals)
		wantPlain := lone != bb.Knight && lone != bb.Bishop
		if !wantPlain && len(a.s.goals) == 0 {
			t.Errorf("%s for %s: quick mode answered before its goal-directed search: the case tests nothing", tc.fen, tc.side)
		}
		if !wantPlain && (a.s.plainDone != 0 || a.s.plainDoneFull != 0) {
			t.Errorf("%s for %s: the plain heuristic searched %d and %d allowances before the goal-directed search found the mate", tc.fen, tc.side, a.s.plainDone, a.s.plainDoneFull)
		}
		if len(a.s.goals) > 0 && (n == 1) != wantPlain {
			t.Errorf("%s for %s: quick mode's goal-directed search had %d plain searches, want plain %v", tc.fen, tc.side, n, wantPlain)
		}
	}
}
