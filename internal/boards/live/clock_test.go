package live

import (
	"bytes"
	"context"
	"errors"
	"github.com/arbiterd/arbiterd/internal/testkit/lockedbuf"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/boards/pipeline"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/internal/device/serialport"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// plugClock plugs the emulated USB clock in; a failure fails the test
// (not Fatal: it may run on another goroutine).
func plugClock(t *testing.T, ctx context.Context, c *emulator.USBClock) {
	if err := c.Plug(ctx); err != nil {
		t.Error(err)
	}
}

type game struct {
	capt  *lockedbuf.Buffer
	cw    *capture.Writer
	p     *pipeline.Pipeline
	clock *emulator.USBClock
	emu   *emulator.Emulator
	board string // the board's pty
	start func(withClock bool)
	mu    sync.Mutex
	evs   []reconcile.Event
}

// newGame sets up an emulated board with no clock on one pty and its
// lineclock on another, and a capture declaring both ports.
func newGame(t *testing.T, ctx context.Context, speed float64, tc string, moves []string, end emulator.EndRule) *game {
	ctl, err := clockd.ParseTimeControl(tc)
	if err != nil {
		t.Fatal(err)
	}
	periods, err := emulator.ParseTimeControl(tc)
	if err != nil {
		t.Fatal(err)
	}
	g := &game{capt: &lockedbuf.Buffer{}}
	g.clock = &emulator.USBClock{LC: emulator.NewLineClock(ctl, false), Link: filepath.Join(t.TempDir(), "usb-lineclock"), Speed: speed}
	g.emu, err = emulator.New(emulator.Config{Game: moves, Periods: periods, Speed: speed, Seed: 3, NoClock: true, End: end,
		ThinkTime: func(int) time.Duration { return 4 * time.Second }, Observe: g.clock.LC.Observe, Linger: true})
	if err != nil {
		t.Fatal(err)
	}
	if g.cw, err = capture.NewWriter(g.capt); err != nil {
		t.Fatal(err)
	}
	g.p = pipeline.New(pipeline.Options{})
	emit := func(es []reconcile.Event, err error) error { g.evs = append(g.evs, es...); return err }
	if err := DeclarePorts(g.cw, g.p, []PortDecl{{"board", "dgt"}, {"clock", "lineclock"}},
		map[string]string{"board": "9", "timecontrol": tc}, emit); err != nil {
		t.Fatal(err)
	}
	master, slave, err := emulator.OpenPTY()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { master.Close() })
	g.board = slave
	// The board and the clock start together, when the host is about to
	// open them (run): emulated time counts from the same moment on both,
	// and the board's first move is not made before anyone listens.
	emuDone := make(chan error, 1)
	emuCtx, stopEmu := context.WithCancel(ctx)
	g.start = func(withClock bool) {
		go func() { emuDone <- g.emu.Run(emuCtx, master) }()
		if withClock {
			plugClock(t, ctx, g.clock)
		}
		t.Cleanup(func() {
			stopEmu()
			<-emuDone
			if err := g.clock.Unplug(); err != nil {
				t.Error(err)
			}
		})
	}
	return g
}

func (g *game) events() []reconcile.Event {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]reconcile.Event(nil), g.evs...)
}

func (g *game) run(ctx context.Context, speed float64, stop func([]reconcile.Event) bool) error {
	g.start(true)
	t0 := time.Now()
	return Run(ctx, Config{
		Path: g.board, ClockPath: g.clock.Link, Capture: g.cw, Pipeline: g.p,
		ClockBackoff: serialport.Backoff{Min: 20 * time.Millisecond, Max: 50 * time.Millisecond, Factor: 2},
		Now:          func() time.Duration { return time.Duration(float64(time.Since(t0)) * speed) },
		OnEvent: func(e reconcile.Event) bool {
			g.mu.Lock()
			g.evs = append(g.evs, e)
			evs := g.evs
			g.mu.Unlock()
			return !stop(evs)
		},
	})
}

// finish ends the session and checks the live stream against a replay of
// the capture: the same events, byte for byte.
func (g *game) finish(t *testing.T) []reconcile.Event {
	t.Helper()
	if err := g.p.End(func(e reconcile.Event) error { g.evs = append(g.evs, e); return nil }); err != nil {
		t.Fatal(err)
	}
	if err := g.cw.Sync(); err != nil {
		t.Fatal(err)
	}
	var replay []reconcile.Event
	if _, err := pipeline.Replay(bytes.NewReader(g.capt.Bytes()), pipeline.Options{}, func(e reconcile.Event) error {
		replay = append(replay, e)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	live := jsonl(g.evs)
	if !bytes.Equal(live, jsonl(replay)) {
		t.Fatalf("live events differ from the capture's replay:\nlive:\n%s\nreplay:\n%s", live, jsonl(replay))
	}
	return g.evs
}

func jsonl(evs []reconcile.Event) []byte {
	var b bytes.Buffer
	for _, e := range evs {
		b.Write(reconcile.Marshal(e))
		b.WriteByte('\n')
	}
	return b.Bytes()
}

func ofType(evs []reconcile.Event, typ reconcile.Type) []reconcile.Event {
	var out []reconcile.Event
	for _, e := range evs {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

// clockSpeed is the emulation's speed in the tests of a clock on a port of
// its own. Board and clock bytes come on two ports, stamped when the host
// reads each: a stall of the host's reads of the board beyond the
// reconciler's scan lag (1.5 s of game time) makes a press come before the
// move it completes. At 40 times real speed that was a stall of 37 ms,
// which the race detector on a loaded machine gave (a false
// press-without-move); at 10 it takes 150 ms.
const clockSpeed = 10

// A board with no clock and a separate lineclock, through two real ptys:
// every ply is completed by a press from the lineclock's port, the flag
// that ends the game gets its verdict, and the live stream is the replay
// of the capture both ports were journalled into.
func TestLiveSeparateClock(t *testing.T) {
	const speed = clockSpeed
	moves := strings.Fields("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1")
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	g := newGame(t, ctx, speed, "60+1", moves, emulator.EndFlag)
	err := g.run(ctx, speed, func(evs []reconcile.Event) bool {
		e := evs[len(evs)-1]
		return e.Type == reconcile.TypeFlag && e.Verdict != reconcile.VerdictNone
	})
	if !errors.Is(err, ErrStopped) {
		t.Fatalf("Run: %v, want it stopped at the flag verdict\n%s", err, jsonl(g.events()))
	}
	evs := g.finish(t)
	comp := ofType(evs, reconcile.TypeComplete)
	if len(comp) != len(moves) {
		t.Fatalf("%d moves completed, want %d\n%s", len(comp), len(moves), jsonl(evs))
	}
	for i, e := range comp {
		if e.By != reconcile.ByPress || e.Ply != i+1 || e.Moves.Of(e.Side) != (i+2)/2 {
			t.Errorf("completion %d: %s", i+1, reconcile.Marshal(e))
		}
	}
	flags := ofType(evs, reconcile.TypeFlag)
	if len(flags) != 1 || flags[0].Side != clockd.Black || flags[0].Verdict != reconcile.VerdictLoss {
		t.Errorf("flags:\n%s\nwant Black's, a loss", jsonl(flags))
	}
	for _, e := range ofType(evs, reconcile.TypeAnomaly) {
		t.Errorf("anomaly: %s", reconcile.Marshal(e))
	}
	if !strings.Contains(string(g.capt.Bytes()), "#port clock lineclock") || !strings.Contains(string(g.capt.Bytes()), " clock r ") {
		t.Errorf("the capture has no clock port or no clock data")
	}
}

// The clock's cable comes out mid-game: the clock port is marked
// disconnected and the game raises clock-disconnected; plugged back, the
// clock port is connected again and presses complete moves again. Live
// equals replay throughout.
func TestLiveClockUnplugged(t *testing.T) {
	const speed = clockSpeed
	moves := strings.Fields("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8")
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	g := newGame(t, ctx, speed, "300+2", moves, emulator.EndStop)
	var (
		unplugged, replugged bool
		at                   reconcile.Moves
	)
	err := g.run(ctx, speed, func(evs []reconcile.Event) bool {
		e := evs[len(evs)-1]
		switch {
		case !unplugged && e.Type == reconcile.TypeComplete && e.Ply == 4:
			unplugged = true
			go func() {
				if err := g.clock.Unplug(); err != nil {
					t.Error(err)
				}
			}()
		case unplugged && !replugged && e.Type == reconcile.TypeAnomaly && e.Kind == reconcile.KindClockDisconnected:
			replugged = true
			at = completed(evs)
			go func() {
				time.Sleep(100 * time.Millisecond)
				plugClock(t, ctx, g.clock)
			}()
		}
		return replugged && completed(evs).White+completed(evs).Black >= at.White+at.Black+4
	})
	if !errors.Is(err, ErrStopped) {
		t.Fatalf("Run: %v, want it stopped once moves were completed after the clock came back\n%s", err, jsonl(g.events()))
	}
	evs := g.finish(t)
	var states []string
	for _, e := range ofType(evs, reconcile.TypeSession) {
		if e.Port == "clock" {
			states = append(states, string(e.State))
		}
	}
	if got := strings.Join(states, " "); got != "start start disconnected start end" {
		t.Errorf("clock port sessions %q, want start start disconnected start end", got)
	}
	n := 0
	for _, e := range ofType(evs, reconcile.TypeAnomaly) {
		if e.Kind == reconcile.KindClockDisconnected {
			n++
			if !strings.Contains(e.Detail, `"clock"`) {
				t.Errorf("anomaly does not name the port: %s", reconcile.Marshal(e))
			}
		}
	}
	if n != 1 {
		t.Errorf("%d clock-disconnected anomalies, want 1\n%s", n, jsonl(evs))
	}
}

func completed(evs []reconcile.Event) reconcile.Moves {
	var m reconcile.Moves
	for _, e := range evs {
		if e.Type == reconcile.TypeComplete {
			m = e.Moves
		}
	}
	return m
}

// Without a pipeline of the caller's, Run declares the clock port itself;
// a clock that is not there when Run starts is marked disconnected once
// however often reopening fails, and connected when it appears.
func TestLiveClockAbsentAtStart(t *testing.T) {
	const speed = clockSpeed
	moves := strings.Fields("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6")
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	g := newGame(t, ctx, speed, "300+2", moves, emulator.EndStop)
	g.start(false) // the clock is not plugged in when Run starts
	var cw bytes.Buffer
	w, err := capture.NewWriter(&cw)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var evs []reconcile.Event
	plugged := false
	t0 := time.Now()
	err = Run(ctx, Config{
		Path: g.board, ClockPath: g.clock.Link, Capture: w, Meta: map[string]string{"board": "3", "timecontrol": "300+2"},
		ClockBackoff: serialport.Backoff{Min: 10 * time.Millisecond, Max: 10 * time.Millisecond, Factor: 1},
		Now:          func() time.Duration { return time.Duration(float64(time.Since(t0)) * speed) },
		OnEvent: func(e reconcile.Event) bool {
			mu.Lock()
			defer mu.Unlock()
			evs = append(evs, e)
			if !plugged && e.Type == reconcile.TypeComplete && e.Ply == 2 {
				plugged = true
				go func() {
					time.Sleep(100 * time.Millisecond) // some ten failed reopenings
					plugClock(t, ctx, g.clock)
				}()
			}
			m := completed(evs)
			return !plugged || m.White+m.Black < 6 || !has(evs, clockUp)
		},
	})
	if !errors.Is(err, ErrStopped) {
		t.Fatalf("Run: %v\n%s", err, jsonl(evs))
	}
	if err := w.Sync(); err != nil {
		t.Fatal(err)
	}
	text := cw.String()
	if !strings.Contains(text, "#port board dgt\n#port clock lineclock\n#meta board=3\n") {
		t.Errorf("capture head:\n%.200s\nwant both ports declared before the meta", text)
	}
	if n := strings.Count(text, " clock disconnected"); n != 1 {
		t.Errorf("%d clock disconnected markers, want 1", n)
	}
	var states []string
	for _, e := range ofType(evs, reconcile.TypeSession) {
		if e.Port == "clock" {
			states = append(states, string(e.State))
		}
	}
	if got := strings.Join(states, " "); got != "start disconnected start" {
		t.Errorf("clock sessions %q, want start disconnected start", got)
	}
	// Presses are seen once the clock is there, and complete the moves.
	presses, comps := 0, ofType(evs, reconcile.TypeComplete)
	after := false
	for _, e := range evs {
		after = after || (e.Type == reconcile.TypeSession && e.Port == "clock" && e.State == clockUp && e.At > 0)
		if after && e.Type == reconcile.TypePress {
			presses++
		}
	}
	if presses < 2 {
		t.Errorf("%d presses after the clock came, want at least 2\n%s", presses, jsonl(evs))
	}
	for _, e := range comps[len(comps)-2:] {
		if e.By != reconcile.ByPress {
			t.Errorf("ply %d completed %s after the clock came: %s\n%s", e.Ply, e.By, reconcile.Marshal(e), jsonl(evs))
		}
	}
}

func has(evs []reconcile.Event, clockState reconcile.State) bool {
	for _, e := range evs {
		if e.Type == reconcile.TypeSession && e.Port == "clock" && e.State == clockState {
			return true
		}
	}
	return false
}
