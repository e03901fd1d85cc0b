package livechess

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/arbiterd/arbiterd/driver/drivertest"
	"github.com/arbiterd/arbiterd/internal/boards/pipeline"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/internal/testkit/feedtest"
	"github.com/arbiterd/arbiterd/rules"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// reading is one thing a live board gives the hub, in order: an event of
// its stream, or its squares as they changed.
type reading struct {
	ev      *reconcile.Event
	at      time.Duration
	squares rules.Snapshot
}

// handReadings is what a board without a clock gives the hub while the
// hand plays on it: the capture a live host writes (a start-up dump, then
// each touch as a field update) through the pipeline, its squares and its
// events in the order the daemon publishes them.
func handReadings(t *testing.T, touches []feedtest.Touch) []reading {
	t.Helper()
	var buf bytes.Buffer
	w, err := capture.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(w.Port("board", "dgt"))
	must(w.Meta("board", "1"))
	must(w.Data(0, "board", capture.Read, drivertest.DGTBoardDump(drivertest.DGTStartPosition())))
	at, frames := feedtest.Frames(touches)
	for i, f := range frames {
		must(w.Data(time.Second+at[i], "board", capture.Read, f))
	}
	var out []reading
	opts := pipeline.Options{OnSquares: func(at time.Duration, port string, s rules.Snapshot) {
		out = append(out, reading{at: at, squares: s})
	}}
	if _, err := pipeline.Replay(bytes.NewReader(buf.Bytes()), opts, func(e reconcile.Event) error {
		out = append(out, reading{ev: &e})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// publishReadings gives the hub a board's readings as the daemon does.
func publishReadings(h *hub.Hub, id string, rs []reading) {
	for _, r := range rs {
		if r.ev != nil {
			h.Publish(id, *r.ev)
		} else {
			h.PublishSquares(id, r.at, r.squares)
		}
	}
}

// TestLiveChessHesitatingHand: a hand that puts pieces down and lifts them
// again, holds them in the air for longer than the settle time, and puts a
// king on f8 before castling (feedtest.HesitatingHand). Each square it
// passes is a legal move, and the reconciler takes each for one while the
// piece stands there; lifting it again is no event. The LiveChess listener
// lists a position only once the board has stood still with it for the
// settle time, so a client is given exactly the game's moves, each once,
// and san never goes back: no provisional move (Be3, Kf8, Nh6) reaches it,
// and no retraction of one.
func TestLiveChessHesitatingHand(t *testing.T) {
	hand, moves := feedtest.HesitatingHand()
	rs := handReadings(t, hand.Touches())
	var made []string
	for _, r := range rs {
		if r.ev != nil && r.ev.Type == reconcile.TypeMove {
			made = append(made, r.ev.SAN)
		}
	}
	for _, provisional := range []string{"Nh6", "Be3", "Kf8"} {
		if !slices.Contains(made, provisional) {
			t.Fatalf("the reconciler never took %s for a move (moves %v): the hand does not test what it should", provisional, made)
		}
	}
	h, _ := setup(t)
	srv := serve(t, madeAPI(h))
	c := dial(t, srv, nil)
	call(t, c, subscribe1)
	readFeed(t, c, "1")
	go publishReadings(h, "1", rs)
	var got []feedMsg
	listed := map[int]bool{}
	for {
		m := readFeed(t, c, "1")
		var prev *feedMsg
		if len(got) > 0 {
			prev = &got[len(got)-1]
		}
		checkMessage(t, prev, m)
		got = append(got, m)
		if len(m.SAN) > len(moves) || !slices.Equal(m.SAN, moves[:len(m.SAN)]) {
			t.Fatalf("listed %v, not the game's moves %v: a provisional move reached the client", m.SAN, moves)
		}
		if prev != nil && len(m.SAN) < len(prev.SAN) {
			t.Fatalf("san went back from %v to %v: a retraction reached the client", prev.SAN, m.SAN)
		}
		if m.Match {
			listed[len(m.SAN)] = true
		}
		if isGame(moves)(m) {
			break
		}
	}
	for k := 1; k <= len(moves); k++ {
		if !listed[k] {
			t.Errorf("no message listed the board after %s, though it stood still %v with it", moves[k-1], feedtest.Still)
		}
	}
}

// TestLiveChessBackListedAtOnce: a board comes back from an absence four
// plies on. It has stood still since it was read again, so once arbiterd
// has its position (the reconciler holds plies found after an absence for
// its scan lag) the listener lists it at once, without a settle time of
// its own on top.
func TestLiveChessBackListedAtOnce(t *testing.T) {
	const join, from = 4, 8
	h, _ := setup(t)
	rs := played{moves: italian, from: from, away: 40 * time.Second}.readings(t)
	back := -1 // the reading that gives the board's position after the absence
	var connected time.Duration
	for i, r := range rs {
		if r.ev == nil {
			continue
		}
		e := r.ev
		if e.Type == reconcile.TypeSession && e.State == reconcile.StateConnected {
			connected = e.At
		}
		if connected > 0 && (e.Type == reconcile.TypeMove && e.Ply >= from || e.Kind == reconcile.KindUnverified) {
			back = i
			break
		}
	}
	if back < 0 {
		t.Fatal("the board never came back")
	}
	// its batch: the events of the same reading
	for back+1 < len(rs) && rs[back+1].ev != nil && rs[back+1].ev.At == rs[back].ev.At {
		back++
	}
	var before []reading
	for i, r := range rs {
		if r.ev != nil && r.ev.Type == reconcile.TypeComplete && r.ev.Ply == join {
			before, rs = rs[:i+1], rs[i+1:back+1]
			break
		}
	}
	publishReadings(h, "1", before)
	srv := serve(t, madeAPI(h))
	c := dial(t, srv, nil)
	call(t, c, subscribe1)
	readFeed(t, c, "1")
	fen := fenAfterPlies(t, italian, join)
	if m := call(t, c, `{"id":3,"call":"call","param":{"id":1,"method":"setup","param":{"fen":"`+fen+`"}}}`); m.Response != "call" {
		t.Fatalf("setup: %s %s", m.Response, m.Param)
	}
	readFeed(t, c, "1")
	publishReadings(h, "1", rs)
	want := placement(fenAfterPlies(t, italian, from+3))
	ctx, cancel := context.WithTimeout(context.Background(), 600*time.Millisecond)
	defer cancel()
	for {
		var m message
		if err := readJSON(ctx, c, &m); err != nil {
			t.Fatalf("the board back %v of board time ago, four plies on, was not listed within 600 ms: %v", rs[len(rs)-1].ev.At-connected, err)
		}
		var f EBoardEvent
		json.Unmarshal(m.Param, &f)
		if m.Response == "feed" && f.Board == want {
			if !f.Match || len(f.SAN) != from+3-join {
				t.Fatalf("back: %s; want san the plies to the board and match true", m.Param)
			}
			t.Logf("listed %v of board time after the board was read again", rs[len(rs)-1].ev.At-connected)
			return
		}
	}
}

// TestLiveChessSerialAndTime: a board whose device reported its serial
// number is listed under it, and can be subscribed to by it or by its id;
// every answer carries LiveChess's "time", when it was sent.
func TestLiveChessSerialAndTime(t *testing.T) {
	h, evs := setup(t)
	publishUpTo(h, "1", evs, 2)
	h.SetSerial("1", "20260")
	srv := serve(t, madeAPI(h))
	c := dial(t, srv, nil)
	before := time.Now().UnixMilli()
	var raw struct {
		message
		Time *int64 `json:"time"`
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	write := func(req string) {
		if err := c.Write(ctx, websocket.MessageText, []byte(req)); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"id":1,"call":"eboards"}`)
	if err := readJSON(ctx, c, &raw); err != nil {
		t.Fatal(err)
	}
	if raw.Time == nil || *raw.Time < before || *raw.Time > time.Now().UnixMilli() {
		t.Errorf("eboards answer: time %v, want the time it was sent (Unix ms)", raw.Time)
	}
	var boards []EBoard
	json.Unmarshal(raw.Param, &boards)
	if len(boards) != 2 || boards[0].SerialNr != "20260" || boards[1].SerialNr != "2" {
		t.Fatalf("eboards: %s; want board 1 as 20260, board 2 by its id", raw.Param)
	}
	for i, serial := range []string{"20260", "1"} {
		write(fmt.Sprintf(`{"id":2,"call":"subscribe","param":{"feed":"eboardevent","id":%d,"param":{"serialnr":%q}}}`, i+1, serial))
		if err := readJSON(ctx, c, &raw); err != nil || raw.Response != "call" || raw.Time == nil {
			t.Fatalf("subscribe by %s: %v %s %s", serial, err, raw.Response, raw.Param)
		}
		raw.Time = nil
		if err := readJSON(ctx, c, &raw); err != nil || raw.Response != "feed" || raw.Time == nil {
			t.Fatalf("feed by %s: %v %s %s, time %v", serial, err, raw.Response, raw.Param, raw.Time)
		}
		var f firstEvent
		json.Unmarshal(raw.Param, &f)
		if f.SerialNr != "20260" {
			t.Errorf("feed by %s: serialnr %q", serial, f.SerialNr)
		}
	}
	write(`{"id":4,"call":"reboot"}`)
	raw.Time = nil
	if err := readJSON(ctx, c, &raw); err != nil || raw.Response != "error" || raw.Time == nil {
		t.Errorf("error answer: %v %s, time %v", err, raw.Response, raw.Time)
	}
}
