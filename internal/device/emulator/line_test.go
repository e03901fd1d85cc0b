package emulator

import (
	"bytes"
	"context"
	"errors"
	"io"
	"sync"
	"testing"
	"time"
)

// Both ends write at once, more than any buffer of net.Pipe would hold,
// before either reads: neither waits, and each end reads exactly what the
// other wrote, in order.
func TestLineBothEndsWriteAtOnce(t *testing.T) {
	dev, host := OpenLine()
	defer dev.Close()
	msg := func(b byte) []byte { return bytes.Repeat([]byte{b}, 1<<16) }
	var wg sync.WaitGroup
	for _, e := range []struct {
		end *LineEnd
		b   byte
	}{{dev, 0x8e}, {host, 0x40}} {
		wg.Go(func() {
			for range 4 {
				if n, err := e.end.Write(msg(e.b)); n != 1<<16 || err != nil {
					t.Errorf("Write = %d, %v", n, err)
				}
			}
		})
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("writes waited for a reader")
	}
	for _, e := range []struct {
		end *LineEnd
		b   byte
	}{{host, 0x8e}, {dev, 0x40}} {
		got := make([]byte, 4<<16)
		if _, err := io.ReadFull(e.end, got); err != nil || !bytes.Equal(got, bytes.Repeat([]byte{e.b}, 4<<16)) {
			t.Errorf("read % x…, %v", got[:4], err)
		}
	}
}

// Closing one end is pulling the cable: a pending read on the other end
// returns, what was written before is still read, then io.EOF; writes fail.
func TestLineClose(t *testing.T) {
	dev, host := OpenLine()
	pending := make(chan error, 1)
	go func() {
		_, err := io.ReadFull(dev, make([]byte, 4))
		pending <- err
	}()
	if _, err := host.Write([]byte{0x40, 0x4b}); err != nil {
		t.Fatal(err)
	}
	if _, err := dev.Write([]byte{0x8e, 0x00}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond)
	if err := host.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-pending:
		if !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("pending read after close: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a pending read did not end when the line closed")
	}
	got, err := io.ReadAll(host)
	if err != nil || !bytes.Equal(got, []byte{0x8e, 0x00}) {
		t.Errorf("host drained % x, %v", got, err)
	}
	if _, err := dev.Write([]byte{1}); !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("write after close: %v", err)
	}
	if err := dev.Close(); err != nil {
		t.Errorf("second close: %v", err)
	}
}

// TestGameOverLine plays a game on the in-process line: the host sees
// every position, and closing the line after Run ends its reader.
func TestGameOverLine(t *testing.T) {
	dev, hostEnd := OpenLine()
	defer hostEnd.Close()
	em, err := New(Config{Game: immortal, Seed: 11, Speed: 20000, Wait: true,
		Periods: []Period{{Time: 30 * time.Minute, Increment: 10 * time.Second}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- em.Run(ctx, dev) }()
	if _, err := hostEnd.Write([]byte{0x40, 0x4b}); err != nil {
		t.Fatal(err)
	}
	got := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(hostEnd)
		got <- b
	}()
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	dev.Close()
	frames, skipped := splitFrames(<-got)
	if skipped != 0 {
		t.Errorf("%d bytes outside frames", skipped)
	}
	if reached, _ := replayBoard(t, frames, gameFENs(t, "", immortal), false); reached != len(immortal) {
		t.Errorf("reached %d of %d positions over the line", reached, len(immortal))
	}
	if em.Lost() != 0 {
		t.Errorf("%d bytes lost on the line", em.Lost())
	}
}
