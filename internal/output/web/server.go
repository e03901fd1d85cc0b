package web

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/text/language"

	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

//go:embed static
var staticFiles embed.FS

// Options tune a Server.
type Options struct {
	// KeepAlive is the interval of the SSE keep-alive comments (default 15 s).
	KeepAlive time.Duration
	// Buffer is how many updates an SSE client may fall behind before it is
	// disconnected (default 1024).
	Buffer int
	// Now gives the wall-clock time sent with each update so the page can
	// run the clocks without trusting the browser's clock (default time.Now).
	Now func() time.Time
	// Arbiter, when set, takes the arbiter's acts (claims and decisions,
	// arbiter.go); without it the API answers 501.
	Arbiter Arbiter
	// Access says who may read and write (access.go); nil: anyone may
	// read, and writes are taken from this computer only.
	Access *Access
	// Link, when set, gives a board's link to the venue that plays it
	// (a hall's boards): the API's and the dashboard's View.Link.
	Link func(board string) *Link
	// Lang, when set, is the dashboard's language instead of the
	// browser's Accept-Language (the configuration's lang:); the page's
	// switch still wins (lang.go).
	Lang language.Tag
}

// Link is how a server that shows boards played elsewhere (a hall) hears
// a board's venue. While the venue is cut off, what the board shows may
// be behind: the dashboard says so and runs no clock of it.
type Link struct {
	Venue string `json:"venue"`
	// State is "connected", "waiting" (not heard yet) or "cut-off".
	State string    `json:"state"`
	Since time.Time `json:"since,omitzero"` // cut off since (last heard)
}

// Server serves the API, the stream and the dashboard of one hub.
type Server struct {
	hub  *hub.Hub
	opt  Options
	mux  *http.ServeMux
	done chan struct{} // closed by Close: streams end
	once sync.Once

	wmu   sync.Mutex
	words map[string]map[wordsKey]Alert // per language and board, each alert worded once (its wording never changes)
}

// wordsKey names an alert of a board: by id and seq, and its text (a new
// game on the board numbers its alerts from 1 again).
type wordsKey struct {
	id, seq int
	text    string
}

// view is a board's state as the API and the dashboard give it: each
// alert in the arbiter's words (words.go).
func (s *Server) view(b hub.Board, p *i18n.Printer) View {
	v := View{Board: b, Alerts: make([]Alert, len(b.Alerts))}
	if s.opt.Link != nil {
		v.Link = s.opt.Link(b.ID)
	}
	key := func(a hub.Alert) wordsKey { return wordsKey{a.ID, a.Seq, a.Text} }
	s.wmu.Lock()
	defer s.wmu.Unlock()
	missing := false
	for i, a := range b.Alerts {
		w, ok := s.words[p.Lang()+"/"+b.ID][key(a)]
		if !ok {
			missing = true
			break
		}
		w.Alert = a // acknowledged or not, now
		v.Alerts[i] = w
	}
	if !missing {
		return v
	}
	// Worded again from the stream, the board's alerts replace those kept
	// (the alerts of a game the board no longer has are forgotten).
	evs, _ := s.hub.Events(b.ID, 0) // an unknown board has no events: the texts stay
	kept := make(map[wordsKey]Alert, len(b.Alerts))
	for i, w := range WordsIn(p, b, evs) {
		kept[key(b.Alerts[i])] = w
		v.Alerts[i] = w
	}
	s.words[p.Lang()+"/"+b.ID] = kept
	return v
}

func (s *Server) views(bs []hub.Board, p *i18n.Printer) []View {
	out := make([]View, len(bs))
	for i, b := range bs {
		out[i] = s.view(b, p)
	}
	return out
}

// New returns a server over h.
func New(h *hub.Hub, o Options) *Server {
	if o.KeepAlive <= 0 {
		o.KeepAlive = 15 * time.Second
	}
	if o.Buffer <= 0 {
		o.Buffer = 1024
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	s := &Server{hub: h, opt: o, mux: http.NewServeMux(), done: make(chan struct{}),
		words: map[string]map[wordsKey]Alert{}}
	s.mux.HandleFunc("GET /api/boards", s.boards)
	s.mux.HandleFunc("GET /api/boards/{id}", s.board)
	s.mux.HandleFunc("GET /api/boards/{id}/events", s.events)
	// Acknowledging changes state: a page of another site must not do it
	// through the arbiter's browser (CSRF).
	csrf := http.NewCrossOriginProtection()
	csrf.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusForbidden, "cross-origin %s %s refused: acknowledge from the dashboard", r.Method, r.URL.Path)
	}))
	s.mux.Handle("POST /api/boards/{id}/alerts/{alert}/ack", csrf.Handler(http.HandlerFunc(s.ack)))
	s.mux.Handle("POST /api/boards/{id}/claims", csrf.Handler(http.HandlerFunc(s.claim)))
	s.mux.Handle("POST /api/boards/{id}/claims/{claim}/decision", csrf.Handler(http.HandlerFunc(s.decide)))
	s.mux.Handle("POST /api/boards/{id}/pairing", csrf.Handler(http.HandlerFunc(s.setPairing)))
	s.mux.Handle("POST /api/round", csrf.Handler(http.HandlerFunc(s.nextRound)))
	s.mux.HandleFunc("GET /api/stream", s.stream)
	s.mux.HandleFunc("/api/", s.notFound)
	// The page and its assets, embedded: /static/app.js is static/app.js.
	s.mux.Handle("GET /static/", http.FileServerFS(staticFiles))
	s.mux.HandleFunc("GET /words.js", s.pageWords)
	s.mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		http.ServeFileFS(w, r, staticFiles, "static/index.html")
	})
	return s
}

// Close ends every open event stream (browsers reconnect to whatever
// serves next). http.Server.Shutdown waits for handlers to return and a
// stream never does by itself, so the daemon calls Close first, e.g. with
// (*http.Server).RegisterOnShutdown(s.Close). The API keeps answering.
func (s *Server) Close() {
	s.once.Do(func() { close(s.done) })
}

// Handler returns the HTTP handler: the API under /api/, the dashboard at
// /, behind the server's Access.
func (s *Server) Handler() http.Handler {
	return &guard{s: s, next: s.mux, good: map[[32]byte]string{}}
}

// Guard returns next behind the server's Access, as Handler is: for the
// routes a server beside this one adds (a hall's own pages and writes).
func (s *Server) Guard(next http.Handler) http.Handler {
	return &guard{s: s, next: next, good: map[[32]byte]string{}}
}

// apiError is the body of every error response.
type apiError struct {
	Error string `json:"error"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // the client went away: nothing to tell it
}

func writeError(w http.ResponseWriter, status int, format string, args ...any) {
	writeJSON(w, status, apiError{Error: fmt.Sprintf(format, args...)})
}

// notFound answers any /api/ path or method the API does not have.
func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	writeError(w, http.StatusNotFound, "no API route %s %s (see docs/api.md)", r.Method, r.URL.Path)
}

func (s *Server) boards(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.views(s.hub.Boards(), s.printer(r)))
}

// lookup returns the board named in the path, or writes a 404.
func (s *Server) lookup(w http.ResponseWriter, r *http.Request) (hub.Board, bool) {
	id := r.PathValue("id")
	b, err := s.hub.Board(id)
	if err != nil {
		writeError(w, http.StatusNotFound, "unknown board %q", id)
		return b, false
	}
	return b, true
}

func (s *Server) board(w http.ResponseWriter, r *http.Request) {
	if b, ok := s.lookup(w, r); ok {
		writeJSON(w, http.StatusOK, s.view(b, s.printer(r)))
	}
}

// parseSince reads the since parameter: a sequence number >= 0 (absent: 0).
func parseSince(v string) (int, error) {
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("bad since %q: want a sequence number, an integer >= 0", v)
	}
	return n, nil
}

func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	q := r.URL.Query()
	since, err := parseSince(q.Get("since"))
	if err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	format := q.Get("format")
	if format != "" && format != "jsonl" && format != "array" {
		writeError(w, http.StatusBadRequest, "bad format %q: want jsonl (the default) or array", format)
		return
	}
	evs, err := s.hub.Events(id, since)
	if err != nil {
		writeError(w, http.StatusNotFound, "unknown board %q", id)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	if format == "array" {
		w.Header().Set("Content-Type", "application/json")
		buf := []byte{'['}
		for i, e := range evs {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = append(buf, reconcile.Marshal(e)...)
		}
		buf = append(buf, ']', '\n')
		_, _ = w.Write(buf)
		return
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	var buf []byte
	for _, e := range evs {
		buf = append(buf, reconcile.Marshal(e)...)
		buf = append(buf, '\n')
	}
	_, _ = w.Write(buf)
}

func (s *Server) ack(w http.ResponseWriter, r *http.Request) {
	id, raw := r.PathValue("id"), r.PathValue("alert")
	alert, err := strconv.Atoi(raw)
	if err != nil || alert <= 0 || strconv.Itoa(alert) != raw {
		writeError(w, http.StatusBadRequest, "bad alert id %q: want a positive integer", raw)
		return
	}
	if _, ok := s.lookup(w, r); !ok {
		return
	}
	// No body is needed; one that is there must be the empty object.
	if b, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1)); err != nil || len(bytes.TrimSpace(b)) > 0 && parseBody(b, nil) != nil {
		writeError(w, http.StatusBadRequest, "request body: an acknowledgement takes none (or {})")
		return
	}
	ack := s.hub.Ack
	if a, ok := s.opt.Arbiter.(Acker); ok {
		ack = func(id string, alert int) error { return a.Ack(id, alert, ArbiterName(r)) }
	}
	if err := ack(id, alert); err != nil {
		if errors.Is(err, hub.ErrNoBoard) {
			writeError(w, http.StatusNotFound, "unknown board %q", id)
		} else {
			writeError(w, http.StatusNotFound, "board %s has no alert %d", id, alert)
		}
		return
	}
	if b, ok := s.lookup(w, r); ok {
		writeJSON(w, http.StatusOK, s.view(b, s.printer(r)))
	}
}
