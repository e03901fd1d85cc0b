package live

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/boards/pipeline"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// A claim and its acceptance, made through the Hand from another goroutine
// while a board plays on a pty, are in the capture as arbiter markers, end
// the game drawn, and replay to the very events the live run gave.
func TestHandClaimIsJournaledAndReplays(t *testing.T) {
	periods, err := emulator.ParseTimeControl("40/5400+30:1800+30")
	if err != nil {
		t.Fatal(err)
	}
	const speed = 200
	emu, err := emulator.New(emulator.Config{PGN: emulator.DefaultPGN, Periods: periods, Speed: speed, Seed: 3, Wait: true, Linger: true})
	if err != nil {
		t.Fatal(err)
	}
	master, slave, err := emulator.OpenPTY()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer master.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	emuDone := make(chan error, 1)
	go func() { emuDone <- emu.Run(ctx, master) }()
	defer func() { cancel(); <-emuDone }()

	var buf bytes.Buffer
	var bufMu sync.Mutex
	cw, err := capture.NewWriter(&lockedWriter{w: &buf, mu: &bufMu})
	if err != nil {
		t.Fatal(err)
	}
	p := pipeline.New(pipeline.Options{})
	var evs []reconcile.Event
	emit := func(es []reconcile.Event, err error) error { evs = append(evs, es...); return err }
	if err := Declare(cw, p, "board", map[string]string{"board": "1", "timecontrol": "40/5400+30:1800+30"}, emit); err != nil {
		t.Fatal(err)
	}
	hand := &Hand{}
	if err := hand.Claim(clockd.White, ""); !errors.Is(err, ErrNotRunning) {
		t.Errorf("a claim before the board runs: %v, want ErrNotRunning", err)
	}
	acts := make(chan func(), 4)
	go func() {
		for f := range acts {
			f()
		}
	}()
	defer close(acts)
	var actErr error
	var actMu sync.Mutex
	act := func(f func() error) {
		acts <- func() {
			if err := f(); err != nil {
				actMu.Lock()
				actErr = err
				actMu.Unlock()
			}
		}
	}
	t0 := time.Now()
	completes := 0
	err = Run(ctx, Config{
		Path: slave, Capture: cw, Pipeline: p, Hand: hand,
		Now: func() time.Duration { return time.Duration(float64(time.Since(t0)) * speed) },
		OnEvent: func(e reconcile.Event) bool {
			evs = append(evs, e)
			switch e.Type {
			case reconcile.TypeComplete:
				if completes++; completes == 6 {
					act(func() error { return hand.Claim(clockd.Black, "") })
				}
			case reconcile.TypeClaim:
				seq := e.Seq
				act(func() error { return hand.Decide(seq, reconcile.DecisionAccepted, "") })
			case reconcile.TypeEnd:
				return false
			}
			return true
		},
	})
	if !errors.Is(err, ErrStopped) {
		t.Fatalf("Run: %v, want it stopped at the end of the game", err)
	}
	actMu.Lock()
	if actErr != nil {
		t.Fatalf("the arbiter's act: %v", actErr)
	}
	actMu.Unlock()
	if err := cw.Sync(); err != nil {
		t.Fatal(err)
	}
	bufMu.Lock()
	text := buf.String()
	bufMu.Unlock()
	if !strings.Contains(text, "#arbiter ") || !strings.Contains(text, " claim black") || !strings.Contains(text, " accepted") {
		t.Fatalf("the capture has no arbiter markers:\n%s", text)
	}
	var claims, ends int
	for _, e := range evs {
		switch {
		case e.Type == reconcile.TypeClaim:
			claims++
		case e.Type == reconcile.TypeEnd && e.Result == "1/2-1/2" && e.Reason == "claim":
			ends++
		}
	}
	if claims != 1 || ends != 1 {
		t.Fatalf("%d claims, %d draws by claim", claims, ends)
	}
	var replayed []reconcile.Event
	if _, err := pipeline.Replay(strings.NewReader(text), pipeline.Options{}, func(e reconcile.Event) error {
		replayed = append(replayed, e)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for i, e := range evs {
		if i >= len(replayed) || !bytes.Equal(reconcile.Marshal(e), reconcile.Marshal(replayed[i])) {
			got := "nothing"
			if i < len(replayed) {
				got = string(reconcile.Marshal(replayed[i]))
			}
			t.Fatalf("event %d: live %s, replay %s", i, reconcile.Marshal(e), got)
		}
	}
}

type lockedWriter struct {
	w  *bytes.Buffer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
