package unwinnable

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
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
// time per query (average, median, 99th percentile and maximum), the
// heap allocations per query and the undetermined count per pass. The
// times are given twice: by the wall clock, and as the CPU time of the
// thread the benchmark is locked to (cpu-…, less the cost of reading that
// clock), which stays meaningful when other work shares the machine.
func runQueries(b *testing.B, qs []benchQuery, opt Options) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	a := NewAnalyzer(opt)
	times := make([]time.Duration, 0, len(qs))
	cpus := make([]time.Duration, 0, len(qs))
	clockCost := cpuClockCost()
	var total, totalCPU time.Duration
	var und int
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for b.Loop() {
		times, cpus = times[:0], cpus[:0]
		for i := range qs {
			start, startCPU := time.Now(), threadCPU()
			r := a.Analyze(&qs[i].pos, qs[i].side)
			c := max(threadCPU()-startCPU-clockCost, 0)
			d := time.Since(start)
			total += d
			totalCPU += c
			times = append(times, d)
			cpus = append(cpus, c)
			if r.Verdict == Undetermined {
				und++
			}
		}
	}
	runtime.ReadMemStats(&after)
	n := b.N * len(qs)
	slices.Sort(times) // the last pass's
	slices.Sort(cpus)
	at := func(ts []time.Duration, q float64) float64 {
		return float64(ts[int(q*float64(len(ts)-1))].Nanoseconds()) / 1e3
	}
	b.ReportMetric(float64(total.Nanoseconds())/1e3/float64(n), "µs/query")
	b.ReportMetric(at(times, 0.5), "p50-µs")
	b.ReportMetric(at(times, 0.99), "p99-µs")
	b.ReportMetric(at(times, 1), "max-µs")
	b.ReportMetric(float64(totalCPU.Nanoseconds())/1e3/float64(n), "cpu-µs/query")
	b.ReportMetric(at(cpus, 0.5), "cpu-p50-µs")
	b.ReportMetric(at(cpus, 0.99), "cpu-p99-µs")
	b.ReportMetric(at(cpus, 1), "cpu-max-µs")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(n), "allocs/query")
	b.ReportMetric(float64(und)/float64(b.N), "undetermined")
}

// cpuClockCost is the median cost of reading the thread's CPU clock
// twice, taken off each query's CPU time.
func cpuClockCost() time.Duration {
	var d [101]time.Duration
	for i := range d {
		t0 := threadCPU()
		d[i] = threadCPU() - t0
	}
	slices.Sort(d[:])
	return d[len(d)/2]
}

// The benchmarks of both modes on the three files: timeouts-30k (the side
// not to move), lichess-65k and positions.txt (both sides of every
// position). Full mode shortens mate lines as the CLI's --full does; the
// NoLine variants leave them as found (--full --line-nodes -1).
func BenchmarkTimeoutsQuick(b *testing.B) { runQueries(b, timeoutQueries(b), Options{Mode: Quick}) }
func BenchmarkTimeoutsFull(b *testing.B)  { runQueries(b, timeoutQueries(b), Options{Mode: Full}) }
func BenchmarkTimeoutsFullNoLine(b *testing.B) {
	runQueries(b, timeoutQueries(b), Options{Mode: Full, LineBudget: -1})
}
func BenchmarkLichessQuick(b *testing.B) {
	runQueries(b, labelledQueries(b, "lichess-65k.txt"), Options{Mode: Quick})
}
func BenchmarkLichessFull(b *testing.B) {
	runQueries(b, labelledQueries(b, "lichess-65k.txt"), Options{Mode: Full})
}
func BenchmarkLichessFullNoLine(b *testing.B) {
	runQueries(b, labelledQueries(b, "lichess-65k.txt"), Options{Mode: Full, LineBudget: -1})
}
func BenchmarkPositionsQuick(b *testing.B) {
	runQueries(b, labelledQueries(b, "positions.txt"), Options{Mode: Quick})
}
func BenchmarkPositionsFull(b *testing.B) {
	runQueries(b, labelledQueries(b, "positions.txt"), Options{Mode: Full})
}
func BenchmarkPositionsFullNoLine(b *testing.B) {
	runQueries(b, labelledQueries(b, "positions.txt"), Options{Mode: Full, LineBudget: -1})
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

// BenchmarkTimeoutsQuickByClass answers timeouts-30k in quick mode once
// per iteration and logs, for each way a query ended (the first look,
// the heuristic search, the goal-directed search with its target, ...),
// how many queries, their average nodes and time, and their share of the
// time: where quick mode's time goes.
func BenchmarkTimeoutsQuickByClass(b *testing.B) { benchByEnd(b, timeoutQueries(b)) }

// BenchmarkLichessQuickByClass is BenchmarkTimeoutsQuickByClass on both
// sides of every position of lichess-65k.
func BenchmarkLichessQuickByClass(b *testing.B) {
	benchByEnd(b, labelledQueries(b, "lichess-65k.txt"))
}

// benchByEnd answers qs in quick mode once per iteration and logs the
// queries, nodes and time of each way a query ended, and the time a node.
func benchByEnd(b *testing.B, qs []benchQuery) {
	a := NewAnalyzer(Options{Mode: Quick})
	byClass := map[string]*queryClass{}
	var all time.Duration
	for b.Loop() {
		all += classifyQueries(a, qs, byClass)
	}
	keys := make([]string, 0, len(byClass))
	for k := range byClass {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		c := byClass[k]
		perNode := "      -" // no node: the material rules answered
		if c.nodes > 0 {
			perNode = fmt.Sprintf("%7.0f", float64(c.time.Nanoseconds())/float64(c.nodes))
		}
		b.Logf("%-70s %7d queries %6d nodes %8.1f µs %s ns a node %3.0f %% of the time", k, c.n/b.N,
			c.nodes/int64(c.n), float64(c.time.Nanoseconds())/1e3/float64(c.n), perNode, 100*float64(c.time)/float64(all))
	}
}

// classifyQueries answers every query and adds it to its class; it
// returns the time spent.
func classifyQueries(a *Analyzer, qs []benchQuery, byClass map[string]*queryClass) time.Duration {
	var all time.Duration
	for i := range qs {
		start := time.Now()
		r := a.Analyze(&qs[i].pos, qs[i].side)
		d := time.Since(start)
		all += d
		k := r.Verdict.String() + ": " + r.Reason
		switch {
		case r.Verdict == Winnable && r.Nodes <= firstLook:
			k = "winnable: first look"
		case strings.HasPrefix(r.Reason, "helpmate found, the king driven"):
			k = "winnable: goal-directed search"
		}
		c := byClass[k]
		if c == nil {
			c = &queryClass{}
			byClass[k] = c
		}
		c.n++
		c.nodes += r.Nodes
		c.time += d
	}
	return all
}

// queryClass counts the queries that ended one way.
type queryClass struct {
	n     int
	nodes int64
	time  time.Duration
}

// BenchmarkStructureProofs times the frozen-pawn and confinement proofs
// alone on every query of timeouts-30k (flag-fall positions, where they
// almost never apply): what quick mode's first look saves when it finds
// a mate.
func BenchmarkStructureProofs(b *testing.B) {
	qs := timeoutQueries(b)
	proved := 0
	start := time.Now()
	for b.Loop() {
		for i := range qs {
			if _, ok := structureVerdict(&qs[i].pos, qs[i].side); ok {
				proved++
			}
		}
	}
	b.ReportMetric(float64(time.Since(start).Nanoseconds())/1e3/float64(b.N*len(qs)), "µs/query")
	b.ReportMetric(float64(proved)/float64(b.N), "proved")
}
