package scaleout

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/text/language"

	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/arbiterd/arbiterd/internal/output"
	"github.com/arbiterd/arbiterd/internal/output/web"
)

// Handler serves the hall: the dashboard and its JSON API and SSE stream
// at "/" (internal/output/web; claims and decisions go to the board's
// venue), the LiveChess-compatible API at /api/v1.0/, the venues' states
// and the hall's own alerts at /api/hall (JSON) and /hall (a page), an
// acknowledgement of one of those at POST /api/hall/alerts/{id}/ack,
// Prometheus metrics at /metrics, and /healthz. What the dashboard needs
// a login for (the dashboard's Access) the hall's pages and writes need
// too. out is closed by the caller on shutdown.
func (h *Hall) Handler(out *output.Outputs) http.Handler {
	mux := http.NewServeMux()
	ws := out.Web
	lc := out.LiveChess.Handler()
	wh := ws.Handler()
	mux.Handle("/", wh)
	// An acknowledgement on the dashboard is kept and handed to the venue.
	mux.HandleFunc("POST /api/boards/{id}/alerts/{alert}/ack", func(w http.ResponseWriter, r *http.Request) {
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		wh.ServeHTTP(sw, r)
		if sw.status == http.StatusOK {
			h.noteBoardAcks(r.PathValue("id"))
		}
	})
	mux.Handle("/api/v1.0/", lc)
	mux.Handle("/api/v1.0", lc)
	own := http.NewServeMux()
	own.HandleFunc("GET /api/hall", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		json.NewEncoder(w).Encode(h.Status())
	})
	own.HandleFunc("GET /hall", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Vary", "Accept-Language, Cookie")
		writeHallPage(w, ws.Printer(r), h.Status()) // in the dashboard's language for r
	})
	csrf := http.NewCrossOriginProtection()
	own.Handle("POST /api/hall/alerts/{id}/ack", csrf.Handler(http.HandlerFunc(h.serveAck)))
	guarded := ws.Guard(own)
	mux.Handle("/hall", guarded)
	mux.Handle("/api/hall", guarded)
	mux.Handle("/api/hall/", guarded)
	mux.Handle("GET /metrics", h.MetricsHandler())
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintln(w, "ok")
	})
	return mux
}

// statusWriter notes the status of a response.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(status int) {
	w.status = status
	w.ResponseWriter.WriteHeader(status)
}

// serveAck acknowledges one of the hall's own alerts: from the /hall page
// (a form: back to the page) or from a client (JSON: the hall's status).
func (h *Hall) serveAck(w http.ResponseWriter, r *http.Request) {
	raw := r.PathValue("id")
	id, err := strconv.Atoi(raw)
	fail := func(status int, format string, a ...any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(map[string]string{"error": fmt.Sprintf(format, a...)})
	}
	if err != nil || id <= 0 || strconv.Itoa(id) != raw {
		fail(http.StatusBadRequest, "bad alert id %q: want a positive integer", raw)
		return
	}
	form := strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded")
	if !form {
		// No body is needed; one that is there must be the empty object.
		b, err := io.ReadAll(io.LimitReader(r.Body, 4097))
		if b = bytes.TrimSpace(b); err != nil || len(b) > 0 && string(b) != "{}" {
			fail(http.StatusBadRequest, "request body: an acknowledgement takes none (or {})")
			return
		}
	}
	if err := h.AckAlert(id); err != nil {
		fail(http.StatusNotFound, "%v", err)
		return
	}
	if form {
		http.Redirect(w, r, "/hall", http.StatusSeeOther)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(h.Status())
}

// RunHall runs `arbiterd hall` with the configuration c until ctx is done:
// the hall, its HTTP server and the feeds.
func RunHall(ctx context.Context, c *HallConfig, log *slog.Logger, ln net.Listener) error {
	o, err := HallOptionsFrom(c)
	if err != nil {
		return err
	}
	o.Logger = log
	h, err := OpenHall(o)
	if err != nil {
		return err
	}
	defer h.Close()
	access, err := webAccess(c.Access)
	if err != nil {
		return err
	}
	if ln == nil {
		if ln, err = net.Listen("tcp", c.Listen); err != nil {
			return fmt.Errorf("hall: listen: %w", err)
		}
	}
	if ln, err = secure(c.Access, ln); err != nil {
		return err
	}
	log.Info("hall serving", "addr", ln.Addr().String(), "venues", len(c.Venues), "data", c.Data)
	if warn := accessWarning(c.Access, ln.Addr()); warn != "" {
		log.Warn(warn)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := h.Outputs(c, access)
	waitHTTP := web.Serve(ctx, ln, h.Handler(out), func(error) { cancel() }, out.Close)
	var feeds sync.WaitGroup
	feeds.Go(func() { output.Run(ctx, log, out.Feeds) }) // errors logged there
	err = h.Run(ctx)
	cancel()
	feeds.Wait()
	if srvErr := waitHTTP(); err == nil && srvErr != nil {
		err = fmt.Errorf("hall: http: %w", srvErr)
	}
	return err
}

// Outputs are the hall's outputs over its hub, as c asks for them: the
// dashboard with the hall as its arbiter and the boards' links to their
// venues, the LiveChess-compatible API, the broadcast folders and the
// lichess push, built as serve builds a venue's (internal/output).
func (h *Hall) Outputs(c *HallConfig, access *web.Access) *output.Outputs {
	lang := language.Und // each browser's, unless lang: fixes it (checked by Validate)
	if c.Lang != "" {
		lang, _ = i18n.Parse("lang:", c.Lang)
	}
	return output.New(h.hub, output.Config{Event: c.Event, Site: c.Site, Round: c.Round, Data: c.Data,
		Broadcast: c.Broadcast, Lichess: c.Lichess},
		output.Options{Web: web.Options{Arbiter: h, Access: access, Link: h.Link, Lang: lang}, Logger: h.log})
}
