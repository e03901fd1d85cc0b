package livechess

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/coder/websocket"

	"github.com/arbiterd/arbiterd/internal/hub"
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
	seq   int             // the event of the state last looked at
	last  []byte          // the last param sent, to send only changes
}

// session is one WebSocket client. Its loop owns the feeds; a reader
// goroutine hands it requests and a writer goroutine drains its queue.
type session struct {
	a     *API
	c     *websocket.Conn
	out   chan []byte
	feeds map[string]*feed // by the feed id's JSON text
	wg    sync.WaitGroup   // the reader and the writer
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
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return // Accept has answered the client
	}
	c.SetReadLimit(a.readLimit)
	s := &session{a: a, c: c, out: make(chan []byte, a.queue), feeds: map[string]*feed{}}
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
	updates := s.a.h.Subscribe(ctx, "", 1024)

	reqs := make(chan []byte)
	s.wg.Add(2)
	go func() {
		// Reads end when the connection closes: the caller closes it
		// after run returns (with a close handshake on shutdown).
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
	}()
	go func() {
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
	}()

	for {
		select {
		case <-ctx.Done():
			return context.Cause(ctx)
		case msg := <-reqs:
			if err := s.handle(msg); err != nil {
				cancel(err)
			}
		case u, ok := <-updates:
			if !ok {
				if ctx.Err() != nil {
					return context.Cause(ctx)
				}
				return fmt.Errorf("%w: fell behind the hub", errSlow)
			}
			if err := s.update(u); err != nil {
				cancel(err)
			}
		}
	}
}

// send queues a message; a full queue means the client does not keep up.
func (s *session) send(r response) error {
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

func (s *session) fail(id json.RawMessage, format string, args ...any) error {
	return s.send(response{Response: "error", ID: id, Param: fmt.Sprintf(format, args...)})
}

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
	case "":
		return s.fail(id, "request has no \"call\"")
	default:
		return s.fail(id, "unknown call %q (arbiterd serves eboards, subscribe, unsubscribe)", req.Call)
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
	var board *hub.Board
	for _, b := range s.a.h.Boards() {
		if matches(b, p.Param.SerialNr) {
			board = &b
			break
		}
	}
	if board == nil {
		return s.fail(id, "subscribe: no e-board with serialnr %q", p.Param.SerialNr)
	}
	f := &feed{id: json.RawMessage(key), board: board.ID}
	s.feeds[key] = f
	if err := s.send(response{Response: "call", ID: id, Param: nil}); err != nil {
		return err
	}
	return s.push(f, *board) // the state as it stands, then its changes
}

// update sends the board's state after an event to every feed on it, when
// it changed. An update queued before a subscription's first message (or
// from before a new game began) is older than what the feed has seen: the
// state is then read afresh, so a feed never goes back.
func (s *session) update(u hub.Update) error {
	for _, f := range s.feeds {
		if f.board != u.Board {
			continue
		}
		b := u.State
		if b.Seq <= f.seq {
			var err error
			if b, err = s.a.h.Board(u.Board); err != nil {
				continue // the board is being reset; its next event follows
			}
		}
		if err := s.push(f, b); err != nil {
			return err
		}
	}
	return nil
}

func (s *session) push(f *feed, b hub.Board) error {
	param, err := json.Marshal(EventOf(b))
	if err != nil {
		return err
	}
	if bytes.Equal(param, f.last) {
		f.seq = b.Seq
		return nil
	}
	f.last = param
	f.seq = b.Seq
	return s.send(response{Response: "feed", ID: f.id, Param: json.RawMessage(param)})
}
