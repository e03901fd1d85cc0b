package unwinnable

import (
	"testing"

	bb "github.com/arbiterd/arbiterd/rules/bitboard"
)

// confineCases exercise the fixed-men confinement proof: fire says
// whether confinedUnwinnable must prove the side unable to mate. Where it
// must not fire, a legal mate exists (the side can mate).
var confineCases = []struct {
	name string
	fen  string
	side bb.Color
	fire bool
}{
	// Pawns facing each other on the a, c, e, g files never meet a
	// capture; Black's king is held on the back rank. A pawn check on
	// b3 needs a2, a3 and a4 filled, and only the two a-pawns can be
	// there.
	{"facing pawns, matching fails", "3k4/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/3K4 w - - 0 1", bb.Black, true},
	// White's king is walled in on a1 for good: its neighbours hold a
	// pawn guarded by a fixed pawn, its own fixed pawn, and a square a
	// fixed pawn attacks; the a2 pawn is blocked by that king. Black's
	// bishops are all light, a1 is dark.
	{"king fixed in the corner", "k7/1b6/2b5/3b4/4b3/1pB2b2/pP4b1/K6b w - - 0 1", bb.Black, true},
	// Pieces hemmed in by their own fixed men: rook h8 and bishop g8
	// behind the pawns on f7 and h7.
	{"rook and bishop hemmed in", "5kBR/4pPpP/1b2P1P1/8/1b6/1B5B/8/1B4K1 w - - 0 1", bb.White, true},
	// Black's king could take g2 or h5 only when White's king leaves it
	// no move: stalemate ends the game. White has only its king to move
	// (h3-h4): Black's mate on h4 would need h3 covered by its king from
	// h2, which it can only reach with White's king already on h4.
	{"king capture stalemates (white)", "8/b1b5/k6p/2b2p1P/1b3p2/5PpK/6P1/8 w - - 0 1", bb.White, true},
	{"king capture stalemates, last move (black)", "8/b1b5/k6p/2b2p1P/1b3p2/5PpK/6P1/8 w - - 0 1", bb.Black, true},
	// White's rook on a1 may be taken but never moves: the king on a2
	// and the bishop on b1 can only move onto each other's squares or
	// the rook's while it stands.
	{"jammed rook, king and bishop (white)", "B2b4/8/8/4k3/1p6/1Pp1p1pB/K1P1P1Pb/RB6 b - - 0 1", bb.White, true},
	{"jammed rook, king and bishop (black)", "B2b4/8/8/4k3/1p6/1Pp1p1pB/K1P1P1Pb/RB6 b - - 0 1", bb.Black, true},

	// White's seven light bishops circulate on the eight light squares
	// behind the pawns and can never leave them; whatever their
	// arrangement, each pawn on the sixth rank is guarded (a6 by b7, or
	// by c8 through an empty b7), so Black's king never takes one and
	// never reaches a square White could check.
	{"circulating bishops guard the pawns", "B1B1B1B1/pBpBpBp1/P1P1P1P1/8/8/8/8/k1K5 w - - 0 1", bb.White, true},
	// Black's dark bishops check White's king only on a dark square,
	// whose light neighbours no man can fill; Black's king, never next to
	// White's, covers at most one of them.
	{"one king covers few neighbours", "B1B1B1B1/pBpBpBp1/P1P1P1P1/8/8/4b3/3b4/k6K w - - 0 1", bb.Black, true},
	// White's only man is the queen; its king on c1 and Black's on b3
	// are walled in by Black's pawns, queen, bishop and knight, and no
	// line into b3 is open. Black's queen (to b1 or b2) and bishop (to
	// b2) could move only to mate White; every pawn of the wall the queen
	// can take stands next to Black's king, which must then take the
	// queen back (or the knight must, on c2), leaving a bare king; no
	// pawn of Black ever takes the queen for the same reason.
	{"moves that end the chance", "8/6pp/8/4q3/ppp5/bkp4Q/qnp2p2/n1K5 b - - 0 1", bb.White, true},

	// Must not fire: the b7 pawn walks to b2 and mates the king that
	// can never leave c1 (a pawn bounded on its file still attacks).
	{"bounded pawn mates", "8/1p6/1k6/1b6/4p1p1/p2pP1P1/p1pP3B/rbK5 b - - 0 1", bb.Black, false},
	{"pawn promotes behind the wall", "1b3kBR/4pP1P/1p1pP2P/1P1P4/8/1K1B2p1/1P4P1/8 b - - 0 1", bb.White, false},
	// Black moves only its king; the rook mates at once (Ra8), or after
	// the king's move to g8.
	{"only king moves, mate in one", "7k/8/6K1/8/3p4/3P4/8/R7 w - - 0 1", bb.White, false},
	{"only king moves, mate after its move", "7k/8/6K1/8/3p4/3P4/8/R7 b - - 0 1", bb.White, false},
	// With two of the eight squares empty, b7 and c8 may both be: a6 is
	// then unguarded, Black's king takes it and the a-pawn promotes.
	{"circulating bishops with two holes", "B1B1B1B1/pBp1pBp1/P1P1P1P1/8/8/8/8/k1K5 w - - 0 1", bb.Black, false},
	// Variants of "moves that end the chance" with a mate: without the
	// knight on a1 nothing takes a queen on c2 back (Qd3, Qxc2 mate); a
	// bishop on a1 does not guard c2 either; a rook taking on c2 gives no
	// check, so nothing forces Black to take it (the walk finds a mate);
	// a bishop on a2 gives no check from b1 and may move.
	{"no knight to take back on c2", "8/6pp/8/4q3/ppp5/bkp4Q/qnp2p2/2K5 b - - 0 1", bb.White, false},
	{"a bishop does not take back on c2", "8/6pp/8/4q3/ppp5/bkp4Q/qnp2p2/b1K5 b - - 0 1", bb.White, false},
	{"a lone rook's captures", "8/6pp/8/4q3/ppp5/bkp4R/qnp2p2/n1K5 b - - 0 1", bb.White, false},
	{"a bishop on a2 never checks from b1", "8/6pp/8/4q3/ppp5/bkp4Q/bnp2p2/n1K5 b - - 0 1", bb.White, false},
	// Black's bishop is taken by a pawn, which a lone man's rule must not
	// rule out when White has more than one man.
	{"pawns take a piece of two", "8/7p/k4p1P/3b1p1K/5Pp1/6P1/6P1/8 w - - 0 1", bb.Black, false},
	// The king's capture of g2 is answered by the f-pawn: no stalemate.
	{"capture does not stalemate", "8/8/8/8/3k4/5PpK/6P1/8 w - - 0 1", bb.Black, false},
	// Black's knight on h2 has two moves, Nf1+ and Ng4+, each mate of
	// White's walled-in king (no White man ever reaches a light square
	// to take the knight, f1 is not next to the king): it never moves,
	// no pawn ever captures, and White's dark bishops never mate Black's
	// king, which has only its light bishop to fill a light neighbour.
	{"a knight whose every move mates", "6b1/8/1k6/3p1p2/3PpP1B/3pKp2/3P1P1n/B7 w - - 0 1", bb.White, true},
	// Look-alikes where White mates: the knight on g1 has a quiet move
	// (to e2, then on to e5 for the d-pawn to take); without the d2 pawn
	// White's king steps to d2 out of Nf1+; a light bishop on d1 or h1
	// takes pawns of the chain.
	{"a knight with a quiet move", "6b1/8/1k6/3p1p2/3PpP1B/3pKp2/3P1P2/B5n1 w - - 0 1", bb.White, false},
	{"a knight's check the king steps out of", "6b1/8/1k6/3p1p2/3PpP1B/3pKp2/5P1n/B7 w - - 0 1", bb.White, false},
	{"a light bishop beside the dark ones", "6b1/8/1k6/3p1p2/3PpP1B/3pKp2/3P1P1n/B2B4 w - - 0 1", bb.White, false},
	{"a light bishop in the corner", "6b1/8/1k6/3p1p2/3PpP1B/3pKp2/3P1P1n/B6B w - - 0 1", bb.White, false},
	// White's king in check from two fixed pawns must leave f3, a light
	// square whose one dark neighbour its bishop could fill, for good:
	// everywhere else it can go a light square has two or three dark
	// neighbours, and White has one dark bishop on its side of the chain
	// for Black's light bishops to need. With both White bishops there
	// (h1 with g1 and h2 filled) Black mates.
	{"a king that must leave the one mating square", "4k1b1/4B3/8/1p1p1p1p/pPpPpPpP/P1P1PKP1/b4B2/8 w - - 0 1", bb.Black, true},
	{"two blockers for a light corner", "4k1b1/8/8/1p1p1p1p/pPpPpPpP/P1P1PKP1/b2B1B2/8 w - - 0 1", bb.Black, false},
}

func TestConfinement(t *testing.T) {
	for _, tc := range confineCases {
		t.Run(tc.name, func(t *testing.T) {
			pos, err := bb.ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			before := pos
			if got := confinedUnwinnable(&pos, tc.side); got != tc.fire {
				t.Fatalf("confinedUnwinnable(%s, %s) = %v, want %v", tc.fen, tc.side, got, tc.fire)
			}
			if pos != before {
				t.Fatal("the position was changed")
			}
			if tc.fire {
				return
			}
			// Where a mate exists, the analyzer must find it or give up,
			// never call it unwinnable.
			r, err := CanMate(tc.fen, tc.side, Options{Mode: Full, NodeBudget: 200_000})
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict == Unwinnable {
				t.Fatalf("%s for %s: unwinnable (%s), but a mate exists", tc.fen, tc.side, r.Reason)
			}
			if r.Verdict == Winnable {
				assertMateLine(t, tc.fen, tc.side, r.Line)
			}
		})
	}
}

// TestMaterialRules covers the material rules for a lone knight against
// queens and one-coloured bishops against rooks, queens and bishops of
// their colour, and the material just outside them, where a mate exists.
func TestMaterialRules(t *testing.T) {
	cases := []struct {
		name string
		fen  string
		side bb.Color
		fire bool
	}{
		{"bishop vs rook", "3kr3/8/8/8/8/3KB3/8/8 b - - 0 1", bb.White, true},
		{"bishop vs queen and bishop of its colour", "3kqb2/8/8/8/8/3KB3/8/8 w - - 0 1", bb.White, true},
		{"two bishops vs two rooks", "5b2/4bk2/8/8/8/8/3KR3/3R4 w - - 0 1", bb.Black, true},
		{"four bishops vs queens and rooks", "4k3/qqqqqqqq/1rrrr3/8/8/8/B1B1B1B1/4K3 w - - 0 1", bb.White, true},
		{"knight vs three queens", "1q1q1q2/1k6/8/8/8/2K5/2N5/8 b - - 0 1", bb.White, true},
		{"knight vs queens", "4k3/qqqqqqqq/8/4N3/8/8/8/4K3 b - - 0 1", bb.White, true},
		// Outside the rules: a knight or a bishop of the other colour can
		// stand on a square no rook may, and a rook takes a knight sideways.
		{"bishop vs rook and knight", "3kr3/3n4/8/8/8/3KB3/8/8 b - - 0 1", bb.White, false},
		{"knight vs queen and rook", "k7/r7/q7/8/3N4/8/8/4K3 w - - 0 1", bb.White, false},
		{"bishops of both colours", "3kr3/8/8/8/8/3KBB2/8/8 b - - 0 1", bb.White, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pos, err := bb.ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			if got := insufficient(&pos, tc.side) != ""; got != tc.fire {
				t.Fatalf("insufficient(%s, %s) fired = %v, want %v", tc.fen, tc.side, got, tc.fire)
			}
		})
	}
}

// TestDeepWalk needs the exhaustive walk to go some 600,000 plies deep
// before it has seen every reachable position: the bishops and kings roam
// behind the locked pawns, the knights are hemmed in. The walk runs with
// the static proofs off (the confinement proof closes this position).
func TestDeepWalk(t *testing.T) {
	if testing.Short() {
		t.Skip("a full-budget walk")
	}
	const fen = "k7/1p6/1Pp5/n1P5/N1p5/1pP1B3/1P1B4/K7 w - - 0 1"
	pos, err := bb.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	a := NewAnalyzer(Options{Mode: Full})
	a.s.reset(&pos, bb.White)
	if !staticVerdictOK(&pos, bb.White) {
		t.Error("the static proofs do not close a position the walk proves dead")
	}
	r, ok := a.s.walk(2_000_000, false)
	if !ok || r.Verdict != Unwinnable {
		t.Fatalf("walk: %v %v after %d nodes, want a proof", ok, r.Verdict, a.s.nodes)
	}
	if a.s.pos != pos {
		t.Fatal("the walk did not restore the position")
	}
}

// staticVerdict applies the material rules, the frozen-pawn proof and
// the confinement proof to the position itself, as Analyze does before
// (or, in quick mode, soon after) any search.
func staticVerdict(pos *bb.Position, side bb.Color) (Result, bool) {
	if why := insufficient(pos, side); why != "" {
		return Result{Verdict: Unwinnable, Reason: why}, true
	}
	return structureVerdict(pos, side)
}

func staticVerdictOK(pos *bb.Position, side bb.Color) bool {
	_, ok := staticVerdict(pos, side)
	return ok
}

func TestArrangementGuard(t *testing.T) {
	sq := func(s string) uint64 { return 1 << uint(int(s[0]-'a')+8*int(s[1]-'1')) }
	region := sq("a8") | sq("b7") | sq("c8")
	// Two bishops on a8, b7, c8: a6 and c6 are attacked in all three
	// arrangements; d7 is not (a8 and b7 leave it alone).
	g := arrangementGuard(bb.Bishop, region, 2)
	if g&sq("a6") == 0 || g&sq("c6") == 0 || g&sq("d7") != 0 {
		t.Errorf("two bishops: guard %#x", g)
	}
	// One bishop: from a8 it attacks only b7 (lines stop outside the
	// region), so a6 is not attacked in every arrangement.
	if g := arrangementGuard(bb.Bishop, region, 1); g&sq("a6") != 0 {
		t.Errorf("one bishop: guard %#x holds a6", g)
	}
	if g := arrangementGuard(bb.Bishop, region, 4); g != 0 {
		t.Errorf("more bishops than squares: guard %#x", g)
	}
}

// TestEndingMoves checks the two judgements behind "moves that end the
// chance" on the confinement of that case, and that each turns on what it
// must: a White man able to take the checker, a neighbour of White's king
// left open, a recapture nobody can make.
func TestEndingMoves(t *testing.T) {
	sq := func(s string) bb.Square { return bb.Square(int(s[0]-'a') + 8*int(s[1]-'1')) }
	pos, err := bb.ParseFEN("8/6pp/8/4q3/ppp5/bkp4Q/qnp2p2/n1K5 b - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	cf := confine(&pos, bb.White)
	if !cf.ok {
		t.Fatal("no confinement")
	}
	// Black's queen to b1 or b2, its bishop to b2: mate.
	for _, m := range []struct {
		pt       bb.PieceType
		from, to string
	}{{bb.Queen, "a2", "b1"}, {bb.Queen, "a2", "b2"}, {bb.Bishop, "a3", "b2"}} {
		if !cf.matesSide(m.pt, sq(m.from), sq(m.to), 0) {
			t.Errorf("%s %s-%s: not judged mate", m.pt, m.from, m.to)
		}
		// Not when a White man other than the king could take it there.
		if cf.matesSide(m.pt, sq(m.from), sq(m.to), 1<<uint(sq(m.to))) {
			t.Errorf("%s %s-%s: judged mate though White can take on %s", m.pt, m.from, m.to, m.to)
		}
	}
	// A knight on b1 gives no check to a king on c1.
	if cf.matesSide(bb.Knight, sq("a3"), sq("b1"), 0) {
		t.Error("a knight on b1 judged to mate a king on c1")
	}
	// Without the c3 pawn's guard of b2 and d2 a queen on b1 is no mate.
	fixed := cf.fixedOf[bb.Black]
	cf.fixedOf[bb.Black] &^= 1 << uint(sq("c3"))
	if cf.matesSide(bb.Queen, sq("a2"), sq("b1"), 0) {
		t.Error("Qb1 judged mate with d2 and b2 unguarded")
	}
	cf.fixedOf[bb.Black] = fixed
	// Nor when nothing guards b1 (no c2 pawn), even were d1 filled by a
	// White man: White's king takes the queen.
	fixedW := cf.fixedOf[bb.White]
	cf.fixedOf[bb.Black] &^= 1 << uint(sq("c2"))
	cf.fixedOf[bb.White] |= 1 << uint(sq("d1"))
	if cf.matesSide(bb.Queen, sq("a2"), sq("b1"), 0) {
		t.Error("Qb1 judged mate with b1 unguarded")
	}
	cf.fixedOf[bb.Black], cf.fixedOf[bb.White] = fixed, fixedW
	// The queen taking a pawn of the wall next to Black's king is taken
	// back; c2 only thanks to the knight on a1.
	for _, x := range []string{"a4", "b4", "c4", "c3", "c2"} {
		if !cf.recaptured(bb.Queen, sq(x)) {
			t.Errorf("Qx%s: not judged a forced recapture", x)
		}
	}
	cf.fixedOf[bb.Black] &^= 1 << uint(sq("a1"))
	if cf.recaptured(bb.Queen, sq("c2")) {
		t.Error("Qxc2 judged recaptured without the knight on a1")
	}
	cf.fixedOf[bb.Black] = fixed
	// A rook on c4 gives no check to b3; a bishop on b4 neither.
	if cf.recaptured(bb.Rook, sq("c4")) || cf.recaptured(bb.Bishop, sq("b4")) {
		t.Error("a capture without check judged a forced recapture")
	}
	// With a2 empty Black's king steps away from a check on c4.
	cf.fixedOf[bb.Black] &^= 1 << uint(sq("a2"))
	if cf.recaptured(bb.Queen, sq("c4")) {
		t.Error("Qxc4 judged recaptured with a2 open to Black's king")
	}
	cf.fixedOf[bb.Black] = fixed

	// A knight's check from a square not next to the king needs no guard:
	// the king cannot take it. Nf1+ mates White's walled-in king on e3
	// unless a White man can take on f1; a knight on c1 gives no check.
	pos, err = bb.ParseFEN("6b1/8/1k6/3p1p2/3PpP1B/3pKp2/3P1P1n/B7 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	cf = confine(&pos, bb.White)
	if !cf.ok {
		t.Fatal("no confinement in the knight's position")
	}
	if !cf.matesSide(bb.Knight, sq("h2"), sq("f1"), 0) || !cf.matesSide(bb.Knight, sq("h2"), sq("g4"), 0) {
		t.Error("Nf1+ or Ng4+ not judged mate")
	}
	if cf.matesSide(bb.Knight, sq("h2"), sq("f1"), 1<<uint(sq("f1"))) {
		t.Error("Nf1+ judged mate though White can take on f1")
	}
	if cf.matesSide(bb.Knight, sq("h2"), sq("c1"), 0) {
		t.Error("a knight on c1 judged to mate a king on e3")
	}
	fixedW = cf.fixedOf[bb.White]
	cf.fixedOf[bb.White] &^= 1 << uint(sq("d4"))
	if cf.matesSide(bb.Knight, sq("h2"), sq("f1"), 0) {
		t.Error("Nf1+ judged mate with d4 open to White's king")
	}
	cf.fixedOf[bb.White] = fixedW
}
