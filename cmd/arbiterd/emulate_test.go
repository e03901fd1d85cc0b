package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestEmulateBadFlags(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--tc", "40/5400+"}, "--tc"},
		{[]string{"--tc", "5400:40/1800"}, "--tc"},
		{[]string{"--speed", "0"}, "--speed"},
		{[]string{"--speed", "-3"}, "--speed"},
		{[]string{"--period-by", "sometimes"}, "--period-by"},
		{[]string{"--end", "never"}, "--end"},
		{[]string{"--fault", "meteor@ply=3"}, "unknown kind"},
		{[]string{"--fault", "flag@ply=999"}, "the game has 45 plies"},
		{[]string{"--pgn", "/nonexistent/game.pgn"}, "--pgn"},
		{[]string{"extra"}, "unknown command"},
	}
	for _, tc := range tests {
		cmd := newEmulateCmd()
		cmd.SetArgs(tc.args)
		cmd.SetOut(io.Discard)
		cmd.SetErr(io.Discard)
		err := cmd.ExecuteContext(context.Background())
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want one mentioning %q", tc.args, err, tc.want)
			continue
		}
		var u usageError
		if !errors.As(err, &u) && tc.args[0] != "extra" {
			t.Errorf("%v: %v is not a usage error", tc.args, err)
		}
	}
}

// TestEmulateServesAHost runs the command, reads the device path from the
// first line and talks to the emulated board through it.
func TestEmulateServesAHost(t *testing.T) {
	cmd := newEmulateCmd()
	pr, pw := io.Pipe()
	cmd.SetOut(pw)
	cmd.SetArgs([]string{"--wait", "--speed", "100", "--tc", "300b5", "--fault", "garbage@ply=3"})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx); pw.Close() }()
	sc := bufio.NewScanner(pr)
	if !sc.Scan() {
		t.Fatal("no output")
	}
	first := sc.Text()
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	path, ok := strings.CutPrefix(first, "device ")
	if !ok {
		t.Fatalf("first line %q", first)
	}
	dev, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	if _, err := dev.Write([]byte{0x45}); err != nil {
		t.Fatal(err)
	}
	var got []byte
	buf := make([]byte, 64)
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) && !strings.Contains(string(got), "\x91\x00\x08") {
		_ = dev.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
		n, _ := dev.Read(buf)
		got = append(got, buf[:n]...)
	}
	i := strings.Index(string(got), "\x91\x00\x08")
	if i < 0 || len(got) < i+8 {
		t.Fatalf("no serial number message in % x", got)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("emulate: %v", err)
	}
}

// --link offers the board at a fixed name before the emulator answers, so
// the README's daemon section needs no waiting for the device line; the
// link goes when the emulator stops.
func TestEmulateLink(t *testing.T) {
	link := filepath.Join(t.TempDir(), "arbiterd-board-1")
	cmd := newEmulateCmd()
	pr, pw := io.Pipe()
	cmd.SetOut(pw)
	cmd.SetArgs([]string{"--wait", "--speed", "100", "--link", link})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx); pw.Close() }()
	sc := bufio.NewScanner(pr)
	var lines []string
	for len(lines) < 2 && sc.Scan() {
		lines = append(lines, sc.Text())
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	if len(lines) < 2 {
		t.Fatalf("output %q", lines)
	}
	dev, _ := strings.CutPrefix(lines[0], "device ")
	if lines[1] != "link "+link+" -> "+dev {
		t.Errorf("second line %q", lines[1])
	}
	if target, err := os.Readlink(link); err != nil || target != dev {
		t.Errorf("link -> %q (%v), want %s", target, err, dev)
	}
	// The board answers on the link.
	f, err := os.OpenFile(link, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte{0x45})
	buf := make([]byte, 64)
	_ = f.SetReadDeadline(time.Now().Add(5 * time.Second))
	if n, err := f.Read(buf); n == 0 {
		t.Errorf("no answer on the link: %v", err)
	}
	f.Close()
	cancel()
	if err := <-done; err != nil {
		t.Errorf("emulate: %v", err)
	}
	if _, err := os.Lstat(link); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the link is left after the emulator stopped: %v", err)
	}
	// A link that cannot be made is an error naming the flag.
	cmd = newEmulateCmd()
	cmd.SetOut(io.Discard)
	cmd.SetArgs([]string{"--link", filepath.Join(t.TempDir(), "missing", "dir", "board")})
	if err := cmd.ExecuteContext(context.Background()); err == nil || !strings.Contains(err.Error(), "--link") {
		t.Errorf("a link in a missing directory: %v", err)
	}
}
