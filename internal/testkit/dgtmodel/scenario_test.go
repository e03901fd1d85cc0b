package dgtmodel_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/boards/pipeline"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// defaultScenarios is how many scenarios a plain `go test` runs (fewer
// under -race, see race_test.go).
const defaultScenarios = 2000

// outcome is one scenario's result.
type outcome struct {
	sc       *scenario
	problems []string
	kinds    []string // a short class per problem, for the summary
	events   []reconcile.Event
	capture  []byte
}

func (o *outcome) fail(kind, format string, args ...any) {
	o.kinds = append(o.kinds, kind)
	o.problems = append(o.problems, fmt.Sprintf(format, args...))
}

// runScenario generates, simulates, replays and checks one scenario.
func runScenario(seed uint64, s settings) (o *outcome) {
	o = &outcome{}
	defer func() {
		if r := recover(); r != nil {
			o.fail("model-panic", "panic: %v", r)
		}
	}()
	sc := generate(seed, s)
	o.sc = sc
	m := run(sc)
	data, err := m.captureBytes()
	if err != nil {
		o.fail("capture", "writing the capture: %v", err)
		return o
	}
	o.capture = data
	_, err = pipeline.Replay(bytes.NewReader(data), pipeline.Options{}, func(e reconcile.Event) error {
		o.events = append(o.events, e)
		return nil
	})
	if err != nil {
		o.fail("replay-error", "replay: %v", err)
		return o
	}
	check(o, m)
	return o
}

// check compares the event stream with what the model expects.
func check(o *outcome, m *sim) {
	checkTexts(o)
	sc := m.sc
	// Completed moves: every ply up to the last completed, once each, in
	// the order of the game, with the game's move.
	wantPlies, wantW, wantB := m.completed()
	// After a forgotten press completions follow the presses, not the
	// plies (docs/reconciliation.md): the order is checked only without.
	forgot := sc.dims["forgot"] == "yes"
	got := map[int]reconcile.Event{}
	lastPly := 0
	var moves reconcile.Moves
	// A completed move the board then showed was another (the press was
	// read while the piece was on its way, or a slide's last square came
	// after the reply): arbiterd corrects it with one move-corrected
	// alert, for the side of the first ply it corrects — one alert for one
	// correction, however many plies it takes back (one instant). The
	// final record is checked below like any other.
	type correction struct {
		ply  int
		side string
	}
	var corrections []correction
	var correctedAt []time.Duration
	for _, e := range o.events {
		if e.Type == reconcile.TypeRetract && e.Reason == reconcile.ReasonCorrection {
			if c, ok := got[e.Ply]; ok {
				delete(got, e.Ply)
				n := len(corrections)
				if n > 0 && correctedAt[n-1] == e.At {
					corrections[n-1] = correction{e.Ply, c.Side.String()} // retracted from the last ply down
				} else {
					corrections, correctedAt = append(corrections, correction{e.Ply, c.Side.String()}), append(correctedAt, e.At)
				}
			}
			continue
		}
		if e.Type != reconcile.TypeComplete {
			continue
		}
		if _, dup := got[e.Ply]; dup {
			o.fail("complete-twice", "ply %d completed twice (%s, then %s by %s at t=%.3f)", e.Ply, got[e.Ply].SAN, e.SAN, e.By, e.At.Seconds())
		}
		if e.Ply < lastPly && !forgot {
			o.fail("complete-order", "ply %d completed after ply %d", e.Ply, lastPly)
		}
		lastPly = max(lastPly, e.Ply)
		got[e.Ply] = e
		moves = e.Moves
	}
	for _, c := range corrections {
		m.allowAnom("move-corrected", c.side, 1, 1, fmt.Sprintf("ply %d corrected", c.ply))
	}
	for ply := 1; ply <= len(wantPlies); ply++ {
		e, ok := got[ply]
		switch {
		case !wantPlies[ply-1] && ok && slices.Contains(m.maybe, ply-1):
			if ply%2 == 1 {
				wantW++
			} else {
				wantB++
			}
		case !wantPlies[ply-1]:
			if ok {
				o.fail("complete-extra", "ply %d (%s) completed by %s, but the model has not completed it", ply, e.SAN, e.By)
			}
		case !ok && slices.Contains(m.ambiguous, ply-1):
			if ply%2 == 1 {
				wantW--
			} else {
				wantB--
			}
		case !ok:
			o.fail("complete-missing", "ply %d (%s) never completed", ply, sc.uci[ply-1])
		case e.SAN != sc.san[ply-1] || e.UCI != "" && e.UCI != sc.uci[ply-1]:
			o.fail("complete-wrong", "ply %d completed as %s %s (by %s), the game's move is %s %s", ply, e.SAN, e.UCI, e.By, sc.san[ply-1], sc.uci[ply-1])
		}
	}
	for ply, e := range got {
		if ply > len(wantPlies) {
			o.fail("complete-extra", "ply %d (%s) completed by %s, but the game has %d plies", ply, e.SAN, e.By, len(wantPlies))
		}
	}
	if w, b := wantW, wantB; moves.White != w || moves.Black != b {
		// (a close call above lowered the count it left open)
		o.fail("counts", "final counts white %d black %d, want %d and %d", moves.White, moves.Black, w, b)
	}

	// Flag verdicts.
	var flags []reconcile.Event
	var ends []reconcile.Event
	for _, e := range o.events {
		switch e.Type {
		case reconcile.TypeFlag:
			flags = append(flags, e)
		case reconcile.TypeEnd:
			ends = append(ends, e)
		}
	}
	for i := 0; i < max(len(flags), len(m.flags)); i++ {
		switch {
		case i >= len(flags):
			w := m.flags[i]
			o.fail("flag-missing", "no flag event for %s's flag (period %d ran out, %d completed; want %s, period %d)", w.side, w.ranOut, w.completed, w.verdict, w.period)
			continue
		case i >= len(m.flags):
			e := flags[i]
			o.fail("flag-extra", "flag event the model did not have: %s period %d, %d completed, verdict %s", e.Side, e.Period, e.MovesCompleted, e.Verdict)
			continue
		}
		w, e := m.flags[i], flags[i]
		var diffs []string
		if e.Side.String() != w.side {
			diffs = append(diffs, fmt.Sprintf("side %s, want %s", e.Side, w.side))
		}
		if e.Period != w.period {
			diffs = append(diffs, fmt.Sprintf("period %d, want %d", e.Period, w.period))
		}
		closeCall := w.close && e.MovesCompleted == w.completed-1
		generous := w.generous && e.MovesCompleted == w.completed+1
		if e.MovesCompleted != w.completed && !closeCall && !generous {
			diffs = append(diffs, fmt.Sprintf("moves_completed %d, want %d", e.MovesCompleted, w.completed))
		}
		if e.MovesRequired != w.required {
			diffs = append(diffs, fmt.Sprintf("moves_required %d, want %d", e.MovesRequired, w.required))
		}
		okVerdict := string(e.Verdict) == w.verdict || (closeCall && e.Verdict == "unknown") || (generous && string(e.Verdict) == w.generousVerdict)
		if w.mate == "" && w.verdict != "none" {
			okVerdict = e.Verdict == "loss" || e.Verdict == "draw"
		}
		if !okVerdict {
			diffs = append(diffs, fmt.Sprintf("verdict %s, want %s", e.Verdict, w.verdict))
		}
		if w.mate != "" && w.verdict != "none" && string(e.OpponentCanMate) != w.mate {
			diffs = append(diffs, fmt.Sprintf("opponent_can_mate %s, want %s", e.OpponentCanMate, w.mate))
		}
		if len(diffs) > 0 {
			kind := "flag-verdict"
			if e.Side.String() != w.side {
				kind = "flag-side"
			} else if e.Period != w.period {
				kind = "flag-period"
			}
			o.fail(kind, "flag %d (%s, the clock's period %d ran out, %d completed): %s", i+1, w.side, w.ranOut, w.completed, strings.Join(diffs, "; "))
		}
	}
	switch {
	case m.result == "" && len(ends) > 0:
		o.fail("end-extra", "end %s (%s) but the game goes on", ends[0].Result, ends[0].Reason)
	case m.result != "" && m.result != "?" && len(ends) == 0:
		o.fail("end-missing", "no end event, want %s", m.result)
	case m.result != "" && m.result != "?" && ends[0].Result != m.result:
		o.fail("end-wrong", "end %s, want %s", ends[0].Result, m.result)
	}

	// Anomalies: only those the scenario calls for.
	count := map[anomKey]int{}
	var endAt time.Duration = -1
	if len(ends) > 0 {
		endAt = ends[0].At
	}
	for _, e := range o.events {
		if e.Type != reconcile.TypeAnomaly {
			continue
		}
		side := ""
		if !e.NoSide {
			side = e.Side.String()
		}
		k := anomKey{string(e.Kind), side}
		if a := m.allow[k]; a != nil && count[k] < a.max {
			count[k]++
			continue
		}
		any := anomKey{string(e.Kind), ""}
		if a := m.allow[any]; a != nil && count[any] < a.max {
			count[any]++
			continue
		}
		kind := "false-" + string(e.Kind)
		if endAt >= 0 && e.At >= endAt {
			kind += "-after-end"
		}
		o.fail(kind, "anomaly %s (%s, %s) at t=%.3f: %s", e.Kind, side, e.Article, e.At.Seconds(), e.Detail)
	}
	for k, a := range m.allow {
		if count[k] < a.min {
			o.fail("missing-"+k.kind, "no %s anomaly for %s (%s)", k.kind, k.side, a.why)
		}
	}
	checkArbiter(o, m)
}

// checkArbiter compares the adjust and pause events with the arbiter's
// actions: each change of a face's time is one adjust event of that side
// and amount, closing the alert it settles; nothing else is an adjust.
func checkArbiter(o *outcome, m *sim) {
	seqOf := map[int]reconcile.Kind{}
	var adj []reconcile.Event
	pauses := 0
	for _, e := range o.events {
		switch e.Type {
		case reconcile.TypeAnomaly:
			seqOf[e.Seq] = e.Kind
		case reconcile.TypeAdjust:
			adj = append(adj, e)
		case reconcile.TypePause:
			if e.State == "stopped" {
				pauses++
			}
		}
	}
	used := make([]bool, len(adj))
	for _, w := range m.adjusts {
		found := -1
		for i, e := range adj {
			// side_unsure: the displays had not yet shown whose time runs,
			// so the side named is the indicators' (and says so)
			if !used[i] && (e.Side.String() == w.side || e.SideUnsure) && e.Delta == time.Duration(w.delta)*time.Millisecond {
				found = i
				break
			}
		}
		if found < 0 {
			o.fail("adjust-missing", "no adjust event for %s's time changed by %d ms", w.side, w.delta)
			continue
		}
		used[found] = true
		e := adj[found]
		var closed reconcile.Kind
		for _, q := range e.Closes {
			if seqOf[q] == w.closes {
				closed = w.closes
			}
		}
		// the alert it closes must have been raised before it (a
		// clock-stopped alarm: by this stop, not the players' at the end)
		raised := false
		for _, a := range o.events {
			if a.Type == reconcile.TypeAnomaly && a.Kind == w.closes && a.Seq < e.Seq &&
				(w.closes != reconcile.KindClockStopped || e.At-a.At < 40*time.Second) {
				raised = true
			}
		}
		if w.closes != "" && raised && closed == "" {
			o.fail("adjust-closes", "the adjust of %s's time by %d ms closes %v, not the %s alert", w.side, w.delta, e.Closes, w.closes)
		}
	}
	for i, e := range adj {
		if !used[i] {
			o.fail("adjust-extra", "adjust event the model did not have: %s by %v (%s)", e.Side, e.Delta, e.Reason)
		}
	}
	if pauses < m.pauses {
		o.fail("pause-missing", "%d pause events, want %d (the arbiter stopped the clock to settle an alert)", pauses, m.pauses)
	}
}

func envInt(t *testing.T, name string, def uint64) uint64 {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		t.Fatalf("%s=%q: not a number", name, v)
	}
	return n
}

// rerun is the command that runs one scenario alone.
func rerun(seed uint64, s settings) string {
	var env []string
	if s.all {
		env = append(env, "ARBITERD_MODEL_ALL=1")
	}
	if f := os.Getenv("ARBITERD_MODEL_FORCE"); f != "" {
		env = append(env, "ARBITERD_MODEL_FORCE="+f)
	}
	env = append(env, fmt.Sprintf("ARBITERD_MODEL_SEED=%d", seed))
	return strings.Join(env, " ") + " go test -count=1 -v -run TestModelScenarios ./internal/testkit/dgtmodel/"
}

// TestModelScenarios plays randomised scenarios on the model and checks
// arbiterd's event stream for each.
func TestModelScenarios(t *testing.T) {
	s, err := loadSettings()
	if err != nil {
		t.Fatal(err)
	}
	pgnAbsence(t)
	if v := os.Getenv("ARBITERD_MODEL_SEED"); v != "" {
		seed := envInt(t, "ARBITERD_MODEL_SEED", 0)
		o := runScenario(seed, s)
		if o.sc != nil {
			t.Logf("scenario %d: %s", seed, o.sc.describe())
		}
		for _, e := range o.events {
			t.Logf("%s", reconcile.Marshal(e))
		}
		keep(t, o)
		for _, p := range o.problems {
			t.Errorf("seed %d: %s", seed, p)
		}
		return
	}
	n := envInt(t, "ARBITERD_MODEL_SCENARIOS", defaultScenarios/raceDivisor)
	if testing.Short() {
		n = min(n, 200)
	}
	base := envInt(t, "ARBITERD_MODEL_BASE", 1)
	workers := runtime.GOMAXPROCS(0)
	var next atomic.Uint64
	var mu sync.Mutex
	var failed []*outcome
	start := time.Now()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= n {
					return
				}
				o := runScenario(base+i, s)
				if len(o.problems) > 0 {
					o.events, o.capture = nil, o.capture[:len(o.capture):len(o.capture)]
					mu.Lock()
					failed = append(failed, o)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	el := time.Since(start)
	t.Logf("%d scenarios in %v (%.0f/s), %d failed", n, el.Round(time.Millisecond), float64(n)/el.Seconds(), len(failed))
	if len(failed) == 0 {
		return
	}
	sort.Slice(failed, func(i, j int) bool { return failed[i].sc.seed < failed[j].sc.seed })
	summarise(t, failed, n)
	shown := 0
	for _, o := range failed {
		keep(t, o)
		if shown < 20 {
			shown++
			t.Errorf("seed %d: %s\n\t%s\n\trerun: %s", o.sc.seed, o.sc.describe(), strings.Join(o.problems, "\n\t"), rerun(o.sc.seed, s))
		}
	}
	if len(failed) > shown {
		t.Errorf("… and %d more failing scenarios", len(failed)-shown)
	}
}

// summarise logs the failures by class and by dimension value.
func summarise(t *testing.T, failed []*outcome, n uint64) {
	byKind := map[string][]uint64{}
	byDim := map[string]int{}
	for _, o := range failed {
		seen := map[string]bool{}
		for _, k := range o.kinds {
			if !seen[k] {
				seen[k] = true
				byKind[k] = append(byKind[k], o.sc.seed)
			}
		}
		for d, v := range o.sc.dims {
			byDim[d+"="+v]++
		}
	}
	var kinds []string
	for k := range byKind {
		kinds = append(kinds, k)
	}
	sort.Slice(kinds, func(i, j int) bool { return len(byKind[kinds[i]]) > len(byKind[kinds[j]]) })
	var b strings.Builder
	fmt.Fprintf(&b, "failures by class (of %d scenarios):\n", n)
	for _, k := range kinds {
		seeds := byKind[k]
		fmt.Fprintf(&b, "  %-40s %5d  seeds %v\n", k, len(seeds), seeds[:min(len(seeds), 8)])
	}
	var dims []string
	for d := range byDim {
		dims = append(dims, d)
	}
	sort.Strings(dims)
	b.WriteString("failing scenarios by dimension value:\n")
	for _, d := range dims {
		fmt.Fprintf(&b, "  %-22s %5d\n", d, byDim[d])
	}
	t.Log(b.String())
}

// keep writes a failing scenario's capture to ARBITERD_MODEL_KEEP.
func keep(t *testing.T, o *outcome) {
	dir := os.Getenv("ARBITERD_MODEL_KEEP")
	if dir == "" || o.sc == nil || len(o.capture) == 0 {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, fmt.Sprintf("seed-%d.capture", o.sc.seed))
	if err := os.WriteFile(p, o.capture, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("seed %d: capture in %s (go run ./cmd/arbiterd replay %s)", o.sc.seed, p, p)
}
