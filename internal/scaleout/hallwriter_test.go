package scaleout

import (
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// A write that keeps failing (a full disk, here a file already closed) is
// tried again while the hall runs, and given up when it stops: stopping
// never waits on it.
func TestHallWritersStopOnFailingWrite(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "board.events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	f.Close() // every write now fails
	var failed atomic.Int32
	w := newHallWriters(func(hallFile, error) { failed.Add(1) })
	w.write(f, []byte("line\n"), nil, hallFile{board: "1", venue: "north"})
	deadline := time.Now().Add(5 * time.Second)
	for failed.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if failed.Load() != 1 {
		t.Fatalf("the failing write was reported %d times, want once", failed.Load())
	}
	done := make(chan struct{})
	go func() { w.close(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("close waits on a write that keeps failing")
	}
}
