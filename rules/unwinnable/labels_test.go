package unwinnable

import (
	"os"
	"testing"
	"time"

	bb "github.com/arbiterd/arbiterd/rules/bitboard"
)

// sample keeps every step-th position, starting with the first, so the
// subset is deterministic.
func sample(set []labelled, step int) []labelled {
	var out []labelled
	for i := 0; i < len(set); i += step {
		out = append(out, set[i])
	}
	return out
}

// TestPositionsLabels checks the analyzer against the labels of
// positions.txt (hard, community-submitted positions) for both sides:
// never a wrong answer, every mate line replayed with notnil/chess.
// By default a deterministic subset runs with a modest budget (the race
// detector makes search ~10× slower); ARBITERD_UNWINNABLE_FULL=1 runs
// every position in full mode with the default full budget, where an
// undetermined answer is a failure too (CI runs it so).
func TestPositionsLabels(t *testing.T) {
	set := readLabelled(t, "positions.txt")
	opt := Options{Mode: Full, NodeBudget: 5_000}
	switch {
	case os.Getenv("ARBITERD_UNWINNABLE_FULL") != "":
		opt.NodeBudget = 0
	case testing.Short():
		set = sample(set, 32)
	default:
		set = sample(set, 8)
	}
	start := time.Now()
	agree, und, wrong := checkAgainstLabels(t, set, opt)
	t.Logf("positions.txt %d positions, %s budget %d: %d agree, %d undetermined, %d wrong of %d queries in %v",
		len(set), opt.Mode, opt.budget(), agree, und, wrong, 2*len(set), time.Since(start).Round(time.Millisecond))
	if opt.NodeBudget == 0 && und > 0 {
		t.Errorf("%d undetermined answers in full mode, want none", und)
	}
}

// TestPositionsQuickSound runs quick mode over a subset of positions.txt:
// it may give up, but never answers wrongly.
func TestPositionsQuickSound(t *testing.T) {
	set := sample(readLabelled(t, "positions.txt"), 8)
	if testing.Short() {
		set = sample(set, 4)
	}
	agree, und, wrong := checkAgainstLabels(t, set, Options{Mode: Quick})
	t.Logf("positions.txt quick, %d positions: %d agree, %d undetermined, %d wrong", len(set), agree, und, wrong)
}

// TestLichessSample checks a deterministic sample of lichess-65k.txt in
// quick mode, which must also prove every query labelled unwinnable
// (ARBITERD_UNWINNABLE_FULL=1: every position, full mode).
func TestLichessSample(t *testing.T) {
	set := readLabelled(t, "lichess-65k.txt")
	opt := Options{Mode: Quick}
	switch {
	case os.Getenv("ARBITERD_UNWINNABLE_FULL") != "":
		opt.Mode = Full
	case testing.Short():
		set = sample(set, 1024)
	default:
		set = sample(set, 256)
	}
	start := time.Now()
	agree, und, wrong := checkAgainstLabels(t, set, opt)
	t.Logf("lichess-65k %d positions, %s: %d agree, %d undetermined, %d wrong in %v",
		len(set), opt.Mode, agree, und, wrong, time.Since(start).Round(time.Millisecond))
	if opt.Mode == Quick {
		assertQuickProvesDead(t, set)
	}
}

// assertQuickProvesDead checks that quick mode proves every query the
// labels call unwinnable: the live daemon's analysis must find the draws
// (a flag fall where the opponent cannot mate) without the full retry.
func assertQuickProvesDead(t *testing.T, set []labelled) {
	a := NewAnalyzer(Options{Mode: Quick})
	dead := 0
	for _, q := range set {
		pos, err := bb.ParseFEN(q.fen)
		if err != nil {
			t.Fatalf("line %d: %v", q.line, err)
		}
		for _, side := range []bb.Color{bb.White, bb.Black} {
			if q.canMate[side] {
				continue
			}
			dead++
			if r := a.Analyze(&pos, side); r.Verdict != Unwinnable {
				t.Errorf("line %d %s %s: quick mode says %s for %s, the label says it cannot mate", q.line, q.labelTxt, q.fen, r.Verdict, side)
			}
		}
	}
	if dead == 0 {
		t.Error("no query labelled unwinnable in the sample: nothing checked")
	}
}

// TestStaticProofsSound runs the static proofs alone (material rules,
// frozen pawns, mating nets) on every labelled position of both files
// and both sides: a proof must never contradict a label.
func TestStaticProofsSound(t *testing.T) {
	for _, name := range []string{"positions.txt", "lichess-65k.txt"} {
		proved := 0
		for _, q := range readLabelled(t, name) {
			pos, err := bb.ParseFEN(q.fen)
			if err != nil {
				t.Fatalf("%s:%d: %v", name, q.line, err)
			}
			for _, side := range []bb.Color{bb.White, bb.Black} {
				r, ok := staticVerdict(&pos, side)
				if !ok {
					continue
				}
				proved++
				if q.canMate[side] {
					t.Errorf("%s:%d %s %s: static proof %q for %s, but the label says it can mate", name, q.line, q.labelTxt, q.fen, r.Reason, side)
				}
			}
		}
		t.Logf("%s: %d static proofs", name, proved)
	}
}
