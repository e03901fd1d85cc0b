package unwinnable

import (
	"math"
	"math/rand/v2"
	"os"
	"testing"

	bb "github.com/arbiterd/arbiterd/rules/bitboard"
)

// TestProofsAgainstSearch checks the pawn-structure proofs (the frozen
// pawns and the confinement) where the exhaustive walk uses them: deep
// inside the tree, on positions no label covers. From the positions of
// positions.txt it plays random legal moves; wherever a proof says a side
// can never mate, the helpmate searches, which never use those proofs,
// look for a mate, and finding one (replayed with notnil/chess) is a
// failure. By default one playout starts from every fourth position
// (every sixteenth with -short, every 32nd under the race detector);
// ARBITERD_PROOF_WALKS=n plays n from every position (and
// ARBITERD_PROOF_SET names another labelled file to start from).
func TestProofsAgainstSearch(t *testing.T) {
	set := readLabelled(t, "positions.txt")
	walks, plies := 1, 24
	switch {
	case raceEnabled:
		set = sample(set, 32)
	case testing.Short():
		set = sample(set, 16)
	default:
		set = sample(set, 4)
	}
	if os.Getenv("ARBITERD_PROOF_WALKS") != "" {
		set = readLabelled(t, "positions.txt")
		if f := os.Getenv("ARBITERD_PROOF_SET"); f != "" {
			set = readLabelled(t, f)
		}
		walks = envCount(t, "ARBITERD_PROOF_WALKS", 0, 0, math.MaxInt)
	}
	rng := rand.New(rand.NewPCG(6, 9))
	a := NewAnalyzer(Options{Mode: Full, NodeBudget: 20_000})
	var ml bb.MoveList
	fired, checked := 0, 0
	for _, q := range set {
		root, err := bb.ParseFEN(q.fen)
		if err != nil {
			t.Fatalf("line %d: %v", q.line, err)
		}
		for w := 0; w < walks; w++ {
			pos := root
			for ply := 0; ply <= plies; ply++ {
				for _, side := range []bb.Color{bb.White, bb.Black} {
					checked++
					if !frozenUnwinnable(&pos, side) && !confinedUnwinnable(&pos, side) {
						continue
					}
					fired++
					if line, ok := searchMate(a, &pos, side); ok {
						fen := pos.FEN()
						assertMateLine(t, fen, side, line)
						t.Errorf("line %d, walk %d, ply %d: %s: a proof says %s can never mate, but %v mates",
							q.line, w, ply, fen, side, line)
					}
				}
				pos.LegalMoves(&ml)
				if ml.N == 0 {
					break
				}
				pos.Make(ml.Moves[rng.IntN(ml.N)])
			}
		}
	}
	t.Logf("%d positions × %d walks: the proofs fired %d times in %d queries, no mate found against them", len(set), walks, fired, checked)
}

// searchMate runs the analyzer's helpmate searches, without the proofs
// and the walk, on the position for side.
func searchMate(a *Analyzer, pos *bb.Position, side bb.Color) ([]string, bool) {
	s := &a.s
	s.reset(pos, side)
	budget := a.opt.budget()
	for _, phase := range []func() (Result, bool){
		func() (Result, bool) { return s.probeShort(probeBudget, probeDisc) },
		func() (Result, bool) { return s.lds(budget/4, 8) },
		func() (Result, bool) { return s.goalLDS(budget/4, goalTargets, goalMaxDisc, true) },
		func() (Result, bool) { return s.helpmate(budget / 4) },
	} {
		if r, ok := phase(); ok && r.Verdict == Winnable {
			return r.Line, true
		}
	}
	return nil, false
}
