package scaleout

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/arbiterd/arbiterd/internal/testkit/lockedbuf"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/config"
	"github.com/arbiterd/arbiterd/internal/output/broadcast"
	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/internal/output/livechess"
)

// fakeLichess stands in for lichess's broadcast push endpoint: it keeps
// the PGN bodies it is sent for its round.
type fakeLichess struct {
	t     *testing.T
	round string
	token string
	mu    sync.Mutex
	last  string
	n     int
}

func (f *fakeLichess) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/api/broadcast/round/"+f.round+"/push" {
		f.t.Errorf("lichess: request %s %s", r.Method, r.URL.Path)
		http.NotFound(w, r)
		return
	}
	if got := r.Header.Get("Authorization"); got != "Bearer "+f.token {
		f.t.Errorf("lichess: Authorization %q", got)
	}
	b, _ := io.ReadAll(r.Body)
	n := strings.Count(string(b), "[Event ")
	f.mu.Lock()
	f.last, f.n = string(b), f.n+1
	f.mu.Unlock()
	var games []string
	for range n {
		games = append(games, `{"tags":{"White":"A","Black":"B"},"moves":3}`)
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"games":[%s]}`, strings.Join(games, ","))
}

func (f *fakeLichess) body() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.last
}

// dateTag is the Date tag of the feeds, which each process takes from its
// own day: the venues' and the hall's may differ across midnight.
var dateTag = regexp.MustCompile(`(?m)^\[Date "[^"]*"\]$`)

func sameDay(pgn []byte) []byte { return dateTag.ReplaceAll(pgn, []byte(`[Date "-"]`)) }

// venueHub is the venue's view of its boards, from its events files (what
// its daemon's hub was given), with the boards' descriptions.
func venueHub(t *testing.T, vs []*tVenue) *hub.Hub {
	t.Helper()
	h := hub.New(hub.Options{})
	for _, v := range vs {
		for _, b := range v.cfg.Boards {
			h.AddBoard(hub.Info{ID: b.ID(), Round: v.cfg.Round, White: b.White, Black: b.Black, TimeControl: b.TimeControl})
			data, err := os.ReadFile(filepath.Join(v.roundDir(), "board-"+b.ID()+".events.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			for l := range bytes.Lines(data) {
				e, err := ParseEvent(bytes.TrimSuffix(l, []byte("\n")))
				if err != nil {
					t.Fatal(err)
				}
				h.Publish(b.ID(), e)
			}
		}
	}
	return h
}

// eboards reads GET /api/v1.0/eboards, without what depends on the wall
// clock (the time a clock value came).
func eboards(t *testing.T, hnd http.Handler) map[string]map[string]any {
	t.Helper()
	rec := httptest.NewRecorder()
	hnd.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://127.0.0.1/api/v1.0/eboards", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("eboards: %d %s", rec.Code, rec.Body)
	}
	var list []map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &list); err != nil {
		t.Fatalf("eboards: %v: %s", err, rec.Body)
	}
	out := map[string]map[string]any{}
	for _, b := range list {
		if c, ok := b["clock"].(map[string]any); ok {
			delete(c, "time")
		}
		out[fmt.Sprint(b["serialnr"])] = b
	}
	return out
}

// httpGet fetches a URL of the hall.
func httpGet(t *testing.T, url string) []byte {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s %s", url, resp.Status, b)
	}
	return b
}

// `arbiterd hall` with its feeds, over two venues of one board each that
// play full games: the hall's LiveChess-compatible API lists both boards
// as the venues' own API does, its broadcast round folder holds both games
// exactly as each venue's own folder has its game, and the lichess push
// sends the round's two games, the folder's games.pgn.
func TestHallFeeds(t *testing.T) {
	withFeeds := func(c *config.Config) { c.Broadcast = "" }
	north := newVenueConfig(t, "north", []int{101}, withFeeds)
	south := newVenueConfig(t, "south", []int{202}, withFeeds) // an even board: Black's flag falls
	vs := []*tVenue{north, south}

	li := &fakeLichess{t: t, round: "r0und1d", token: "secret-token"}
	lsrv := httptest.NewServer(li)
	t.Cleanup(lsrv.Close)
	t.Setenv("ARBITERD_TEST_LICHESS_TOKEN", li.token)

	data := t.TempDir()
	c := &HallConfig{Data: data, Event: north.cfg.Event, Round: "1",
		Lichess: &config.Lichess{RoundID: li.round, TokenEnv: "ARBITERD_TEST_LICHESS_TOKEN", BaseURL: lsrv.URL}}
	for _, v := range vs {
		c.Venues = append(c.Venues, HallVenue{Name: v.name, URL: "nats-leaf://" + v.proxy.addr(), Boards: []int{v.cfg.Boards[0].Number}})
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	log := slog.New(slog.DiscardHandler)
	if os.Getenv("ARBITERD_SCALEOUT_LOG") != "" {
		log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- RunHall(ctx, c, log, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("hall: %v", err)
		}
	})

	// Wait for both games to end at the venues and to be whole at the
	// hall: each venue's game file in the hall's folder, and pushed.
	round := filepath.Join(data, "broadcast", broadcast.RoundDir("1"))
	deadline := time.Now().Add(4 * time.Minute)
	for {
		var missing []string
		for _, v := range vs {
			id := v.cfg.Boards[0].ID()
			evs, _ := os.ReadFile(filepath.Join(v.roundDir(), "board-"+id+".events.jsonl"))
			want, _ := os.ReadFile(filepath.Join(v.data, "broadcast", broadcast.RoundDir("1"), broadcast.GameFile(id)))
			got, _ := os.ReadFile(filepath.Join(round, broadcast.GameFile(id)))
			switch {
			case !gameOver(evs):
				missing = append(missing, v.name+": game on")
			case len(want) == 0 || !bytes.Equal(sameDay(want), sameDay(got)):
				missing = append(missing, fmt.Sprintf("%s: venue's game file %d bytes, hall's %d", v.name, len(want), len(got)))
			}
		}
		// The venue writes its game file after the game's end event: the
		// hall's index has the result once both have passed through.
		var idx broadcast.Index
		if b, err := os.ReadFile(filepath.Join(round, "index.json")); err != nil || json.Unmarshal(b, &idx) != nil {
			missing = append(missing, "the hall's round index")
		}
		for _, g := range idx.Games {
			if g.Result == "*" {
				missing = append(missing, "the hall's round index: board "+g.Board+" has no result yet")
			}
		}
		all, _ := os.ReadFile(filepath.Join(round, "games.pgn"))
		if len(missing) == 0 && (len(all) == 0 || li.body() != string(all)) {
			missing = append(missing, fmt.Sprintf("lichess: the last push (%d bytes) is not the round's games.pgn (%d)", len(li.body()), len(all)))
		}
		if len(missing) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 4 minutes: %v", missing)
		}
		time.Sleep(200 * time.Millisecond)
	}

	// The round folder: both games, in board order, each the venue's.
	var all []byte
	for _, v := range vs {
		g, _ := os.ReadFile(filepath.Join(v.data, "broadcast", broadcast.RoundDir("1"), broadcast.GameFile(v.cfg.Boards[0].ID())))
		all = append(all, g...)
	}
	gotAll, _ := os.ReadFile(filepath.Join(round, "games.pgn"))
	if !bytes.Equal(sameDay(all), sameDay(gotAll)) {
		t.Errorf("the hall's games.pgn is not the venues' games in board order:\n%s", gotAll)
	}
	for _, want := range []string{`[White "White 101"]`, `[White "White 202"]`, `[Round "1.101"]`, `[Round "1.202"]`} {
		if !bytes.Contains(gotAll, []byte(want)) {
			t.Errorf("the hall's games.pgn has no %s", want)
		}
	}
	var idx broadcast.Index
	if err := json.Unmarshal(httpGetFile(t, filepath.Join(round, "index.json")), &idx); err != nil {
		t.Fatal(err)
	}
	ref := venueHub(t, vs)
	if len(idx.Games) != 2 {
		t.Fatalf("the hall's round index: %+v", idx)
	}
	for i, v := range vs {
		b, _ := ref.Board(v.cfg.Boards[0].ID())
		g := idx.Games[i]
		if g.Board != b.ID || g.White != b.White || g.Result == "*" || g.Plies != len(b.SAN) {
			t.Errorf("the hall's round index, game %d: %+v; the venue's board: %s %s, %d plies", i, g, b.ID, b.White, len(b.SAN))
		}
	}

	// The LiveChess-compatible API: the hall's eboards are the venues'.
	got := eboards(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		resp, err := http.Get(base + r.URL.Path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		w.WriteHeader(resp.StatusCode)
		io.Copy(w, resp.Body)
	}))
	want := eboards(t, livechess.New(ref).Handler())
	if len(got) != 2 || len(want) != 2 {
		t.Errorf("eboards: the hall lists %d boards, the venues %d", len(got), len(want))
	}
	for id, w := range want {
		if g := got[id]; fmt.Sprint(g) != fmt.Sprint(w) {
			t.Errorf("eboard %s: the hall\n%v\nthe venues\n%v", id, g, w)
		}
	}

	// The dashboard's API and the venues' page.
	var boards []struct {
		ID    string `json:"id"`
		White string `json:"white"`
	}
	if err := json.Unmarshal(httpGet(t, base+"/api/boards"), &boards); err != nil {
		t.Fatal(err)
	}
	if len(boards) != 2 || boards[0].ID != "101" || boards[1].ID != "202" {
		t.Errorf("/api/boards: %d boards %+v", len(boards), boards)
	}
	var st Status
	if err := json.Unmarshal(httpGet(t, base+"/api/hall"), &st); err != nil {
		t.Fatal(err)
	}
	if len(st.Venues) != 2 || len(st.Venues[0].Boards) != 1 || len(st.Venues[1].Boards) != 1 {
		t.Errorf("/api/hall: %+v", st)
	}
}

func httpGetFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A feed of `arbiterd hall` that cannot run says why, naming itself, as
// serve's feeds do, and the hall goes on serving: a broadcast directory
// that cannot be made (a file is in its way) and a lichess push without
// its token.
func TestHallReportsFeedErrors(t *testing.T) {
	data := t.TempDir()
	blocked := filepath.Join(data, "not-a-directory")
	if err := os.WriteFile(blocked, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ARBITERD_TEST_NO_LICHESS_TOKEN", "")
	c := &HallConfig{Data: data, Event: "Feeds", Round: "1", Broadcast: filepath.Join(blocked, "broadcast"),
		Lichess: &config.Lichess{RoundID: "r0und1d", TokenEnv: "ARBITERD_TEST_NO_LICHESS_TOKEN", BaseURL: "http://127.0.0.1:1"},
		Venues:  []HallVenue{{Name: "north"}}}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var logs lockedbuf.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- RunHall(ctx, c, log, ln) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("hall: %v", err)
		}
	}()

	want := []*regexp.Regexp{
		regexp.MustCompile(`level=ERROR msg="service stopped" service=broadcast err="broadcast: `),
		regexp.MustCompile(`level=ERROR msg="service stopped" service=lichess err="lichess: no API token: set ARBITERD_TEST_NO_LICHESS_TOKEN`),
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		var missing []string
		for _, re := range want {
			if !re.MatchString(logs.String()) {
				missing = append(missing, re.String())
			}
		}
		if len(missing) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the hall's log has no %q:\n%s", missing, logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The hall still serves.
	if b := httpGet(t, "http://"+ln.Addr().String()+"/healthz"); string(b) != "ok\n" {
		t.Errorf("/healthz: %q", b)
	}
}
