package web

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

func sec(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

var wall = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// game12 is board 12's stream: two moves, an anomaly, Black's flag before
// the control, the end.
func game12() []reconcile.Event {
	return []reconcile.Event{
		{Type: reconcile.TypeSession, Board: "12", Seq: 1, State: "connected", Port: "/dev/ttyACM0"},
		{Type: reconcile.TypeMove, Board: "12", Seq: 2, Ply: 1, Side: clockd.White, SAN: "e4", UCI: "e2e4",
			FEN: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", At: sec(9)},
		{Type: reconcile.TypePress, Board: "12", Seq: 3, Side: clockd.White, At: sec(10), Clock: clockd.Times{White: sec(5420), Black: sec(5400)}},
		{Type: reconcile.TypeComplete, Board: "12", Seq: 4, Ply: 1, Side: clockd.White, SAN: "e4", By: "press", At: sec(10),
			Moves: reconcile.Moves{White: 1}, Clock: clockd.Times{White: sec(5420), Black: sec(5400)}},
		{Type: reconcile.TypeAnomaly, Board: "12", Seq: 5, Kind: reconcile.KindPressWithoutMove, Side: clockd.Black, Article: "7.5.3",
			Detail: "Black pressed the clock without moving", At: sec(20)},
		{Type: reconcile.TypeFlag, Board: "12", Seq: 6, Side: clockd.Black, Verdict: reconcile.VerdictLoss, Article: "6.9", Period: 1,
			MovesCompleted: 0, MovesRequired: 40, OpponentCanMate: "yes", At: sec(5420),
			Reason: "Black's flag fell after 0 completed moves; the first period requires 40. White can still checkmate, so Black loses on time (6.9).",
			Clock:  clockd.Times{White: sec(5420)}},
		{Type: reconcile.TypeEnd, Board: "12", Seq: 7, Result: "1-0", Reason: "flag", Article: "6.9", At: sec(5420)},
	}
}

// newHub is a hub with boards 2 (waiting) and 12 (the game above).
func newHub(t testing.TB) *hub.Hub {
	t.Helper()
	h := hub.New(hub.Options{Now: func() time.Time { return wall }})
	h.AddBoard(hub.Info{ID: "12", Round: "3", White: "Anderssen, Adolf", Black: "Kieseritzky, Lionel", TimeControl: "40/5400+30:1800+30"})
	h.AddBoard(hub.Info{ID: "2", Round: "3", White: "A", Black: "B", TimeControl: "40/5400+30:1800+30"})
	for _, e := range game12() {
		h.Publish("12", e)
	}
	return h
}

// boardJSON reads hub.Board JSON back (the flag event stays raw JSON: the
// event type only marshals).
type boardJSON struct {
	hub.Board
	Flag json.RawMessage `json:"flag"`
}

type response struct {
	status int
	ctype  string
	body   []byte
}

func do(t testing.TB, hnd http.Handler, method, target string) response {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	req.RemoteAddr = "127.0.0.1:41000" // the arbiter's own computer
	rec := httptest.NewRecorder()
	hnd.ServeHTTP(rec, req)
	return response{rec.Code, rec.Header().Get("Content-Type"), rec.Body.Bytes()}
}

// wantError checks an error response: the status, JSON, and a message
// containing every fragment.
func wantError(t *testing.T, r response, status int, fragments ...string) {
	t.Helper()
	if r.status != status {
		t.Errorf("status %d, want %d (body %s)", r.status, status, r.body)
	}
	if r.ctype != "application/json" {
		t.Errorf("error content type %q", r.ctype)
	}
	var e apiError
	if err := json.Unmarshal(r.body, &e); err != nil || e.Error == "" {
		t.Fatalf("error body %q is not {\"error\": ...}: %v", r.body, err)
	}
	for _, f := range fragments {
		if !strings.Contains(e.Error, f) {
			t.Errorf("error %q does not mention %q", e.Error, f)
		}
	}
}

func TestBoards(t *testing.T) {
	s := New(newHub(t), Options{})
	r := do(t, s.Handler(), "GET", "/api/boards")
	if r.status != 200 || r.ctype != "application/json" {
		t.Fatalf("status %d, type %q", r.status, r.ctype)
	}
	var bs []boardJSON
	if err := json.Unmarshal(r.body, &bs); err != nil {
		t.Fatal(err)
	}
	if len(bs) != 2 || bs[0].ID != "2" || bs[1].ID != "12" {
		t.Fatalf("boards %+v", bs)
	}
	b := bs[1]
	if b.Moves.White != 1 || b.Required.Black != 40 || b.Verdict != "loss" || b.Result != "1-0" || len(b.Alerts) != 2 ||
		b.Alerts[1].Level != hub.Red || b.Alerts[1].Article != "6.9" || b.Seq != 7 || b.White != "Anderssen, Adolf" {
		t.Errorf("board 12: %+v", b)
	}
	if bs[0].Connection != "waiting" || bs[0].Seq != 0 {
		t.Errorf("board 2: %+v", bs[0])
	}
}

func TestBoard(t *testing.T) {
	s := New(newHub(t), Options{})
	r := do(t, s.Handler(), "GET", "/api/boards/12")
	var b boardJSON
	if err := json.Unmarshal(r.body, &b); err != nil || r.status != 200 {
		t.Fatalf("status %d: %v", r.status, err)
	}
	if b.ID != "12" || b.SAN[0] != "e4" || b.Clock.White != 5420 || !b.ClockAt.Equal(wall) || b.Flag == nil {
		t.Errorf("board %+v", b)
	}
	// The flag is the spec's JSON event.
	if !bytes.Contains(r.body, []byte(`"flag":{"type":"flag","board":"12"`)) || !bytes.Contains(r.body, []byte(`"verdict":"loss"`)) {
		t.Errorf("flag JSON in %s", r.body)
	}
	wantError(t, do(t, s.Handler(), "GET", "/api/boards/7"), 404, `unknown board "7"`)
}

func TestEvents(t *testing.T) {
	s := New(newHub(t), Options{})
	want := game12()
	for _, tc := range []struct {
		query string
		from  int // first seq expected
	}{
		{"", 1}, {"?since=0", 1}, {"?since=4", 5}, {"?since=7", 8}, {"?since=1000", 8}, {"?since=4&format=jsonl", 5},
	} {
		r := do(t, s.Handler(), "GET", "/api/boards/12/events"+tc.query)
		if r.status != 200 || r.ctype != "application/x-ndjson" {
			t.Fatalf("%s: status %d type %q", tc.query, r.status, r.ctype)
		}
		var lines []string
		sc := bufio.NewScanner(bytes.NewReader(r.body))
		for sc.Scan() {
			lines = append(lines, sc.Text())
		}
		if len(lines) != len(want)-tc.from+1 {
			t.Fatalf("%s: %d lines, want %d", tc.query, len(lines), len(want)-tc.from+1)
		}
		for i, l := range lines {
			if exp := string(reconcile.Marshal(want[tc.from-1+i])); l != exp {
				t.Errorf("%s line %d:\n got %s\nwant %s", tc.query, i, l, exp)
			}
		}
	}

	r := do(t, s.Handler(), "GET", "/api/boards/12/events?since=5&format=array")
	var arr []map[string]any
	if err := json.Unmarshal(r.body, &arr); err != nil || r.ctype != "application/json" {
		t.Fatalf("array: %v, type %q, body %s", err, r.ctype, r.body)
	}
	if len(arr) != 2 || arr[0]["type"] != "flag" || arr[1]["type"] != "end" || arr[0]["seq"] != float64(6) {
		t.Errorf("array %v", arr)
	}
	if r := do(t, s.Handler(), "GET", "/api/boards/2/events?format=array"); string(r.body) != "[]\n" {
		t.Errorf("no events as an array: %q", r.body)
	}

	for _, bad := range []string{"x", "-1", "1.5", "%20", "99999999999999999999999"} {
		wantError(t, do(t, s.Handler(), "GET", "/api/boards/12/events?since="+bad), 400, "since")
	}
	wantError(t, do(t, s.Handler(), "GET", "/api/boards/12/events?format=xml"), 400, `format "xml"`)
	wantError(t, do(t, s.Handler(), "GET", "/api/boards/9/events"), 404, `unknown board "9"`)
}

func TestAck(t *testing.T) {
	h := newHub(t)
	s := New(h, Options{})
	b, _ := h.Board("12")
	red := b.Alerts[1]
	r := do(t, s.Handler(), "POST", "/api/boards/12/alerts/"+strconv.Itoa(red.ID)+"/ack")
	if r.status != 200 {
		t.Fatalf("ack: %d %s", r.status, r.body)
	}
	var after boardJSON
	if err := json.Unmarshal(r.body, &after); err != nil {
		t.Fatal(err)
	}
	if !after.Alerts[1].Acked || after.Alerts[0].Acked {
		t.Errorf("after ack: %+v", after.Alerts)
	}
	if b, _ := h.Board("12"); !b.Alerts[1].Acked {
		t.Error("the hub does not have the alert acknowledged")
	}
	// Acknowledging twice is harmless.
	if r := do(t, s.Handler(), "POST", "/api/boards/12/alerts/"+strconv.Itoa(red.ID)+"/ack"); r.status != 200 {
		t.Errorf("second ack: %d", r.status)
	}
	wantError(t, do(t, s.Handler(), "POST", "/api/boards/12/alerts/99/ack"), 404, "no alert 99")
	wantError(t, do(t, s.Handler(), "POST", "/api/boards/5/alerts/1/ack"), 404, `unknown board "5"`)
	for _, bad := range []string{"x", "0", "-2", "1e3"} {
		wantError(t, do(t, s.Handler(), "POST", "/api/boards/12/alerts/"+bad+"/ack"), 400, "alert id")
	}
	// Another site's page cannot acknowledge through the arbiter's browser.
	req := httptest.NewRequest("POST", "/api/boards/12/alerts/1/ack", nil)
	req.RemoteAddr = "127.0.0.1:41000"
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, req)
	wantError(t, response{rec.Code, rec.Header().Get("Content-Type"), rec.Body.Bytes()}, 403, "cross-origin")
	if b, _ := h.Board("12"); b.Alerts[0].Acked {
		t.Error("a cross-site request acknowledged an alert")
	}
	// Reading with GET is not acknowledging.
	wantError(t, do(t, s.Handler(), "GET", "/api/boards/12/alerts/1/ack"), 404, "GET")
}

func TestUnknownRoutes(t *testing.T) {
	s := New(newHub(t), Options{})
	wantError(t, do(t, s.Handler(), "GET", "/api/games"), 404, "/api/games")
	wantError(t, do(t, s.Handler(), "DELETE", "/api/boards/12"), 404, "DELETE")
	if r := do(t, s.Handler(), "GET", "/nothing-here"); r.status != 404 {
		t.Errorf("unknown page: %d", r.status)
	}
}

func TestDashboardAssets(t *testing.T) {
	s := New(newHub(t), Options{})
	for _, tc := range []struct{ path, ctype, contains string }{
		{"/", "text/html", `<script src="/static/app.js">`},
		{"/static/app.js", "text/javascript", "new EventSource(\"/api/stream\")"},
		{"/static/style.css", "text/css", ".alert.red"},
	} {
		r := do(t, s.Handler(), "GET", tc.path)
		if r.status != 200 || !strings.HasPrefix(r.ctype, tc.ctype) || !bytes.Contains(r.body, []byte(tc.contains)) {
			t.Errorf("%s: status %d, type %q, has %q: %v", tc.path, r.status, tc.ctype, tc.contains, bytes.Contains(r.body, []byte(tc.contains)))
		}
	}
}

// FuzzEventsSince: whatever the since parameter, the answer is the events
// after it (200) or an error naming since (400); never a panic.
func FuzzEventsSince(f *testing.F) {
	for _, s := range []string{"", "0", "4", "x", "-1", "1.5", "99999999999999999999", "+3", " 2"} {
		f.Add(s)
	}
	s := New(newHub(f), Options{})
	f.Fuzz(func(t *testing.T, since string) {
		req := httptest.NewRequest("GET", "/api/boards/12/events", nil)
		q := req.URL.Query()
		q.Set("since", since)
		req.URL.RawQuery = q.Encode()
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, req)
		switch rec.Code {
		case 200:
			if _, err := parseSince(since); err != nil {
				t.Fatalf("since %q accepted but parseSince says %v", since, err)
			}
		case 400:
			if !strings.Contains(rec.Body.String(), "since") {
				t.Fatalf("400 without naming since: %s", rec.Body)
			}
		default:
			t.Fatalf("since %q: status %d", since, rec.Code)
		}
	})
}

// FuzzCursor: any Last-Event-ID parses without panic, and a cursor
// survives its own string form.
func FuzzCursor(f *testing.F) {
	for _, s := range []string{"", "12=7", "1=45&2=33", "a%20b=3", "=", "&&", "x=-1", "x=1&x=2", "%zz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := parseCursor(s)
		for b, n := range c {
			if n <= 0 {
				t.Fatalf("%q: board %q has seq %d", s, b, n)
			}
		}
		again := parseCursor(c.String())
		if len(again) != len(c) {
			t.Fatalf("%q: %v became %v", s, c, again)
		}
		for b, n := range c {
			if again[b] != n {
				t.Fatalf("%q: %v became %v", s, c, again)
			}
		}
	})
}
