package daemon

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/arbiterd/arbiterd/internal/output/livechess"
)

// liveChessRetry is how long the LiveChess listener waits before trying
// its address again when it is taken (by DGT LiveChess itself, say).
const liveChessRetry = 5 * time.Second

// liveChessRunner serves the LiveChess-compatible API on an address of its
// own (config.LiveChess), with LiveChess's meaning of the moves: every move
// the board shows. The dashboard's listener keeps its /api/v1.0 with
// arbiterd's meaning (completed moves). While the address is taken the
// runner says so and tries again; the boards and the dashboard do not
// wait for it.
func (d *Daemon) liveChessRunner() Runner {
	lc := d.cfg.LiveChess
	addr := lc.Addr()
	var hosts []string
	if h, _, err := net.SplitHostPort(addr); err == nil && h != "" && net.ParseIP(h) == nil {
		hosts = []string{h} // the name it listens on is a name it answers to
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
			d.log.Warn("LiveChess listener: address not available; trying again", "addr", addr, "err", err,
				"retry", liveChessRetry)
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(liveChessRetry):
			}
		}
		d.log.Info("LiveChess listener serving", "addr", ln.Addr().String(), "origins", lc.AllowedOrigins())
		api := livechess.NewWithOptions(d.hub, livechess.Options{Moves: livechess.Made, Origins: lc.AllowedOrigins(), Hosts: hosts})
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
	return Runner{Name: "livechess", Run: run}
}
