package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// A file another program holds is tried for the patience given, then the
// write fails with ErrHeld, leaving the file as it was and no temporary
// file behind.
func TestHeldFileFailsAfterPatience(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "board-2.pgn")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	var h Holder
	release := h.Hold(path)
	defer release()
	start := time.Now()
	err := Replacer{FS: &h, Patience: 60 * time.Millisecond}.Write(path, []byte("new"), 0o644)
	took := time.Since(start)
	if err == nil {
		t.Fatal("a held file was replaced")
	}
	if !errors.Is(err, ErrHeld) || !Held(err) {
		t.Errorf("error %v does not say the file is held", err)
	}
	var he *HeldError
	if !errors.As(err, &he) || he.Path != path {
		t.Errorf("error %#v does not name %s", err, path)
	}
	if strings.Contains(err.Error(), ".tmp") {
		t.Errorf("error %q names the temporary file", err)
	}
	if took < 60*time.Millisecond {
		t.Errorf("gave up after %s, before the patience of 60ms", took)
	}
	if took > 2*time.Second {
		t.Errorf("tried for %s, far past the patience of 60ms", took)
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Errorf("the held file holds %q", got)
	}
	assertOnly(t, dir, "board-2.pgn")

	// Negative patience: one try only.
	start = time.Now()
	if err := (Replacer{FS: &h, Patience: -1}).Write(path, []byte("new"), 0o644); !errors.Is(err, ErrHeld) {
		t.Errorf("one try: %v", err)
	}
	if took := time.Since(start); took > 50*time.Millisecond {
		t.Errorf("a single try took %s", took)
	}

	release()
	if err := (Replacer{FS: &h}).Write(path, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "new" {
		t.Errorf("after the release the file holds %q", got)
	}
	assertOnly(t, dir, "board-2.pgn")
}

// A file released while the write is still trying is replaced.
func TestHeldFileReleasedWithinPatience(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "events.jsonl")
	var h Holder
	release := h.Hold(path)
	time.AfterFunc(40*time.Millisecond, release)
	if err := (Replacer{FS: &h, Patience: 5 * time.Second}).Write(path, []byte("caught up"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "caught up" {
		t.Errorf("file holds %q", got)
	}
}

// Other failures are not tried again: a rename over a directory fails at
// once, whatever the patience.
func TestOtherFailuresNotRetried(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows refuses a rename over a directory as it refuses one over a held file: access denied")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "board-1.pgn")
	if err := os.Mkdir(path, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(path, "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err := Replacer{Patience: 5 * time.Second}.Write(path, []byte("new"), 0o644)
	if err == nil || Held(err) {
		t.Fatalf("replacing a directory: %v", err)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("a failure that is no hold was tried for %s", took)
	}
}

// The Windows codes of a held file are the ones classified as held; a
// missing file or path is not.
func TestHeldCodes(t *testing.T) {
	for code, want := range map[uint32]bool{5: true, 32: true, 33: true, 1224: true, 2: false, 3: false, 112: false, 0: false} {
		if got := heldCode(code); got != want {
			t.Errorf("code %d: held %v, want %v", code, got, want)
		}
	}
	if Held(errors.New("access denied")) || Held(os.ErrNotExist) || Held(nil) {
		t.Error("an error of another kind classified as held")
	}
}

// Holder refuses opening a held file for writing, not for reading, and
// counts holds.
func TestHolderOpen(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "board-1.events.jsonl")
	if err := os.WriteFile(path, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var h Holder
	r1, r2 := h.Hold(path), h.Hold(filepath.Join(dir, ".", "board-1.events.jsonl"))
	if _, err := h.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0o644); !Held(err) {
		t.Errorf("open for appending to a held file: %v", err)
	}
	f, err := h.OpenFile(path, os.O_RDONLY, 0)
	if err != nil {
		t.Errorf("open for reading a held file: %v", err)
	} else {
		f.Close()
	}
	r1()
	r1() // releasing twice releases once
	if !h.IsHeld(path) {
		t.Error("one of two holds released the file")
	}
	r2()
	f, err = h.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatalf("open after the release: %v", err)
	}
	f.Close()
}
