//go:build linux || darwin

package emulator

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"
)

// TestGameOverPTY plays a game on a real pseudo-terminal: every byte value
// must pass untouched (field 17 and 19 are XON/XOFF, 10 and 13 newline and
// carriage return), and the host sees every position.
func TestGameOverPTY(t *testing.T) {
	master, path, err := OpenPTY()
	if err != nil {
		t.Skipf("no pty here: %v", err)
	}
	defer master.Close()
	slave, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer slave.Close()
	cfg := Config{Game: immortal, Seed: 11, Speed: 20000, Wait: true,
		Periods: []Period{{Time: 30 * time.Minute, Increment: 10 * time.Second}}}
	em, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- em.Run(ctx, master) }()

	// The host resets the board and asks for updates: play begins.
	if _, err := slave.Write([]byte{0x40, 0x4b}); err != nil {
		t.Fatal(err)
	}
	var got []byte
	buf := make([]byte, 4096)
	readDone := make(chan struct{})
	ended := make(chan struct{})
	go func() {
		defer close(readDone)
		for {
			_ = slave.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
			n, err := slave.Read(buf)
			got = append(got, buf[:n]...)
			if err != nil {
				select {
				case <-ended: // Run is over and the line is quiet
					return
				default:
				}
			}
		}
	}()
	err = <-done
	close(ended)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	<-readDone
	frames, skipped := splitFrames(got)
	if skipped != 0 {
		t.Errorf("%d bytes outside frames (the tty altered the stream?)", skipped)
	}
	if reached, _ := replayBoard(t, frames, gameFENs(t, "", immortal), false); reached != len(immortal) {
		t.Errorf("reached %d of %d positions over the pty", reached, len(immortal))
	}
	if em.Lost() != 0 {
		t.Errorf("%d bytes lost with a host reading", em.Lost())
	}
}

// TestPTYWithoutHost: nobody opens the slave; the game plays on and the
// bytes are lost, without blocking.
func TestPTYWithoutHost(t *testing.T) {
	master, _, err := OpenPTY()
	if err != nil {
		t.Skipf("no pty here: %v", err)
	}
	defer master.Close()
	em, err := New(Config{Game: immortal, Seed: 1, Speed: 50000})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	start := time.Now()
	if err := em.Run(ctx, master); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if em.Lost() == 0 {
		t.Error("no bytes counted as lost")
	}
	t.Logf("played without a host in %s, %d bytes lost", time.Since(start), em.Lost())
}

// TestRunStopsOnContextOverPTY: a pending read on the pty is interrupted
// and Run leaves no reader behind (the master stays usable).
func TestRunStopsOnContextOverPTY(t *testing.T) {
	master, path, err := OpenPTY()
	if err != nil {
		t.Skipf("no pty here: %v", err)
	}
	defer master.Close()
	slave, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer slave.Close()
	em, err := New(Config{Game: immortal, Wait: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := em.Run(ctx, master); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Run = %v", err)
	}
	// The deadlines were cleared: a second Run answers.
	ctx2, cancel2 := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- em.Run(ctx2, master) }()
	if _, err := slave.Write([]byte{0x45}); err != nil {
		t.Fatal(err)
	}
	h := &host{t: t, rw: slave}
	if f := h.next(0x91, 3*time.Second); len(f.data) != 5 {
		t.Errorf("serial % x", f.data)
	}
	cancel2()
	<-done
}
