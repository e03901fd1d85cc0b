package serve

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/config"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// childEnv names the configuration file when the test binary runs as the
// daemon for TestKillAndRestart.
const childEnv = "ARBITERD_DAEMON_TEST_CONFIG"

func TestMain(m *testing.M) {
	if path := os.Getenv(childEnv); path != "" {
		os.Exit(runChild(path))
	}
	os.Exit(m.Run())
}

// runChild is the daemon process the test kills.
func runChild(path string) int {
	c, err := config.Load(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	d, err := New(Options{Config: c, Speed: killSpeed, Logger: slog.New(slog.NewTextHandler(os.Stderr, nil))})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := d.Run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// killSpeed is how much faster than real time the killed and restarted
// game plays. At the package's 1000× a millisecond's stall of a loaded
// machine is a second of game time, and the restarted daemon read a press
// before the board's report of its move more than a scan late (a false
// press without a move, twice in full race runs beside other work); at
// 250× the same stall is a quarter of a second.
const killSpeed = 250

func countComplete(lines []string) int {
	n := 0
	for _, l := range lines {
		if strings.Contains(l, `"type":"complete"`) {
			n++
		}
	}
	return n
}

// TestKillAndRestart runs the daemon as its own process, kills it with
// SIGKILL in the middle of a game, and starts it again: the game is
// recovered from its capture and continued, every event published before
// the kill is still there, and the event stream is the replay of the whole
// capture.
func TestKillAndRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds arbiterd and plays a game across a kill (half a minute): not in -short")
	}
	sans := immortal(t)
	e1 := startEmu(t, emulator.Config{Game: sans, Seed: 6, Speed: killSpeed, Script: []emulator.Action{{Kind: emulator.Flag, Ply: 38}}})
	data := t.TempDir()
	cfgPath := filepath.Join(t.TempDir(), "arbiterd.yaml")
	yaml := fmt.Sprintf("data: %s\nlisten: 127.0.0.1:0\nevent: arbiterd test\nround: \"1\"\nboards:\n  - number: 1\n    port: %s\n    white: \"Anderssen, Adolf\"\n    black: \"Kieseritzky, Lionel\"\n    timecontrol: %s\n",
		data, e1.path, testTC)
	if err := os.WriteFile(cfgPath, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(data, "round-1")

	child := exec.Command(os.Args[0], "-test.run=^$")
	child.Env = append(os.Environ(), childEnv+"="+cfgPath)
	var logs bytes.Buffer
	child.Stdout, child.Stderr = &logs, &logs
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		if lines, err := os.ReadFile(eventsPath(dir, "1")); err == nil && countComplete(strings.Split(string(lines), "\n")) >= 12 {
			break
		}
		if time.Now().After(deadline) {
			child.Process.Kill()
			child.Wait()
			t.Fatalf("the daemon did not complete 12 moves in time; its log:\n%s", logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := child.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	child.Wait()
	before := journalled(t, dir, "1")

	// Nothing published before the kill is missing from the capture: the
	// events journalled are the start of the capture's replay.
	rep := replayed(t, dir, "1")
	if len(before) > len(rep) {
		t.Fatalf("%d events published before the kill, the capture replays %d", len(before), len(rep))
	}
	for i := range before {
		if before[i] != rep[i] {
			t.Fatalf("event %d published before the kill is not the capture's:\n published: %s\n replayed:  %s", i, before[i], rep[i])
		}
	}

	// Restart: recovered, continued to the flag.
	c, err := config.Load(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	w := newWatcher()
	d, stop := runDaemonAt(t, c, w, killSpeed)
	w.waitFor(t, "the game to end after the restart", 90*time.Second, func() bool { return has(w.stream("1"), isOver) })
	stop()

	after := journalled(t, d.Dir(), "1")
	if len(after) < len(before) {
		t.Fatalf("%d events after the restart, %d before", len(after), len(before))
	}
	for i := range before {
		if before[i] != after[i] {
			t.Fatalf("event %d changed across the restart:\n before: %s\n after:  %s", i, before[i], after[i])
		}
	}
	sameStream(t, d.Dir(), "1", true)
	// The restarted daemon saw the rest of the game, the flag included.
	if n := countComplete(after) - countComplete(before); n < 5 {
		t.Errorf("only %d moves completed after the restart", n)
	}
	if s := strings.Join(after, "\n"); strings.Count(s, `"state":"connected"`) != 2 {
		t.Errorf("want the board connected twice (before and after the restart):\n%s", s)
	}
	checkFlagGame(t, w.stream("1"), sans)
	// The daemon's absence is a disconnection to the game: presses made
	// meanwhile wait for the board's resync, none is taken for a press
	// without a move.
	if has(w.stream("1"), func(e reconcile.Event) bool { return e.Kind == reconcile.KindPressWithoutMove }) {
		t.Error("the restart produced a press-without-move anomaly")
	}
	if t.Failed() || testing.Verbose() {
		for _, e := range w.stream("1") {
			if e.Type == reconcile.TypeComplete || e.Type == reconcile.TypeSession || e.Type == reconcile.TypeAnomaly {
				t.Logf("%.300s", reconcile.Marshal(e))
			}
		}
	}
	// The restarted daemon's own stream starts with the recovered events
	// (the hub was rebuilt from the capture) and ends with the verdict.
	b, err := d.Hub().Board("1")
	if err != nil {
		t.Fatal(err)
	}
	if b.Verdict != "loss" || b.Moves.White+b.Moves.Black < countComplete(before) {
		t.Errorf("hub after restart: verdict %q, moves %+v", b.Verdict, b.Moves)
	}
	if cap := readFile(t, capturePath(d.Dir(), "1")); strings.Count(cap, "#port board dgt") != 1 || strings.Count(cap, "#meta timecontrol=") != 1 {
		t.Errorf("the continued capture redeclares its port or meta")
	}
}
