package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/arbiterd/arbiterd/internal/buildinfo"
	"github.com/arbiterd/arbiterd/internal/config"
	"github.com/arbiterd/arbiterd/internal/device/serialport"
	"github.com/arbiterd/arbiterd/internal/journal/atomicfile"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
	"github.com/arbiterd/arbiterd/internal/output"
	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/internal/output/web"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// Mount is an HTTP handler the daemon serves under a pattern of its mux
// (the dashboard at "/", the LiveChess-compatible API at "/api/v1.0/").
type Mount struct {
	Pattern string
	Handler http.Handler
	// OnShutdown, when set, is called as the HTTP server shuts down (to
	// end long-lived responses such as event streams).
	OnShutdown func()
}

// Runner is a service that runs next to the boards until ctx is done
// (the broadcast folder writer, the lichess pusher).
type Runner = output.Feed

// Options configure a Daemon.
type Options struct {
	Config *config.Config // validated (config.Load / Validate)
	Logger *slog.Logger   // nil: discard
	// Hub is the live view the boards publish into (nil: a new one).
	Hub *hub.Hub
	// Listener, when set, is used instead of listening on Config.Listen.
	Listener net.Listener
	// Mounts are served on the daemon's listener next to /metrics and
	// /healthz (nil: the dashboard and the LiveChess API).
	// Without a mount at "/", "/" lists the boards as JSON.
	Mounts []Mount
	// Runners run next to the boards; an error from one is logged, and
	// does not stop the boards (nil: the feeds the configuration asks
	// for).
	Runners []Runner
	// Speed is the emulated time per real second, for emulated boards
	// that play faster than real time: capture times are scaled by it so
	// the capture reads like the game the emulator plays (0: 1).
	Speed float64
	// Backoff is the schedule for reopening a board's port (zero: the
	// serialport default).
	Backoff serialport.Backoff
	// SyncInterval is how often a quiet capture is synced (0: a second,
	// the capture spec's promise).
	SyncInterval time.Duration
	// Oracle answers the 6.9 question (nil: the pipeline's default).
	Oracle reconcile.MateOracle
	// OpenCapture opens a board's capture: a new one (resume false, the
	// file does not exist yet) or one to continue after a restart (default:
	// capture.Create and capture.Append). Tests put a failing disk under
	// the journal through it.
	OpenCapture func(path string, resume bool) (*capture.Writer, error)
	// Now is the wall clock (nil: time.Now). A new game's capture records
	// the time it starts (capture meta started), from which its PGN Date
	// comes.
	Now func() time.Time
	// Build is the arbiterd build a new capture records as its provenance
	// (zero: this binary's, buildinfo.Read).
	Build buildinfo.Info
	// Files is the file system the events files and PGNs are written
	// through (nil: atomicfile.OS); tests hold files open through it as
	// another program does on Windows (atomicfile.Holder).
	Files atomicfile.FS
	// FileRetry is how often an events file or PGN that could not be
	// written is tried again (0: a second).
	FileRetry time.Duration
	// FixedRound, when set, says why the round cannot change while the
	// daemon runs (a venue publishes its round to a hall): NextRound
	// refuses with it.
	FixedRound string
	// OnEvent, when set, sees every event published, after the journal
	// and the hub (for tests and tools) — a recovered game's replayed
	// events first, from New.
	OnEvent func(board string, e reconcile.Event)
}

// Daemon serves the boards of one round.
type Daemon struct {
	o      Options
	cfg    *config.Config
	log    *slog.Logger
	hub    *hub.Hub
	m      *metrics
	boards []*board
	dir    string // DATA/round-R

	ln net.Listener // opened by New, served by Run

	// mu guards addr, and boards, cfg and dir, which a new round replaces
	// (switchRound, from Run's goroutine) while the API reads them.
	mu   sync.Mutex
	addr net.Addr

	roundMu  sync.Mutex       // one round change at a time (NextRound)
	switches chan roundSwitch // NextRound's requests to runBoards
	stopped  chan struct{}    // closed when Run stops taking them
}

// New prepares the daemon: it opens the HTTP listener (a port already
// taken is an error before any file is written), logs each board's time
// control in words, creates the round's directory, replays
// every existing capture of the round (recovering unfinished games) and
// creates the captures of new games. A capture that cannot be read back
// is an error naming the file and line: it must be looked at, not
// overwritten.
func New(o Options) (*Daemon, error) {
	if o.Config == nil {
		return nil, errors.New("daemon: no configuration")
	}
	if err := o.Config.Validate(); err != nil {
		return nil, fmt.Errorf("daemon: %w", err)
	}
	o.setDefaults()
	d := &Daemon{o: o, cfg: o.Config, log: o.Logger, hub: o.Hub, m: newMetrics(),
		switches: make(chan roundSwitch), stopped: make(chan struct{})}
	d.dir = filepath.Join(d.cfg.Data, "round-"+d.cfg.Round)
	// The HTTP port first: taken, the daemon stops before any capture
	// file is made.
	if err := d.listen(); err != nil {
		return nil, err
	}
	d.announce()
	if err := os.MkdirAll(d.dir, 0o755); err != nil {
		d.closeListener()
		return nil, fmt.Errorf("daemon: data directory: %w", err)
	}
	for _, bc := range d.cfg.Boards {
		b, err := d.openBoard(bc)
		if err != nil {
			for _, ob := range d.boards {
				ob.close()
			}
			d.closeListener()
			return nil, err
		}
		d.boards = append(d.boards, b)
	}
	d.m.boards.Set(float64(len(d.boards)))
	d.defaultServices()
	return d, nil
}

// setDefaults fills in the options left zero (Mounts and Runners aside:
// they need the daemon).
func (o *Options) setDefaults() {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Hub == nil {
		o.Hub = hub.New(hub.Options{})
	}
	if o.Speed <= 0 {
		o.Speed = 1
	}
	if o.Backoff == (serialport.Backoff{}) {
		o.Backoff = serialport.DefaultBackoff()
	}
	if o.OpenCapture == nil {
		o.OpenCapture = func(path string, resume bool) (*capture.Writer, error) {
			if resume {
				return capture.Append(path)
			}
			return capture.Create(path)
		}
	}
	if o.SyncInterval <= 0 {
		o.SyncInterval = time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Files == nil {
		o.Files = atomicfile.OS
	}
	if o.FileRetry <= 0 {
		o.FileRetry = time.Second
	}
	if o.Build == (buildinfo.Info{}) {
		o.Build = buildinfo.Read()
	}
}

// closeListener closes a listener New opened (one given in Options is the
// caller's).
func (d *Daemon) closeListener() {
	if d.ln != nil && d.o.Listener == nil {
		d.ln.Close()
	}
	d.ln = nil
}

// Hub returns the daemon's live view of the boards.
func (d *Daemon) Hub() *hub.Hub { return d.hub }

// Dir returns the round's journal directory.
func (d *Daemon) Dir() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.dir
}

// Round returns the round the boards play.
func (d *Daemon) Round() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.cfg.Round
}

// current returns the round's boards.
func (d *Daemon) current() []*board {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.boards
}

// Addr returns the address the HTTP server listens on (nil before Run
// has started listening).
func (d *Daemon) Addr() net.Addr {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.addr
}

// Mount adds HTTP services beside the daemon's mounts; call it before Run
// (a venue's page of its link to the hall).
func (d *Daemon) Mount(ms ...Mount) { d.o.Mounts = append(d.o.Mounts, ms...) }

// Handler is the daemon's HTTP mux: /metrics, /healthz and the mounts.
func (d *Daemon) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(d.m.reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintln(w, "ok")
	})
	root := false
	for _, m := range d.o.Mounts {
		mux.Handle(m.Pattern, m.Handler)
		root = root || m.Pattern == "/"
	}
	if !root {
		mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{"event": d.cfg.Event, "round": d.cfg.Round, "boards": d.hub.Boards()})
		})
	}
	return mux
}

// runBoards runs every board of the round under its own supervisor until
// ctx is done, and goes over to a new round when NextRound asks: the
// boards are stopped (each capture synced and closed), the new round's
// opened, and run.
func (d *Daemon) runBoards(ctx context.Context) {
	defer close(d.stopped)
	for {
		rctx, stop := context.WithCancel(ctx)
		var wg sync.WaitGroup
		for _, b := range d.current() {
			wg.Go(func() { b.run(rctx) })
		}
		var req roundSwitch
		select {
		case <-ctx.Done():
		case req = <-d.switches:
		}
		stop()
		wg.Wait()
		if req.done == nil {
			return
		}
		req.done <- d.switchRound(req.cfg)
	}
}

// Run serves until ctx is done: every board under its own supervisor,
// the HTTP server, the runners. On the way out every capture is synced
// and closed. It returns an error only if the HTTP server cannot serve.
func (d *Daemon) Run(ctx context.Context) error {
	ln := d.ln
	if ln == nil {
		for _, b := range d.boards {
			b.close()
		}
		return errors.New("daemon: Run called twice")
	}
	d.ln = nil
	d.mu.Lock()
	d.addr = ln.Addr()
	d.mu.Unlock()
	d.log.Info("serving", "addr", ln.Addr().String(), "boards", len(d.boards), "journal", d.dir)

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var onShutdown []func()
	for _, m := range d.o.Mounts {
		if m.OnShutdown != nil {
			onShutdown = append(onShutdown, m.OnShutdown)
		}
	}
	waitHTTP := web.Serve(ctx, ln, d.Handler(), func(err error) {
		d.log.Error("http server failed", "err", err)
		cancel()
	}, onShutdown...)
	// The view files are kept until every board has stopped, then
	// written a last time: a file another program held catches up when
	// it is let go, even after its game is over.
	keepCtx, stopKeeping := context.WithCancel(context.Background())
	var keeper sync.WaitGroup
	keeper.Go(func() { d.keepFiles(keepCtx) })
	var wg sync.WaitGroup
	wg.Go(func() { output.Run(ctx, d.log, d.o.Runners) }) // errors logged there
	d.runBoards(ctx)
	wg.Wait()
	stopKeeping()
	keeper.Wait()
	d.closeFiles()
	err := waitHTTP()
	d.log.Info("stopped; every capture synced and closed")
	if err != nil {
		return fmt.Errorf("daemon: http: %w", err)
	}
	return nil
}
