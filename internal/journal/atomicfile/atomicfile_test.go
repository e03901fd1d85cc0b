package atomicfile

import (
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

func TestWriteReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "game.pgn")
	for _, s := range []string{"first", "second, longer than the first", "third"} {
		if err := Write(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != s {
			t.Fatalf("file holds %q, want %q", got, s)
		}
	}
	if runtime.GOOS != "windows" {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o644 {
			t.Errorf("mode %v, want 0644", fi.Mode().Perm())
		}
	}
	assertOnly(t, dir, "game.pgn")
}

// Writers of the same file at once each write a whole file of their own
// (a fixed temporary name would let one rename the other's half-written
// file).
func TestWriteConcurrent(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "events.jsonl")
	want := map[string]bool{}
	var wg sync.WaitGroup
	for i := range 4 {
		data := make([]byte, 64<<10)
		for j := range data {
			data[j] = byte('a' + i)
		}
		want[string(data)] = true
		wg.Go(func() {
			for range 5 {
				if err := Write(path, data, 0o644); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !want[string(got)] {
		t.Fatalf("the file holds a mix of writes (%d bytes)", len(got))
	}
	assertOnly(t, dir, "events.jsonl")
}

// A write that fails once its temporary file is written (here the rename:
// path is a directory) leaves path as it was and no temporary file behind;
// so does one that cannot even create the temporary file.
func TestWriteFailureLeavesFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "board-1.pgn")
	if err := os.Mkdir(path, 0o755); err != nil {
		t.Fatal(err)
	}
	inside := filepath.Join(path, "kept")
	if err := os.WriteFile(inside, []byte("kept"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, []byte("new"), 0o644); err == nil {
		t.Fatal("replacing a directory with a file succeeded")
	}
	if got, err := os.ReadFile(inside); err != nil || string(got) != "kept" {
		t.Fatalf("after a failed write, %s holds %q (%v)", inside, got, err)
	}
	assertOnly(t, dir, "board-1.pgn")
	if err := Write(filepath.Join(dir, "missing", "x.pgn"), []byte("new"), 0o644); err == nil {
		t.Fatal("writing into a missing directory succeeded")
	}
	assertOnly(t, dir, "board-1.pgn")
}

// assertOnly fails unless dir holds exactly the named files (no temporary
// file left behind).
func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if len(got) != len(names) {
		t.Fatalf("directory holds %v, want %v", got, names)
	}
	for i := range names {
		if got[i] != names[i] {
			t.Fatalf("directory holds %v, want %v", got, names)
		}
	}
}
