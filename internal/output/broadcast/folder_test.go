package broadcast

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/internal/testkit/feedtest"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

const tc = "40/5400+30:1800+30"

var (
	mateGame = strings.Fields("e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#")
	ruyGame  = strings.Fields("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7")
)

// clock is a wall clock the test moves by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func newClock() *clock { return &clock{t: time.Date(2026, 11, 30, 14, 0, 0, 0, time.UTC)} }

func events(t *testing.T, board string, moves []string) []reconcile.Event {
	return feedtest.Events(t, moves, tc, map[string]string{"board": board})
}

func publish(h *hub.Hub, id string, evs []reconcile.Event) {
	for _, e := range evs {
		h.Publish(id, e)
	}
}

// upTo returns the events up to and including the completion of ply n.
func upTo(t *testing.T, evs []reconcile.Event, n int) []reconcile.Event {
	for i, e := range evs {
		if e.Type == reconcile.TypeComplete && e.Ply == n {
			return evs[:i+1]
		}
	}
	t.Fatalf("no completion of ply %d", n)
	return nil
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(read(t, path)), v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func twoBoards(t *testing.T) (*hub.Hub, []reconcile.Event, []reconcile.Event) {
	h := hub.New(hub.Options{})
	h.AddBoard(hub.Info{ID: "1", Round: "3", White: "Anand, V", Black: "Carlsen, M", TimeControl: tc})
	h.AddBoard(hub.Info{ID: "2", Round: "3", White: "Ding, L", Black: "Gukesh, D", TimeControl: tc})
	return h, events(t, "1", mateGame), events(t, "2", ruyGame)
}

func TestRoundFolderLayout(t *testing.T) {
	h, e1, e2 := twoBoards(t)
	publish(h, "1", e1)
	publish(h, "2", e2)
	dir := t.TempDir()
	c := newClock()
	f := New(dir, h, Options{Meta: Meta{Event: "Club Open", Site: "Utrecht", Date: "2026.11.30"}, Now: c.Now})
	f.prime()
	f.flush(true)

	var tour Tournament
	readJSON(t, filepath.Join(dir, "tournament.json"), &tour)
	if tour.Name != "Club Open" || len(tour.Rounds) != 1 {
		t.Fatalf("tournament.json %+v", tour)
	}
	r := tour.Rounds[0]
	if r.Round != "3" || r.Path != "round-3" || r.Index != "round-3/index.json" || r.PGN != "round-3/games.pgn" || r.Games != 2 {
		t.Errorf("round entry %+v", r)
	}
	var idx Index
	readJSON(t, filepath.Join(dir, "round-3", "index.json"), &idx)
	if idx.Round != "3" || idx.PGN != "games.pgn" || len(idx.Games) != 2 {
		t.Fatalf("index.json %+v", idx)
	}
	want := []IndexGame{
		{Board: "1", White: "Anand, V", Black: "Carlsen, M", TimeControl: tc, Result: "1-0", Plies: 7, PGN: "game-1.pgn", Updated: "2026-11-30T14:00:00Z"},
		{Board: "2", White: "Ding, L", Black: "Gukesh, D", TimeControl: tc, Result: "*", Plies: 10, PGN: "game-2.pgn", Updated: "2026-11-30T14:00:00Z"},
	}
	for i := range want {
		if idx.Games[i] != want[i] {
			t.Errorf("game %d: %+v, want %+v", i, idx.Games[i], want[i])
		}
	}
	g1 := read(t, filepath.Join(dir, "round-3", "game-1.pgn"))
	flat := strings.Join(strings.Fields(g1), " ")
	for _, s := range []string{`[Event "Club Open"]`, `[Site "Utrecht"]`, `[Date "2026.11.30"]`, `[Round "3.1"]`,
		`[White "Anand, V"]`, `[Black "Carlsen, M"]`, `[Result "1-0"]`, `[TimeControl "40/5400+30:1800+30"]`,
		`[WhiteClock "`, `[BlackClock "`, "1. e4 {[%clk 1:30:", "[%emt 0:00:", "Qxf7#", "1-0"} {
		if !strings.Contains(flat, s) {
			t.Errorf("game-1.pgn lacks %q:\n%s", s, g1)
		}
	}
	g2 := read(t, filepath.Join(dir, "round-3", "game-2.pgn"))
	if !strings.Contains(g2, "5. O-O") || !strings.Contains(g2, `[Result "*"]`) || !strings.Contains(g2, `[Round "3.2"]`) {
		t.Errorf("game-2.pgn:\n%s", g2)
	}
	if all := read(t, filepath.Join(dir, "round-3", "games.pgn")); all != g1+g2 {
		t.Errorf("games.pgn is not game-1 then game-2:\n%s", all)
	}
	// Nothing but the feed's files: no temporary file left behind.
	var names []string
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			names = append(names, rel)
		}
		return nil
	})
	if strings.Join(names, " ") != "round-3/game-1.pgn round-3/game-2.pgn round-3/games.pgn round-3/index.json tournament.json" {
		t.Errorf("files %v", names)
	}
}

var tagLine = regexp.MustCompile(`(?m)^\[(\w+) `)

func tagNames(pgn string) string {
	var out []string
	for _, m := range tagLine.FindAllStringSubmatch(pgn, -1) {
		out = append(out, m[1])
	}
	return strings.Join(out, " ")
}

func TestTagsStableBetweenRewrites(t *testing.T) {
	h, _, e2 := twoBoards(t)
	dir := t.TempDir()
	c := newClock()
	f := New(dir, h, Options{Meta: Meta{Event: "Club Open"}, Now: c.Now, Interval: time.Second})
	path := filepath.Join(dir, "round-3", "game-2.pgn")
	part := upTo(t, e2, 6)
	publish(h, "2", part)
	f.prime()
	f.flush(true)
	first := read(t, path)
	past := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(path, past, past); err != nil {
		t.Fatal(err)
	}

	// A restart with nothing new: the same bytes, the file not touched.
	c.Add(time.Hour)
	f2 := New(dir, h, Options{Meta: Meta{Event: "Club Open"}, Now: c.Now})
	f2.prime()
	f2.flush(true)
	if again := read(t, path); again != first {
		t.Errorf("rewrite without a change differs:\n%s\n---\n%s", first, again)
	}
	if info, err := os.Stat(path); err != nil || !info.ModTime().Equal(past) {
		t.Errorf("file rewritten by a restart with nothing new")
	}
	var idx Index
	readJSON(t, filepath.Join(dir, "round-3", "index.json"), &idx)
	if len(idx.Games) != 2 || idx.Games[1].Updated != "2026-11-30T14:00:00Z" || idx.Games[0].Updated != "2026-11-30T14:00:00Z" {
		t.Errorf("a restart an hour later changed the games' update times: %+v", idx.Games)
	}
	if f2.o.Date != f.o.Date {
		t.Errorf("Date %q then %q", f.o.Date, f2.o.Date)
	}
	// Events that change nothing in the record (a move made, not yet
	// completed by a press) do not rewrite the file.
	sub := f.h.Subscribe(context.Background(), "2", 100000)
	rest := e2[len(part):]
	i := 0
	for ; rest[i].Type != reconcile.TypeComplete; i++ {
		h.Publish("2", rest[i])
		f.apply(<-sub)
	}
	if len(f.due) != 0 {
		t.Errorf("events %v marked the board changed", rest[:i])
	}
	// The rest of the game: more moves, the same tags in the same order.
	for ; i < len(rest); i++ {
		h.Publish("2", rest[i])
		f.apply(<-sub)
	}
	c.Add(time.Minute)
	f.flush(false)
	last := read(t, path)
	if last == first || !strings.Contains(last, "Be7") {
		t.Fatalf("not rewritten after the moves:\n%s", last)
	}
	if a, b := tagNames(first), tagNames(last); a != b || !strings.Contains(a, "WhiteClock BlackClock") {
		t.Errorf("tags changed: %q then %q", a, b)
	}
}

func TestCoalescing(t *testing.T) {
	h, _, e2 := twoBoards(t)
	dir := t.TempDir()
	c := newClock()
	f := New(dir, h, Options{Now: c.Now, Interval: 2 * time.Second})
	sub := h.Subscribe(context.Background(), "2", 100000)
	path := filepath.Join(dir, "round-3", "game-2.pgn")
	plies := func() int {
		b, err := os.ReadFile(path)
		if err != nil {
			return -1
		}
		return strings.Count(string(b), "%clk")
	}
	feed := func(n int) {
		for _, e := range upTo(t, e2, n)[len(upTo(t, e2, n-1)):] {
			h.Publish("2", e)
			f.apply(<-sub)
		}
	}
	h.Publish("2", e2[0])
	f.apply(<-sub)
	for _, e := range upTo(t, e2, 1)[1:] {
		h.Publish("2", e)
		f.apply(<-sub)
	}
	f.flush(false)
	if plies() != 1 {
		t.Fatalf("first change not written at once: %d plies", plies())
	}
	c.Add(500 * time.Millisecond)
	feed(2)
	f.flush(false)
	c.Add(500 * time.Millisecond)
	feed(3)
	f.flush(false)
	if plies() != 1 {
		t.Errorf("rewritten within the interval: %d plies", plies())
	}
	c.Add(time.Second) // two seconds since the write
	f.flush(false)
	if plies() != 3 {
		t.Errorf("after the interval: %d plies, want 3 (both changes in one write)", plies())
	}
}

func TestNewGameOnBoardReplacesRecord(t *testing.T) {
	h, e1, e2 := twoBoards(t)
	publish(h, "1", e1)
	dir := t.TempDir()
	f := New(dir, h, Options{})
	f.prime()
	f.flush(true)
	sub := h.Subscribe(context.Background(), "1", 100000)
	h.Reset("1")
	for _, e := range e2 {
		e.Board = "1"
		h.Publish("1", e)
		f.apply(<-sub)
	}
	f.flush(true)
	g := read(t, filepath.Join(dir, "round-3", "game-1.pgn"))
	if strings.Contains(g, "Qxf7") || !strings.Contains(g, "Be7") || !strings.Contains(g, `[Result "*"]`) {
		t.Errorf("board 1 after a new game:\n%s", g)
	}
}

func TestBadTimeControlReported(t *testing.T) {
	h := hub.New(hub.Options{})
	h.AddBoard(hub.Info{ID: "7", White: "A", Black: "B", TimeControl: "forty moves"})
	var errs []error
	dir := t.TempDir()
	f := New(dir, h, Options{OnError: func(err error) { errs = append(errs, err) }})
	f.prime()
	f.flush(true)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), `board "7": time control "forty moves"`) {
		t.Errorf("errors %v", errs)
	}
	g := read(t, filepath.Join(dir, "round-1", "game-7.pgn"))
	if strings.Contains(g, "TimeControl") || !strings.Contains(g, `[Round "1.7"]`) {
		t.Errorf("game-7.pgn:\n%s", g)
	}
}

func TestRunLive(t *testing.T) {
	h, e1, e2 := twoBoards(t)
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- New(dir, h, Options{Interval: 20 * time.Millisecond}).Run(ctx) }()
	publish(h, "2", e2)
	publish(h, "1", e1)
	deadline := time.Now().Add(10 * time.Second)
	for {
		var idx Index
		b, err := os.ReadFile(filepath.Join(dir, "round-3", "index.json"))
		if err == nil && json.Unmarshal(b, &idx) == nil && len(idx.Games) == 2 && idx.Games[0].Result == "1-0" && idx.Games[1].Plies == 10 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("index never showed both games finished: %s", b)
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// A subscriber that falls behind is dropped by the hub; Run subscribes
// again, reloads every board and still ends with the final state.
func TestRunSurvivesDroppedSubscription(t *testing.T) {
	h, e1, e2 := twoBoards(t)
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- New(dir, h, Options{Interval: time.Millisecond, Buffer: 1}).Run(ctx) }()
	deadline := time.Now().Add(10 * time.Second)
	// Bursts until the hub has dropped the folder's subscription at least
	// once (each burst is the whole game again: a new stream on the board).
	for h.Dropped() == 0 && time.Now().Before(deadline) {
		h.Reset("1")
		publish(h, "1", e1)
	}
	if h.Dropped() == 0 {
		t.Skip("the folder kept up with every burst; nothing dropped")
	}
	publish(h, "2", e2)
	for {
		var idx Index
		b, err := os.ReadFile(filepath.Join(dir, "round-3", "index.json"))
		if err == nil && json.Unmarshal(b, &idx) == nil && len(idx.Games) == 2 && idx.Games[0].Result == "1-0" && idx.Games[1].Plies == 10 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("index never showed the final state after a drop: %s", b)
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestRunBadDir(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	err := New(filepath.Join(file, "sub"), hub.New(hub.Options{}), Options{}).Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "broadcast:") {
		t.Errorf("Run on a path under a file: %v", err)
	}
}

func TestSafeNames(t *testing.T) {
	for in, want := range map[string]string{"3": "round-3", "3.1": "round-3.1", "../x": "round-.._x", "": "round-_", "a b/c": "round-a_b_c"} {
		if got := RoundDir(in); got != want {
			t.Errorf("RoundDir(%q) = %q, want %q", in, got, want)
		}
		if strings.ContainsRune(RoundDir(in), '/') || strings.ContainsRune(GameFile(in), '/') {
			t.Errorf("%q gives a path with a separator", in)
		}
	}
	if !LessBoard("2", "10") || LessBoard("10", "2") || !LessBoard("10", "a") {
		t.Error("LessBoard order")
	}
}
