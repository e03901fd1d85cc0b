package scaleout

import (
	"context"
	"encoding/json"
	"fmt"
	"html/template"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"sync"
	"time"

	"github.com/arbiterd/arbiterd/internal/output/broadcast"
	"github.com/arbiterd/arbiterd/internal/output/lichess"
	"github.com/arbiterd/arbiterd/internal/output/livechess"
	"github.com/arbiterd/arbiterd/internal/output/web"
)

// Handler serves the hall: the dashboard and its JSON API and SSE stream
// at "/" (internal/output/web), the LiveChess-compatible API at /api/v1.0/, the
// venues' states and the hall's own alerts at /api/hall (JSON) and /hall
// (a page), and /healthz. ws is closed by the caller on shutdown.
func (h *Hall) Handler(ws *web.Server) http.Handler {
	mux := http.NewServeMux()
	lc := livechess.New(h.hub).Handler()
	mux.Handle("/", ws.Handler())
	mux.Handle("/api/v1.0/", lc)
	mux.Handle("/api/v1.0", lc)
	mux.HandleFunc("GET /api/hall", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(h.Status())
	})
	mux.HandleFunc("GET /hall", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		hallPage.Execute(w, h.Status())
	})
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintln(w, "ok")
	})
	return mux
}

var hallPage = template.Must(template.New("hall").Parse(`<!doctype html>
<html><head><meta charset="utf-8"><meta http-equiv="refresh" content="2"><title>arbiterd hall: venues</title>
<style>body{font-family:sans-serif;margin:1em}td,th{padding:.2em .8em;text-align:left}
.cut-off{background:#fdd}.waiting{background:#eee}.connected{background:#dfd}.alert{color:#a40}</style></head>
<body><h1>Venues</h1><p><a href="/">the boards</a></p>
<table><tr><th>venue</th><th>state</th><th>last heard</th><th>events behind</th><th>boards</th></tr>
{{range .Venues}}<tr class="{{.State}}"><td>{{.Name}}</td><td>{{.State}}</td><td>{{if not .LastSeen.IsZero}}{{.LastSeen.UTC.Format "15:04:05"}}{{end}}</td><td>{{.Behind}}</td><td>{{len .Boards}}</td></tr>
{{end}}</table>
<h2>Alerts</h2>{{range .Alerts}}<p class="alert">{{.Time.UTC.Format "15:04:05"}} {{.Kind}}: {{.Text}}</p>{{else}}<p>none</p>{{end}}
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
	if ln == nil {
		if ln, err = net.Listen("tcp", c.Listen); err != nil {
			return fmt.Errorf("hall: listen: %w", err)
		}
	}
	log.Info("hall serving", "addr", ln.Addr().String(), "venues", len(c.Venues), "data", c.Data)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ws := web.New(h.hub, web.Options{})
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
