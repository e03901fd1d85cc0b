package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// Server-Sent Events (the WHATWG HTML "server-sent events" format): each
// message is a block of "field: value" lines ended by an empty line; lines
// starting with ":" are comments, which keep proxies and the connection
// alive. The browser's EventSource reconnects by itself after the "retry"
// delay and sends the last "id" it saw as the Last-Event-ID header.

// Message names on the stream.
const (
	msgState  = "state"  // a board's whole state (on connect; after an alert raised or acknowledged)
	msgUpdate = "update" // an event of a board and the state after it
)

// stateMsg is the data of a "state" message.
type stateMsg struct {
	Board string    `json:"board"`
	State View      `json:"state"`
	Now   time.Time `json:"now"` // the server's wall clock when sent
}

// updateMsg is the data of an "update" message.
type updateMsg struct {
	Board string          `json:"board"`
	Event json.RawMessage `json:"event"` // the spec's JSON of the event
	State View            `json:"state"`
	Now   time.Time       `json:"now"`
}

// cursor is the last sequence number sent per board; it is the id of
// every message, so a client resumes where it was.
type cursor map[string]int

func (c cursor) String() string {
	v := url.Values{}
	for b, n := range c {
		if n > 0 {
			v.Set(b, strconv.Itoa(n))
		}
	}
	return v.Encode() // sorted by board, so stable
}

// parseCursor reads a Last-Event-ID. A malformed one is ignored (the
// client then gets the states and the live updates, as on a first
// connect); it is an optimisation, not a contract the client can break.
func parseCursor(s string) cursor {
	c := cursor{}
	v, err := url.ParseQuery(s)
	if err != nil {
		return c
	}
	for b, ns := range v {
		if n, err := strconv.Atoi(ns[0]); err == nil && n > 0 {
			c[b] = n
		}
	}
	return c
}

// sseWriter frames messages onto a flushing response.
type sseWriter struct {
	w   http.ResponseWriter
	rc  *http.ResponseController
	buf bytes.Buffer
}

func (s *sseWriter) message(event, id string, data []byte) {
	if id != "" {
		fmt.Fprintf(&s.buf, "id: %s\n", id)
	}
	fmt.Fprintf(&s.buf, "event: %s\n", event)
	// JSON has no raw newlines, but be safe: each line of data is its own
	// data field.
	for _, line := range bytes.Split(data, []byte{'\n'}) {
		s.buf.WriteString("data: ")
		s.buf.Write(line)
		s.buf.WriteByte('\n')
	}
	s.buf.WriteByte('\n')
}

func (s *sseWriter) comment(text string) {
	fmt.Fprintf(&s.buf, ": %s\n\n", text)
}

// flush sends what is buffered; an error means the client is gone.
func (s *sseWriter) flush() error {
	if s.buf.Len() == 0 {
		return nil
	}
	_, err := s.w.Write(s.buf.Bytes())
	s.buf.Reset()
	if err != nil {
		return err
	}
	return s.rc.Flush()
}

func (s *Server) stream(w http.ResponseWriter, r *http.Request) {
	board := r.URL.Query().Get("board")
	if board != "" {
		if _, err := s.hub.Board(board); err != nil {
			writeError(w, http.StatusNotFound, "unknown board %q", board)
			return
		}
	}
	ctx := r.Context()
	// Subscribe before reading the states, so nothing falls between them;
	// updates already covered by a state are skipped below.
	updates := s.hub.Subscribe(ctx, board, s.opt.Buffer)

	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	out := &sseWriter{w: w, rc: http.NewResponseController(w)}
	out.buf.WriteString("retry: 2000\n\n")

	var states []hub.Board
	if board != "" {
		b, err := s.hub.Board(board)
		if err != nil {
			return
		}
		states = []hub.Board{b}
	} else {
		states = s.hub.Boards()
	}
	p := s.printer(r) // the stream's language, for the alerts' words
	sent, caught := s.catchUp(out, p, states, parseCursor(r.Header.Get("Last-Event-ID")))
	if err := out.flush(); err != nil {
		return
	}
	s.follow(ctx, out, p, updates, sent, caught)
}

// catchUp writes, for each board, the events the client missed since seen
// (when it resumes), then its state now. It returns the cursor of this
// stream's boards and the seq each state covers.
func (s *Server) catchUp(out *sseWriter, p *i18n.Printer, states []hub.Board, seen cursor) (sent cursor, caught covered) {
	sent, caught = cursor{}, covered{}
	for _, b := range states {
		if since, ok := seen[b.ID]; ok && since <= b.Seq {
			evs, err := s.hub.Events(b.ID, since)
			if err == nil {
				for _, e := range evs {
					if e.Seq > b.Seq {
						break
					}
					sent[b.ID] = e.Seq
					out.message(msgUpdate, sent.String(), s.updateData(b.ID, e, b, p))
				}
			}
		}
		sent[b.ID] = b.Seq
		caught[b.ID] = b.Seq
		out.message(msgState, sent.String(), s.stateData(b, p))
	}
	return sent, caught
}

// follow writes the hub's updates as they come, and a keep-alive comment
// when there are none, until the client or the server goes away.
func (s *Server) follow(ctx context.Context, out *sseWriter, p *i18n.Printer, updates <-chan hub.Update, sent cursor, caught covered) {
	tick := time.NewTicker(s.opt.KeepAlive)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.done:
			return
		case u, ok := <-updates:
			if !ok {
				if ctx.Err() == nil {
					// Too far behind: the browser reconnects and resumes.
					out.comment("fell behind; reconnect to resume")
					_ = out.flush()
				}
				return
			}
			if u.Event.Type == "" {
				// No event: an alert raised or acknowledged. The board's
				// state, which moves no cursor.
				out.message(msgState, "", s.stateData(u.State, p))
				break
			}
			if !caught.fresh(u.Board, u.Event.Seq) {
				continue // already in the state sent on connect
			}
			sent[u.Board] = u.Event.Seq
			out.message(msgUpdate, sent.String(), s.updateData(u.Board, u.Event, u.State, p))
		case <-tick.C:
			out.comment("keep-alive")
		}
		if err := out.flush(); err != nil {
			return
		}
	}
}

// covered holds, per board, the last seq the state sent on connect
// covers. The subscription starts before the states are read, so its first
// updates may repeat what a state already holds; once a board's updates
// go past it, the board is forgotten (a board whose game restarts counts
// from 1 again).
type covered map[string]int

// fresh reports whether an update of board with seq is news to the client.
func (c covered) fresh(board string, seq int) bool {
	last, ok := c[board]
	if !ok {
		return true
	}
	if seq <= last {
		return false
	}
	delete(c, board)
	return true
}

func (s *Server) stateData(b hub.Board, p *i18n.Printer) []byte {
	data, _ := json.Marshal(stateMsg{Board: b.ID, State: s.view(b, p), Now: s.opt.Now()})
	return data
}

func (s *Server) updateData(board string, e reconcile.Event, b hub.Board, p *i18n.Printer) []byte {
	data, _ := json.Marshal(updateMsg{Board: board, Event: reconcile.Marshal(e), State: s.view(b, p), Now: s.opt.Now()})
	return data
}
