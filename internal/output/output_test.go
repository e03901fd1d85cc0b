package output

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/config"
	"github.com/arbiterd/arbiterd/internal/output/hub"
)

// A feed that fails is logged by name and returned; the others run on
// until the context is done.
func TestRunReportsAndGoesOn(t *testing.T) {
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	broken := errors.New("no directory")
	ctx, cancel := context.WithCancel(context.Background())
	failed := make(chan struct{})
	stopped := make(chan struct{})
	feeds := []Feed{
		{Name: "broadcast", Run: func(context.Context) error { defer close(failed); return broken }},
		{Name: "lichess", Run: func(ctx context.Context) error {
			<-failed
			select {
			case <-ctx.Done():
				t.Error("the lichess feed was stopped by the broadcast feed's failure")
			case <-time.After(50 * time.Millisecond):
			}
			close(stopped)
			<-ctx.Done()
			return ctx.Err() // an error after the context is done is not a failure
		}},
	}
	done := make(chan error, 1)
	go func() { done <- Run(ctx, log, feeds) }()
	<-stopped
	cancel()
	err := <-done
	if !errors.Is(err, broken) || !strings.HasPrefix(err.Error(), "broadcast: ") || strings.Contains(err.Error(), "lichess") {
		t.Errorf("Run: %v, want the broadcast feed's error alone", err)
	}
	if !strings.Contains(logs.String(), `level=ERROR msg="service stopped" service=broadcast err="no directory"`) {
		t.Errorf("log:\n%s", logs.String())
	}
}

// The feeds are those the configuration asks for, in a fixed order.
func TestNewFeeds(t *testing.T) {
	h := hub.New(hub.Options{})
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Broadcast: "off"}, ""},
		{Config{Data: t.TempDir()}, "broadcast"},
		{Config{Broadcast: "off", Lichess: &config.Lichess{RoundID: "r1"}, LiveChess: &config.LiveChess{}}, "livechess lichess"},
		{Config{Broadcast: t.TempDir(), Lichess: &config.Lichess{RoundID: "r1"}, LiveChess: &config.LiveChess{}}, "broadcast livechess lichess"},
	} {
		out := New(h, c.cfg, Options{})
		var names []string
		for _, f := range out.Feeds {
			names = append(names, f.Name)
		}
		if got := strings.Join(names, " "); got != c.want {
			t.Errorf("%+v: feeds %q, want %q", c.cfg, got, c.want)
		}
		if out.Web == nil || out.LiveChess == nil {
			t.Errorf("%+v: no dashboard or LiveChess API", c.cfg)
		}
		out.Close()
	}
}
