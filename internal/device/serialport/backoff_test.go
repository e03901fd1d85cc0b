package serialport

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestBackoffDelay(t *testing.T) {
	b := Backoff{Min: 100 * time.Millisecond, Max: time.Second, Factor: 2}
	want := []time.Duration{100, 200, 400, 800, 1000, 1000}
	for i, w := range want {
		if got := b.Delay(i); got != w*time.Millisecond {
			t.Errorf("Delay(%d) = %v, want %v", i, got, w*time.Millisecond)
		}
	}
	if got := (Backoff{}).Delay(50); got != DefaultBackoff().Min {
		t.Errorf("zero Backoff: %v", got)
	}
	if got := (Backoff{Min: time.Second, Max: time.Millisecond, Factor: 0.5}).Delay(3); got != time.Second {
		t.Errorf("Max below Min and Factor below 1: %v", got)
	}
	if got := DefaultBackoff().Delay(1000); got != 5*time.Second {
		t.Errorf("long outage: %v", got)
	}
}

func TestOpenErrorMapping(t *testing.T) {
	tests := []struct {
		err  error
		want error
	}{
		{syscall.EACCES, ErrPermission},
		{&fs.PathError{Op: "open", Path: "x", Err: syscall.EPERM}, ErrPermission},
		{syscall.ENOENT, ErrNotFound},
		{syscall.ENXIO, ErrNotFound},
		{syscall.EBUSY, ErrBusy},
		{syscall.ENOTTY, ErrNotSerial},
	}
	for _, tt := range tests {
		e := openError("/dev/ttyUSB0", tt.err)
		if !errors.Is(e, tt.want) || !errors.Is(e, tt.err) {
			t.Errorf("openError(%v) = %v, want %v", tt.err, e, tt.want)
		}
	}
}

func TestByIDLinks(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "ttyUSB7")
	os.WriteFile(target, nil, 0o644)
	os.Symlink(target, filepath.Join(dir, "usb-DGT_board-if00-port0"))
	os.Symlink(filepath.Join(dir, "gone"), filepath.Join(dir, "usb-dangling"))
	links := byIDLinks(dir)
	if links[target] != filepath.Join(dir, "usb-DGT_board-if00-port0") || len(links) != 1 {
		t.Errorf("links %v", links)
	}
	if len(byIDLinks(filepath.Join(dir, "none"))) != 0 {
		t.Error("missing directory gave links")
	}
}

func TestListRuns(t *testing.T) {
	ports, err := List()
	if err != nil && ports == nil {
		t.Fatalf("List: %v", err)
	}
	for _, p := range ports {
		if p.Path == "" {
			t.Errorf("a port without a path: %+v", p)
		}
	}
}

// TestRetryUpStartsOver: a try in which the line stayed up for
// Backoff.Steady starts the schedule again; one in which it came up and
// failed at once does not.
func TestRetryUpStartsOver(t *testing.T) {
	b := Backoff{Min: time.Millisecond, Max: 8 * time.Millisecond, Factor: 2, Steady: time.Second}
	ups := []time.Duration{0, time.Millisecond, 0, time.Second, 0}
	var waits []time.Duration
	var attempts []int
	n := 0
	err := b.Retry(context.Background(), func() Attempt {
		if n == len(ups) {
			return Attempt{Done: true}
		}
		n++
		return Attempt{UpFor: ups[n-1], Err: ErrDisconnected}
	}, func(attempt int, err error, wait time.Duration) {
		attempts = append(attempts, attempt)
		waits = append(waits, wait)
	})
	if err != nil {
		t.Fatal(err)
	}
	wantA := []int{1, 2, 3, 1, 2}
	wantW := []time.Duration{1, 2, 4, 1, 2}
	for i := range wantW {
		wantW[i] *= time.Millisecond
	}
	if fmt.Sprint(attempts) != fmt.Sprint(wantA) || fmt.Sprint(waits) != fmt.Sprint(wantW) {
		t.Fatalf("attempts %v waits %v, want %v %v", attempts, waits, wantA, wantW)
	}
}
