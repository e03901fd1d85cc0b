package web

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
	"time"
)

// Serve serves handler on ln until ctx is done, each request's context
// derived from ctx; then it shuts the server down, giving the requests in
// flight 5 s (then their connections are closed), and calls onShutdown (as http.Server.RegisterOnShutdown:
// the streams and services that hold connections open). If the server
// fails, failed is called with the error at once and must end ctx. The
// returned wait blocks until the server has stopped and returns its
// failure (nil after a shutdown). The daemon and the hall serve this way.
func Serve(ctx context.Context, ln net.Listener, handler http.Handler, failed func(error), onShutdown ...func()) (wait func() error) {
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second,
		BaseContext: func(net.Listener) context.Context { return ctx }}
	for _, f := range onShutdown {
		srv.RegisterOnShutdown(f)
	}
	var wg sync.WaitGroup
	var srvErr error
	wg.Go(func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			srvErr = err
			failed(err)
		}
	})
	wg.Go(func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if srv.Shutdown(sctx) != nil {
			srv.Close() // the requests still running after 5 s are cut
		}
	})
	return func() error {
		wg.Wait()
		return srvErr
	}
}
