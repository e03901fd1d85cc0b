package serve

import (
	"bytes"
	"os"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/boards/live"
	"github.com/arbiterd/arbiterd/internal/boards/pipeline"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
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
	orig, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for b.Loop() {
		// Each recovery marks the restart in the capture: start each
		// round from the same file.
		b.StopTimer()
		if err := os.WriteFile(path, orig, 0o644); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
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

// BenchmarkPublish measures the daemon's own work per event of a live
// game — the events file append, the hub, the metrics and, for completed
// moves, the PGN rewrite — replaying a whole game's event stream into a
// board.
func BenchmarkPublish(b *testing.B) {
	periods, err := emulator.ParseTimeControl(testTC)
	if err != nil {
		b.Fatal(err)
	}
	e, err := emulator.New(emulator.Config{PGN: emulator.DefaultPGN, Periods: periods, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	c := testConfig(b.TempDir(), "/dev/nonexistent-board")
	if err := c.Validate(); err != nil {
		b.Fatal(err)
	}
	meta := (&Daemon{cfg: c}).meta(c.Boards[0])
	p := pipeline.New(pipeline.Options{})
	var evs []reconcile.Event
	collect := func(e reconcile.Event) error { evs = append(evs, e); return nil }
	var buf bytes.Buffer
	cw, err := capture.NewWriter(&buf)
	if err != nil {
		b.Fatal(err)
	}
	if err := live.Declare(cw, p, PortName, meta, func(es []reconcile.Event, err error) error { evs = append(evs, es...); return err }); err != nil {
		b.Fatal(err)
	}
	for _, ch := range e.Play() {
		if err := p.Record(capture.Record{Kind: capture.KindData, Port: PortName, At: ch.At, Dir: capture.Read, Data: ch.Data}, collect); err != nil {
			b.Fatal(err)
		}
	}
	d, err := New(Options{Config: c, Mounts: []Mount{}, Runners: []Runner{}})
	if err != nil {
		b.Fatal(err)
	}
	bd := d.boards[0]
	defer bd.close()
	bd.now = func() time.Duration { return 0 }
	b.ResetTimer()
	for b.Loop() {
		for _, e := range evs {
			bd.publish(e)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(evs)), "ns/event")
}
