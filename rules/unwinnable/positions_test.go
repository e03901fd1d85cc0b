package unwinnable

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	bb "github.com/arbiterd/arbiterd/rules/bitboard"
)

// TestPositionsSurvey is a development aid: with ARBITERD_SURVEY=budget it
// runs positions.txt at that budget and writes undetermined queries to
// /tmp/undetermined.txt.
func TestPositionsSurvey(t *testing.T) {
	budget, err := strconv.ParseInt(os.Getenv("ARBITERD_SURVEY"), 10, 64)
	if err != nil {
		t.Skip("set ARBITERD_SURVEY=budget")
	}
	set := readLabelled(t, "positions.txt")
	a := NewAnalyzer(Options{Mode: Full, NodeBudget: budget})
	out, _ := os.Create("/tmp/undetermined.txt")
	defer out.Close()
	start := time.Now()
	var agree, und, wrong int
	for _, q := range set {
		pos, err := bb.ParseFEN(q.fen)
		if err != nil {
			t.Errorf("line %d: %v", q.line, err)
			continue
		}
		for _, side := range []bb.Color{bb.White, bb.Black} {
			r := a.Analyze(&pos, side)
			switch {
			case r.Verdict == Undetermined:
				und++
				fmt.Fprintf(out, "%s %s %s\n", q.labelTxt, q.fen, side)
			case (r.Verdict == Winnable) == q.canMate[side]:
				agree++
			default:
				wrong++
				t.Errorf("line %d %s %s: %s for %s (%s)", q.line, q.labelTxt, q.fen, r.Verdict, side, r.Reason)
			}
		}
	}
	t.Logf("budget %d: %d agree, %d undetermined, %d wrong in %v", budget, agree, und, wrong, time.Since(start))
}
