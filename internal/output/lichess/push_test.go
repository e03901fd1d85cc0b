package lichess

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/output/broadcast"
	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/internal/testkit/feedtest"
)

const tc = "40/5400+30:1800+30"

// fake is a local stand-in for the lichess push endpoint: it checks every
// request and answers from a script of statuses (then 200).
type fake struct {
	t      *testing.T
	round  string
	token  string
	mu     sync.Mutex
	script []response
	reqs   []request
	got    chan request
}

type response struct {
	status     int
	retryAfter string
}

type request struct {
	at    time.Time
	body  string
	games int
}

func newFake(t *testing.T, round, token string, script ...response) (*fake, *httptest.Server) {
	f := &fake{t: t, round: round, token: token, script: script, got: make(chan request, 1000)}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv
}

func (f *fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	t := f.t
	if r.Method != http.MethodPost || r.URL.Path != "/api/broadcast/round/"+f.round+"/push" {
		t.Errorf("request %s %s", r.Method, r.URL.Path)
		http.NotFound(w, r)
		return
	}
	if got := r.Header.Get("Authorization"); got != "Bearer "+f.token {
		t.Errorf("Authorization %q", got)
	}
	if ua := r.Header.Get("User-Agent"); !strings.HasPrefix(ua, "arbiterd/") {
		t.Errorf("User-Agent %q does not name arbiterd", ua)
	}
	b, _ := io.ReadAll(r.Body)
	body := string(b)
	n := strings.Count(body, "[Event ")
	if n == 0 || n > MaxGames {
		t.Errorf("push of %d games (want 1 to %d)", n, MaxGames)
	}
	req := request{at: time.Now(), body: body, games: n}
	f.mu.Lock()
	f.reqs = append(f.reqs, req)
	resp := response{status: 200}
	if len(f.script) > 0 {
		resp, f.script = f.script[0], f.script[1:]
	}
	f.mu.Unlock()
	f.got <- req
	if resp.retryAfter != "" {
		w.Header().Set("Retry-After", resp.retryAfter)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(resp.status)
	if resp.status == 200 {
		var games []string
		for range n {
			games = append(games, `{"tags":{"White":"A","Black":"B"},"moves":3}`)
		}
		fmt.Fprintf(w, `{"games":[%s]}`, strings.Join(games, ","))
	} else {
		fmt.Fprintf(w, `{"error":"status %d"}`, resp.status)
	}
}

func (f *fake) wait(t *testing.T) request {
	t.Helper()
	select {
	case r := <-f.got:
		return r
	case <-time.After(10 * time.Second):
		t.Fatal("no push")
		return request{}
	}
}

func run(t *testing.T, p *Pusher) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
}

func TestPushRoundPGN(t *testing.T) {
	h := hub.New(hub.Options{})
	h.AddBoard(hub.Info{ID: "1", Round: "2", White: "Anand, V", Black: "Carlsen, M", TimeControl: tc})
	h.AddBoard(hub.Info{ID: "2", Round: "2", White: "Ding, L", Black: "Gukesh, D", TimeControl: tc})
	h.AddBoard(hub.Info{ID: "3", Round: "1"}) // another round: not pushed
	for id, moves := range map[string]string{"1": "e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#", "2": "d4 d5 c4 e6"} {
		for _, e := range feedtest.Events(t, strings.Fields(moves), tc, map[string]string{"board": id}) {
			h.Publish(id, e)
		}
	}
	f, srv := newFake(t, "abcd1234", "tok")
	var mu sync.Mutex
	var results []Result
	p := NewPusher(Options{RoundID: "abcd1234", Round: "2", BaseURL: srv.URL, Token: "tok", Version: "v1.2.3",
		Meta: broadcast.Meta{Event: "Club Open", Date: "2026.11.30"}, Interval: 50 * time.Millisecond,
		OnPush: func(r Result) { mu.Lock(); results = append(results, r); mu.Unlock() }}, h)
	if p.UserAgent() != "arbiterd/v1.2.3 (chess arbiter daemon; broadcast push)" {
		t.Errorf("User-Agent %q", p.UserAgent())
	}
	run(t, p)
	r := f.wait(t)
	// The body is exactly the round folders' PGN of boards 1 and 2.
	gs := broadcast.NewGames(h, broadcast.Meta{Event: "Club Open", Date: "2026.11.30"})
	var want strings.Builder
	for _, id := range []string{"1", "2"} {
		gs.Load(id)
		g, _ := gs.Game(id)
		want.Write(g.PGN)
	}
	if r.body != want.String() {
		t.Errorf("pushed:\n%s\nwant:\n%s", r.body, want.String())
	}
	if !strings.Contains(r.body, "Qxf7#") || !strings.Contains(r.body, `[Round "2.2"]`) || strings.Contains(r.body, `[Round "1.3"]`) {
		t.Errorf("pushed:\n%s", r.body)
	}
	// Nothing changed: no second push.
	select {
	case r := <-f.got:
		t.Errorf("pushed again without a change:\n%s", r.body)
	case <-time.After(300 * time.Millisecond):
	}
	mu.Lock()
	defer mu.Unlock()
	if len(results) != 1 || results[0].Err != nil || results[0].Status != 200 || results[0].Games != 2 || results[0].First != "1" {
		t.Errorf("results %+v", results)
	}
}

func TestPushSplitsAt100Games(t *testing.T) {
	h := hub.New(hub.Options{})
	for i := 1; i <= 230; i++ {
		h.AddBoard(hub.Info{ID: fmt.Sprint(i), Round: "1", White: fmt.Sprint("W", i), Black: fmt.Sprint("B", i)})
	}
	f, srv := newFake(t, "r1", "tok")
	run(t, NewPusher(Options{RoundID: "r1", BaseURL: srv.URL, Token: "tok", Interval: 10 * time.Millisecond}, h))
	var counts []int
	next := 1
	for range 3 {
		r := f.wait(t)
		counts = append(counts, r.games)
		// Boards in order, each exactly once across the requests.
		for _, chunk := range strings.Split(r.body, "[Event ")[1:] {
			if !strings.Contains(chunk, fmt.Sprintf(`[Board "%d"]`, next)) {
				t.Fatalf("expected board %d next, got:\n%s", next, chunk)
			}
			next++
		}
	}
	if fmt.Sprint(counts) != "[100 100 30]" || next != 231 {
		t.Errorf("requests of %v games, last board %d", counts, next-1)
	}
	// A move on board 150 re-sends only the request that holds it.
	evs := feedtest.Events(t, strings.Fields("e4 e5"), tc, map[string]string{"board": "150"})
	for _, e := range evs {
		h.Publish("150", e)
	}
	// (The board's events may come in more than one push: each is the
	// second request, boards 101 to 200.)
	r := f.wait(t)
	for {
		if r.games != 100 || !strings.HasPrefix(r.body, "[Event \"?\"]") || !strings.Contains(r.body, `[Board "101"]`) || strings.Contains(r.body, `[Board "100"]`) {
			t.Fatalf("after a move on board 150, a request of %d games:\n%.300s", r.games, r.body)
		}
		if strings.Contains(r.body, "1... e5") {
			break
		}
		r = f.wait(t)
	}
	select {
	case r := <-f.got:
		t.Errorf("unchanged requests sent again (%d games)", r.games)
	case <-time.After(200 * time.Millisecond):
	}
}

func TestRetryHonoursRetryAfter(t *testing.T) {
	h := hub.New(hub.Options{})
	h.AddBoard(hub.Info{ID: "1"})
	f, srv := newFake(t, "r1", "tok", response{status: 503}, response{status: 429, retryAfter: "1"})
	var mu sync.Mutex
	var results []Result
	run(t, NewPusher(Options{RoundID: "r1", BaseURL: srv.URL, Token: "tok", Interval: 10 * time.Millisecond,
		MinBackoff: 50 * time.Millisecond, MaxBackoff: 200 * time.Millisecond,
		OnPush: func(r Result) { mu.Lock(); results = append(results, r); mu.Unlock() }}, h))
	a, b, c := f.wait(t), f.wait(t), f.wait(t)
	if d := b.at.Sub(a.at); d < 50*time.Millisecond {
		t.Errorf("retry after a 503 came after %v, want the back-off (50ms)", d)
	}
	if d := c.at.Sub(b.at); d < time.Second {
		t.Errorf("retry after a 429 came after %v, want Retry-After (1s)", d)
	}
	if a.body != c.body {
		t.Error("retried a different body with no change")
	}
	deadline := time.Now().Add(5 * time.Second)
	mu.Lock()
	defer mu.Unlock()
	for len(results) < 3 && time.Now().Before(deadline) {
		mu.Unlock()
		time.Sleep(5 * time.Millisecond)
		mu.Lock()
	}
	if len(results) != 3 || results[0].Status != 503 || results[0].Err == nil || results[0].Retry != 50*time.Millisecond ||
		results[1].Status != 429 || results[1].Retry != time.Second || !IsRefused(results[1].Err) || results[2].Err != nil {
		t.Errorf("results %+v", results)
	}
}

func TestRefusalNotRetried(t *testing.T) {
	h := hub.New(hub.Options{})
	h.AddBoard(hub.Info{ID: "1"})
	f, srv := newFake(t, "r1", "tok", response{status: 401}, response{status: 200})
	run(t, NewPusher(Options{RoundID: "r1", BaseURL: srv.URL, Token: "tok", Interval: 10 * time.Millisecond, MinBackoff: 10 * time.Millisecond}, h))
	f.wait(t)
	select {
	case <-f.got:
		t.Error("a 401 was retried with the same games")
	case <-time.After(300 * time.Millisecond):
	}
	// A change is pushed again.
	for _, e := range feedtest.Events(t, strings.Fields("e4"), tc, map[string]string{"board": "1"}) {
		h.Publish("1", e)
	}
	if r := f.wait(t); !strings.Contains(r.body, "1. e4") {
		t.Errorf("after the change:\n%s", r.body)
	}
}

func TestCoalescing(t *testing.T) {
	h := hub.New(hub.Options{})
	h.AddBoard(hub.Info{ID: "1", TimeControl: tc})
	evs := feedtest.Events(t, strings.Fields("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7"), tc, map[string]string{"board": "1"})
	f, srv := newFake(t, "r1", "tok")
	run(t, NewPusher(Options{RoundID: "r1", BaseURL: srv.URL, Token: "tok", Interval: 400 * time.Millisecond}, h))
	f.wait(t) // the empty game
	start := time.Now()
	for _, e := range evs {
		h.Publish("1", e)
		time.Sleep(2 * time.Millisecond)
	}
	var last request
	n := 0
	for !strings.Contains(last.body, "Be7") {
		last = f.wait(t)
		n++
	}
	// Ten completed moves in well under a second: at most a push per
	// interval, so a handful, not one per move.
	if limit := int(time.Since(start)/(400*time.Millisecond)) + 2; n > limit {
		t.Errorf("%d pushes for ten moves in %v (interval 400ms)", n, time.Since(start))
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := 1; i < len(f.reqs); i++ {
		if d := f.reqs[i].at.Sub(f.reqs[i-1].at); d < 350*time.Millisecond {
			t.Errorf("pushes %d and %d %v apart", i-1, i, d)
		}
	}
}

func TestOptionErrors(t *testing.T) {
	h := hub.New(hub.Options{})
	t.Setenv("LICHESS_TOKEN", "")
	for _, tt := range []struct {
		o    Options
		want string
	}{
		{Options{RoundID: "r1"}, "set LICHESS_TOKEN"},
		{Options{RoundID: "r1", TokenEnv: "MY_TOKEN"}, "set MY_TOKEN"},
		{Options{Token: "x"}, `round id ""`},
		{Options{RoundID: "../admin", Token: "x"}, `round id "../admin"`},
		{Options{RoundID: "r1", Token: "x", BaseURL: "lichess.org"}, `base URL "lichess.org"`},
	} {
		err := NewPusher(tt.o, h).Run(context.Background())
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: %v, want %q", tt.o, err, tt.want)
		}
	}
}

func TestTokenFromEnvironment(t *testing.T) {
	t.Setenv("LICHESS_TOKEN", "from-env")
	h := hub.New(hub.Options{})
	h.AddBoard(hub.Info{ID: "1"})
	f, srv := newFake(t, "r1", "from-env")
	run(t, NewPusher(Options{RoundID: "r1", BaseURL: srv.URL}, h))
	f.wait(t)
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Duration{
		"": 0, "7": 7 * time.Second, " 2 ": 2 * time.Second, "-3": 0, "soon": 0, "999999": time.Hour,
		"Mon, 30 Nov 2026 12:00:30 GMT": 30 * time.Second, "Mon, 30 Nov 2026 11:00:00 GMT": 0,
	} {
		if got := retryAfter(in, now); got != want {
			t.Errorf("retryAfter(%q) = %v, want %v", in, got, want)
		}
	}
}
