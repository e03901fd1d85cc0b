package serve

import (
	"bufio"
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/boards/pipeline"
	"github.com/arbiterd/arbiterd/internal/config"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/internal/device/serialport"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
	"github.com/arbiterd/arbiterd/rules"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// The emulated games run this many times faster than real time, and the
// daemon's capture clock with them.
const testSpeed = 1000

const testTC = "40/5400+30:1800+30"

// immortal returns the Immortal Game's moves in SAN.
func immortal(t *testing.T) []string {
	t.Helper()
	text := emulator.DefaultPGN
	text = regexp.MustCompile(`(?m)^\[.*\]$`).ReplaceAllString(text, "")
	var sans []string
	for _, f := range strings.Fields(text) {
		if strings.HasSuffix(f, ".") || f == "1-0" {
			continue
		}
		if i := strings.Index(f, "."); i >= 0 {
			f = f[i+1:]
		}
		sans = append(sans, f)
	}
	if len(sans) != 45 {
		t.Fatalf("immortal game: %d plies", len(sans))
	}
	return sans
}

// fenAfter plays the first n plies of sans.
func fenAfter(t *testing.T, sans []string, n int) string {
	t.Helper()
	g, err := rules.NewGame("")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sans[:n] {
		if err := g.MoveSAN(s); err != nil {
			t.Fatal(err)
		}
	}
	return g.FEN()
}

// emu is an emulated board on its own pty.
type emu struct {
	path   string // the pty's slave
	master *os.File
	cancel context.CancelFunc
	done   chan error
}

// newTestEmu makes an emulator playing cfg under the tests' control, at
// testSpeed unless cfg sets a speed, waiting for the host and lingering
// after the game.
func newTestEmu(t *testing.T, cfg emulator.Config) *emulator.Emulator {
	t.Helper()
	periods, err := emulator.ParseTimeControl(testTC)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Speed == 0 {
		cfg.Speed = testSpeed
	}
	cfg.Periods, cfg.Wait, cfg.Linger = periods, true, true
	e, err := emulator.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// startEmu starts an emulator playing cfg (at testSpeed unless cfg sets a speed) on a new pty.
func startEmu(t *testing.T, cfg emulator.Config) *emu {
	t.Helper()
	e := newTestEmu(t, cfg)
	master, slave, err := emulator.OpenPTY()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	em := &emu{path: slave, master: master, cancel: cancel, done: make(chan error, 1)}
	go func() { em.done <- e.Run(ctx, master) }()
	t.Cleanup(em.stop)
	return em
}

// stop unplugs the board: the emulator stops and the pty goes away.
func (e *emu) stop() {
	if e.cancel == nil {
		return
	}
	e.cancel()
	<-e.done
	e.master.Close()
	e.cancel = nil
}

// link points a /dev/serial/by-id-style symlink at target (atomically).
func link(t *testing.T, name, target string) {
	t.Helper()
	if err := emulator.ReplaceLink(name, target); err != nil {
		t.Fatal(err)
	}
}

// testConfig is a round of boards on the given ports.
func testConfig(data string, ports ...string) *config.Config {
	c := &config.Config{Data: data, Listen: "127.0.0.1:0", Event: "arbiterd test", Round: "1"}
	players := [][2]string{{"Anderssen, Adolf", "Kieseritzky, Lionel"}, {"Morphy, Paul", "Duke Karl"}}
	for i, p := range ports {
		c.Boards = append(c.Boards, config.Board{Number: i + 1, Port: p, White: players[i%2][0], Black: players[i%2][1],
			TimeControl: testTC})
	}
	return c
}

// watcher collects every board's events as the daemon publishes them.
type watcher struct {
	mu     sync.Mutex
	events map[string][]reconcile.Event
	signal chan struct{}
}

func newWatcher() *watcher {
	return &watcher{events: map[string][]reconcile.Event{}, signal: make(chan struct{}, 1)}
}

func (w *watcher) onEvent(board string, e reconcile.Event) {
	w.mu.Lock()
	w.events[board] = append(w.events[board], e)
	w.mu.Unlock()
	select {
	case w.signal <- struct{}{}:
	default:
	}
}

func (w *watcher) stream(board string) []reconcile.Event {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]reconcile.Event(nil), w.events[board]...)
}

// waitFor waits until cond holds for what the watcher has seen.
func (w *watcher) waitFor(t *testing.T, what string, timeout time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.After(timeout)
	for !cond() {
		select {
		case <-w.signal:
		case <-time.After(100 * time.Millisecond):
		case <-deadline:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func has(evs []reconcile.Event, pred func(reconcile.Event) bool) bool {
	for _, e := range evs {
		if pred(e) {
			return true
		}
	}
	return false
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

// runDaemon starts a daemon on c; stop cancels it and waits.
func runDaemon(t *testing.T, c *config.Config, w *watcher) (d *Daemon, stop func()) {
	t.Helper()
	return runDaemonAt(t, c, w, testSpeed)
}

// runDaemonAt is runDaemon for emulators playing at speed.
func runDaemonAt(t *testing.T, c *config.Config, w *watcher, speed float64) (d *Daemon, stop func()) {
	t.Helper()
	d, stop, _ = runDaemonWith(t, Options{Config: c, Speed: speed}, w)
	return d, stop
}

// runDaemonWith is runDaemon with options of the test's (the logger, the
// events and the back-off are the helper's); logs gives the log so far.
func runDaemonWith(t *testing.T, o Options, w *watcher) (d *Daemon, stop func(), logs func() string) {
	t.Helper()
	var buf bytes.Buffer
	var lmu sync.Mutex
	o.OnEvent = w.onEvent
	o.Logger = slog.New(slog.NewTextHandler(lockedWriter{&lmu, &buf}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	o.Backoff = serialport.Backoff{Min: 20 * time.Millisecond, Max: 200 * time.Millisecond, Factor: 2}
	logs = func() string {
		lmu.Lock()
		defer lmu.Unlock()
		return buf.String()
	}
	d, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		if err := <-done; err != nil {
			t.Errorf("daemon: %v", err)
		}
		if t.Failed() {
			t.Logf("daemon log:\n%s", logs())
		}
	}
	t.Cleanup(stop)
	return d, stop, logs
}

type lockedWriter struct {
	mu *sync.Mutex
	b  *bytes.Buffer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// replayed is the event stream a replay of the board's capture gives, as
// JSON lines.
func replayed(t *testing.T, dir, id string) []string { return replayedTo(t, dir, id, true) }

// replayedTo replays board id's capture; ended: to its end, as `arbiterd
// replay` does (every port closed, what is pending decided), or only as
// far as the capture goes, as the daemon's recovery does (a game the
// daemon was stopped in the middle of goes on).
func replayedTo(t *testing.T, dir, id string, ended bool) []string {
	t.Helper()
	f, err := os.Open(capturePath(dir, id))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	fn := func(e reconcile.Event) error {
		lines = append(lines, string(reconcile.Marshal(e)))
		return nil
	}
	p := pipeline.New(pipeline.Options{})
	err = p.Feed(capture.NewReader(f), fn)
	if err == nil && ended {
		err = p.End(fn)
	}
	if err != nil {
		t.Fatalf("replay of board %s: %v", id, err)
	}
	return lines
}

// journalled is the board's events file, as lines.
func journalled(t *testing.T, dir, id string) []string {
	t.Helper()
	f, err := os.Open(eventsPath(dir, id))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines
}

// sameStream checks that the journalled events equal the replay of the
// capture: a finished game's exactly, an unfinished one's but for the
// session end replay adds at the end of the capture.
func sameStream(t *testing.T, dir, id string, finished bool) {
	t.Helper()
	// A game the daemon was stopped in is compared with the capture read as
	// far as it goes: replayed to its end, what was pending at the stop
	// (a move waiting for its press) would be decided, as it never was live.
	live, rep := journalled(t, dir, id), replayedTo(t, dir, id, finished)
	n := min(len(live), len(rep))
	for i := range n {
		if live[i] != rep[i] {
			t.Fatalf("board %s: event %d differs\n live:   %s\n replay: %s", id, i, live[i], rep[i])
		}
	}
	if len(live) != len(rep) {
		var extra []string
		if len(live) > n {
			extra = live[n:]
		} else {
			extra = rep[n:]
		}
		t.Fatalf("board %s: %d events journalled, %d replayed; the extra ones:\n%s", id, len(live), len(rep), strings.Join(extra, "\n"))
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var _ = filepath.Join
