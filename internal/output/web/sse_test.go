package web

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// sseMsg is one message (or comment) read off a stream.
type sseMsg struct {
	event, id, data, comment string
	retry                    string
}

type sseReader struct {
	t    *testing.T
	resp *http.Response
	r    *bufio.Reader
	msgs chan sseMsg
}

// openStream connects to the stream like EventSource does.
func openStream(t *testing.T, url, lastID string) *sseReader {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	s := &sseReader{t: t, resp: resp, r: bufio.NewReader(resp.Body), msgs: make(chan sseMsg, 100)}
	go s.read()
	return s
}

// read parses the stream: "field: value" lines, a blank line ends a message.
func (s *sseReader) read() {
	defer close(s.msgs)
	var m sseMsg
	for {
		line, err := s.r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimSuffix(line, "\n")
		if line == "" {
			s.msgs <- m
			m = sseMsg{}
			continue
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "":
			m.comment = value
		case "event":
			m.event = value
		case "id":
			m.id = value
		case "data":
			if m.data != "" {
				m.data += "\n"
			}
			m.data += value
		case "retry":
			m.retry = value
		default:
			s.msgs <- sseMsg{comment: "UNKNOWN FIELD " + line}
		}
	}
}

// next returns the next message that is not a keep-alive comment.
func (s *sseReader) next() sseMsg {
	s.t.Helper()
	for {
		select {
		case m, ok := <-s.msgs:
			if !ok {
				s.t.Fatal("stream ended")
			}
			if m.comment == "keep-alive" {
				continue
			}
			if strings.HasPrefix(m.comment, "UNKNOWN") {
				s.t.Fatal(m.comment)
			}
			return m
		case <-time.After(5 * time.Second):
			s.t.Fatal("no message within 5 s")
		}
	}
}

type streamData struct {
	Board string          `json:"board"`
	Event json.RawMessage `json:"event"`
	State boardJSON       `json:"state"`
	Now   time.Time       `json:"now"`
}

func decode(t *testing.T, m sseMsg) streamData {
	t.Helper()
	var d streamData
	if err := json.Unmarshal([]byte(m.data), &d); err != nil {
		t.Fatalf("message %+v: %v", m, err)
	}
	return d
}

func TestStream(t *testing.T) {
	h := newHub(t)
	now := wall.Add(3 * time.Second)
	srv := httptest.NewServer(New(h, Options{KeepAlive: 30 * time.Millisecond, Now: func() time.Time { return now }}).Handler())
	t.Cleanup(srv.Close)
	s := openStream(t, srv.URL+"/api/stream", "")
	if ct := s.resp.Header.Get("Content-Type"); ct != "text/event-stream" || s.resp.StatusCode != 200 {
		t.Fatalf("status %d type %q", s.resp.StatusCode, ct)
	}
	if m := s.next(); m.retry != "2000" {
		t.Errorf("first message %+v, want the retry delay", m)
	}
	// The states of both boards, in order, with the cursor as id.
	m := s.next()
	if d := decode(t, m); m.event != "state" || d.Board != "2" || d.State.Connection != "waiting" || m.id != "" {
		t.Errorf("first state: %+v", m)
	}
	m = s.next()
	if d := decode(t, m); m.event != "state" || d.Board != "12" || d.State.Seq != 7 || m.id != "12=7" || !d.Now.Equal(now) {
		t.Errorf("second state: %+v", m)
	}

	// A keep-alive comment comes while nothing happens.
	deadline := time.After(5 * time.Second)
	for ka := false; !ka; {
		select {
		case m := <-s.msgs:
			ka = m.comment == "keep-alive"
		case <-deadline:
			t.Fatal("no keep-alive")
		}
	}

	// A new event on board 2 arrives as an update with the event's JSON.
	ev := reconcile.Event{Type: reconcile.TypeSession, Board: "2", Seq: 1, State: "connected", Port: "/dev/ttyUSB1"}
	h.Publish("2", ev)
	m = s.next()
	d := decode(t, m)
	if m.event != "update" || m.id != "12=7&2=1" || d.Board != "2" || string(d.Event) != string(reconcile.Marshal(ev)) ||
		d.State.Connection != "connected" {
		t.Errorf("update: %+v", m)
	}

	// Acknowledging an alert sends the board's state.
	b, _ := h.Board("12")
	resp, err := http.Post(srv.URL+"/api/boards/12/alerts/"+strconv.Itoa(b.Alerts[0].ID)+"/ack", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	m = s.next()
	if d := decode(t, m); m.event != "state" || d.Board != "12" || !d.State.Alerts[0].Acked {
		t.Errorf("after ack: %+v", m)
	}
}

func TestStreamOneBoard(t *testing.T) {
	h := newHub(t)
	srv := httptest.NewServer(New(h, Options{}).Handler())
	t.Cleanup(srv.Close)
	s := openStream(t, srv.URL+"/api/stream?board=2", "")
	s.next() // retry
	if m := s.next(); decode(t, m).Board != "2" {
		t.Fatalf("state %+v", m)
	}
	h.Publish("12", reconcile.Event{Type: reconcile.TypeSession, Board: "12", Seq: 8, State: "end"})
	h.Publish("2", reconcile.Event{Type: reconcile.TypeSession, Board: "2", Seq: 1, State: "connected"})
	if m := s.next(); decode(t, m).Board != "2" || m.id != "2=1" {
		t.Errorf("board 12's update reached a board-2 stream: %+v", m)
	}

	resp, err := http.Get(srv.URL + "/api/stream?board=77")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Errorf("stream of an unknown board: %d", resp.StatusCode)
	}
}

// A client that reconnects with Last-Event-ID gets the events it missed,
// then the state, then live updates, without duplicates.
func TestStreamResume(t *testing.T) {
	h := newHub(t)
	srv := httptest.NewServer(New(h, Options{}).Handler())
	t.Cleanup(srv.Close)
	for _, tc := range []struct {
		lastID string
		want   []int // seqs of board 12's replayed updates
	}{
		{"12=5", []int{6, 7}},
		{"12=7", nil},
		{"12=0", nil},     // nothing seen: the state is enough
		{"garbage%", nil}, // unreadable: as on a first connect
		{"12=2&2=9", []int{3, 4, 5, 6, 7}},
	} {
		s := openStream(t, srv.URL+"/api/stream?board=12", tc.lastID)
		s.next() // retry
		var got []int
		var m sseMsg
		for m = s.next(); m.event == "update"; m = s.next() {
			var e struct{ Seq int }
			json.Unmarshal(decode(t, m).Event, &e)
			got = append(got, e.Seq)
		}
		if m.event != "state" || m.id != "12=7" || len(got) != len(tc.want) {
			t.Errorf("Last-Event-ID %q: replayed %v then %+v; want %v then the state", tc.lastID, got, m, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("Last-Event-ID %q: replayed %v, want %v", tc.lastID, got, tc.want)
			}
		}
	}

	// Updates published after the state follow it, each once.
	s := openStream(t, srv.URL+"/api/stream", "12=7")
	s.next()
	s.next()
	s.next()
	h.Publish("12", reconcile.Event{Type: reconcile.TypeAnomaly, Board: "12", Seq: 8, Kind: reconcile.KindClockStopped, Side: clockd.White, Article: "6.11"})
	if m := s.next(); m.id != "12=8" || m.event != "update" {
		t.Errorf("live update after resume: %+v", m)
	}
}

// Close ends the open streams, so a server can shut down.
func TestCloseEndsStreams(t *testing.T) {
	w := New(newHub(t), Options{})
	srv := httptest.NewServer(w.Handler())
	t.Cleanup(srv.Close)
	s := openStream(t, srv.URL+"/api/stream", "")
	s.next()
	s.next()
	s.next()
	w.Close()
	select {
	case _, ok := <-s.msgs:
		if ok {
			t.Error("a message after Close")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the stream is still open 5 s after Close")
	}
	if r := do(t, w.Handler(), "GET", "/api/boards/12"); r.status != 200 {
		t.Errorf("the API after Close: %d", r.status)
	}
}

// A client that falls behind is disconnected with a comment saying so, and
// resumes from its last id without losing an event.
func TestStreamSlowClientResumes(t *testing.T) {
	h := newHub(t)
	srv := httptest.NewServer(New(h, Options{Buffer: 1}).Handler())
	t.Cleanup(srv.Close)
	s := openStream(t, srv.URL+"/api/stream?board=2", "")
	s.next()
	s.next()
	// Publish far faster than the stream can frame and send.
	const n = 20000
	go func() {
		for i := 1; i <= n; i++ {
			h.Publish("2", reconcile.Event{Type: reconcile.TypePress, Board: "2", Seq: i, Side: clockd.Side(i % 2),
				At: time.Duration(i) * time.Second, Clock: clockd.Times{White: time.Hour, Black: time.Hour}})
		}
	}()
	last, dropped := "", false
	for m := range s.msgs {
		if m.id != "" {
			last = m.id
		}
		if m.comment == "fell behind; reconnect to resume" {
			dropped = true
		}
	}
	if !dropped {
		t.Fatalf("the stream ended without saying the client fell behind (last id %q)", last)
	}
	c := parseCursor(last)
	if c["2"] <= 0 || c["2"] >= n {
		t.Skipf("dropped after %d of %d updates: nothing left to resume", c["2"], n)
	}
	// Wait until everything is published, then resume.
	deadline := time.Now().Add(20 * time.Second)
	for b, _ := h.Board("2"); b.Seq < n; b, _ = h.Board("2") {
		if time.Now().After(deadline) {
			t.Fatal("publishing did not finish")
		}
		time.Sleep(10 * time.Millisecond)
	}
	r := openStream(t, srv.URL+"/api/stream?board=2", last)
	r.next() // retry
	want := c["2"] + 1
	for m := r.next(); ; m = r.next() {
		if m.event == "state" {
			break
		}
		var e struct{ Seq int }
		if err := json.Unmarshal(decode(t, m).Event, &e); err != nil || e.Seq != want {
			t.Fatalf("resumed update has seq %d, want %d (%v)", e.Seq, want, err)
		}
		want++
	}
	if want != n+1 {
		t.Errorf("resume replayed up to seq %d, want %d", want-1, n)
	}
}

func TestCoveredSkipsWhatTheStateHeld(t *testing.T) {
	c := covered{"1": 5, "2": 0}
	for _, tc := range []struct {
		board string
		seq   int
		fresh bool
	}{
		{"1", 4, false}, {"1", 5, false}, {"3", 1, true}, {"2", 1, true},
		{"1", 6, true}, // past the state: the board is forgotten
		{"1", 1, true}, // so a restarted game's first events are news
		{"2", 1, true},
	} {
		if got := c.fresh(tc.board, tc.seq); got != tc.fresh {
			t.Errorf("board %s seq %d: fresh %v, want %v", tc.board, tc.seq, got, tc.fresh)
		}
	}
}
