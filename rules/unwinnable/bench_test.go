package unwinnable

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bb "github.com/arbiterd/arbiterd/rules/bitboard"
)

type benchQuery struct {
	pos  bb.Position
	side bb.Color
}

// timeoutQueries reads timeouts-30k.txt: each line a FEN and a game id;
// the query is about the side not to move (still on time).
func timeoutQueries(b testing.TB) []benchQuery {
	f, err := os.Open(filepath.Join(dataDir(b), "timeouts-30k.txt"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var qs []benchQuery
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" || l[0] == '#' {
			continue
		}
		q, err := ParseQuery(l)
		if err != nil {
			b.Fatal(err)
		}
		pos, _ := bb.ParseFEN(q.FEN)
		qs = append(qs, benchQuery{pos, q.Side})
	}
	return qs
}

func labelledQueries(b *testing.B, name string) []benchQuery {
	var qs []benchQuery
	for _, q := range readLabelled(b, name) {
		pos, err := bb.ParseFEN(q.fen)
		if err != nil {
			b.Fatal(err)
		}
		qs = append(qs, benchQuery{pos, bb.White}, benchQuery{pos, bb.Black})
	}
	return qs
}

// runQueries answers every query once per iteration and reports the
// average and maximum time per query and the undetermined count.
func runQueries(b *testing.B, qs []benchQuery, opt Options) {
	a := NewAnalyzer(opt)
	var worst time.Duration
	var total time.Duration
	var n, und int
	for b.Loop() {
		for i := range qs {
			start := time.Now()
			r := a.Analyze(&qs[i].pos, qs[i].side)
			d := time.Since(start)
			total += d
			worst = max(worst, d)
			n++
			if r.Verdict == Undetermined {
				und++
			}
		}
	}
	b.ReportMetric(float64(total.Microseconds())/float64(n), "µs/query")
	b.ReportMetric(float64(worst.Microseconds()), "max-µs")
	b.ReportMetric(float64(und)/float64(b.N), "undetermined")
}

func BenchmarkTimeoutsQuick(b *testing.B) { runQueries(b, timeoutQueries(b), Options{Mode: Quick}) }
func BenchmarkTimeoutsFull(b *testing.B)  { runQueries(b, timeoutQueries(b), Options{Mode: Full}) }
func BenchmarkLichessQuick(b *testing.B) {
	runQueries(b, labelledQueries(b, "lichess-65k.txt"), Options{Mode: Quick})
}
func BenchmarkPositionsFull(b *testing.B) {
	runQueries(b, labelledQueries(b, "positions.txt"), Options{Mode: Full})
}

// BenchmarkCanMateRetry is one call as the daemon's pipeline makes it
// when quick mode is undetermined: a fresh analysis with a 200,000-node
// full-mode budget (its tables are allocated per call).
func BenchmarkCanMateRetry(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := CanMate("8/8/8/4k3/8/8/8/4K2R w - - 0 1", bb.White, Options{Mode: Full, NodeBudget: 200_000}); err != nil {
			b.Fatal(err)
		}
	}
}
