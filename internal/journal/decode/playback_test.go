package decode_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"testing/synctest"
	"time"

	"github.com/arbiterd/arbiterd/driver/dgt"
	dt "github.com/arbiterd/arbiterd/driver/drivertest"
	"github.com/arbiterd/arbiterd/internal/journal/decode"
)

// TestSessionPlaysBackCapture: a recorded capture drives a live
// dgt.Session through drivertest.Playback. The session must make exactly
// the recorded writes and decode what replay decodes.
func TestSessionPlaysBackCapture(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "game.capture"))
	if err != nil {
		t.Fatal(err)
	}
	steps, err := dt.StepsFromCapture(bytes.NewReader(raw), "board")
	if err != nil {
		t.Fatal(err)
	}
	var want []dgt.Message
	if _, err := decode.Run(bytes.NewReader(raw), decode.Options{}, func(m decode.Message) error {
		d, ok := m.Msg.(dgt.Message)
		if !ok {
			return fmt.Errorf("port %s: %T is not a DGT message", m.Port, m.Msg)
		}
		want = append(want, d)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	synctest.Test(t, func(t *testing.T) {
		pb := &dt.Playback{Steps: steps, Fail: t.Errorf, ReadChunk: 3}
		s := dgt.NewSession(pb, dgt.SessionOptions{PollInterval: time.Hour})
		ctx, cancel := context.WithCancel(context.Background())
		context.AfterFunc(ctx, func() { pb.Close() })
		done := make(chan error, 1)
		go func() { done <- s.Run(ctx) }()
		var got []dgt.Message
		collected := make(chan struct{})
		go func() {
			defer close(collected)
			for e := range s.Events() {
				if e.Msg != nil {
					got = append(got, e.Msg)
				}
			}
		}()
		synctest.Wait()
		if !pb.Done() {
			t.Error("the session did not make all the recorded writes")
		}
		cancel()
		<-done
		<-collected
		if !reflect.DeepEqual(got, want) {
			t.Errorf("session decoded %v\nreplay decoded %v", got, want)
		}
	})
}
