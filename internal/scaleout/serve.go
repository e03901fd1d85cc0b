package scaleout

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/arbiterd/arbiterd/internal/output/broadcast"
	"github.com/arbiterd/arbiterd/internal/output/lichess"
	"github.com/arbiterd/arbiterd/internal/output/livechess"
	"github.com/arbiterd/arbiterd/internal/output/web"
)

// Handler serves the hall: the dashboard and its JSON API and SSE stream
// at "/" (internal/output/web; claims and decisions go to the board's
// venue), the LiveChess-compatible API at /api/v1.0/, the venues' states
// and the hall's own alerts at /api/hall (JSON) and /hall (a page), an
// acknowledgement of one of those at POST /api/hall/alerts/{id}/ack,
// Prometheus metrics at /metrics, and /healthz. What the dashboard needs
// a login for (ws's Access) the hall's pages and writes need too. ws is
// closed by the caller on shutdown.
func (h *Hall) Handler(ws *web.Server) http.Handler {
	mux := http.NewServeMux()
	lc := livechess.New(h.hub).Handler()
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
	own.HandleFunc("GET /hall", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		hallPage.Execute(w, h.Status())
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

var hallPage = template.Must(template.New("hall").Parse(`<!doctype html>
<html><head><meta charset="utf-8"><meta http-equiv="refresh" content="2"><title>arbiterd hall: venues</title>
<style>body{font-family:sans-serif;margin:1em}td,th{padding:.2em .8em;text-align:left}
.cut-off{background:#fdd}.waiting{background:#eee}.connected{background:#dfd}.alert{color:#a40}.acked{color:#888}
form{display:inline;margin-left:.6em}</style></head>
<body><h1>Venues</h1><p><a href="/">the boards</a></p>
<table><tr><th>venue</th><th>state</th><th>last heard</th><th>events behind</th><th>boards</th></tr>
{{range .Venues}}<tr class="{{.State}}"><td>{{.Name}}</td><td>{{.State}}</td><td>{{if not .LastSeen.IsZero}}{{.LastSeen.UTC.Format "15:04:05"}}{{end}}</td><td>{{if .Behind}}{{.Behind}}{{else}}unknown{{end}}</td><td>{{len .Boards}}</td></tr>
{{end}}</table>
<h2>Alerts</h2>{{range .Alerts}}<p class="alert{{if .Acked}} acked{{end}}" id="alert-{{.ID}}">{{.Time.UTC.Format "15:04:05"}} {{.Kind}}: {{.Text}}{{if not .Acked}}<form method="post" action="/api/hall/alerts/{{.ID}}/ack"><button>Acknowledge</button></form>{{end}}</p>{{else}}<p>none</p>{{end}}
</body></html>`))

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
	ws := web.New(h.hub, web.Options{Arbiter: h, Access: access, Link: h.Link})
	waitHTTP := web.Serve(ctx, ln, h.Handler(ws), func(error) { cancel() }, ws.Close)
	var wg sync.WaitGroup
	meta := broadcast.Meta{Event: c.Event, Site: c.Site, Date: time.Now().UTC().Format("2006.01.02"), DefaultRound: c.Round}
	if c.Broadcast != "off" {
		dir := c.Broadcast
		if dir == "" {
			dir = filepath.Join(c.Data, "broadcast")
		}
		f := broadcast.New(dir, h.hub, broadcast.Options{Meta: meta, OnError: func(err error) { log.Warn("broadcast folder", "err", err) }})
		wg.Go(func() { f.Run(ctx) })
	}
	if l := c.Lichess; l != nil {
		p := lichess.NewPusher(lichess.Options{RoundID: l.RoundID, Round: c.Round, Meta: meta, BaseURL: l.BaseURL, TokenEnv: l.TokenEnv,
			OnPush: func(r lichess.Result) {
				if r.Err != nil {
					log.Warn("lichess push failed", "games", r.Games, "status", r.Status, "err", r.Err)
				}
			}}, h.hub)
		wg.Go(func() { p.Run(ctx) })
	}
	err = h.Run(ctx)
	cancel()
	wg.Wait()
	if srvErr := waitHTTP(); err == nil && srvErr != nil {
		err = fmt.Errorf("hall: http: %w", srvErr)
	}
	return err
}
