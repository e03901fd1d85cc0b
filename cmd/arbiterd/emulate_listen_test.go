package main

import (
	"bufio"
	"context"
	"io"
	"net"
	"strings"
	"testing"
	"time"
)

// emulate --listen offers the board on TCP: the first line names the
// port for arbiterd's configuration, a host that connects is answered
// (and told of), and the command ends on its context. --link and --listen
// exclude each other.
func TestEmulateListen(t *testing.T) {
	cmd := newEmulateCmd()
	pr, pw := io.Pipe()
	cmd.SetOut(pw)
	cmd.SetArgs([]string{"--wait", "--speed", "100", "--listen", "127.0.0.1:0"})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx); pw.Close() }()
	sc := bufio.NewScanner(pr)
	lines := make(chan string, 16)
	go func() {
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	first := <-lines
	port, ok := strings.CutPrefix(first, "device tcp://")
	if !ok {
		t.Fatalf("first line %q", first)
	}
	c, err := net.Dial("tcp", port)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte{0x45}); err != nil { // 0x45 asks for the serial number; under --wait it also starts the clock
		t.Fatal(err)
	}
	var got []byte
	buf := make([]byte, 64)
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) && !strings.Contains(string(got), "\x91\x00\x08") {
		_ = c.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
		n, _ := c.Read(buf)
		got = append(got, buf[:n]...)
	}
	if !strings.Contains(string(got), "\x91\x00\x08") {
		t.Fatalf("no serial number message in % x", got)
	}
	seen := false
	for !seen {
		select {
		case l := <-lines:
			seen = strings.HasPrefix(l, "host connected from 127.0.0.1:")
		case <-time.After(5 * time.Second):
			t.Fatal("the host's connection was not told")
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("emulate: %v", err)
	}

	both := newEmulateCmd()
	both.SetArgs([]string{"--listen", "127.0.0.1:0", "--link", "/tmp/x"})
	both.SetOut(io.Discard)
	both.SetErr(io.Discard)
	if err := both.ExecuteContext(context.Background()); err == nil || !strings.Contains(err.Error(), "exclude each other") {
		t.Errorf("--link with --listen: %v", err)
	}
}
