package livechess

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/rules"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// request is a WebSocket request: {"id":1,"call":"eboards","param":null}.
type request struct {
	ID    json.RawMessage `json:"id"`
	Call  string          `json:"call"`
	Param json.RawMessage `json:"param"`
}

// response is what the API sends: answers to calls, errors and feed
// messages.
type response struct {
	Response string          `json:"response"` // "call", "error" or "feed"
	ID       json.RawMessage `json:"id"`
	Param    any             `json:"param"`
	Time     int64           `json:"time"` // when it was sent, Unix milliseconds
}

// subscribeParam is the param of a subscribe call.
type subscribeParam struct {
	Feed  string          `json:"feed"`
	ID    json.RawMessage `json:"id"`
	Param struct {
		SerialNr string `json:"serialnr"`
	} `json:"param"`
}

// feed is one eboardevent subscription of a session.
type feed struct {
	id    json.RawMessage // the client's feed id, echoed in every message
	board string          // hub board id
	seq   int             // the last event folded into line
	line  line            // the board's game as made, folded from its events
	// setup is the position of the client's setup call ("" none): san
	// counts from where the line reaches it, anchor plies into the line
	// (-1 until it does).
	setup  string
	anchor int
	sent   bool   // the first message has gone
	last   []byte // the last param sent, to send only changes
	// pending is a message held back: after a press, until the move it
	// completes; on the LiveChess listener, after a change of the board,
	// until the board has stood still with it for API.settle (capture
	// time, from settleAt; a press has settleAt -1). due is when it goes
	// out anyway. While the board's squares do not show the message's
	// board (a piece in the hand, a piece on two squares), it waits
	// without a due time: the clock of its settle has not started.
	pending  []byte
	settleAt time.Duration
	due      time.Time
	waiting  bool
	// shown is the piece placement of the last message rendered (the
	// pending one's, while there is one), White first, and flipped
	// whether the board stands the other way round.
	shown   string
	flipped bool
}

// session is one WebSocket client. Its loop owns the feeds; a reader
// goroutine hands it requests and a writer goroutine drains its queue.
type session struct {
	a      *API
	c      *websocket.Conn
	out    chan []byte
	feeds  map[string]*feed // by the feed id's JSON text
	hold   *time.Timer      // runs while a feed holds a message back (feed.pending)
	holdAt time.Time        // when hold fires
	wg     sync.WaitGroup   // the reader and the writer
	// squares are the boards' squares as last reported and when they
	// last changed, for the boards the session follows; a board with
	// none reported is settled on its events alone.
	squares map[string]hub.Squares
}

var errSlow = errors.New("client too slow")

func (a *API) websocket(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	if a.closed {
		a.mu.Unlock()
		httpError(w, http.StatusServiceUnavailable, "the LiveChess API is shutting down")
		return
	}
	a.wg.Add(1)
	a.mu.Unlock()
	defer a.wg.Done()
	// admit (serve) has applied the origin policy: the library's own check,
	// which knows only the page's host, is not wanted on top of it.
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		return // Accept has answered the client
	}
	c.SetReadLimit(a.readLimit)
	s := &session{a: a, c: c, out: make(chan []byte, a.queue), feeds: map[string]*feed{}, squares: map[string]hub.Squares{}}
	err = s.run(a.ctx)
	switch {
	case errors.Is(err, errSlow):
		a.mu.Lock()
		a.dropped++
		a.mu.Unlock()
		c.CloseNow()
	case a.ctx.Err() != nil:
		c.Close(websocket.StatusGoingAway, "arbiterd is shutting down")
	default:
		c.CloseNow()
	}
	s.wg.Wait()
}

func (s *session) run(parent context.Context) error {
	ctx, cancel := context.WithCancelCause(parent)
	defer cancel(nil)
	var updates <-chan hub.Update
	if s.watches() {
		updates = s.a.h.SubscribeSquares(ctx, "", 1024)
	} else {
		updates = s.a.h.Subscribe(ctx, "", 1024)
	}

	reqs := make(chan []byte)
	s.wg.Add(2)
	go s.readRequests(ctx, cancel, reqs)
	go s.writeQueued(ctx, cancel)

	defer func() {
		if s.hold != nil {
			s.hold.Stop()
		}
	}()
	for {
		var held <-chan time.Time
		if s.hold != nil {
			held = s.hold.C
		}
		select {
		case <-ctx.Done():
			return context.Cause(ctx)
		case <-held:
			s.hold, s.holdAt = nil, time.Time{}
			// Updates already delivered go first: a session that was slow
			// to run must not send a state they replace.
			for n := len(updates); n > 0; n-- {
				u, ok := <-updates
				if err := s.take(ctx, cancel, u, ok); err != nil {
					return err
				}
			}
			if err := s.release(time.Now()); err != nil {
				cancel(err)
			}
		case msg := <-reqs:
			if err := s.handle(msg); err != nil {
				cancel(err)
			}
		case u, ok := <-updates:
			if err := s.take(ctx, cancel, u, ok); err != nil {
				return err
			}
		}
	}
}

// readRequests hands the client's messages to reqs until the connection
// fails, which cancels the session. Reads end when the connection closes:
// the caller closes it after run returns (with a close handshake on
// shutdown).
func (s *session) readRequests(ctx context.Context, cancel context.CancelCauseFunc, reqs chan<- []byte) {
	defer s.wg.Done()
	for {
		_, msg, err := s.c.Read(context.Background())
		if err != nil {
			cancel(err)
			return
		}
		select {
		case reqs <- msg:
		case <-ctx.Done():
			return
		}
	}
}

// writeQueued writes the queued messages to the client; a write that takes
// longer than the write timeout cancels the session as too slow.
func (s *session) writeQueued(ctx context.Context, cancel context.CancelCauseFunc) {
	defer s.wg.Done()
	for {
		select {
		case msg := <-s.out:
			wctx, wcancel := context.WithTimeout(ctx, s.a.writeTimeout)
			err := s.c.Write(wctx, websocket.MessageText, msg)
			wcancel()
			if err != nil {
				cancel(fmt.Errorf("%w: %v", errSlow, err))
				return
			}
		case <-ctx.Done():
			return
		}
	}
}

// watches reports whether the session holds changes of the board back
// until the board stands still (the LiveChess listener), and so follows
// the boards' squares.
func (s *session) watches() bool { return s.a.o.Moves == Made && s.a.settle > 0 }

// send queues a message; a full queue means the client does not keep up.
func (s *session) send(r response) error {
	r.Time = time.Now().UnixMilli()
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	select {
	case s.out <- b:
		return nil
	default:
		return errSlow
	}
}

// fail answers a request with LiveChess's error: param {"message": …}.
func (s *session) fail(id json.RawMessage, format string, args ...any) error {
	return s.send(response{Response: "error", ID: id, Param: errorParam{Message: fmt.Sprintf(format, args...)}})
}

// errorParam is the param of an error answer.
type errorParam struct {
	Message string `json:"message"`
}

// calls lists the calls the API answers, for the unknown-call error.
const calls = "eboards, sources, tournaments, subscribe, unsubscribe, call (setup)"

func (s *session) handle(msg []byte) error {
	var req request
	if err := json.Unmarshal(msg, &req); err != nil {
		return s.fail(json.RawMessage("null"), "request is not a JSON object {\"id\":…,\"call\":…,\"param\":…}: %v", err)
	}
	id := req.ID
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	switch req.Call {
	case "eboards":
		return s.send(response{Response: "call", ID: id, Param: s.a.eboards()})
	case "sources":
		return s.send(response{Response: "call", ID: id, Param: s.a.sources()})
	case "tournaments":
		// arbiterd keeps no LiveChess tournaments: an empty list
		return s.send(response{Response: "call", ID: id, Param: []any{}})
	case "subscribe":
		return s.subscribe(id, req.Param)
	case "unsubscribe":
		var p struct {
			ID json.RawMessage `json:"id"`
		}
		if err := json.Unmarshal(req.Param, &p); err != nil || len(p.ID) == 0 {
			return s.fail(id, "unsubscribe: param must be {\"id\": feed id}")
		}
		key := compact(p.ID)
		if s.feeds[key] == nil {
			return s.fail(id, "unsubscribe: no feed with id %s", key)
		}
		delete(s.feeds, key)
		return s.send(response{Response: "call", ID: id, Param: nil})
	case "call":
		return s.method(id, req.Param)
	case "":
		return s.fail(id, "request has no \"call\"")
	default:
		return s.fail(id, "unknown call %q (arbiterd serves %s)", req.Call, calls)
	}
}

// method serves the call "call": a method of a subscribed feed,
// {"id": FEED, "method": "setup", "param": {"fen": FEN}}.
func (s *session) method(id, raw json.RawMessage) error {
	var p struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Param  json.RawMessage `json:"param"`
	}
	if err := json.Unmarshal(raw, &p); err != nil || len(p.ID) == 0 {
		return s.fail(id, "call: param must be {\"id\": feed id, \"method\": \"setup\", \"param\": {\"fen\": …}}")
	}
	key := compact(p.ID)
	f := s.feeds[key]
	if f == nil {
		return s.fail(id, "call: no feed with id %s (subscribe to the e-board's eboardevent feed first)", key)
	}
	switch p.Method {
	case "setup":
		var sp struct {
			FEN *string `json:"fen"`
		}
		if err := json.Unmarshal(p.Param, &sp); err != nil || sp.FEN == nil {
			return s.fail(id, "setup: param must be {\"fen\": FEN}")
		}
		fen, err := setupPosition(*sp.FEN)
		if err != nil {
			return s.fail(id, "setup: %v", err)
		}
		// The setup is this feed's: san counts from the position, for this
		// client only. arbiterd's record of the game and the other
		// clients' feeds are not touched.
		f.setup, f.anchor = fen, -1
		if err := s.send(response{Response: "call", ID: id, Param: nil}); err != nil {
			return err
		}
		b, err := s.a.h.Board(f.board)
		if err != nil {
			return nil // the board is being reset: its next event follows
		}
		if b.Seq != f.seq {
			b = s.resync(f)
		}
		return s.push(f, b)
	case "":
		return s.fail(id, "call: no method (arbiterd serves setup)")
	default:
		return s.fail(id, "call: unknown method %q (arbiterd serves setup)", p.Method)
	}
}

func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

func (s *session) subscribe(id, raw json.RawMessage) error {
	var p subscribeParam
	if err := json.Unmarshal(raw, &p); err != nil {
		return s.fail(id, "subscribe: param must be {\"feed\":\"eboardevent\",\"id\":…,\"param\":{\"serialnr\":…}}: %v", err)
	}
	if p.Feed != "eboardevent" {
		return s.fail(id, "subscribe: unknown feed %q (arbiterd serves eboardevent)", p.Feed)
	}
	if len(p.ID) == 0 {
		return s.fail(id, "subscribe: the feed has no id")
	}
	key := compact(p.ID)
	if s.feeds[key] != nil {
		return s.fail(id, "subscribe: feed id %s is already in use", key)
	}
	var board string
	for _, b := range s.a.h.Boards() {
		if matches(b, p.Param.SerialNr) {
			board = b.ID
			break
		}
	}
	if board == "" {
		return s.fail(id, "subscribe: no e-board with serialnr %q", p.Param.SerialNr)
	}
	f := &feed{id: json.RawMessage(key), board: board, anchor: -1}
	s.feeds[key] = f
	if sq, ok := s.a.h.Squares(board); ok && s.watches() {
		s.squares[board] = sq
	}
	if err := s.send(response{Response: "call", ID: id, Param: nil}); err != nil {
		return err
	}
	return s.push(f, s.resync(f)) // the state as it stands, then its changes
}

// resync reads a feed's board afresh: its state and the line folded from
// every event the hub keeps up to that state.
func (s *session) resync(f *feed) hub.Board {
	b, err := s.a.h.Board(f.board)
	if err != nil {
		return b
	}
	evs, _ := s.a.h.Events(f.board, 0)
	f.line = line{}
	for _, e := range evs {
		if e.Seq > b.Seq {
			break
		}
		f.line.apply(e)
	}
	f.seq = b.Seq
	return b
}

// update folds a board's event into its feeds and sends each feed's new
// state when it changed. An update queued before a subscription read the
// board is older than what the feed has folded and is skipped; one that
// does not follow on (a new game on the board, events missed) makes the
// feed read the board afresh, so a feed never goes back.
//
// Two kinds of message are held back (feed.pending). The state after a
// press waits for the next event (the press's complete, with the clocks as
// they stand after it), at most API.hold, so a client never sees the clock
// switch before the move that caused it. On the LiveChess listener a
// change of the board waits until the board has stood so for API.settle,
// as LiveChess waits for a board to be still: a piece slid over squares on
// its way, or put down and moved on at once, is not a move a client should
// act on. A press, a completed move or the end of the game lets it out at
// once; a later change replaces it.
func (s *session) update(u hub.Update) error {
	now := time.Now()
	if u.Squares != nil {
		return s.moved(u, now)
	}
	for _, f := range s.feeds {
		if f.board != u.Board || u.Event.Type == "" {
			continue // another board, or an alert only (nothing LiveChess shows)
		}
		ev := u.Event
		b := u.State
		switch seq := ev.Seq; {
		case seq == f.seq+1:
			f.line.apply(ev)
			f.seq = seq
		case seq <= f.seq:
			if cur, err := s.a.h.Board(f.board); err != nil || cur.Seq >= f.seq {
				continue // already folded
			}
			b = s.resync(f) // the board's stream began again
		default:
			b = s.resync(f)
		}
		// A board that stood long enough before this event has settled:
		// its message goes first.
		if f.settling() && !f.waiting && ev.At-f.settleAt >= s.a.settle {
			if err := s.flush(f); err != nil {
				return err
			}
		}
		param, err := s.render(f, b)
		if err != nil {
			return err
		}
		change := s.watches() &&
			(ev.Type == reconcile.TypeMove || ev.Type == reconcile.TypeRetract || ev.Type == reconcile.TypePosition ||
				ev.Type == reconcile.TypeAnomaly && ev.Kind == reconcile.KindUnverified)
		switch {
		case change:
			if err := s.settle(f, param, ev.At, now); err != nil {
				return err
			}
		case ev.Type == reconcile.TypePress && s.a.hold > 0:
			f.pending, f.settleAt, f.due, f.waiting = param, -1, now.Add(s.a.hold), false
		case f.settling() && !final(ev, &f.line):
			f.pending = param // still settling: the newer state waits in its place
		default:
			f.pending = nil
			if err := s.pushParam(f, param); err != nil {
				return err
			}
		}
	}
	s.arm(now)
	return nil
}

// settling reports whether the feed holds a change of the board back
// until the board stands still with it.
func (f *feed) settling() bool { return f.pending != nil && f.settleAt >= 0 }

// settle holds param, the message after a change of the board at capture
// time at, until the board has stood still with it for the settle time:
// counted from the last change of the board's squares when they show
// param's board (the board may have stood so since before the event: a
// board back from an absence, a move the reconciler explained late), not
// started while they do not (a piece in the hand, a piece on two
// squares). A board whose squares are not known is counted from the
// event. A board that has stood still long enough already is sent at
// once.
func (s *session) settle(f *feed, param []byte, at time.Duration, now time.Time) error {
	f.pending, f.waiting = param, false
	sq, known := s.squares[f.board]
	if !known {
		f.settleAt, f.due = at, now.Add(s.a.settle)
		return nil
	}
	f.settleAt = sq.At
	if !shows(sq.Snapshot, f.shown, f.flipped) {
		f.waiting, f.due = true, time.Time{}
		return nil
	}
	left := s.a.settle - max(0, at-sq.At)
	if left <= 0 {
		return s.flush(f)
	}
	f.due = now.Add(left)
	return nil
}

// moved takes a change of a board's squares: a held message whose board
// stood still long enough before it goes out; the others wait, for the
// settle time from now when the board shows their board, else until it
// does.
func (s *session) moved(u hub.Update, now time.Time) error {
	sq := *u.Squares
	if _, ok := s.squares[u.Board]; !ok && !s.follows(u.Board) {
		return nil
	}
	s.squares[u.Board] = sq
	for _, f := range s.feeds {
		if f.board != u.Board || !f.settling() {
			continue
		}
		if !f.waiting && sq.At-f.settleAt >= s.a.settle {
			if err := s.flush(f); err != nil {
				return err
			}
			continue
		}
		f.settleAt = sq.At
		if f.waiting = !shows(sq.Snapshot, f.shown, f.flipped); f.waiting {
			f.due = time.Time{}
		} else {
			f.due = now.Add(s.a.settle)
		}
	}
	s.arm(now)
	return nil
}

// follows reports whether one of the session's feeds is board's.
func (s *session) follows(board string) bool {
	for _, f := range s.feeds {
		if f.board == board {
			return true
		}
	}
	return false
}

// shows reports whether a board's squares (in its own frame; flipped: it
// stands with Black at the bottom) show placement, a FEN's piece placement
// with White first. A square the board could not read shows nothing.
func shows(s rules.Snapshot, placement string, flipped bool) bool {
	if flipped {
		s = s.Rotated()
	}
	if s.Unknown != 0 {
		return false
	}
	i := 56 // a8; FEN lists rank 8 first
	for _, c := range placement {
		switch {
		case c == '/':
			i -= 16
			continue
		case c >= '1' && c <= '8':
			for n := int(c - '0'); n > 0; n-- {
				if i < 0 || i >= 64 || s.Squares[i] != chess.NoPiece {
					return false
				}
				i++
			}
			continue
		}
		p := pieceOf[c]
		if p == chess.NoPiece || i < 0 || i >= 64 || s.Squares[i] != p {
			return false
		}
		i++
	}
	return i == 8
}

// pieceOf maps FEN letters to pieces.
var pieceOf = map[rune]chess.Piece{
	'P': chess.WhitePawn, 'N': chess.WhiteKnight, 'B': chess.WhiteBishop, 'R': chess.WhiteRook, 'Q': chess.WhiteQueen, 'K': chess.WhiteKing,
	'p': chess.BlackPawn, 'n': chess.BlackKnight, 'b': chess.BlackBishop, 'r': chess.BlackRook, 'q': chess.BlackQueen, 'k': chess.BlackKing,
}

// final reports whether ev makes the board's last move final: its
// completion, or the end of the game.
func final(ev reconcile.Event, l *line) bool {
	return ev.Type == reconcile.TypeEnd || (ev.Type == reconcile.TypeComplete && ev.Ply >= l.base+len(l.san))
}

// flush sends a feed's held message.
func (s *session) flush(f *feed) error {
	p := f.pending
	f.pending = nil
	return s.pushParam(f, p)
}

// release sends the held messages that are due.
func (s *session) release(now time.Time) error {
	for _, f := range s.feeds {
		if f.pending != nil && !f.waiting && !now.Before(f.due) {
			if err := s.flush(f); err != nil {
				return err
			}
		}
	}
	s.arm(now)
	return nil
}

// arm sets the session's timer to the first held message's due time.
func (s *session) arm(now time.Time) {
	var first time.Time
	for _, f := range s.feeds {
		if f.pending != nil && !f.waiting && (first.IsZero() || f.due.Before(first)) {
			first = f.due
		}
	}
	if s.hold != nil && first.Equal(s.holdAt) {
		return // already set for it
	}
	if s.hold != nil {
		s.hold.Stop()
		s.hold = nil
	}
	s.holdAt = first
	if !first.IsZero() {
		s.hold = time.NewTimer(max(0, first.Sub(now)))
	}
}

// event is the feed's message for board state b.
func (s *session) event(f *feed, b hub.Board) any {
	if s.a.o.Moves != Made {
		return completedEvent(b, &f.line, f.setup)
	}
	if f.setup != "" {
		// The setup's position in the line: where it was found, while
		// the line still passes through it there, else where the line
		// last reached it.
		if f.anchor < 0 || !samePosition(f.line.fenAt(f.anchor), f.setup) {
			f.anchor = f.line.index(f.setup)
		}
	}
	e := madeEvent(b, &f.line, f.setup, f.anchor)
	if !f.sent {
		return firstEvent{SerialNr: e.SerialNr, Flipped: e.Flipped, Board: e.Board, Clock: e.Clock, Start: e.Start, Match: e.Match}
	}
	return e
}

// push sends the feed's message for state b, unless it holds one back: the
// new state replaces it.
func (s *session) push(f *feed, b hub.Board) error {
	param, err := s.render(f, b)
	if err != nil {
		return err
	}
	if f.pending != nil {
		f.pending = param
		return nil
	}
	return s.pushParam(f, param)
}

// render is the feed's message for state b, as JSON; the feed keeps the
// board it shows.
func (s *session) render(f *feed, b hub.Board) ([]byte, error) {
	e := s.event(f, b)
	switch e := e.(type) {
	case EBoardEvent:
		f.shown, f.flipped = e.Board, e.Flipped
	case firstEvent:
		f.shown, f.flipped = e.Board, e.Flipped
	}
	return json.Marshal(e)
}

// pushParam sends a feed message, unless it is the one sent last.
func (s *session) pushParam(f *feed, param []byte) error {
	if bytes.Equal(param, f.last) {
		return nil
	}
	f.last, f.sent = param, true
	return s.send(response{Response: "feed", ID: f.id, Param: json.RawMessage(param)})
}

// take applies an update read from the hub's channel (ok false: the hub
// closed it). A closed channel ends the session: cancelled, or fallen
// behind the hub; an update the session cannot apply cancels it.
func (s *session) take(ctx context.Context, cancel context.CancelCauseFunc, u hub.Update, ok bool) error {
	if !ok {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		return fmt.Errorf("%w: fell behind the hub", errSlow)
	}
	if err := s.update(u); err != nil {
		cancel(err)
	}
	return nil
}
