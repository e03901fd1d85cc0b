//go:build linux

package decode_test

import (
	"bytes"
	"context"
	"errors"
	"github.com/arbiterd/arbiterd/internal/testkit/lockedbuf"
	"os"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/driver/dgt"
	"github.com/arbiterd/arbiterd/internal/device/serialport"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
	"github.com/arbiterd/arbiterd/internal/journal/decode"
)

// TestLiveBoard talks to a real DGT board when ARBITERD_DGT_PORT names its
// serial port (e.g. /dev/serial/by-id/usb-…): the board must answer the
// start-up with its serial number and a board dump within five seconds,
// and a replay of the capture must give the same messages.
func TestLiveBoard(t *testing.T) {
	path := os.Getenv("ARBITERD_DGT_PORT")
	if path == "" {
		t.Skip("set ARBITERD_DGT_PORT to the serial port of a DGT board to run this test")
	}
	var file lockedbuf.Buffer
	cw, _ := capture.NewWriter(&file)
	cw.Port("board", "dgt")
	start := time.Now()
	now := func() time.Duration { return time.Since(start) }
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	sp, err := serialport.Open(ctx, path, serialport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sp.Close()
	port := &teePort{rw: sp, cw: cw, port: "board", now: now}
	sess := dgt.NewSession(port, dgt.SessionOptions{Now: now})
	runDone := make(chan error, 1)
	go func() { runDone <- sess.Run(ctx) }()
	var live []decode.Message
	var serial, dump bool
	for e := range sess.Events() {
		if e.Msg == nil {
			continue
		}
		live = append(live, decode.Message{At: e.At, Port: "board", Msg: e.Msg})
		switch e.Msg.(type) {
		case dgt.Serial:
			serial = true
		case dgt.BoardDump:
			dump = true
		}
		if serial && dump {
			cancel()
		}
	}
	if err := <-runDone; !errors.Is(err, context.Canceled) {
		t.Fatalf("session: %v", err)
	}
	if !serial || !dump {
		t.Fatalf("the board did not answer the start-up (serial %v, board dump %v); decoder %+v", serial, dump, sess.Stats())
	}
	var replayed []decode.Message
	if _, err := decode.Run(bytes.NewReader(file.Bytes()), decode.Options{}, func(m decode.Message) error {
		m.Line = 0
		replayed = append(replayed, m)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(replayed) < len(live) {
		t.Fatalf("replay gave %d messages, live %d", len(replayed), len(live))
	}
}
