//go:build linux

package serialport_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/arbiterd/arbiterd/internal/device/serialport"
)

// newPTY opens a pseudo-terminal pair: the master plays the device, the
// slave path is the serial port arbiterd opens.
func newPTY(t *testing.T) (master *os.File, path string) {
	t.Helper()
	m, s, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	path = s.Name()
	s.Close() // arbiterd opens the slave by path, as it would /dev/ttyUSB0
	t.Cleanup(func() { m.Close() })
	return m, path
}

func TestReadWrite(t *testing.T) {
	master, path := newPTY(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p, err := serialport.Open(ctx, path, serialport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()

	// Host → device.
	if n, err := p.Write([]byte{0x40, 0x4b}); n != 2 || err != nil {
		t.Fatalf("Write = %d, %v", n, err)
	}
	got := make([]byte, 2)
	if _, err := io.ReadFull(master, got); err != nil || !bytes.Equal(got, []byte{0x40, 0x4b}) {
		t.Fatalf("device read %x, %v", got, err)
	}
	// Device → host, raw bytes including ones a terminal would mangle.
	frame := []byte{0x8e, 0x00, 0x05, 0x0d, 0x0a, 0x03, 0x11, 0x13, 0x7f}
	if _, err := master.Write(frame); err != nil {
		t.Fatal(err)
	}
	read := make([]byte, 0, len(frame))
	b := make([]byte, 64)
	for len(read) < len(frame) {
		n, err := p.Read(b)
		if err != nil {
			t.Fatalf("Read: %v", err)
		}
		if n == 0 {
			t.Fatal("Read returned (0, nil)")
		}
		read = append(read, b[:n]...)
	}
	if !bytes.Equal(read, frame) {
		t.Fatalf("read %x, want %x (the port must be raw 8-bit)", read, frame)
	}
}

func TestReadTimeoutIsAnError(t *testing.T) {
	_, path := newPTY(t)
	p, err := serialport.Open(context.Background(), path, serialport.Options{ReadTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	n, err := p.Read(make([]byte, 8))
	if n != 0 || !errors.Is(err, serialport.ErrTimeout) {
		t.Fatalf("Read = %d, %v; want ErrTimeout", n, err)
	}
	var pe *serialport.Error
	if !errors.As(err, &pe) || !pe.Timeout() || pe.Port != path {
		t.Fatalf("error %#v does not name the port as a timeout", err)
	}
	// bufio sees an error, not 100 empty reads.
	_, err = bufio.NewReader(p).ReadByte()
	if !errors.Is(err, serialport.ErrTimeout) {
		t.Fatalf("bufio: %v", err)
	}
}

func TestContextCancelUnblocksRead(t *testing.T) {
	_, path := newPTY(t)
	ctx, cancel := context.WithCancel(context.Background())
	p, err := serialport.Open(ctx, path, serialport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := p.Read(make([]byte, 8))
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, serialport.ErrClosed) || !errors.Is(err, context.Canceled) {
			t.Fatalf("Read after cancel: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Read still blocked 5 s after the context was cancelled")
	}
	if err := p.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	// The port can be opened again once closed.
	p2, err := serialport.Open(context.Background(), path, serialport.Options{})
	if err != nil {
		t.Fatalf("reopen after close: %v", err)
	}
	p2.Close()
}

func TestUnplugIsDisconnected(t *testing.T) {
	master, path := newPTY(t)
	p, err := serialport.Open(context.Background(), path, serialport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	done := make(chan error, 1)
	go func() {
		_, err := p.Read(make([]byte, 8))
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	master.Close() // the device goes away
	select {
	case err := <-done:
		if !errors.Is(err, serialport.ErrDisconnected) || !strings.Contains(err.Error(), path) {
			t.Fatalf("Read after unplug: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Read still blocked 5 s after the device went away")
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	regular := filepath.Join(dir, "file")
	os.WriteFile(regular, []byte("x"), 0o644)
	tests := []struct {
		name, path string
		want       error
	}{
		{"missing", "/dev/ttyUSB-arbiterd-test-missing", serialport.ErrNotFound},
		{"dangling by-id link", func() string {
			l := filepath.Join(dir, "usb-DGT_board-if00-port0")
			os.Symlink(filepath.Join(dir, "gone"), l)
			return l
		}(), serialport.ErrNotFound},
		{"regular file", regular, serialport.ErrNotSerial},
		{"directory", dir, serialport.ErrNotSerial},
		{"not a tty", "/dev/null", serialport.ErrNotSerial},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := serialport.Open(context.Background(), tt.path, serialport.Options{})
			if err == nil {
				p.Close()
				t.Fatal("opened")
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("error %v, want %v", err, tt.want)
			}
			if !strings.Contains(err.Error(), tt.path) {
				t.Errorf("error %q does not name the port", err)
			}
		})
	}
}

func TestBusyPort(t *testing.T) {
	_, path := newPTY(t)
	p, err := serialport.Open(context.Background(), path, serialport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = serialport.Open(context.Background(), path, serialport.Options{})
	if !errors.Is(err, serialport.ErrBusy) || !strings.Contains(err.Error(), "in use") {
		t.Fatalf("second open: %v, want ErrBusy", err)
	}
	p.Close()
	p2, err := serialport.Open(context.Background(), path, serialport.Options{})
	if err != nil {
		t.Fatalf("open after the holder closed: %v", err)
	}
	p2.Close()
}

func TestPermissionDenied(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root opens a chmod 000 device anyway; the mapping is tested in TestOpenErrorMapping")
	}
	_, path := newPTY(t)
	if err := os.Chmod(path, 0); err != nil {
		t.Skip(err)
	}
	_, err := serialport.Open(context.Background(), path, serialport.Options{})
	if !errors.Is(err, serialport.ErrPermission) {
		t.Fatalf("error %v, want ErrPermission", err)
	}
}

func TestOpenThroughSymlink(t *testing.T) {
	master, path := newPTY(t)
	link := filepath.Join(t.TempDir(), "usb-Digital_Game_Technology_DGT_board-if00-port0")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	p, err := serialport.Open(context.Background(), link, serialport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	master.Write([]byte{0x91})
	b := make([]byte, 1)
	if n, err := p.Read(b); n != 1 || err != nil || b[0] != 0x91 {
		t.Fatalf("Read = %d %x %v", n, b, err)
	}
	if p.Path() != link {
		t.Errorf("Path = %s", p.Path())
	}
}

func TestBadBaud(t *testing.T) {
	_, path := newPTY(t)
	_, err := serialport.Open(context.Background(), path, serialport.Options{Baud: -5})
	if !errors.Is(err, serialport.ErrBadMode) || !strings.Contains(err.Error(), "-5") {
		t.Fatalf("negative baud: %v", err)
	}
}

// openRetry opens path with Retry as the daemon reopens a board: a
// missing port is tried again, anything else ends the tries.
func openRetry(ctx context.Context, path string, b serialport.Backoff, onRetry func(int, error, time.Duration)) (*serialport.Port, error) {
	var p *serialport.Port
	err := b.Retry(ctx, func() serialport.Attempt {
		var err error
		p, err = serialport.Open(ctx, path, serialport.Options{})
		return serialport.Attempt{Done: !errors.Is(err, serialport.ErrNotFound), Err: err}
	}, onRetry)
	return p, err
}

// TestRetryReplug: the by-id link points nowhere (board unplugged);
// after a while a device appears behind it and Retry opens it.
func TestRetryReplug(t *testing.T) {
	link := filepath.Join(t.TempDir(), "usb-DGT-if00")
	if err := os.Symlink("/dev/arbiterd-test-not-yet", link); err != nil {
		t.Fatal(err)
	}
	master, path := newPTY(t)
	var mu sync.Mutex
	var attempts []time.Duration
	onRetry := func(attempt int, err error, wait time.Duration) {
		mu.Lock()
		defer mu.Unlock()
		if !errors.Is(err, serialport.ErrNotFound) || attempt != len(attempts)+1 {
			t.Errorf("attempt %d: %v", attempt, err)
		}
		attempts = append(attempts, wait)
		if len(attempts) == 3 { // plug the board back in
			os.Remove(link)
			os.Symlink(path, link)
		}
	}
	b := serialport.Backoff{Min: 5 * time.Millisecond, Max: 20 * time.Millisecond, Factor: 2}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	p, err := openRetry(ctx, link, b, onRetry)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	want := []time.Duration{5 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond}
	mu.Lock()
	if len(attempts) != 3 || attempts[0] != want[0] || attempts[1] != want[1] || attempts[2] != want[2] {
		t.Errorf("waits %v, want %v", attempts, want)
	}
	mu.Unlock()
	master.Write([]byte{0x93})
	if n, err := p.Read(make([]byte, 1)); n != 1 || err != nil {
		t.Fatalf("Read after replug: %d, %v", n, err)
	}
}

func TestRetryGivesUp(t *testing.T) {
	// Done: returns at once.
	start := time.Now()
	_, err := openRetry(context.Background(), "/dev/null", serialport.DefaultBackoff(), nil)
	if !errors.Is(err, serialport.ErrNotSerial) || time.Since(start) > 2*time.Second {
		t.Fatalf("Retry(/dev/null) = %v", err)
	}
	// Cancelled while waiting.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = openRetry(ctx, "/dev/arbiterd-test-missing", serialport.Backoff{Min: time.Hour}, nil)
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, serialport.ErrNotFound) {
		t.Fatalf("Retry after cancel: %v", err)
	}
}

// TestOpenDropsWhatCameBefore: with DropPending, bytes the device sent
// while nobody had the port open (the daemon died; a pseudo-terminal keeps
// them) are no part of the new session: the first bytes read are those
// sent after the open.
func TestOpenDropsWhatCameBefore(t *testing.T) {
	master, path := newPTY(t)
	first, err := serialport.Open(context.Background(), path, serialport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	first.Close()
	stale := []byte{0x8e, 0x00, 0x05, 0x37, 0x00}
	if _, err := master.Write(stale); err != nil {
		t.Fatal(err)
	}
	p, err := serialport.Open(context.Background(), path, serialport.Options{ReadTimeout: 2 * time.Second, DropPending: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	fresh := []byte{0x8e, 0x00, 0x05, 0x2f, 0x01}
	if _, err := master.Write(fresh); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 0, len(fresh))
	b := make([]byte, 64)
	for len(got) < len(fresh) {
		n, err := p.Read(b)
		if err != nil {
			t.Fatalf("Read: %v (read %x so far)", err, got)
		}
		got = append(got, b[:n]...)
	}
	if !bytes.Equal(got, fresh) {
		t.Fatalf("read %x, want %x: bytes sent before the open were read as new", got, fresh)
	}
}
