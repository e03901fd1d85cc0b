package livechess

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/internal/testkit/feedtest"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

const tc = "40/5400+30:1800+30"

var ruy = strings.Fields("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7")

var wall = time.Date(2026, 11, 30, 14, 0, 0, 0, time.UTC)

// smallSends gives every accepted connection a small send buffer, so a
// client that does not read blocks the server's writes soon.
type smallSends struct{ net.Listener }

func (l smallSends) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetWriteBuffer(4096)
	}
	return c, err
}

func serve(t *testing.T, a *API) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle(Prefix+"/", a.Handler())
	mux.Handle(Prefix, a.Handler())
	srv := httptest.NewUnstartedServer(mux)
	srv.Listener = smallSends{srv.Listener}
	srv.Start()
	t.Cleanup(func() {
		a.Close()
		srv.Close()
	})
	return srv
}

func dial(t *testing.T, srv *httptest.Server, opts *websocket.DialOptions) *websocket.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+Prefix, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.CloseNow() })
	return c
}

// message is a response as a LiveChess client decodes it.
type message struct {
	Response string          `json:"response"`
	ID       json.RawMessage `json:"id"`
	Param    json.RawMessage `json:"param"`
}

func call(t *testing.T, c *websocket.Conn, req string) message {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Write(ctx, websocket.MessageText, []byte(req)); err != nil {
		t.Fatal(err)
	}
	return next(t, c)
}

func next(t *testing.T, c *websocket.Conn) message {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var m message
	if err := wsjson.Read(ctx, c, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func publishUpTo(h *hub.Hub, id string, evs []reconcile.Event, ply int) []reconcile.Event {
	for i, e := range evs {
		h.Publish(id, e)
		if e.Type == reconcile.TypeComplete && e.Ply == ply {
			return evs[i+1:]
		}
	}
	return nil
}

func setup(t testing.TB) (*hub.Hub, []reconcile.Event) {
	h := hub.New(hub.Options{Now: func() time.Time { return wall }})
	h.AddBoard(hub.Info{ID: "1", Round: "3", White: "Anand, V", Black: "Carlsen, M", TimeControl: tc})
	h.AddBoard(hub.Info{ID: "2", Round: "3", TimeControl: tc})
	return h, feedtest.Events(t, ruy, tc, map[string]string{"board": "1"})
}

func TestEBoardsREST(t *testing.T) {
	h, evs := setup(t)
	publishUpTo(h, "1", evs, 4)
	srv := serve(t, New(h))
	resp, err := http.Get(srv.URL + Prefix + "/eboards")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("status %d %q: %s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	var raw []map[string]any
	if err := json.Unmarshal(body, &raw); err != nil {
		t.Fatal(err)
	}
	if len(raw) != 2 {
		t.Fatalf("%d e-boards, want 2: %s", len(raw), body)
	}
	for _, k := range []string{"serialnr", "source", "state", "battery", "comment", "board", "flipped", "clock"} {
		if _, ok := raw[0][k]; !ok {
			t.Errorf("e-board lacks %q: %s", k, body)
		}
	}
	var boards []EBoard
	json.Unmarshal(body, &boards)
	b := boards[0]
	if b.SerialNr != "1" || b.State != "ACTIVE" || b.Flipped || b.Battery != nil || b.Comment != nil ||
		b.Board != "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R" {
		t.Errorf("board 1: %+v", b)
	}
	if b.Clock == nil || b.Clock.Run == nil || !*b.Clock.Run || b.Clock.Time != wall.UnixMilli() ||
		b.Clock.White <= 5300 || b.Clock.White > 5500 || b.Clock.Black <= 5300 || b.Clock.Black > 5500 {
		t.Errorf("board 1 clock: %+v (White to move: run must be true)", b.Clock)
	}
	if boards[1].SerialNr != "2" || boards[1].State != "INACTIVE" || boards[1].Clock != nil ||
		boards[1].Board != "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR" {
		t.Errorf("board 2: %+v", boards[1])
	}
	if !strings.Contains(string(body), `"battery":null`) || !strings.Contains(string(body), `"clock":null`) {
		t.Errorf("nulls not written as null: %s", body)
	}

	for _, tt := range []struct {
		method, path string
		code         int
	}{
		{"POST", Prefix + "/eboards", 405},
		{"GET", Prefix + "/sources", 404},
		{"GET", Prefix, 400},
	} {
		req, _ := http.NewRequest(tt.method, srv.URL+tt.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.code || !strings.Contains(string(body), `"error"`) {
			t.Errorf("%s %s: %d %s, want %d with an error", tt.method, tt.path, resp.StatusCode, body, tt.code)
		}
	}
}

func TestWebSocketEBoardsAndSubscribe(t *testing.T) {
	h, evs := setup(t)
	rest := publishUpTo(h, "1", evs, 2)
	srv := serve(t, New(h))
	c := dial(t, srv, nil)

	m := call(t, c, `{"id":1,"call":"eboards","param":null}`)
	var boards []EBoard
	if m.Response != "call" || string(m.ID) != "1" || json.Unmarshal(m.Param, &boards) != nil || len(boards) != 2 || boards[0].SerialNr != "1" {
		t.Fatalf("eboards answer %+v", m)
	}

	m = call(t, c, `{"id":2,"call":"subscribe","param":{"feed":"eboardevent","id":7,"param":{"serialnr":"1"}}}`)
	if m.Response != "call" || string(m.ID) != "2" || string(m.Param) != "null" {
		t.Fatalf("subscribe answer %+v", m)
	}
	feed := func() EBoardEvent {
		t.Helper()
		m := next(t, c)
		if m.Response != "feed" || string(m.ID) != "7" {
			t.Fatalf("feed message %+v", m)
		}
		var keys map[string]any
		json.Unmarshal(m.Param, &keys)
		for _, k := range []string{"serialnr", "flipped", "board", "clock", "san", "match"} {
			if _, ok := keys[k]; !ok {
				t.Errorf("eboardevent lacks %q: %s", k, m.Param)
			}
		}
		var e EBoardEvent
		if err := json.Unmarshal(m.Param, &e); err != nil {
			t.Fatal(err)
		}
		return e
	}
	first := feed()
	if strings.Join(first.SAN, " ") != "e4 e5" || !first.Match || first.SerialNr != "1" ||
		first.Board != "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR" {
		t.Errorf("first event %+v", first)
	}

	// Publish the rest of the game: each message grows san by at most a
	// ply and never goes back, the board runs at most a ply ahead of san
	// (match false), and the last shows the whole game.
	go func() {
		for _, e := range rest {
			h.Publish("1", e)
		}
	}()
	last, sawAhead := first, false
	for len(last.SAN) < len(ruy) || !last.Match {
		e := feed()
		if len(e.SAN) < len(last.SAN) || len(e.SAN) > len(last.SAN)+1 || strings.Join(e.SAN[:len(last.SAN)], " ") != strings.Join(last.SAN, " ") {
			t.Fatalf("san went from %v to %v", last.SAN, e.SAN)
		}
		if !e.Match {
			sawAhead = true
		}
		last = e
	}
	if strings.Join(last.SAN, " ") != strings.Join(ruy, " ") || last.Clock == nil || last.Clock.Run == nil || !*last.Clock.Run {
		t.Errorf("last event %+v (after ten plies Black has pressed: White's clock runs, run must be true)", last)
	}
	if !sawAhead {
		t.Error("no message showed a move made but not yet completed (match false)")
	}
}

func TestWebSocketErrorsAndUnsubscribe(t *testing.T) {
	h, evs := setup(t)
	rest := publishUpTo(h, "1", evs, 2)
	srv := serve(t, New(h))
	c := dial(t, srv, nil)
	for _, tt := range []struct{ req, id, want string }{
		{`not json`, "null", "not a JSON object"},
		{`{"id":3}`, "3", `no "call"`},
		{`{"id":4,"call":"eboardsetup","param":null}`, "4", `unknown call "eboardsetup"`},
		{`{"id":5,"call":"subscribe","param":{"feed":"tournaments","id":1,"param":{}}}`, "5", `unknown feed "tournaments"`},
		{`{"id":6,"call":"subscribe","param":{"feed":"eboardevent","id":1,"param":{"serialnr":"99"}}}`, "6", `no e-board with serialnr "99"`},
		{`{"id":7,"call":"subscribe","param":{"feed":"eboardevent","param":{"serialnr":"1"}}}`, "7", "no id"},
		{`{"id":8,"call":"subscribe","param":[1]}`, "8", "param must be"},
		{`{"id":9,"call":"unsubscribe","param":{"id":42}}`, "9", "no feed with id 42"},
	} {
		m := call(t, c, tt.req)
		var p struct {
			Message string `json:"message"`
		}
		json.Unmarshal(m.Param, &p)
		if m.Response != "error" || string(m.ID) != tt.id || !strings.Contains(p.Message, tt.want) {
			t.Errorf("%s: %+v, want an error %q for id %s", tt.req, m, tt.want, tt.id)
		}
	}
	// Subscribe by id, twice on one feed id (refused), then unsubscribe.
	if m := call(t, c, `{"id":10,"call":"subscribe","param":{"feed":"eboardevent","id":"a","param":{"serialnr":"1"}}}`); m.Response != "call" {
		t.Fatalf("subscribe: %+v", m)
	}
	if m := next(t, c); m.Response != "feed" || string(m.ID) != `"a"` {
		t.Fatalf("first feed message %+v", m)
	}
	if m := call(t, c, `{"id":11,"call":"subscribe","param":{"feed":"eboardevent","id":"a","param":{"serialnr":"2"}}}`); m.Response != "error" {
		t.Errorf("second subscribe on feed id \"a\": %+v", m)
	}
	if m := call(t, c, `{"id":12,"call":"unsubscribe","param":{"id":"a"}}`); m.Response != "call" || string(m.ID) != "12" {
		t.Fatalf("unsubscribe: %+v", m)
	}
	for _, e := range rest {
		h.Publish("1", e)
	}
	// Nothing more for feed "a": the next message is the answer to a call.
	if m := call(t, c, `{"id":13,"call":"eboards","param":null}`); m.Response != "call" || string(m.ID) != "13" {
		t.Errorf("after unsubscribe: %+v", m)
	}
}

// smallBuffer dials with a tiny receive buffer, so a client that does not
// read fills it at once.
func smallBuffer() *websocket.DialOptions {
	d := &net.Dialer{Control: func(_, _ string, rc syscall.RawConn) error {
		var err error
		rc.Control(func(fd uintptr) { err = setReceiveBuffer(fd, 4096) })
		return err
	}}
	return &websocket.DialOptions{HTTPClient: &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}}
}

func TestSlowClientDropped(t *testing.T) {
	h := hub.New(hub.Options{Now: func() time.Time { return wall }})
	h.AddBoard(hub.Info{ID: "1"})
	a := New(h)
	a.writeTimeout = 200 * time.Millisecond
	a.queue = 16
	srv := serve(t, a)
	subscribe := `{"id":1,"call":"subscribe","param":{"feed":"eboardevent","id":1,"param":{"serialnr":"1"}}}`
	slow := dial(t, srv, smallBuffer())
	call(t, slow, subscribe)
	fast := dial(t, srv, nil)
	fast.SetReadLimit(-1)
	call(t, fast, subscribe)
	next(t, fast) // the state as it stands

	// Every move lengthens san: messages grow, the slow client's socket
	// fills, then its queue or a write times out. The fast client is
	// read in step and must see every message.
	san := strings.Repeat("N", 30)
	deadline := time.Now().Add(30 * time.Second)
	ply := 0
	for a.Dropped() == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("slow client not dropped after %d messages", ply)
		}
		ply++
		h.Publish("1", reconcile.Event{Type: reconcile.TypeComplete, Seq: ply, Ply: ply, SAN: fmt.Sprint(san, ply),
			Side: clockd.White, By: reconcile.ByPress, Clock: clockd.Times{White: time.Hour, Black: time.Hour}})
		m := next(t, fast)
		var e EBoardEvent
		json.Unmarshal(m.Param, &e)
		if len(e.SAN) != ply {
			t.Fatalf("fast client got san of %d moves, want %d", len(e.SAN), ply)
		}
	}
	// The slow client reads what reached it, then finds the connection
	// gone; the fast one goes on.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	got := 0
	var err error
	for err == nil {
		_, _, err = slow.Read(ctx)
		got++
	}
	if ctx.Err() != nil || got > ply+1 {
		t.Errorf("slow client: %d messages then %v", got, err)
	}
	h.Publish("1", reconcile.Event{Type: reconcile.TypeComplete, Seq: ply + 1, Ply: ply + 1, SAN: "Kf1", Side: clockd.White,
		By: reconcile.ByPress, Clock: clockd.Times{White: time.Hour, Black: time.Hour}})
	if m := next(t, fast); m.Response != "feed" {
		t.Errorf("fast client after the drop: %+v", m)
	}
}

func TestCloseEndsSessions(t *testing.T) {
	h, _ := setup(t)
	a := New(h)
	srv := serve(t, a)
	c := dial(t, srv, nil)
	call(t, c, `{"id":1,"call":"eboards","param":null}`)
	done := make(chan struct{})
	go func() { a.Close(); close(done) }()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	// The server sends going-away; the client library does not always
	// hand the status back (it may report the end of the stream), but the
	// connection must end, and not by the test's timeout.
	_, _, err := c.Read(ctx)
	if st := websocket.CloseStatus(err); err == nil || ctx.Err() != nil || (st != -1 && st != websocket.StatusGoingAway) {
		t.Errorf("read after Close: %v (status %v), want the connection ended with going-away", err, st)
	}
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not return")
	}
	if _, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+Prefix, nil); err == nil {
		t.Error("dial after Close succeeded")
	}
}
