package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// On Windows itself: a file opened by another handle sharing reading only
// (no FILE_SHARE_DELETE), as a reader holds it, cannot be replaced; the
// write is tried for its patience, fails with ErrHeld, and succeeds once
// the handle is closed.
func TestWindowsHeldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "board-2.pgn")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := syscall.UTF16PtrFromString(path)
	if err != nil {
		t.Fatal(err)
	}
	h, err := syscall.CreateFile(p, syscall.GENERIC_READ, syscall.FILE_SHARE_READ, nil, syscall.OPEN_EXISTING, syscall.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	defer func() {
		if !closed {
			syscall.CloseHandle(h)
		}
	}()
	err = Replacer{Patience: 50 * time.Millisecond}.Write(path, []byte("new"), 0o644)
	if !errors.Is(err, ErrHeld) {
		t.Fatalf("replacing a held file: %v", err)
	}
	t.Logf("held: %v", err)
	time.AfterFunc(30*time.Millisecond, func() { syscall.CloseHandle(h) })
	closed = true
	if err := (Replacer{Patience: 5 * time.Second}).Write(path, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "new" {
		t.Errorf("file holds %q", got)
	}
}
