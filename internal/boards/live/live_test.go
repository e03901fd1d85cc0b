package live

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/boards/pipeline"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// diskFull is a capture file on a disk that fills up: after limit bytes
// every write fails with ENOSPC.
type diskFull struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	limit int
}

func (d *diskFull) Write(p []byte) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.buf.Len()+len(p) > d.limit {
		return 0, &pathError{syscall.ENOSPC}
	}
	return d.buf.Write(p)
}

type pathError struct{ err error }

func (e *pathError) Error() string { return "write board-1.capture: " + e.err.Error() }
func (e *pathError) Unwrap() error { return e.err }

// playEmulated plays cfg's game on an emulated board behind a pseudo-
// terminal until the test ends (a minute at most); it returns the context
// the run should use and the port to open.
func playEmulated(t *testing.T, cfg emulator.Config) (context.Context, string) {
	t.Helper()
	emu, err := emulator.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	master, slave, err := emulator.OpenPTY()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	emuDone := make(chan error, 1)
	go func() { emuDone <- emu.Run(ctx, master) }()
	t.Cleanup(func() { cancel(); <-emuDone; master.Close() })
	return ctx, slave
}

// TestJournalFailureKeepsGame fills the disk in the middle of a game: Run
// reports it once through OnJournalError and the game goes on in memory —
// moves are still completed after the capture stopped growing.
func TestJournalFailureKeepsGame(t *testing.T) {
	periods, err := emulator.ParseTimeControl("40/5400+30:1800+30")
	if err != nil {
		t.Fatal(err)
	}
	const speed = 1000
	ctx, slave := playEmulated(t, emulator.Config{PGN: emulator.DefaultPGN, Periods: periods, Speed: speed, Seed: 1, Wait: true, Linger: true})

	disk := &diskFull{limit: 6000}
	cw, err := capture.NewWriter(disk)
	if err != nil {
		t.Fatal(err)
	}
	p := pipeline.New(pipeline.Options{})
	var evs []reconcile.Event
	emit := func(es []reconcile.Event, err error) error { evs = append(evs, es...); return err }
	if err := Declare(cw, p, "board", map[string]string{"board": "1", "timecontrol": "40/5400+30:1800+30"}, emit); err != nil {
		t.Fatal(err)
	}
	var failures journalFailures
	afterFail := 0 // moves completed after the first failure
	t0 := time.Now()
	err = Run(ctx, Config{
		Path: slave, Capture: cw, Pipeline: p,
		Now:            func() time.Duration { return time.Duration(float64(time.Since(t0)) * speed) },
		OnJournalError: failures.add,
		OnEvent: func(e reconcile.Event) bool {
			evs = append(evs, e)
			if e.Type == reconcile.TypeComplete && failures.count() > 0 {
				afterFail++
			}
			return afterFail < 5
		},
	})
	failures.wantStoppedAfterOneENOSPC(t, err)
	if disk.buf.Len() > disk.limit {
		t.Errorf("the capture grew past the full disk")
	}
	var last reconcile.Moves
	for _, e := range evs {
		if e.Type == reconcile.TypeComplete {
			last = e.Moves
		}
	}
	if last.White+last.Black < 5 {
		t.Errorf("completed %+v", last)
	}
}

// TestJournalFailureAtTheDeclaration fills the disk while Run declares the
// game's port and meta (the capture's first lines): the failure is reported
// once through OnJournalError and the game goes on in memory, as with a
// disk that fills later.
func TestJournalFailureAtTheDeclaration(t *testing.T) {
	const speed = 1000
	ctx, slave := playEmulated(t, emulator.Config{PGN: emulator.DefaultPGN, Speed: speed, Seed: 1, Wait: true, Linger: true})

	disk := &diskFull{limit: 43} // the header fits, the port's declaration does not
	cw, err := capture.NewWriter(disk)
	if err != nil {
		t.Fatal(err)
	}
	var failures journalFailures
	completed := 0
	t0 := time.Now()
	err = Run(ctx, Config{
		Path: slave, Capture: cw,
		Meta:           map[string]string{"board": "1", "timecontrol": "900+10"},
		Now:            func() time.Duration { return time.Duration(float64(time.Since(t0)) * speed) },
		OnJournalError: failures.add,
		OnEvent: func(e reconcile.Event) bool {
			if e.Type == reconcile.TypeComplete {
				completed++
			}
			return completed < 5
		},
	})
	failures.wantStoppedAfterOneENOSPC(t, err)
}

// journalFailures collects what Run reports through OnJournalError.
type journalFailures struct {
	mu   sync.Mutex
	errs []error
}

func (f *journalFailures) add(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errs = append(f.errs, err)
}

func (f *journalFailures) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.errs)
}

// wantStoppedAfterOneENOSPC checks Run's error (stopped by the caller after
// five moves completed on a full disk) and that the disk was reported full
// exactly once.
func (f *journalFailures) wantStoppedAfterOneENOSPC(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, ErrStopped) {
		t.Fatalf("Run: %v, want it stopped by the caller after 5 moves completed on a full disk", err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.errs) != 1 || !errors.Is(f.errs[0], syscall.ENOSPC) {
		t.Errorf("journal failures reported: %v, want one ENOSPC", f.errs)
	}
}
