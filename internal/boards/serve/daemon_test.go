package serve

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

func isFlag(e reconcile.Event) bool { return e.Type == reconcile.TypeFlag }
func isOver(e reconcile.Event) bool { return gameOver(e) }

// checkFlagGame checks board 1's game: Black oversteps the time before
// move 40 with 18 moves completed, White has 19, and loses (6.9).
func checkFlagGame(t *testing.T, evs []reconcile.Event, sans []string) {
	t.Helper()
	var flag *reconcile.Event
	for i := range evs {
		if evs[i].Type == reconcile.TypeFlag {
			flag = &evs[i]
		}
	}
	if flag == nil {
		t.Fatal("board 1: no flag verdict")
	}
	if flag.Side != clockd.Black || flag.MovesCompleted != 18 || flag.MovesRequired != 40 || flag.ControlReached || flag.Verdict != reconcile.VerdictLoss {
		t.Errorf("board 1: flag verdict %s", reconcile.Marshal(*flag))
	}
	if m := completed(evs); m.White != 19 || m.Black != 18 {
		t.Errorf("board 1: completed %+v, want White 19, Black 18", m)
	}
	// Every ply completed once, with the game's move (moves reconstructed
	// after a gap may complete in another order than they were played).
	got := make([]string, 37)
	for _, e := range evs {
		if e.Type == reconcile.TypeComplete {
			if e.Ply < 1 || e.Ply > len(got) || got[e.Ply-1] != "" {
				t.Errorf("board 1: unexpected completion %s", reconcile.Marshal(e))
				continue
			}
			got[e.Ply-1] = e.SAN
		}
	}
	if strings.Join(got, " ") != strings.Join(sans[:37], " ") {
		t.Errorf("board 1: completed moves\n %v\nwant\n %v", got, sans[:37])
	}
}

// TestTwoBoards serves two emulated boards on ptys at once: board 1 plays
// the Immortal Game to a flag before the control, board 2 plays it to the
// mate. Both games' events, PGN and journal must be right.
func TestTwoBoards(t *testing.T) {
	sans := immortal(t)
	e1 := startEmu(t, emulator.Config{Game: sans, Seed: 1, Script: []emulator.Action{{Kind: emulator.Flag, Ply: 38}}})
	// Board 2's line is noisy: garbage bytes the decoder must skip.
	e2 := startEmu(t, emulator.Config{Game: sans, Seed: 2, Script: []emulator.Action{{Kind: emulator.Garbage, Ply: 10, N: 64}}})
	data := t.TempDir()
	w := newWatcher()
	d, stop := runDaemon(t, testConfig(data, e1.path, e2.path), w)

	w.waitFor(t, "both games to end", 90*time.Second, func() bool {
		return has(w.stream("1"), isOver) && has(w.stream("2"), isOver)
	})
	// The HTTP side: metrics, the dashboard, its API and the LiveChess API
	// on one listener.
	get := func(path string) string {
		t.Helper()
		resp, err := http.Get("http://" + d.Addr().String() + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s: %s\n%s", path, resp.Status, body)
		}
		return string(body)
	}
	if page := get("/"); !strings.Contains(strings.ToLower(page), "<html") {
		t.Errorf("GET / is not the dashboard:\n%.300s", page)
	}
	if js := get("/api/boards"); !strings.Contains(js, `"Morphy, Paul"`) {
		t.Errorf("GET /api/boards:\n%.500s", js)
	}
	if js := get("/api/v1.0/eboards"); !strings.Contains(js, `"serialnr"`) {
		t.Errorf("GET /api/v1.0/eboards:\n%.500s", js)
	}
	get("/healthz")
	if n := counter(t, d, "arbiterd_decode_errors_total"); n == 0 {
		t.Error("the garbage on board 2's line counted no decode error")
	}
	body := get("/metrics")
	for _, l := range strings.Split(body, "\n") {
		if strings.HasPrefix(l, "arbiterd_press_complete_latency_seconds_") && !strings.Contains(l, "bucket") {
			t.Log(l) // the figure, for go test -v
		}
	}
	for _, want := range []string{`arbiterd_boards 2`, `arbiterd_events_total{type="complete"}`, `arbiterd_events_total{type="flag"} 1`,
		`arbiterd_press_complete_latency_seconds_count`, `arbiterd_board_connected{board="2"}`} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	// A browser's event stream is open while the daemon shuts down: it is
	// ended, and the shutdown does not wait for it.
	stream, err := http.Get("http://" + d.Addr().String() + "/api/stream")
	if err != nil {
		t.Fatal(err)
	}
	streamDone := make(chan struct{})
	go func() { io.Copy(io.Discard, stream.Body); stream.Body.Close(); close(streamDone) }()
	t0 := time.Now()
	stop()
	if took := time.Since(t0); took > 3*time.Second {
		t.Errorf("shutdown with an open event stream took %v", took)
	}
	select {
	case <-streamDone:
	case <-time.After(5 * time.Second):
		t.Error("the event stream was not ended by the shutdown")
	}
	if _, err := os.Stat(filepath.Join(data, "broadcast", "tournament.json")); err != nil {
		t.Errorf("broadcast folder: %v", err)
	}

	checkFlagGame(t, w.stream("1"), sans)
	b2 := w.stream("2")
	if m := completed(b2); m.White != 23 || m.Black != 22 {
		t.Errorf("board 2: completed %+v, want the whole game (23, 22)", m)
	}
	if has(b2, isFlag) {
		t.Error("board 2: a flag fell in a game without one")
	}
	for _, id := range []string{"1", "2"} {
		sameStream(t, d.Dir(), id, true)
	}
	p1, p2 := readFile(t, pgnPath(d.Dir(), "1")), readFile(t, pgnPath(d.Dir(), "2"))
	for _, want := range []string{`[Round "1.1"]`, `[White "Anderssen, Adolf"]`, `[Result "1-0"]`, "Bxg1", "[%clk"} {
		if !strings.Contains(p1, want) {
			t.Errorf("board 1 PGN lacks %q:\n%s", want, p1)
		}
	}
	for _, want := range []string{`[Round "1.2"]`, `[White "Morphy, Paul"]`, "Be7#", `1-0`} {
		if !strings.Contains(p2, want) {
			t.Errorf("board 2 PGN lacks %q:\n%s", want, p2)
		}
	}
	b, err := d.Hub().Board("1")
	if err != nil {
		t.Fatal(err)
	}
	if b.Verdict != string(reconcile.VerdictLoss) {
		t.Errorf("hub: board 1 verdict %q", b.Verdict)
	}
}
