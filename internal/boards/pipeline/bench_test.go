package pipeline

import (
	"bytes"
	"math/rand"
	"sort"
	"testing"
	"time"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// longGame is a legal game of n plies from a seeded random walk that
// prefers quiet moves, so it lasts.
func longGame(b testing.TB, n int) []string {
	for s := int64(1); ; s++ {
		rng := rand.New(rand.NewSource(s))
		g := chess.NewGame()
		var moves []string
		for len(moves) < n && g.Outcome() == chess.NoOutcome {
			valid := g.ValidMoves()
			m := valid[rng.Intn(len(valid))]
			for i := 0; i < 3 && m.HasTag(chess.Capture); i++ {
				m = valid[rng.Intn(len(valid))]
			}
			moves = append(moves, m.String())
			g.Move(m)
		}
		if len(moves) == n && g.Outcome() == chess.NoOutcome {
			return moves
		}
	}
}

// BenchmarkReplayLongGame replays the capture of a 120-ply game under the
// FIDE standard control (board noise, a clock reading every displayed
// second): the replay throughput of the whole pipeline per core.
func BenchmarkReplayLongGame(b *testing.B) {
	capt := captureOf(b, emulator.Config{Game: longGame(b, 120), Seed: 5}, "board=1", "timecontrol=40/5400+30:1800+30")
	b.SetBytes(int64(len(capt)))
	b.ResetTimer()
	events := 0
	for i := 0; i < b.N; i++ {
		n := 0
		if _, err := Replay(bytes.NewReader(capt), Options{}, func(reconcile.Event) error { n++; return nil }); err != nil {
			b.Fatal(err)
		}
		events += n
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkPressProcessing measures, record by record, the time the
// pipeline takes for the records that carry a clock press and for those
// that complete a move (the commit, a scan lag after the press), and
// reports the median and 99th percentile of each.
func BenchmarkPressProcessing(b *testing.B) {
	capt := captureOf(b, emulator.Config{Game: longGame(b, 120), Seed: 5}, "board=1", "timecontrol=40/5400+30:1800+30")
	recs, err := capture.ReadAll(bytes.NewReader(capt))
	if err != nil {
		b.Fatal(err)
	}
	var samples, commits []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := New(Options{})
		for _, rec := range recs {
			press, commit := false, false
			start := time.Now()
			err := p.Record(rec, func(e reconcile.Event) error {
				press = press || e.Type == reconcile.TypePress
				commit = commit || e.Type == reconcile.TypeComplete
				return nil
			})
			d := time.Since(start)
			if err != nil {
				b.Fatal(err)
			}
			if press {
				samples = append(samples, d)
			}
			if commit {
				commits = append(commits, d)
			}
		}
	}
	b.StopTimer()
	report := func(d []time.Duration, unit string) {
		if len(d) == 0 {
			b.Fatalf("no %s", unit)
		}
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		b.ReportMetric(float64(d[len(d)/2].Nanoseconds())/1e3, "p50-µs/"+unit)
		b.ReportMetric(float64(d[len(d)*99/100].Nanoseconds())/1e3, "p99-µs/"+unit)
	}
	report(samples, "press")
	report(commits, "commit")
}
