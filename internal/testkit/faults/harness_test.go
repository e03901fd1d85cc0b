package faults

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/driver/dgt"
	"github.com/arbiterd/arbiterd/internal/boards/live"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// settle is how long (real time) a run goes on after the players stopped
// the clock: the last press is settled by the board's next answers.
const settle = 2500 * time.Millisecond

// game is the game every trial plays: the Immortal Game (45 plies, ending
// in mate) on a rapid control, at 20× real time so a trial takes about 9 s.
// The session's keep-alive poll (with its board dump) is scaled with the
// game: once per second of game time, as at real speed, so a lost field
// update is put right by the next dump within the scan lag and a board's
// silence is noticed after two seconds of game time, as it would be live.
const (
	speed       = 20.0
	timeControl = "900+10"
	meanThink   = 3 * time.Second
)

// outcome is what the host saw of one run.
type outcome struct {
	Events     []reconcile.Event
	Completed  reconcile.Moves
	Result     string // "end RESULT" or "flag SIDE VERDICT" or "" (none)
	JournalErr []error
	RunErr     error
}

// anomaliesFor returns the events that report trouble for side: anomalies
// naming it (or no side) and disconnections.
func (o outcome) reports(side clockd.Side) []reconcile.Event {
	var out []reconcile.Event
	for _, e := range o.Events {
		switch {
		case e.Type == reconcile.TypeAnomaly && (e.NoSide || e.Side == side):
			out = append(out, e)
		case e.Type == reconcile.TypeSession && e.State == "disconnected":
			out = append(out, e)
		}
	}
	return out
}

func emuConfig(seed int64, script ...emulator.Action) emulator.Config {
	periods, err := emulator.ParseTimeControl(timeControl)
	if err != nil {
		panic(err) // a constant of this file
	}
	return emulator.Config{PGN: emulator.DefaultPGN, Periods: periods, Seed: seed, MeanThink: meanThink, Script: script}
}

// playLive plays cfg through a pty and arbiterd's live path. The capture
// goes to w; onJournalErr (optional) is told of capture failures, and then
// the game must go on in memory.
func playLive(ctx context.Context, cfg emulator.Config, w io.Writer, journalErrOK bool) outcome {
	var o outcome
	cfg.Speed, cfg.Wait, cfg.Linger = speed, true, true
	var stopped <-chan struct{}
	cfg.Observe, stopped = emulator.StopSignal(nil)
	emu, err := emulator.New(cfg)
	if err != nil {
		o.RunErr = err
		return o
	}
	master, slave, err := emulator.OpenPTY()
	if err != nil {
		o.RunErr = err
		return o
	}
	defer master.Close()
	ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	emuDone := make(chan error, 1)
	go func() { emuDone <- emu.Run(ctx, master) }()
	defer func() { cancel(); <-emuDone }()

	cw, err := capture.NewWriter(w)
	if err != nil {
		o.RunErr = err
		return o
	}
	var settled bool
	var mu sync.Mutex
	emulator.AfterStop(ctx, stopped, settle, func() {
		mu.Lock()
		settled = true
		mu.Unlock()
		cancel()
	})
	t0 := time.Now()
	now := func() time.Duration { return time.Duration(float64(time.Since(t0)) * speed) }
	lc := live.Config{
		Path: slave, Capture: cw, Now: now,
		Session: dgt.SessionOptions{PollInterval: time.Duration(float64(time.Second) / speed)},
		Meta:    map[string]string{"board": "1", "timecontrol": timeControl, "clock-white": "left"},
		OnEvent: func(e reconcile.Event) bool {
			o.Events = append(o.Events, e)
			switch e.Type {
			case reconcile.TypeComplete:
				o.Completed = e.Moves
			case reconcile.TypeEnd:
				o.Result = "end " + e.Result
				return false
			case reconcile.TypeFlag:
				if e.Verdict != reconcile.VerdictNone {
					o.Result = fmt.Sprintf("flag %s %s", e.Side, e.Verdict)
					return false
				}
			}
			return true
		},
	}
	if journalErrOK {
		lc.OnJournalError = func(err error) { o.JournalErr = append(o.JournalErr, err) }
	}
	err = live.Run(ctx, lc)
	mu.Lock()
	done := settled
	mu.Unlock()
	if err != nil && !errors.Is(err, live.ErrStopped) && !(errors.Is(err, context.Canceled) && done) {
		o.RunErr = err
	}
	return o
}

// baseline plays the game undisturbed once per test binary.
var baselineOnce struct {
	sync.Once
	o outcome
}

func baseline(t *testing.T) outcome {
	t.Helper()
	baselineOnce.Do(func() { baselineOnce.o = playLive(context.Background(), emuConfig(1), io.Discard, false) })
	o := baselineOnce.o
	if o.RunErr != nil {
		t.Fatalf("undisturbed run: %v", o.RunErr)
	}
	return o
}
