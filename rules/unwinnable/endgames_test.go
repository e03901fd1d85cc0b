package unwinnable

import (
	"math"
	"math/rand/v2"
	"os"
	"testing"

	bb "github.com/arbiterd/arbiterd/rules/bitboard"
)

// randomEndgameN places both kings and one to most other men (any type,
// either colour, pawns off the first and last ranks) on random squares,
// with a random side to move. It reports false for an illegal position
// (the side not to move in check, kings touching, ...) or one where the
// game is over.
func randomEndgameN(rng *rand.Rand, most int) (bb.Position, bool) {
	var board [64]byte
	for i := range board {
		board[i] = '.'
	}
	place := func(c byte) {
		for {
			s := rng.IntN(64)
			if (c == 'P' || c == 'p') && (s < 8 || s >= 56) {
				continue
			}
			if board[s] == '.' {
				board[s] = c
				return
			}
		}
	}
	place('K')
	place('k')
	const men = "QRBNPqrbnp"
	for n := 1 + rng.IntN(most); n > 0; n-- {
		place(men[rng.IntN(len(men))])
	}
	return boardFEN(&board, "wb"[rng.IntN(2)])
}

// TestRandomEndgames asks both sides of random endgames of up to six men,
// positions no data set holds, as the live daemon does (quick mode with
// its line budget, then full mode with the retry budget when quick mode
// is undetermined) and in full mode: the answers never contradict each
// other, and every mate line replays to mate with notnil/chess. The counts
// are logged. ARBITERD_ENDGAMES sets the number of positions (default
// 300, 60 under the race detector), ARBITERD_ENDGAME_MEN the most men on
// the board, kings included (default 6, at least 3);
// ARBITERD_ENDGAME_FULL=1 asks full mode with its default budget and
// fails on an undetermined answer.
func TestRandomEndgames(t *testing.T) {
	n := 300
	if raceEnabled || testing.Short() {
		n = 60
	}
	n = envCount(t, "ARBITERD_ENDGAMES", n, 0, math.MaxInt)
	most := envCount(t, "ARBITERD_ENDGAME_MEN", 6, 3, 32)
	rng := rand.New(rand.NewPCG(21, 22))
	quick := NewAnalyzer(Options{Mode: Quick, LineBudget: QuickLineBudget})
	retry := NewAnalyzer(Options{Mode: Full, NodeBudget: 1_000_000})
	// Full mode on a small budget by default; ARBITERD_ENDGAME_FULL=1
	// gives it the default full budget (lines as found) and makes an
	// undetermined answer a failure.
	strict := os.Getenv("ARBITERD_ENDGAME_FULL") != ""
	fullOpt := Options{Mode: Full, NodeBudget: 100_000}
	if strict {
		fullOpt = Options{Mode: Full, LineBudget: -1}
	}
	full := NewAnalyzer(fullOpt)
	count := map[string]int{}
	for done := 0; done < n; {
		pos, ok := randomEndgameN(rng, most-2)
		if !ok {
			continue
		}
		done++
		crossCheck(t, &pos, "", analyzers{quick, retry, full}, strict, count)
	}
	t.Logf("%d random endgames of up to %d men, both sides: %v", n, most, count)
}

// analyzers are the three a random position is checked with: the daemon's
// (quick, then a full retry of what it leaves undetermined) and full mode.
type analyzers struct{ quick, retry, full *Analyzer }

// crossCheck analyses pos for both sides the daemon's way and in full mode,
// counts the verdicts (keys prefixed by kind), and fails on a full-mode
// undetermined when strict, on the two disagreeing, and on a mate line that
// does not mate.
func crossCheck(t *testing.T, pos *bb.Position, kind string, a analyzers, strict bool, count map[string]int) {
	t.Helper()
	fen := pos.FEN()
	for _, side := range []bb.Color{bb.White, bb.Black} {
		daemon := a.quick.Analyze(pos, side)
		count[kind+"quick "+daemon.Verdict.String()]++
		if daemon.Verdict == Undetermined {
			daemon = a.retry.Analyze(pos, side)
			count[kind+"after retry "+daemon.Verdict.String()]++
		}
		other := a.full.Analyze(pos, side)
		count[kind+"full "+other.Verdict.String()]++
		if strict && other.Verdict == Undetermined {
			t.Errorf("%s for %s: undetermined in full mode", fen, side)
		}
		if daemon.Verdict != Undetermined && other.Verdict != Undetermined && daemon.Verdict != other.Verdict {
			t.Errorf("%s for %s: the daemon's analysis says %s (%s), full mode %s (%s)",
				fen, side, daemon.Verdict, daemon.Reason, other.Verdict, other.Reason)
		}
		for _, r := range []Result{daemon, other} {
			if r.Verdict == Winnable {
				assertMateLine(t, fen, side, r.Line)
			}
		}
	}
}
