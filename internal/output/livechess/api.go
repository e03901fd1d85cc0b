package livechess

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/arbiterd/arbiterd/internal/output/hub"
)

// Prefix is where LiveChess serves its API, and where arbiterd mounts
// Handler.
const Prefix = "/api/v1.0"

// Moves is what a feed's san lists.
type Moves int

const (
	// Completed: the moves completed under FIDE Law 6.2.1 (made and the
	// clock pressed), arbiterd's own meaning, as its other feeds and API
	// have them. The default.
	Completed Moves = iota
	// Made: every move the board shows, completed or not, as DGT LiveChess
	// lists them; a move taken back or replaced leaves san again. Clients
	// that play from the board (lichess's DGT board page) need this.
	Made
)

// DefaultSettle is how long a board must stand before a Made feed lists a
// change of it: longer than a hand dwells on a square while sliding a piece
// over the board, shorter than a move.
const DefaultSettle = time.Second

// Options tune an API.
type Options struct {
	// Moves chooses what san lists; with Made the feed is LiveChess's in
	// every respect: its first message carries no san.
	Moves Moves
	// Origins are the browser origins ("https://lichess.org") whose pages
	// may use the API besides its own; every other page a browser loads is
	// refused (403). Clients that are not browsers send no Origin.
	Origins []string
	// Settle is how long the board must stand still before a Made feed
	// lists a change of it (default DefaultSettle; negative: at once), as
	// LiveChess waits for a board to be still. A press, a completed move or
	// the end of the game lists it at once. The time is the board's own
	// (the events' capture time), so a replay or an emulated game at speed
	// settles as the game did.
	Settle time.Duration
	// Hosts, when not nil, are the only names besides IP addresses and
	// localhost a request may address the API by (its Host header), so a
	// page whose own name was made to point at this machine (DNS
	// rebinding) is refused. nil: any name.
	Hosts []string
}

// API is the LiveChess-compatible API over a hub.
type API struct {
	h *hub.Hub
	o Options

	queue        int           // messages queued per WebSocket client before it is dropped
	writeTimeout time.Duration // longest write to a WebSocket client
	readLimit    int64         // largest request accepted
	hold         time.Duration // longest wait, after a press, for the move it completes
	settle       time.Duration // how long a board must stand before a Made feed lists its moves

	ctx     context.Context // ends every WebSocket session on Close
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	mu      sync.Mutex
	closed  bool
	dropped int // WebSocket clients dropped for not keeping up
}

// Dropped is the number of WebSocket clients dropped for not keeping up.
func (a *API) Dropped() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.dropped
}

// New returns the API over h with arbiterd's meaning of san (completed
// moves) and no browser origin but its own.
func New(h *hub.Hub) *API { return NewWithOptions(h, Options{}) }

// NewWithOptions returns the API over h as o says.
func NewWithOptions(h *hub.Hub, o Options) *API {
	ctx, cancel := context.WithCancel(context.Background())
	o.Origins = normalOrigins(o.Origins)
	if o.Settle == 0 {
		o.Settle = DefaultSettle
	}
	return &API{h: h, o: o, queue: 256, writeTimeout: 5 * time.Second, readLimit: 64 << 10, hold: 100 * time.Millisecond,
		settle: max(0, o.Settle), ctx: ctx, cancel: cancel}
}

// Close ends every WebSocket session (an http.Server's Shutdown does not
// reach hijacked connections) and waits for them. New connections are
// refused afterwards.
func (a *API) Close() error {
	a.mu.Lock()
	a.closed = true
	a.mu.Unlock()
	a.cancel()
	a.wg.Wait()
	return nil
}

// Handler serves the REST call and the WebSocket API. It takes request
// paths with or without the /api/v1.0 prefix, so it works mounted at
// "/api/v1.0/" (and "/api/v1.0", where WebSocket clients connect) or
// behind http.StripPrefix.
func (a *API) Handler() http.Handler {
	return http.HandlerFunc(a.serve)
}

func (a *API) serve(w http.ResponseWriter, r *http.Request) {
	if !a.admit(w, r) {
		return
	}
	p := strings.TrimPrefix(r.URL.Path, Prefix)
	switch p {
	case "", "/":
		if !isUpgrade(r) {
			httpError(w, http.StatusBadRequest, "the LiveChess API at "+Prefix+" is a WebSocket endpoint; GET "+Prefix+"/eboards lists the e-boards")
			return
		}
		a.websocket(w, r)
	case "/eboards", "/eboards/":
		if r.Method == http.MethodOptions {
			preflight(w, r)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD, OPTIONS")
			httpError(w, http.StatusMethodNotAllowed, "eboards: method "+r.Method+" not allowed, use GET")
			return
		}
		writeJSON(w, a.eboards())
	default:
		httpError(w, http.StatusNotFound, "no LiveChess call at "+r.URL.Path+" (arbiterd serves "+Prefix+"/eboards and the WebSocket at "+Prefix+")")
	}
}

func isUpgrade(r *http.Request) bool {
	return strings.EqualFold(r.Header.Get("Upgrade"), "websocket")
}

func (a *API) eboards() []EBoard { return eachBoard(a.h, EBoardOf) }

func (a *API) sources() []Source { return eachBoard(a.h, sourceOf) }

// eachBoard is shape applied to every board of h, in the hub's order.
func eachBoard[T any](h *hub.Hub, shape func(hub.Board) T) []T {
	boards := h.Boards()
	out := make([]T, 0, len(boards))
	for _, b := range boards {
		out = append(out, shape(b))
	}
	return out
}

func writeJSON(w http.ResponseWriter, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(append(b, '\n'))
}

func httpError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	b, _ := json.Marshal(map[string]string{"error": msg})
	w.Write(append(b, '\n'))
}
