package livechess

// The conformance suite: what a client written for DGT LiveChess's local
// API relies on, as LiveChess documents and sends it, checked against
// arbiterd's LiveChess-compatible listener (Options{Moves: Made}). The
// event streams are real: an emulated game through the pipeline
// (feedtest.Events), faults included.

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/internal/testkit/feedtest"
	"github.com/arbiterd/arbiterd/rules"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

const startFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// italian is long enough for a slide, a take-back and a join in the middle.
var italian = strings.Fields("e4 e5 Nf3 Nc6 Bc4 Bc5 c3 Nf6 d4 exd4 cxd4 Bb4+ Bd2 Bxd2+ Nbxd2 d5 exd5 Nxd5 Qb3 Nce7 O-O O-O")

// feedMsg is a feed message as a client decodes it; HasSAN tells a
// message without san from one with an empty list.
type feedMsg struct {
	EBoardEvent
	HasSAN bool
	Raw    string
}

func readFeed(t *testing.T, c *websocket.Conn, id string) feedMsg {
	t.Helper()
	m := next(t, c)
	if m.Response != "feed" || string(m.ID) != id {
		t.Fatalf("want a feed message for feed %s, got %s %s: %s", id, m.Response, m.ID, m.Param)
	}
	var f feedMsg
	if err := json.Unmarshal(m.Param, &f.EBoardEvent); err != nil {
		t.Fatal(err)
	}
	var keys map[string]json.RawMessage
	json.Unmarshal(m.Param, &keys)
	_, f.HasSAN = keys["san"]
	f.Raw = string(m.Param)
	return f
}

// replay plays san from start and returns the position after it ("" and
// false when a move is not legal there).
func replay(start string, san []string) (string, bool) {
	g, err := rules.NewGame(start)
	if err != nil {
		return "", false
	}
	for _, s := range san {
		if err := g.MoveSAN(s); err != nil {
			return "", false
		}
	}
	return g.FEN(), true
}

func fenAfterPlies(t *testing.T, sans []string, n int) string {
	t.Helper()
	f, ok := replay(startFEN, sans[:n])
	if !ok {
		t.Fatalf("the game's first %d plies do not replay", n)
	}
	return f
}

// checkMessage checks what a LiveChess client relies on in every message
// that carries san: san replays from start; match is true exactly when
// board is the position after san; when the clock switches (from prev's
// side to the other), the side whose clock now runs is the one to move
// after san: the move that the press ends is there already.
func checkMessage(t *testing.T, prev *feedMsg, m feedMsg) {
	t.Helper()
	if !m.HasSAN {
		return
	}
	start := m.Start
	if start == "" {
		// the board has not shown a start position yet
		if len(m.SAN) != 0 || m.Match {
			t.Fatalf("san or match without a start: %s", m.Raw)
		}
		return
	}
	after, ok := replay(start, m.SAN)
	if !ok {
		if strings.Fields(start)[0] == start { // a placement only: try either side
			if after, ok = replay(start+" w - - 0 1", m.SAN); !ok {
				after, ok = replay(start+" b - - 0 1", m.SAN)
			}
		}
		if !ok {
			t.Fatalf("san does not replay from %q: %s", start, m.Raw)
		}
	}
	if m.Match != (placement(after) == m.Board) {
		t.Fatalf("match %v, but board %s and the position after san %s: %s", m.Match, m.Board, placement(after), m.Raw)
	}
	if prev == nil || prev.Clock == nil || prev.Clock.Run == nil || m.Clock == nil || m.Clock.Run == nil ||
		*prev.Clock.Run == *m.Clock.Run || !prev.HasSAN || !m.Match {
		// (san does not reach the board, match false: the side to move
		// after san is not the board's)
		return
	}
	if whiteRuns, whiteToMove := *m.Clock.Run, strings.Fields(after)[1] == "w"; whiteRuns != whiteToMove {
		t.Fatalf("the clock switched before the move it completes reached san:\n %s\n %s", prev.Raw, m.Raw)
	}
}

func madeAPI(h *hub.Hub) *API {
	return NewWithOptions(h, Options{Moves: Made, Origins: []string{"https://lichess.org"}, Settle: testSettle})
}

// testSettle is the settle time of the conformance suite: the default.
const testSettle = DefaultSettle

const subscribe1 = `{"id":2,"call":"subscribe","param":{"feed":"eboardevent","id":1,"param":{"serialnr":"1"}}}`

// follow publishes evs in the background and reads feed 1 until done says
// the client has what it needs; it returns the messages read.
func follow(t *testing.T, c *websocket.Conn, h *hub.Hub, evs []reconcile.Event, done func(feedMsg) bool) []feedMsg {
	t.Helper()
	go func() {
		for _, e := range evs {
			h.Publish("1", e)
		}
	}()
	var got []feedMsg
	for {
		m := readFeed(t, c, "1")
		var prev *feedMsg
		if len(got) > 0 {
			prev = &got[len(got)-1]
		}
		checkMessage(t, prev, m)
		got = append(got, m)
		if done(m) {
			return got
		}
	}
}

func isGame(sans []string) func(feedMsg) bool {
	return func(m feedMsg) bool { return m.HasSAN && m.Match && slices.Equal(m.SAN, sans) }
}

// TestLiveChessFromTheStart: subscribed before the first move, a client
// gets the board without san, then every move as the board shows it,
// counted from the start position — a move its player has not pressed for
// (forgotten, 6.2.1) as well, once the board has stood still with it.
func TestLiveChessFromTheStart(t *testing.T) {
	const forgotten = 5
	h, _ := setup(t)
	evs := feedtest.Events(t, italian, tc, map[string]string{"board": "1"}, emulator.Action{Kind: emulator.NoPress, Ply: forgotten})
	srv := serve(t, madeAPI(h))
	c := dial(t, srv, nil)
	call(t, c, subscribe1)
	first := readFeed(t, c, "1")
	if first.HasSAN {
		t.Errorf("the first feed message carries san: %s", first.Raw)
	}
	got := follow(t, c, h, evs, isGame(italian))
	unpressed := false
	for _, m := range got {
		if m.Start != "" && m.Start != startFEN {
			t.Fatalf("start %q, want the standard start: %s", m.Start, m.Raw)
		}
		// a piece slid over squares on its way was not a move there
		if !slices.Equal(m.SAN, italian[:len(m.SAN)]) {
			t.Errorf("san %v is not the game's: a square passed on the way was listed", m.SAN)
		}
		// White's fifth ply on the board, White's clock still running
		if len(m.SAN) == forgotten && m.Clock != nil && m.Clock.Run != nil && *m.Clock.Run {
			unpressed = true
		}
	}
	if !unpressed {
		t.Error("no message showed the move made and not pressed for")
	}
}

// TestLiveChessSetupMidGame: a client joining mid-game sends setup with
// the position it has; san then counts from that position, never holding
// the moves before it.
func TestLiveChessSetupMidGame(t *testing.T) {
	const join = 10
	h, _ := setup(t)
	evs := feedtest.Events(t, italian, tc, map[string]string{"board": "1"})
	rest := publishUpTo(h, "1", evs, join)
	srv := serve(t, madeAPI(h))
	c := dial(t, srv, nil)
	call(t, c, subscribe1)
	first := readFeed(t, c, "1")
	if first.HasSAN || first.Board != placement(fenAfterPlies(t, italian, join)) {
		t.Fatalf("first message %s: want the board after ply %d and no san", first.Raw, join)
	}
	fen := fenAfterPlies(t, italian, join)
	m := call(t, c, `{"id":3,"call":"call","param":{"id":1,"method":"setup","param":{"fen":"`+fen+`"}}}`)
	if m.Response != "call" || string(m.ID) != "3" {
		t.Fatalf("setup answer %s %s %s", m.Response, m.ID, m.Param)
	}
	after := readFeed(t, c, "1")
	checkMessage(t, nil, after)
	if !after.HasSAN || len(after.SAN) != 0 || !after.Match || after.Start != fen {
		t.Fatalf("after setup: %s; want san [], match true, start %q", after.Raw, fen)
	}
	for _, m := range follow(t, c, h, rest, isGame(italian[join:])) {
		if m.Start != fen {
			t.Fatalf("start changed: %s", m.Raw)
		}
	}
}

// TestLiveChessSetupAhead: the client's position is a move ahead of the
// board (a lichess game whose opponent moved online: the player makes that
// move on the board). san stays empty and match false until the board
// reaches the setup position, and then counts from it.
func TestLiveChessSetupAhead(t *testing.T) {
	const join = 6
	h, _ := setup(t)
	evs := feedtest.Events(t, italian, tc, map[string]string{"board": "1"})
	rest := publishUpTo(h, "1", evs, join)
	srv := serve(t, madeAPI(h))
	c := dial(t, srv, nil)
	call(t, c, subscribe1)
	readFeed(t, c, "1")
	fen := fenAfterPlies(t, italian, join+1)
	if m := call(t, c, `{"id":3,"call":"call","param":{"id":1,"method":"setup","param":{"fen":"`+fen+`"}}}`); m.Response != "call" {
		t.Fatalf("setup: %s %s", m.Response, m.Param)
	}
	m := readFeed(t, c, "1")
	if !m.HasSAN || len(m.SAN) != 0 || m.Match || m.Start != fen {
		t.Fatalf("board a ply behind the setup: %s; want san [], match false", m.Raw)
	}
	got := follow(t, c, h, rest, isGame(italian[join+1:]))
	reached := false
	for _, m := range got {
		if m.Match && len(m.SAN) == 0 {
			reached = true
		}
		if len(m.SAN) > 0 && !reached {
			t.Fatalf("san %v before the board showed the setup position", m.SAN)
		}
	}
}

// TestLiveChessProvisionalMoves: a piece put down on a wrong square and
// then moved on (a slide), and a move made and taken back, appear in san
// while the board shows them and leave it when taken back; every message
// is consistent (checkMessage) and the game ends right.
func TestLiveChessProvisionalMoves(t *testing.T) {
	h, _ := setup(t)
	evs := feedtest.Events(t, italian, tc, map[string]string{"board": "1"},
		emulator.Action{Kind: emulator.SlideWrong, Ply: 3}, emulator.Action{Kind: emulator.Takeback, Ply: 8})
	if !slices.ContainsFunc(evs, func(e reconcile.Event) bool { return e.Type == reconcile.TypeRetract }) {
		t.Fatal("the scripted slide and take-back produced no retract")
	}
	srv := serve(t, madeAPI(h))
	c := dial(t, srv, nil)
	call(t, c, subscribe1)
	readFeed(t, c, "1")
	got := follow(t, c, h, evs, isGame(italian))
	rewritten := false
	for i := 1; i < len(got); i++ {
		a, b := got[i-1].SAN, got[i].SAN
		if len(b) <= len(a) && !slices.Equal(a[:len(b)], b) || len(b) < len(a) {
			rewritten = true
		}
		if len(b) > 0 && !slices.Equal(b, italian[:len(b)]) && len(b) > len(a) {
			rewritten = true // a provisional move not of the game
		}
	}
	if !rewritten {
		t.Error("no message showed a provisional move taken back or replaced")
	}
}

// TestLiveChessStates: ACTIVE while the board is read and after its game
// ended, NOTRESPONDING while its line is down, INACTIVE before it was read.
func TestLiveChessStates(t *testing.T) {
	h := hub.New(hub.Options{})
	for _, id := range []string{"1", "2", "3", "4"} {
		h.AddBoard(hub.Info{ID: id})
	}
	h.Publish("1", reconcile.Event{Type: reconcile.TypeSession, Seq: 1, State: "connected"})
	h.Publish("2", reconcile.Event{Type: reconcile.TypeSession, Seq: 1, State: "connected"})
	h.Publish("2", reconcile.Event{Type: reconcile.TypeSession, Seq: 2, State: "disconnected"})
	h.Publish("3", reconcile.Event{Type: reconcile.TypeSession, Seq: 1, State: "connected"})
	h.Publish("3", reconcile.Event{Type: reconcile.TypeEnd, Seq: 2, Result: "1-0", Reason: "checkmate"})
	h.Publish("3", reconcile.Event{Type: reconcile.TypeSession, Seq: 3, State: "end"})
	want := map[string]string{"1": Active, "2": NotResponding, "3": Active, "4": Inactive}
	srv := serve(t, madeAPI(h))
	c := dial(t, srv, nil)
	m := call(t, c, `{"id":1,"call":"eboards"}`)
	var boards []EBoard
	json.Unmarshal(m.Param, &boards)
	for _, b := range boards {
		if b.State != want[b.SerialNr] {
			t.Errorf("board %s: state %s, want %s", b.SerialNr, b.State, want[b.SerialNr])
		}
	}
	m = call(t, c, `{"id":2,"call":"sources"}`)
	var sources []Source
	if m.Response != "call" || json.Unmarshal(m.Param, &sources) != nil || len(sources) != 4 || sources[1].State != NotResponding {
		t.Errorf("sources: %s %s", m.Response, m.Param)
	}
	if m := call(t, c, `{"id":3,"call":"tournaments"}`); m.Response != "call" || string(m.Param) != "[]" {
		t.Errorf("tournaments: %s %s", m.Response, m.Param)
	}
}

// TestLiveChessCallErrors: setup with a bad FEN, on a feed that does not
// exist, an unknown method: each answered with {"message": …}, and the
// connection goes on.
func TestLiveChessCallErrors(t *testing.T) {
	h, _ := setup(t)
	srv := serve(t, madeAPI(h))
	c := dial(t, srv, nil)
	call(t, c, subscribe1)
	readFeed(t, c, "1")
	for _, tt := range []struct{ req, want string }{
		{`{"id":3,"call":"call","param":{"id":1,"method":"setup","param":{"fen":"rnbqkbnr/pppppppp/8/8 w KQkq - 0 1"}}}`, "bad FEN"},
		{`{"id":3,"call":"call","param":{"id":1,"method":"setup","param":{"fen":"8/8/8/8/8/8/8/8"}}}`, "bad FEN"},
		{`{"id":3,"call":"call","param":{"id":1,"method":"setup","param":{"fen":""}}}`, "empty"},
		{`{"id":3,"call":"call","param":{"id":1,"method":"setup","param":{}}}`, `{"fen": FEN}`},
		{`{"id":3,"call":"call","param":{"id":1,"method":"setup"}}`, `{"fen": FEN}`},
		{`{"id":3,"call":"call","param":{"id":9,"method":"setup","param":{"fen":"` + startFEN + `"}}}`, "no feed with id 9"},
		{`{"id":3,"call":"call","param":{"id":1,"method":"reboot"}}`, `unknown method "reboot"`},
		{`{"id":3,"call":"call","param":"setup"}`, "param must be"},
		{`{"id":3,"call":"call"}`, "param must be"},
	} {
		m := call(t, c, tt.req)
		var p struct {
			Message string `json:"message"`
		}
		if m.Response != "error" || string(m.ID) != "3" || json.Unmarshal(m.Param, &p) != nil || !strings.Contains(p.Message, tt.want) {
			t.Errorf("%s: %s %s %s, want an error with %q", tt.req, m.Response, m.ID, m.Param, tt.want)
		}
	}
	// still served, and the feed still there: a good setup is answered
	if m := call(t, c, `{"id":4,"call":"call","param":{"id":1,"method":"setup","param":{"fen":"`+startFEN+`"}}}`); m.Response != "call" {
		t.Errorf("setup after the errors: %s %s", m.Response, m.Param)
	}
}

// TestPressHeldForItsMove: the press that completes a move and the complete
// come as one message: the clock never switches a message before the move
// reaches san (arbiterd's meaning, completed moves). A press without a move
// is sent after the hold.
func TestPressHeldForItsMove(t *testing.T) {
	h, _ := setup(t)
	evs := feedtest.Events(t, italian[:6], tc, map[string]string{"board": "1"})
	srv := serve(t, New(h))
	c := dial(t, srv, nil)
	call(t, c, subscribe1)
	readFeed(t, c, "1")
	// follow checks every clock switch (checkMessage)
	follow(t, c, h, evs, isGame(italian[:6]))
	// a press without a move: sent once the hold is over
	last := evs[len(evs)-1]
	h.Publish("1", reconcile.Event{Type: reconcile.TypePress, Seq: last.Seq + 1, Side: clockd.White, At: last.At + time.Second,
		Clock: last.Clock})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var mm message
	if err := readJSON(ctx, c, &mm); err != nil || mm.Response != "feed" {
		t.Errorf("after a press without a move: %v %+v", err, mm)
	}
}

func readJSON(ctx context.Context, c *websocket.Conn, v any) error {
	_, b, err := c.Read(ctx)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// TestOriginPolicy: browser pages of a configured origin are let in (the
// WebSocket and the REST call, with CORS), pages of other origins are
// refused with a reason, clients that are not browsers need no Origin,
// and a name that is not this machine's is refused (DNS rebinding).
func TestOriginPolicy(t *testing.T) {
	h, _ := setup(t)
	a := NewWithOptions(h, Options{Moves: Made, Origins: []string{"https://lichess.org/"}, Hosts: []string{}})
	srv := serve(t, a)
	ws := "ws" + strings.TrimPrefix(srv.URL, "http") + Prefix
	for _, tt := range []struct {
		origin, host string
		ok           bool
	}{
		{"", "", true},
		{"https://lichess.org", "", true},
		{"https://LICHESS.org:443", "", true},
		{srv.URL, "", true}, // its own pages
		{"http://lichess.org", "", false},
		{"https://lichess.org.evil.example", "", false},
		{"https://evil.example", "", false},
		{"null", "", false},
		{"", "evil.example:1982", false},
		{"http://evil.example:1982", "evil.example:1982", false},
		{"", "localhost:1982", true},
		{"", "[::1]:1982", true},
	} {
		hdr := http.Header{}
		if tt.origin != "" {
			hdr.Set("Origin", tt.origin)
		}
		opts := &websocket.DialOptions{HTTPHeader: hdr}
		if tt.host != "" {
			opts.Host = tt.host
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		c, resp, err := websocket.Dial(ctx, ws, opts)
		cancel()
		if tt.ok != (err == nil) {
			t.Errorf("WebSocket, Origin %q, Host %q: err %v, want allowed %v", tt.origin, tt.host, err, tt.ok)
		}
		if err == nil {
			c.CloseNow()
		} else if resp != nil && resp.StatusCode != http.StatusForbidden {
			t.Errorf("Origin %q, Host %q: status %d, want 403", tt.origin, tt.host, resp.StatusCode)
		}

		req, _ := http.NewRequest("GET", srv.URL+Prefix+"/eboards", nil)
		req.Header = hdr
		if tt.host != "" {
			req.Host = tt.host
		}
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		if (r.StatusCode == 200) != tt.ok {
			t.Errorf("REST, Origin %q, Host %q: %d", tt.origin, tt.host, r.StatusCode)
		}
		if tt.ok && tt.origin != "" && r.Header.Get("Access-Control-Allow-Origin") != tt.origin {
			t.Errorf("REST, Origin %q: Access-Control-Allow-Origin %q", tt.origin, r.Header.Get("Access-Control-Allow-Origin"))
		}
	}
	// the preflight of a public page asking for a private network service
	req, _ := http.NewRequest("OPTIONS", srv.URL+Prefix+"/eboards", nil)
	req.Header.Set("Origin", "https://lichess.org")
	req.Header.Set("Access-Control-Request-Method", "GET")
	req.Header.Set("Access-Control-Request-Private-Network", "true")
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	r.Body.Close()
	if r.StatusCode != 204 || r.Header.Get("Access-Control-Allow-Private-Network") != "true" ||
		r.Header.Get("Access-Control-Allow-Origin") != "https://lichess.org" {
		t.Errorf("preflight: %d %v", r.StatusCode, r.Header)
	}
	// the default API (arbiterd's dashboard listener) lets no other origin in
	srv2 := serve(t, New(h))
	hdr := http.Header{"Origin": {"https://lichess.org"}}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv2.URL, "http")+Prefix, &websocket.DialOptions{HTTPHeader: hdr}); err == nil {
		c.CloseNow()
		t.Error("the API without configured origins let https://lichess.org in")
	}
}

// TestLiveChessSetUpPosition: a game that starts from a set-up position
// (a board's start-fen). start is that position in every message, so a
// client that replays san from start — without setup, as a broadcast
// relay does — gets the game; a client that sends setup with it gets the
// same moves.
func TestLiveChessSetUpPosition(t *testing.T) {
	const at = 8
	start := fenAfterPlies(t, italian, at)
	game := italian[at:]
	h, _ := setup(t)
	evs := played{start: start, moves: game}.events(t)
	i := slices.IndexFunc(evs, func(e reconcile.Event) bool { return e.Type == reconcile.TypePosition })
	if i < 0 || evs[i].FEN != start {
		t.Fatalf("no position event with the set-up position")
	}
	for _, e := range evs[:i+1] {
		h.Publish("1", e)
	}
	rest := evs[i+1:]
	srv := serve(t, madeAPI(h))
	// two clients: one replays san from start (a relay), one sends setup
	// with the position (lichess's page)
	var cs []*websocket.Conn
	for _, withSetup := range []bool{false, true} {
		c := dial(t, srv, nil)
		call(t, c, subscribe1)
		first := readFeed(t, c, "1")
		if first.HasSAN || first.Start != start || first.Board != placement(start) {
			t.Fatalf("first message %s: want the set-up position as board and start, no san", first.Raw)
		}
		if withSetup {
			if m := call(t, c, `{"id":3,"call":"call","param":{"id":1,"method":"setup","param":{"fen":"`+start+`"}}}`); m.Response != "call" {
				t.Fatalf("setup: %s %s", m.Response, m.Param)
			}
		}
		cs = append(cs, c)
	}
	for i, c := range cs {
		var evs []reconcile.Event
		if i == 0 {
			evs = rest // published once, while the first client reads
		}
		for _, m := range follow(t, c, h, evs, isGame(game)) {
			if m.Start != start {
				t.Fatalf("client %d: start %q, want the set-up position: %s", i, m.Start, m.Raw)
			}
		}
	}
}

// TestLiveChessNoClock: a board without a clock. Its moves are completed
// only by the next move (6.2.1 needs a press), but the board shows each as
// it is made: every move is in san, with match true, before the next one
// is made — from the start, and for a client that joins mid-game with
// setup. clock is null throughout.
func TestLiveChessNoClock(t *testing.T) {
	const join = 10
	h, _ := setup(t)
	evs := played{moves: italian, noClock: true}.events(t)
	if slices.ContainsFunc(evs, func(e reconcile.Event) bool { return e.Type == reconcile.TypePress }) {
		t.Fatal("a press on a board without a clock")
	}
	srv := serve(t, madeAPI(h))
	c := dial(t, srv, nil)
	call(t, c, subscribe1)
	readFeed(t, c, "1")
	var mid *websocket.Conn
	var rest []reconcile.Event
	for i, e := range evs {
		h.Publish("1", e)
		if e.Type == reconcile.TypeMove && e.Ply == join {
			// a client joins now, with the position the board shows
			mid = dial(t, srv, nil)
			call(t, mid, subscribe1)
			if m := readFeed(t, mid, "1"); m.HasSAN || m.Clock != nil {
				t.Fatalf("joining: %s", m.Raw)
			}
			fen := fenAfterPlies(t, italian, join)
			if m := call(t, mid, `{"id":3,"call":"call","param":{"id":1,"method":"setup","param":{"fen":"`+fen+`"}}}`); m.Response != "call" {
				t.Fatalf("setup: %s %s", m.Response, m.Param)
			}
			rest = evs[i+1:]
			break
		}
	}
	if mid == nil {
		t.Fatalf("ply %d was never made", join)
	}
	for _, tt := range []struct {
		c    *websocket.Conn
		from int
		evs  []reconcile.Event
	}{{mid, join, rest}, {c, 0, nil}} {
		got := follow(t, tt.c, h, tt.evs, isGame(italian[tt.from:]))
		listed := map[int]bool{} // plies listed with match true on their own
		for _, m := range got {
			if m.Clock != nil {
				t.Fatalf("a clock on a board without one: %s", m.Raw)
			}
			if m.Match {
				listed[len(m.SAN)] = true
			}
		}
		for k := 1; k <= len(italian)-tt.from; k++ {
			if !listed[k] {
				t.Errorf("client from ply %d: no message listed the board after %s before the next move", tt.from, italian[tt.from+k-1])
			}
		}
	}
}

// TestLiveChessTwoBoardsOneEnded: two boards, one whose game has ended and
// one still playing, and one not read yet. eboards has the two read boards
// ACTIVE (the ended game's board is still there: LiveChess's state is the
// device's, not the game's) and the other INACTIVE, so a client that looks
// for an active board finds one. A client on the ended board joins at its
// last position and is sent no move; on the same connection, a feed of
// the other board follows its game.
func TestLiveChessTwoBoardsOneEnded(t *testing.T) {
	const join = 6
	fool := strings.Fields("f3 e5 g4 Qh4#")
	h, _ := setup(t)
	h.AddBoard(hub.Info{ID: "3"})
	over := played{moves: fool}.events(t)
	if !slices.ContainsFunc(over, func(e reconcile.Event) bool { return e.Type == reconcile.TypeEnd }) {
		t.Fatal("the fool's mate did not end")
	}
	for _, e := range over {
		e.Board = "2"
		h.Publish("2", e)
	}
	evs := played{moves: italian}.events(t)
	rest := publishUpTo(h, "1", evs, join)
	srv := serve(t, madeAPI(h))
	c := dial(t, srv, nil)
	var boards []EBoard
	if m := call(t, c, `{"id":1,"call":"eboards"}`); m.Response != "call" || json.Unmarshal(m.Param, &boards) != nil {
		t.Fatalf("eboards: %s %s", m.Response, m.Param)
	}
	states := map[string]string{}
	for _, b := range boards {
		states[b.SerialNr] = b.State
	}
	if want := map[string]string{"1": Active, "2": Active, "3": Inactive}; !maps.Equal(states, want) {
		t.Fatalf("states %v, want %v", states, want)
	}
	end := fenAfterPlies(t, fool, len(fool))
	if m := call(t, c, `{"id":2,"call":"subscribe","param":{"feed":"eboardevent","id":2,"param":{"serialnr":"2"}}}`); m.Response != "call" {
		t.Fatalf("subscribe to board 2: %s %s", m.Response, m.Param)
	}
	if m := readFeed(t, c, "2"); m.HasSAN || m.Board != placement(end) {
		t.Fatalf("board 2, over: %s; want its last position, no san", m.Raw)
	}
	if m := call(t, c, `{"id":3,"call":"call","param":{"id":2,"method":"setup","param":{"fen":"`+end+`"}}}`); m.Response != "call" {
		t.Fatalf("setup on board 2: %s %s", m.Response, m.Param)
	}
	if m := readFeed(t, c, "2"); !m.HasSAN || len(m.SAN) != 0 || !m.Match {
		t.Fatalf("board 2 after setup: %s; want san [] and match true", m.Raw)
	}
	call(t, c, subscribe1)
	readFeed(t, c, "1")
	fen := fenAfterPlies(t, italian, join)
	if m := call(t, c, `{"id":4,"call":"call","param":{"id":1,"method":"setup","param":{"fen":"`+fen+`"}}}`); m.Response != "call" {
		t.Fatalf("setup on board 1: %s %s", m.Response, m.Param)
	}
	// follow reads only feed 1: a message of feed 2 fails it
	follow(t, c, h, rest, isGame(italian[join:]))
}
