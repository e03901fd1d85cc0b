package daemon

import (
	"os"
	"testing"

	"github.com/arbiterd/arbiterd/internal/capture"
	"github.com/arbiterd/arbiterd/internal/emulator"
	"github.com/arbiterd/arbiterd/internal/live"
	"github.com/arbiterd/arbiterd/internal/pipeline"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// BenchmarkRecover measures a restart's recovery of one board: reopening
// its capture (a whole emulated game, the Immortal Game, made
// with emulator.Play: the board's side only), replaying it, rewriting the events and PGN files
// and rebuilding the hub.
func BenchmarkRecover(b *testing.B) {
	periods, err := emulator.ParseTimeControl(testTC)
	if err != nil {
		b.Fatal(err)
	}
	e, err := emulator.New(emulator.Config{PGN: emulator.DefaultPGN, Periods: periods, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	chunks := e.Play()
	c := testConfig(b.TempDir(), "/dev/nonexistent-board")
	d, err := New(Options{Config: c, Mounts: []Mount{}, Runners: []Runner{}})
	if err != nil {
		b.Fatal(err)
	}
	d.boards[0].close()
	path := capturePath(d.Dir(), "1")
	os.Remove(path)
	cw, err := capture.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := live.Declare(cw, pipeline.New(pipeline.Options{}), PortName, d.meta(c.Boards[0]),
		func([]reconcile.Event, error) error { return nil }); err != nil {
		b.Fatal(err)
	}
	size := 0
	for _, ch := range chunks {
		if err := cw.Data(ch.At, PortName, capture.Read, ch.Data); err != nil {
			b.Fatal(err)
		}
		size += len(ch.Data)
	}
	if err := cw.Close(); err != nil {
		b.Fatal(err)
	}
	n := 0
	for b.Loop() {
		d, err := New(Options{Config: c, Mounts: []Mount{}, Runners: []Runner{}})
		if err != nil {
			b.Fatal(err)
		}
		evs, _ := d.Hub().Events("1", 0)
		if len(evs) < 45 {
			b.Fatalf("%d events recovered", len(evs))
		}
		n = len(evs)
		d.boards[0].close()
	}
	b.ReportMetric(float64(n), "events")
	b.ReportMetric(float64(len(chunks)), "records")
	b.ReportMetric(float64(size), "bytes")
}
