package emulator

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"sync"
	"testing"
	"time"
)

// A board offered on TCP: a host connects and reads it, goes, and a host
// connecting again reads the same board, its game gone on meanwhile (what
// it sent with no host is lost); Run stops on its context with every
// goroutine done.
func TestNetLine(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []bool
	line := ListenLine(ln, func(_ string, connected bool) {
		mu.Lock()
		seen = append(seen, connected)
		mu.Unlock()
	})
	defer line.Close()
	em, err := New(Config{Game: []string{"e4", "e5", "Nf3", "Nc6"}, Speed: 100, Linger: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- em.Run(ctx, line) }()

	// A host asks for the board (DGT_SEND_BRD, 0x42) and gets its dump
	// (DGT_BOARD_DUMP, 0x86, 67 bytes).
	ask := func() {
		t.Helper()
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(5 * time.Second))
		if _, err := c.Write([]byte{0x42}); err != nil {
			t.Fatal(err)
		}
		r := bufio.NewReader(c)
		for {
			b, err := r.ReadByte()
			if err != nil {
				t.Fatalf("no board dump: %v", err)
			}
			if b == 0x86 {
				rest := make([]byte, 66)
				if _, err := io.ReadFull(r, rest); err != nil {
					t.Fatal(err)
				}
				return
			}
		}
	}
	ask()
	time.Sleep(100 * time.Millisecond) // the board goes on with no host
	ask()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Run: %v", err)
	}
	if line.Lost() == 0 {
		t.Error("nothing counted lost while no host was connected")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) < 3 || !seen[0] || seen[1] || !seen[2] {
		t.Errorf("connections seen %v, want connected, gone, connected", seen)
	}
}

// Read waits for a host, honours a deadline set while it waits, and ends
// with io.EOF once the line is closed; a new host replaces the old one.
func TestNetLineReadAndReplace(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	line := ListenLine(ln, nil)
	errc := make(chan error, 1)
	go func() { _, err := line.Read(make([]byte, 8)); errc <- err }()
	time.Sleep(20 * time.Millisecond)
	line.SetReadDeadline(time.Now())
	if err := <-errc; !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("deadline while waiting for a host: %v", err)
	}
	line.SetReadDeadline(time.Time{})

	first, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	second, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	second.Write([]byte("B"))
	buf := make([]byte, 8)
	line.SetReadDeadline(time.Now().Add(5 * time.Second))
	if n, err := line.Read(buf); err != nil || string(buf[:n]) != "B" {
		t.Fatalf("read %q, %v from the second host", buf[:n], err)
	}
	first.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := first.Read(buf); err == nil {
		t.Error("the replaced host's connection is still open")
	}
	line.SetReadDeadline(time.Time{})
	go func() { _, err := line.Read(buf); errc <- err }()
	time.Sleep(20 * time.Millisecond)
	line.Close()
	if err := <-errc; !errors.Is(err, io.EOF) {
		t.Errorf("read on a closed line: %v", err)
	}
}
