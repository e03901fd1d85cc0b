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
// fails. Run with ARBITERD_CENSUS=1 (every position) or a larger step.
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
	var tt tally
	for _, q := range timeoutQueries(t) {
		add(&tt, a.Analyze(&q.pos, q.side))
	}
	var lt tally
	wrong := 0
	for _, q := range sample(readLabelled(t, "lichess-65k.txt"), step) {
		pos, err := bb.ParseFEN(q.fen)
		if err != nil {
			t.Fatal(err)
		}
		for _, side := range []bb.Color{bb.White, bb.Black} {
			r := a.Analyze(&pos, side)
			add(&lt, r)
			if r.Verdict != Undetermined && (r.Verdict == Winnable) != q.canMate[side] {
				wrong++
				t.Errorf("lichess line %d %s: %s for %s", q.line, q.fen, r.Verdict, side)
			}
		}
	}
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
	t.Logf("lichess wrong: %d", wrong)
}
