// Package output builds the outputs of a hub as a configuration asks for
// them: the dashboard and its API, the LiveChess-compatible API, the
// broadcast round folders, the lichess push. `arbiterd serve` and
// `arbiterd hall` both build theirs here, so that the two serve the same
// outputs in the same way and report a feed's failure alike.
package output

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"sync"
	"time"

	"github.com/arbiterd/arbiterd/internal/config"
	"github.com/arbiterd/arbiterd/internal/journal/atomicfile"
	"github.com/arbiterd/arbiterd/internal/output/broadcast"
	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/internal/output/lichess"
	"github.com/arbiterd/arbiterd/internal/output/livechess"
	"github.com/arbiterd/arbiterd/internal/output/web"
)

// DefaultLiveChessRetry is how long the LiveChess listener waits before it
// tries its address again when it is taken (by DGT LiveChess itself, say).
const DefaultLiveChessRetry = 5 * time.Second

// Config is what the outputs take from serve's or the hall's
// configuration file.
type Config struct {
	Event, Site string // the feeds' Event and Site tags
	// Round is the round of boards that have none (the feeds' default),
	// and the round the lichess push sends.
	Round string
	// Data is the data directory; the broadcast folders default to
	// DATA/broadcast.
	Data string
	// Broadcast is the broadcast folders' directory ("": the default,
	// "off": none).
	Broadcast string
	Lichess   *config.Lichess   // the lichess push (nil: none)
	LiveChess *config.LiveChess // the LiveChess listener on an address of its own (nil: none)
}

// Options are how the outputs are built, beyond the configuration.
type Options struct {
	// Web are the dashboard's options: its arbiter, its access, the
	// boards' links.
	Web    web.Options
	Logger *slog.Logger // nil: discard
	// Files and FileRetry are the broadcast folders' file system and the
	// interval at which a file that could not be written is tried again
	// (zero: broadcast's defaults).
	Files     atomicfile.FS
	FileRetry time.Duration
	// LiveChessRetry is how long the LiveChess listener waits before it
	// tries its address again when it is taken (0: DefaultLiveChessRetry).
	LiveChessRetry time.Duration
	// Now gives the feeds' date (nil: time.Now).
	Now func() time.Time
}

// Outputs are one hub's outputs. Web and LiveChess are served by the
// caller on its listener; Feeds run next to it (Run).
type Outputs struct {
	Web *web.Server
	// LiveChess is the LiveChess-compatible API with arbiterd's meaning of
	// the moves (completed moves), for /api/v1.0 on the dashboard's
	// listener.
	LiveChess *livechess.API
	// Feeds are the outputs that run on their own: the broadcast folders,
	// the LiveChess listener, the lichess push, as configured.
	Feeds []Feed
}

// Feed is an output that runs until ctx is done.
type Feed struct {
	Name string
	Run  func(ctx context.Context) error
}

// New builds h's outputs as c asks for them.
func New(h *hub.Hub, c Config, o Options) *Outputs {
	log := cmp.Or(o.Logger, slog.New(slog.DiscardHandler))
	now := o.Now
	if now == nil {
		now = time.Now
	}
	out := &Outputs{Web: web.New(h, o.Web), LiveChess: livechess.New(h)}
	meta := broadcast.Meta{Event: c.Event, Site: c.Site, Date: now().UTC().Format("2006.01.02"), DefaultRound: c.Round}
	if c.Broadcast != "off" {
		dir := cmp.Or(c.Broadcast, filepath.Join(c.Data, "broadcast"))
		f := broadcast.New(dir, h, broadcast.Options{Meta: meta, FS: o.Files, Interval: o.FileRetry,
			OnError: func(err error) {
				log.Warn("broadcast folder", "err", err)
			},
			OnCaughtUp: func(path string) {
				log.Info("broadcast folder: written again", "file", path)
			}})
		out.Feeds = append(out.Feeds, Feed{Name: "broadcast", Run: f.Run})
	}
	if c.LiveChess != nil {
		out.Feeds = append(out.Feeds, liveChessFeed(h, c.LiveChess, cmp.Or(o.LiveChessRetry, DefaultLiveChessRetry), log))
	}
	if l := c.Lichess; l != nil {
		p := lichess.NewPusher(lichess.Options{RoundID: l.RoundID, Round: c.Round, Meta: meta, BaseURL: l.BaseURL,
			TokenEnv: l.TokenEnv, OnPush: func(r lichess.Result) {
				if r.Err != nil {
					log.Warn("lichess push failed", "games", r.Games, "status", r.Status, "err", r.Err, "retry", r.Retry)
				} else {
					log.Debug("lichess push", "games", r.Games, "status", r.Status)
				}
			}}, h)
		out.Feeds = append(out.Feeds, Feed{Name: "lichess", Run: p.Run})
	}
	return out
}

// Close ends the dashboard's event streams and the LiveChess API's
// WebSocket sessions, which an HTTP server's shutdown does not reach.
func (o *Outputs) Close() {
	o.Web.Close()
	o.LiveChess.Close()
}

// Run runs the feeds until ctx is done and they have all returned. A
// feed's error is logged as it happens, naming the feed, and does not stop
// the others: a broadcast folder that cannot be made must not end the
// lichess push. Run returns the errors of the feeds that failed before ctx
// was done, joined (nil: none did).
func Run(ctx context.Context, log *slog.Logger, feeds []Feed) error {
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
	)
	for _, f := range feeds {
		wg.Go(func() {
			err := f.Run(ctx)
			if err == nil || ctx.Err() != nil {
				return
			}
			log.Error("service stopped", "service", f.Name, "err", err)
			mu.Lock()
			errs = append(errs, fmt.Errorf("%s: %w", f.Name, err))
			mu.Unlock()
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// liveChessFeed serves the LiveChess-compatible API on an address of its
// own (config.LiveChess), with LiveChess's meaning of the moves: every
// move the board shows. The dashboard's listener keeps its /api/v1.0 with
// arbiterd's meaning (completed moves). While the address is taken (by DGT
// LiveChess itself, say) the feed says so and tries again every retry; the
// boards and the dashboard do not wait for it.
func liveChessFeed(h *hub.Hub, lc *config.LiveChess, retry time.Duration, log *slog.Logger) Feed {
	addr := lc.Addr()
	var hosts []string
	if host, _, err := net.SplitHostPort(addr); err == nil && host != "" && net.ParseIP(host) == nil {
		hosts = []string{host} // the name it listens on is a name it answers to
	} else {
		hosts = []string{}
	}
	run := func(ctx context.Context) error {
		var ln net.Listener
		for {
			var err error
			if ln, err = (&net.ListenConfig{}).Listen(ctx, "tcp", addr); err == nil {
				break
			}
			if ctx.Err() != nil {
				return nil
			}
			log.Warn("LiveChess listener: address not available; trying again", "addr", addr, "err", err,
				"retry", retry)
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(retry):
			}
		}
		log.Info("LiveChess listener serving", "addr", ln.Addr().String(), "origins", lc.AllowedOrigins())
		api := livechess.NewWithOptions(h, livechess.Options{Moves: livechess.Made, Origins: lc.AllowedOrigins(), Hosts: hosts})
		mux := http.NewServeMux()
		mux.Handle(livechess.Prefix+"/", api.Handler())
		mux.Handle(livechess.Prefix, api.Handler())
		srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second,
			BaseContext: func(net.Listener) context.Context { return ctx }}
		srv.RegisterOnShutdown(func() { api.Close() })
		done := make(chan error, 1)
		go func() { done <- srv.Serve(ln) }()
		select {
		case err := <-done:
			api.Close()
			return err
		case <-ctx.Done():
		}
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
		api.Close()
		if err := <-done; !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
	return Feed{Name: "livechess", Run: run}
}
