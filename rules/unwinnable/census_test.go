package unwinnable

import (
	"math"
	"os"
	"testing"

	bb "github.com/arbiterd/arbiterd/rules/bitboard"
)

// TestQuickCensus answers, in quick mode, every query of timeouts-30k and
// of lichess-65k (both sides; every ARBITERD_CENSUS-th position) and logs
// the verdicts and the nodes spent, in all and in the queries the first
// look answers: node counts are deterministic, so a change of heuristic
// can be weighed without timing it. A wrong answer against the labels
// fails, and so does a mate line that does not replay to mate (every
// line with bitboard's moves, every 25th also with notnil/chess's). Run
// with ARBITERD_CENSUS=1 (every position) or a larger step.
func TestQuickCensus(t *testing.T) {
	if os.Getenv("ARBITERD_CENSUS") == "" {
		t.Skip("set ARBITERD_CENSUS to a step (1 = every lichess position)")
	}
	step := envCount(t, "ARBITERD_CENSUS", 1, 1, math.MaxInt)
	a := NewAnalyzer(Options{Mode: Quick})
	type tally struct {
		verdicts             [3]int
		nodes, first, firstN int64
		vnodes               [3]int64
	}
	add := func(c *tally, r Result) {
		c.verdicts[r.Verdict]++
		c.nodes += r.Nodes
		c.vnodes[r.Verdict] += r.Nodes
		if r.Verdict == Winnable && r.Nodes <= firstLook {
			c.first++
			c.firstN += r.Nodes
		}
	}
	// The same tallies by the class of the winner's material at the
	// query (quick mode's weights) and for a lone knight or bishop, by
	// file (timeouts-30k, lichess-65k).
	var byClass [2][weightClasses]tally
	var lone [2]tally
	addBy := func(file int, pos *bb.Position, side bb.Color, r Result) {
		if insufficient(pos, side) != "" {
			return // answered by the material rules, before any weights
		}
		add(&byClass[file][weightClassOf(pos, side)], r)
		if l := loneMan(pos, side); l == bb.Knight || l == bb.Bishop {
			add(&lone[file], r)
		}
	}
	lines, notnil := 0, 0
	replay := func(pos *bb.Position, side bb.Color, r Result) {
		if r.Verdict != Winnable {
			return
		}
		assertMateLineFast(t, *pos, side, r.Line)
		if lines%25 == 0 {
			assertMateLine(t, pos.FEN(), side, r.Line)
			notnil++
		}
		lines++
	}
	var tt tally
	for _, q := range timeoutQueries(t) {
		r := a.Analyze(&q.pos, q.side)
		add(&tt, r)
		addBy(0, &q.pos, q.side, r)
		replay(&q.pos, q.side, r)
	}
	var lt tally
	wrong := 0
	// Where quick mode's first look ends without mate on lichess-65k, as
	// the plain line alone (unmended) and as quick mode runs it (mended):
	// the count of each plainEnd.
	var look searcher
	look.byClass = &quickWeights
	var ends [2][endNoMateInOne + 1]int
	lookEnds := func(pos *bb.Position, side bb.Color) {
		if insufficient(pos, side) != "" {
			return
		}
		for i, repairs := range [2]int{0, quickRepairs} {
			if found, _, _, _ := plainLine(t, &look, pos, side, repairs, firstLook); !found {
				ends[i][look.plainEnd]++
			}
		}
	}
	forLichessSample(t, step, func(q labelled, pos *bb.Position, side bb.Color) {
		r := a.Analyze(pos, side)
		add(&lt, r)
		addBy(1, pos, side, r)
		replay(pos, side, r)
		lookEnds(pos, side)
		if r.Verdict != Undetermined && (r.Verdict == Winnable) != q.canMate[side] {
			wrong++
			t.Errorf("lichess line %d %s: %s for %s", q.line, q.fen, r.Verdict, side)
		}
	})
	for _, c := range []struct {
		name string
		t    *tally
	}{{"timeouts-30k", &tt}, {"lichess-65k", &lt}} {
		t.Logf("%s: %d winnable, %d unwinnable, %d undetermined; %d nodes; first look %d queries, %d nodes (%.1f a query)",
			c.name, c.t.verdicts[Winnable], c.t.verdicts[Unwinnable], c.t.verdicts[Undetermined], c.t.nodes,
			c.t.first, c.t.firstN, float64(c.t.firstN)/float64(max(c.t.first, 1)))
		t.Logf("%s: nodes by verdict: winnable after the first look %d, unwinnable %d, undetermined %d",
			c.name, c.t.vnodes[Winnable]-c.t.firstN, c.t.vnodes[Unwinnable], c.t.vnodes[Undetermined])
	}
	classNames := [weightClasses]string{queenClass: "a queen", rookClass: "a rook", minorClass: "a minor piece", pawnClass: "pawns only"}
	for f, name := range [2]string{"timeouts-30k", "lichess-65k"} {
		for c := range byClass[f] {
			x := &byClass[f][c]
			t.Logf("%s, the winner with %s: %d queries, %d nodes, first look %d nodes, %d undetermined",
				name, classNames[c], x.verdicts[Winnable]+x.verdicts[Unwinnable]+x.verdicts[Undetermined], x.nodes, x.firstN, x.verdicts[Undetermined])
		}
		x := &lone[f]
		t.Logf("%s, a lone knight or bishop: %d queries, %d nodes, %d undetermined",
			name, x.verdicts[Winnable]+x.verdicts[Unwinnable]+x.verdicts[Undetermined], x.nodes, x.verdicts[Undetermined])
	}
	for i, name := range [2]string{"unmended", "mended"} {
		e := &ends[i]
		t.Logf("lichess-65k: the first look, %s, ends without mate on %d queries: the loser stalemated %d, a position passed %d, "+
			"the winner left without mating men %d, the winner mated or stalemated %d, out of budget %d, of depth %d, no mate in one at the end %d",
			name, e[endBudget]+e[endDepth]+e[endRepeat]+e[endLostMen]+e[endLoserStuck]+e[endWinnerStuck]+e[endNoMateInOne],
			e[endLoserStuck], e[endRepeat], e[endLostMen], e[endWinnerStuck], e[endBudget], e[endDepth], e[endNoMateInOne])
	}
	t.Logf("lichess wrong: %d; %d mate lines replayed to mate, %d of them also with notnil/chess", wrong, lines, notnil)
}

// TestShortestHelpmates measures how long quick mode's first-look lines
// are against the mates a full-width search finds: on every
// ARBITERD_SHORTEST-th position of lichess-65k (both sides), for the
// queries the first look answers, the full-width iterative deepening of
// helpmate (forced moves not counted against the depth) on up to 3
// million nodes. It logs both average lengths in plies and how many
// queries the full-width search leaves unanswered, and replays every
// line it finds to mate. Run with ARBITERD_SHORTEST=200 (about a minute).
func TestShortestHelpmates(t *testing.T) {
	if os.Getenv("ARBITERD_SHORTEST") == "" {
		t.Skip("set ARBITERD_SHORTEST to a step (200: every 200th lichess position)")
	}
	step := envCount(t, "ARBITERD_SHORTEST", 200, 1, math.MaxInt)
	a := NewAnalyzer(Options{Mode: Quick, Moves: true})
	var s searcher
	s.byClass = &quickWeights
	s.tt = newTable(20)
	n, none, firstPlies, shortPlies := 0, 0, 0, 0
	forLichessSample(t, step, func(_ labelled, pos *bb.Position, side bb.Color) {
		r := a.Analyze(pos, side)
		if r.Verdict != Winnable || r.Nodes > firstLook {
			return
		}
		first := len(r.Moves)
		s.reset(pos, side)
		h, ok := s.helpmate(3_000_000)
		if !ok || h.Verdict != Winnable {
			none++
			return
		}
		assertMateLineFast(t, *pos, side, h.Line)
		n++
		firstPlies += first
		shortPlies += len(h.Line)
	})
	if n == 0 {
		t.Fatal("no query answered by both searches")
	}
	t.Logf("%d queries: the first look's lines %.1f plies on average, full width's %.1f; %d more without a full-width mate in 3 M nodes",
		n, float64(firstPlies)/float64(n), float64(shortPlies)/float64(n), none)
}

// forLichessSample calls visit for both sides of every step-th position
// of lichess-65k.
func forLichessSample(t *testing.T, step int, visit func(q labelled, pos *bb.Position, side bb.Color)) {
	t.Helper()
	for _, q := range sample(readLabelled(t, "lichess-65k.txt"), step) {
		pos, err := bb.ParseFEN(q.fen)
		if err != nil {
			t.Fatal(err)
		}
		for _, side := range []bb.Color{bb.White, bb.Black} {
			visit(q, &pos, side)
		}
	}
}
