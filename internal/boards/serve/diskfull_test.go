package serve

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// fullDisk is a capture file on a disk that fills up after limit bytes.
type fullDisk struct {
	mu    sync.Mutex
	n     int
	limit int
}

func (f *fullDisk) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n+len(p) > f.limit {
		return 0, syscall.ENOSPC
	}
	f.n += len(p)
	return len(p), nil
}

// TestDiskFull fills the journal's disk in the middle of a game: the
// daemon says so loudly — an error in the log, an alert on the board —
// and the game goes on in memory: moves are still completed and shown.
func TestDiskFull(t *testing.T) {
	sans := immortal(t)
	em := startEmu(t, emulator.Config{Game: sans, Seed: 7})
	disk := &fullDisk{limit: 12000}
	var logs bytes.Buffer
	var lmu sync.Mutex
	w := newWatcher()
	d, err := New(Options{Config: testConfig(t.TempDir(), em.path), Speed: testSpeed, OnEvent: w.onEvent,
		Mounts: []Mount{}, Runners: []Runner{},
		Logger: slog.New(slog.NewTextHandler(lockedWriter{&lmu, &logs}, nil)),
		OpenCapture: func(path string, resume bool) (*capture.Writer, error) {
			if resume {
				return nil, errors.New("no resume in this test")
			}
			return capture.NewWriter(disk)
		}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	defer func() { cancel(); <-done }()

	alerted := func() bool {
		b, err := d.Hub().Board("1")
		if err != nil {
			return false
		}
		for _, a := range b.Alerts {
			if a.Kind == KindJournal {
				return true
			}
		}
		return false
	}
	var atFull reconcile.Moves
	w.waitFor(t, "the journal alert", 60*time.Second, func() bool {
		if alerted() {
			atFull = completed(w.stream("1"))
			return true
		}
		return false
	})
	w.waitFor(t, "5 more moves completed on a full disk", 60*time.Second, func() bool {
		m := completed(w.stream("1"))
		return m.White+m.Black >= atFull.White+atFull.Black+5
	})
	lmu.Lock()
	log := logs.String()
	lmu.Unlock()
	if !strings.Contains(log, "level=ERROR") || !strings.Contains(log, "JOURNAL WRITE FAILED") || !strings.Contains(log, "no space left") {
		t.Errorf("the log does not say the journal failed:\n%s", log)
	}
	if n := counter(t, d, "arbiterd_journal_errors_total"); n == 0 {
		t.Error("no journal error counted")
	}
	if disk.n > disk.limit {
		t.Error("the capture grew past the full disk")
	}
}
