package serve

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/boards/pipeline"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// pairingPGN is a pairing program's PGN of two rounds on two boards.
const pairingPGN = `[Event "Club"]
[Round "1.1"]
[White "Anderssen, Adolf"]
[Black "Kieseritzky, Lionel"]
[WhiteElo "2600"]
[Result "*"]

*

[Event "Club"]
[Round "1.2"]
[White "Morphy, Paul"]
[Black "Duke Karl"]
[Result "*"]

*

[Event "Club"]
[Round "2.1"]
[White "Kieseritzky, Lionel"]
[Black "Morphy, Paul"]
[Result "*"]

*

[Event "Club"]
[Round "2.2"]
[White "Duke Karl"]
[Black "Anderssen, Adolf"]
[WhiteFideId "1234"]
[Result "*"]

*
`

// The next round is refused while a game is on, unless the arbiter
// confirms that board; then every board goes over to round 2's folder
// and pair, round 1's captures closed as they were. A wrong pair is then
// corrected on one board: its capture, PGN and dashboard name the
// players anew, the other board keeps its own.
func TestNextRoundAndACorrectedPairing(t *testing.T) {
	sans := immortal(t)
	e1 := startEmu(t, emulator.Config{Game: sans, Seed: 4, Speed: 50})
	e2 := startEmu(t, emulator.Config{Game: sans, Seed: 5, Speed: 50})
	dir := t.TempDir()
	pairs := filepath.Join(dir, "pairs.pgn")
	if err := os.WriteFile(pairs, []byte(pairingPGN), 0o644); err != nil {
		t.Fatal(err)
	}
	c := testConfig(filepath.Join(dir, "data"), e1.path, e2.path)
	c.Round, c.Pairings = "", pairs
	for i := range c.Boards {
		c.Boards[i].White, c.Boards[i].Black = "", ""
	}
	w := newWatcher()
	d, stop := runDaemonAt(t, c, w, 50)
	if d.Round() != "1" {
		t.Fatalf("round %q, want 1 (the file's first round to play)", d.Round())
	}
	if b, _ := d.Hub().Board("1"); b.White != "Anderssen, Adolf" || b.WhitePlayer.Elo != "2600" {
		t.Errorf("board 1 of round 1: %+v", b)
	}
	w.waitFor(t, "moves on both boards", 60*time.Second, func() bool {
		return completed(w.stream("1")).White >= 1 && completed(w.stream("2")).White >= 1
	})
	post := func(path, body string) (int, string) {
		t.Helper()
		resp, err := http.Post("http://"+d.Addr().String()+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, c := range []struct {
		body string
		code int
		says string
	}{
		{`{}`, http.StatusConflict, "the games of boards 1, 2 have not ended"},
		{`{"confirm":"1"}`, http.StatusConflict, "the game of board 2 has not ended"},
		{`{"confirm":"9"}`, http.StatusBadRequest, `is not a board`},
		{`{"confirm":1}`, http.StatusBadRequest, "not a string"},
		{`{"round":"2"}`, http.StatusBadRequest, "unknown member"},
	} {
		if code, body := post("/api/round", c.body); code != c.code || !strings.Contains(body, c.says) {
			t.Errorf("POST /api/round %s: %d %s, want %d saying %q", c.body, code, body, c.code, c.says)
		}
	}
	round1 := d.Dir()
	if code, body := post("/api/round", `{"confirm":"1,2"}`); code != http.StatusOK || !strings.Contains(body, `"round":"2"`) {
		t.Fatalf("round 2 with both boards confirmed: %d %s", code, body)
	}
	if d.Dir() == round1 || filepath.Base(d.Dir()) != "round-2" {
		t.Errorf("journal %s after round 1's %s", d.Dir(), round1)
	}
	// Round 1's captures are closed as they were: each replays to its events file.
	for _, id := range []string{"1", "2"} {
		sameStream(t, round1, id, false)
	}
	b2, _ := d.Hub().Board("2")
	if b2.Round != "2" || b2.White != "Duke Karl" || b2.Black != "Anderssen, Adolf" || b2.WhitePlayer.FideID != "1234" {
		t.Errorf("board 2 of round 2: %+v", b2)
	}
	w.waitFor(t, "round 2 under way", 60*time.Second, func() bool {
		b, _ := d.Hub().Board("1")
		return b.Round == "2" && b.Ply >= 2
	})
	// Board 1's pair was wrong: Morphy sat at it against Kieseritzky with White.
	if code, body := post("/api/boards/1/pairing", `{"white":"Morphy, Paul","black":"Kieseritzky, Lionel"}`); code != http.StatusOK {
		t.Fatalf("pairing corrected: %d %s", code, body)
	}
	for _, c := range []struct{ path, body string }{
		{"/api/boards/1/pairing", `{"white":"","black":"X"}`}, {"/api/boards/1/pairing", `{"white":"A"}`},
	} {
		if code, body := post(c.path, c.body); code != http.StatusBadRequest {
			t.Errorf("POST %s %s: %d %s, want 400", c.path, c.body, code, body)
		}
	}
	if code, _ := post("/api/boards/7/pairing", `{"white":"A","black":"B"}`); code != http.StatusNotFound {
		t.Errorf("a pairing for an unknown board: %d, want 404", code)
	}
	b1, _ := d.Hub().Board("1")
	if b1.White != "Morphy, Paul" || b1.Black != "Kieseritzky, Lionel" {
		t.Errorf("board 1 after the correction: %s – %s", b1.White, b1.Black)
	}
	if b, _ := d.Hub().Board("2"); b.White != "Duke Karl" {
		t.Errorf("board 2 touched by board 1's correction: %+v", b)
	}
	stop()
	pgn := readFile(t, filepath.Join(d.Dir(), "board-1.pgn"))
	for _, tag := range []string{`[Round "2.1"]`, `[White "Morphy, Paul"]`, `[Black "Kieseritzky, Lionel"]`} {
		if !strings.Contains(pgn, tag) {
			t.Errorf("board 1's PGN lacks %s:\n%s", tag, pgn)
		}
	}
	// Replay reads the corrected players from the capture; the events are the same.
	f, err := os.Open(capturePath(d.Dir(), "1"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := pipeline.Replay(f, pipeline.Options{}, func(reconcile.Event) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if tags := p.Tags(); tags.White != "Morphy, Paul" || tags.Black != "Kieseritzky, Lionel" || tags.Round != "2" {
		t.Errorf("replayed tags %+v", tags)
	}
	sameStream(t, d.Dir(), "1", false)
}
