package serve

import (
	"context"
	"errors"
	"github.com/arbiterd/arbiterd/internal/testkit/lockedbuf"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/internal/device/serialport"
)

// logBuffer is a log the test can read while the daemon writes it.
type logBuffer struct{ lockedbuf.Buffer }

// lines returns the log lines at level that contain text.
func (l *logBuffer) lines(level, text string) []string {
	var out []string
	for _, line := range strings.Split(l.String(), "\n") {
		if strings.Contains(line, "level="+level) && strings.Contains(line, text) {
			out = append(out, line)
		}
	}
	return out
}

func (l *logBuffer) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// TestPortTakenWritesNothing: when the HTTP port is taken the daemon
// stops at once, saying so, before it creates any directory or capture.
func TestPortTakenWritesNothing(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	data := filepath.Join(t.TempDir(), "data")
	c := testConfig(data, "/dev/nonexistent-board")
	c.Listen = taken.Addr().String()
	_, err = New(Options{Config: c, Mounts: []Mount{}, Runners: []Runner{}})
	if err == nil || !strings.Contains(err.Error(), c.Listen) || !strings.Contains(err.Error(), "in use") {
		t.Fatalf("New on a taken port: %v", err)
	}
	if _, err := os.Stat(data); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the data directory was created (%v): a capture may have been made", err)
	}
}

// TestStartAnnounce: at start each board's time control is said in
// words, one that looks written in minutes is warned about with the
// control probably meant, and listening on every interface without
// arbiters' logins is warned about; on localhost it is not.
func TestStartAnnounce(t *testing.T) {
	for _, tt := range []struct {
		listen  string
		exposed string
	}{{"0.0.0.0:0", "listening on all interfaces, reachable from the network, without arbiters' logins"}, {"127.0.0.1:0", ""}} {
		var logs logBuffer
		c := testConfig(t.TempDir(), "/dev/nonexistent-board", "/dev/nonexistent-board-2")
		c.Listen = tt.listen
		c.Boards[1].TimeControl = "90+30"
		d, err := New(Options{Config: c, Mounts: []Mount{}, Runners: []Runner{}, Logger: logs.logger()})
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range d.boards {
			b.close()
		}
		d.closeListener()
		if got := logs.lines("INFO", "time control 40/5400+30:1800+30: 90 minutes for 40 moves, plus 30 seconds per move from move 1; then 30 minutes for the rest of the game"); len(got) != 1 || !strings.Contains(got[0], "board=1") {
			t.Errorf("board 1's control in words: %q\n%s", got, logs.String())
		}
		if got := logs.lines("WARN", "time control 90+30 looks written in minutes, but its times are seconds: 90 seconds (1 min 30 s) for the game"); len(got) != 1 ||
			!strings.Contains(got[0], "set timecontrol: 5400+30") || !strings.Contains(got[0], "board=2") {
			t.Errorf("board 2's control: %q\n%s", got, logs.String())
		}
		if len(logs.lines("WARN", "looks written in minutes")) != 1 {
			t.Errorf("board 1's control warned about:\n%s", logs.String())
		}
		got := logs.lines("WARN", "reachable from the network")
		switch {
		case tt.exposed == "" && len(got) > 0:
			t.Errorf("%s: warned %q", tt.listen, got)
		case tt.exposed != "" && (len(got) != 1 || !strings.Contains(got[0], tt.exposed)):
			t.Errorf("%s: %q\n%s", tt.listen, got, logs.String())
		}
	}
}

// TestFirstRunLog plays a first run as pasted: the board's port does not
// exist yet when the daemon starts (reported once, clearly, and never as
// an error), the board appears (logged), is unplugged (logged once, the
// reopen attempts after that at debug level) and comes back (logged),
// and plays to its end. A second start with the same data directory says
// the game is over and how to start a new one.
func TestFirstRunLog(t *testing.T) {
	sans := immortal(t)
	port := filepath.Join(t.TempDir(), "arbiterd-board-1")
	data := t.TempDir()
	c := testConfig(data, port)
	var logs logBuffer
	w := newWatcher()
	d, err := New(Options{Config: c, Speed: testSpeed, OnEvent: w.onEvent, Logger: logs.logger(), Mounts: []Mount{}, Runners: []Runner{},
		Backoff: serialport.Backoff{Min: 10 * time.Millisecond, Max: 20 * time.Millisecond, Factor: 2}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	defer func() {
		cancel()
		<-done
		if t.Failed() {
			t.Logf("daemon log:\n%s", logs.String())
		}
	}()

	deadline := time.Now().Add(10 * time.Second)
	for len(logs.lines("DEBUG", "board line down")) < 5 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	missing := logs.lines("WARN", "serial port "+port+" does not exist: is the board plugged in")
	if len(missing) != 1 || len(logs.lines("WARN", "")) != 1 {
		t.Errorf("the missing port reported %d times, %d warnings in all", len(missing), len(logs.lines("WARN", "")))
	}
	if len(logs.lines("DEBUG", "board line down")) < 5 {
		t.Errorf("the reopen attempts are not at debug level")
	}

	e := startCabled(t, emulator.Config{Game: sans, Seed: 3, Script: []emulator.Action{{Kind: emulator.Flag, Ply: 38}}})
	link(t, port, e.path)
	w.waitFor(t, "board 1 to connect", 30*time.Second, func() bool { return has(w.stream("1"), isSession("connected")) })
	waitLog(t, &logs, "INFO", "board connected")
	w.waitFor(t, "board 1 to complete 10 plies", 60*time.Second, func() bool {
		m := completed(w.stream("1"))
		return m.White+m.Black >= 10
	})

	e.unplug()
	os.Remove(port)
	w.waitFor(t, "board 1 to be seen disconnected", 30*time.Second, func() bool { return has(w.stream("1"), isSession("disconnected")) })
	n := len(logs.lines("DEBUG", "board line down"))
	deadline = time.Now().Add(10 * time.Second)
	for len(logs.lines("DEBUG", "board line down")) < n+5 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if got := logs.lines("WARN", "board line down"); len(got) != 1 {
		t.Errorf("the unplugged board reported %d times at WARN: %q", len(got), got)
	}
	link(t, port, e.plug(t))
	waitLog(t, &logs, "INFO", "board back")
	w.waitFor(t, "the game to end", 90*time.Second, func() bool { return has(w.stream("1"), isOver) })
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	done <- nil
	if got := logs.lines("ERROR", ""); len(got) > 0 {
		t.Errorf("errors logged: %q", got)
	}

	var again logBuffer
	d, err = New(Options{Config: c, Logger: again.logger(), Mounts: []Mount{}, Runners: []Runner{}})
	if err != nil {
		t.Fatal(err)
	}
	d.boards[0].close()
	d.closeListener()
	if got := again.lines("WARN", "is over: the board is shown as it ended and its port is not read. For a new game, start the next round"); len(got) != 1 ||
		!strings.Contains(got[0], "--round 2") {
		t.Errorf("the second start does not say what to do: %q\n%s", got, again.String())
	}
}

func waitLog(t *testing.T, logs *logBuffer, level, text string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for len(logs.lines(level, text)) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("no %s log %q", level, text)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestNextRound(t *testing.T) {
	for r, want := range map[string]string{"1": "2", "9": "10", "2.1": "2.2", "final": "final-2", "r07": "r8"} {
		if got := nextRound(r); got != want {
			t.Errorf("nextRound(%q) = %q, want %q", r, got, want)
		}
	}
}
