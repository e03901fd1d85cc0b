package web

import (
	"context"
	"io"
	"net"
	"net/http"
	"testing"
)

func TestServe(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	shut := make(chan struct{})
	wait := Serve(ctx, ln, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") }),
		func(err error) { t.Errorf("failed: %v", err) }, func() { close(shut) })
	resp, err := http.Get("http://" + ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "ok" {
		t.Errorf("body %q", body)
	}
	cancel()
	if err := wait(); err != nil {
		t.Errorf("after the shutdown: %v", err)
	}
	<-shut // onShutdown is called (in a goroutine of its own, as http.Server does)

	// A server that cannot serve (its listener closed) reports it at once.
	ln, err = net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	ctx, cancel = context.WithCancel(context.Background())
	var failed error
	wait = Serve(ctx, ln, http.NotFoundHandler(), func(err error) { failed = err; cancel() })
	if err := wait(); err == nil || err != failed {
		t.Errorf("wait: %v, failed with %v", err, failed)
	}
}
