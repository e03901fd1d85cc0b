package rules

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// bruteForce lists every legal sequence of exactly d plies from p that reaches
// t, without any pruning (the game-end checks aside, which these positions do
// not reach).
func bruteForce(p position, t *target, d int, path []move, out *[]string) {
	if d == 0 {
		if t.matches(&p) {
			s := ""
			for _, m := range path {
				s += m.uci() + " "
			}
			*out = append(*out, s)
		}
		return
	}
	for _, m := range p.genLegal(nil) {
		c := p
		c.apply(m)
		bruteForce(c, t, d-1, append(path, m), out)
	}
}

// TestSearchPruningIsSound compares the pruned search with plain enumeration:
// pruning may only skip branches that cannot reach the snapshot, so both must
// list exactly the same sequences.
func TestSearchPruningIsSound(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	cases := 120
	if testing.Short() || raceEnabled {
		cases = 30
	}
	compared, found := 0, 0
	for i := 0; i < cases; i++ {
		fen := ""
		if i%3 == 2 {
			fen = endgames[i%len(endgames)]
		}
		g := mustGame(t, fen)
		playRandom(t, g, rng, rng.IntN(40))
		if g.Status().Over {
			continue
		}
		truth := g.Clone()
		d := 1 + i%4
		if playRandom(t, truth, rng, d) != d {
			continue
		}
		snap := SnapshotOf(truth.Position())
		snap.OccupancyOnly = i%4 == 1
		tg := targetOf(snap)
		var want []string
		bruteForce(g.positions[g.Ply()], &tg, d, nil, &want)
		var got []string
		for _, seq := range g.search(g.Ply(), &tg, d, nil) {
			s := ""
			for _, m := range seq {
				s += m.uci() + " "
			}
			got = append(got, s)
		}
		slices.Sort(want)
		slices.Sort(got)
		compared++
		found += len(want)
		if !slices.Equal(got, want) {
			t.Fatalf("case %d from %s, %d plies (occupancy %v):\n pruned %v\n all    %v", i, g.FEN(), d, snap.OccupancyOnly, got, want)
		}
	}
	t.Logf("%d cases compared, %d sequences", compared, found)
}
