package broadcast

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/journal/atomicfile"
	"github.com/arbiterd/arbiterd/internal/output/hub"
)

// A game file another program holds open (as a broadcast tool does on
// Windows) while the game goes on stays pending: it is said once, tried
// again every interval, and catches up once let go, with no further change
// of the game; round files written meanwhile are not held back.
func TestHeldGameFileCatchesUp(t *testing.T) {
	h := hub.New(hub.Options{})
	h.AddBoard(hub.Info{ID: "1", Round: "4", White: "Anand, V", Black: "Carlsen, M", TimeControl: tc})
	evs := events(t, "1", mateGame)
	dir := t.TempDir()
	c := newClock()
	var fsys atomicfile.Holder
	var errs []error
	var caught []string
	f := New(dir, h, Options{Meta: Meta{Event: "Club Open"}, Now: c.Now, Interval: time.Second, FS: &fsys,
		OnError: func(err error) { errs = append(errs, err) }, OnCaughtUp: func(p string) { caught = append(caught, p) }})
	game := filepath.Join(dir, "round-4", "game-1.pgn")

	part := upTo(t, evs, 4)
	publish(h, "1", part)
	f.prime()
	f.flush(false)
	early := read(t, game)

	release := fsys.Hold(game)
	publish(h, "1", evs[len(part):])
	f.prime()
	c.Add(2 * time.Second)
	f.flush(false)
	if got := read(t, game); got != early {
		t.Fatal("a held file was replaced")
	}
	if len(errs) != 1 || !atomicfile.Held(errs[0]) || !strings.Contains(errs[0].Error(), "game-1.pgn") {
		t.Fatalf("errors %v, want one naming game-1.pgn held", errs)
	}
	if idx := read(t, filepath.Join(dir, "round-4", "index.json")); !strings.Contains(idx, `"result": "1-0"`) {
		t.Errorf("index.json not written while the game file is held:\n%s", idx)
	}
	// Still held at the next retries: said once only.
	for range 3 {
		c.Add(time.Second)
		f.flush(false)
	}
	if len(errs) != 1 {
		t.Errorf("a file still held was reported %d times", len(errs))
	}
	if len(f.pending) != 1 {
		t.Errorf("pending files %v", f.pendingPaths())
	}

	// Let go: the next retry writes it, though the game did not change.
	release()
	c.Add(time.Second)
	f.flush(false)
	if got := read(t, game); !strings.Contains(got, "Qxf7#") || !strings.Contains(got, `[Result "1-0"]`) {
		t.Errorf("after the release game-1.pgn is\n%s", got)
	}
	if len(caught) != 1 || caught[0] != game {
		t.Errorf("caught up %v", caught)
	}
	if len(f.pending) != 0 {
		t.Errorf("still pending: %v", f.pendingPaths())
	}
}

// A file held through shutdown is said to be left unwritten; the next
// start writes it.
func TestHeldAtShutdown(t *testing.T) {
	h := hub.New(hub.Options{})
	h.AddBoard(hub.Info{ID: "1", Round: "4", White: "Anand, V", Black: "Carlsen, M", TimeControl: tc})
	publish(h, "1", events(t, "1", mateGame))
	dir := t.TempDir()
	c := newClock()
	var fsys atomicfile.Holder
	var errs []error
	game := filepath.Join(dir, "round-4", "game-1.pgn")
	release := fsys.Hold(game)
	f := New(dir, h, Options{Now: c.Now, FS: &fsys, OnError: func(err error) { errs = append(errs, err) }})
	f.prime()
	f.flush(true)
	if len(errs) != 2 || !strings.Contains(errs[1].Error(), "before stopping") {
		t.Fatalf("errors %v, want the hold and the file left at shutdown", errs)
	}
	release()
	f2 := New(dir, h, Options{Now: c.Now, FS: &fsys})
	f2.prime()
	f2.flush(true)
	if got := read(t, game); !strings.Contains(got, "Qxf7#") {
		t.Errorf("game-1.pgn after the next start:\n%s", got)
	}
}
