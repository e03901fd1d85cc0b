package faults

import (
	"context"
	"errors"
	"io"
	"math/rand"
	"sync"
	"syscall"
	"testing"

	"github.com/arbiterd/arbiterd/internal/device/emulator"
)

// fullDisk is a capture's file on a disk that fills up: the first limit
// bytes are written, every write after that fails with ENOSPC.
type fullDisk struct {
	mu      sync.Mutex
	limit   int
	written int
	refused int // writes refused
}

func (d *fullDisk) Write(p []byte) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.written+len(p) > d.limit {
		d.refused++
		n := d.limit - d.written
		d.written = d.limit
		return n, &writeError{syscall.ENOSPC}
	}
	d.written += len(p)
	return len(p), nil
}

type writeError struct{ errno syscall.Errno }

func (e *writeError) Error() string { return "write game.capture: " + e.errno.Error() }
func (e *writeError) Unwrap() error { return e.errno }

// TestDiskFull fills the capture's disk at a random moment of the game: the
// live path must report the failure (once) and keep the game in memory, so
// the completed moves and the outcome are those of the undisturbed run.
func TestDiskFull(t *testing.T) {
	if testing.Short() {
		t.Skip("fault injection through ptys: not in -short")
	}
	base := baseline(t)
	seed := masterSeed(t)
	seeds := trialSeeds(t, trials(t), 500)
	n := len(seeds)
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	var mu sync.Mutex
	count := map[string]int{}
	for i, trialSeed := range seeds {
		// The whole capture of the game is about 40 KB; fill the disk
		// anywhere from the header to near the end.
		limit := 40 + rand.New(rand.NewSource(trialSeed)).Intn(30_000)
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			disk := &fullDisk{limit: limit}
			got := playLive(context.Background(), emuConfig(1), disk, true)
			mu.Lock()
			defer mu.Unlock()
			v, err := verdict(base, got)
			switch {
			case err != nil:
			case disk.refused > 0 && len(got.JournalErr) != 1:
				err = errors.New("the capture failed but the failure was not reported exactly once")
			case disk.refused > 0 && !errors.Is(got.JournalErr[0], syscall.ENOSPC):
				err = errors.New("the reported failure does not say the disk is full: " + got.JournalErr[0].Error())
			case disk.refused == 0 && len(got.JournalErr) != 0:
				err = errors.New("a failure was reported though the capture never failed")
			}
			if err != nil {
				count["FAILED"]++
				t.Errorf("trial %d (seed %d, disk full after %d bytes): %v\n%s\n%s", i, trialSeed, limit, err, rerun(t, trialSeed), summary(got))
				return
			}
			count[v]++
		}()
	}
	wg.Wait()
	t.Logf("disk-full: %d trials: %d equal, %d reported, %d failed (master seed %d)", n, count["equal"], count["reported"], count["FAILED"], seed)
}

// TestBoardPowerBlip is the regression test for a board that loses power
// for a moment between two keep-alive polls: it comes back idle (no field
// updates, no clock frames) while still answering the serial number. Before
// the session re-asserted update mode and asked for a board dump with every
// poll, the rest of the game was lost without a word.
func TestBoardPowerBlip(t *testing.T) {
	if testing.Short() {
		t.Skip("fault injection through ptys: not in -short")
	}
	base := baseline(t)
	for _, a := range []string{"unplug@ply=10,for=2s", "unplug@ply=40,for=2s", "unplug@ply=43,for=28s"} {
		act, err := emulator.ParseAction(a)
		if err != nil {
			t.Fatal(err)
		}
		got := playLive(context.Background(), emuConfig(1, act), io.Discard, false)
		if v, err := verdict(base, got); err != nil {
			t.Errorf("%s: %v\n%s", a, err, summary(got))
		} else {
			t.Logf("%s: %s", a, v)
		}
	}
}
