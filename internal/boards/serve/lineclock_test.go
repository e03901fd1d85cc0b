package serve

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/driver/drivertest"
	"github.com/arbiterd/arbiterd/internal/config"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// plugClock plugs the clock in; a failure fails the test (not Fatal: it
// may run on another goroutine).
func plugClock(t *testing.T, c *emulator.USBClock) {
	if err := c.Plug(context.Background()); err != nil {
		t.Error(err)
	}
}

// TestSeparateClock serves a board whose clock is a separate USB lineclock:
// the board (no clock attached) and the clock on two real ptys. Moves are
// completed by the clock's presses; the clock's cable is pulled mid-game
// (an amber clock-disconnected alert) and plugged back; the game ends at
// Black's flag with a verdict; the capture declares both ports and the
// journalled events equal its replay.
func TestSeparateClock(t *testing.T) {
	const (
		// Board and clock bytes are stamped when the host reads each port:
		// at 50 times real speed a 30 ms stall of the board's reads under
		// the race detector passed the scan lag, and a press came before
		// its move. At 12 it takes 125 ms.
		speed = 12
		tc    = "60+1"
	)
	moves := strings.Fields("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7 c4")
	ctl, err := clockd.ParseTimeControl(tc)
	if err != nil {
		t.Fatal(err)
	}
	periods, err := emulator.ParseTimeControl(tc)
	if err != nil {
		t.Fatal(err)
	}
	clk := &emulator.USBClock{LC: emulator.NewLineClock(ctl, false), Link: filepath.Join(t.TempDir(), "usb-LineClock_EMU-LC1_0001-if00"), Speed: speed}
	e, err := emulator.New(emulator.Config{Game: moves, Periods: periods, Speed: speed, Seed: 6, NoClock: true, End: emulator.EndFlag,
		Linger: true, ThinkTime: func(int) time.Duration { return 4 * time.Second }, Observe: clk.LC.Observe})
	if err != nil {
		t.Fatal(err)
	}
	master, slave, err := emulator.OpenPTY()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	emuDone := make(chan error, 1)
	go func() { emuDone <- e.Run(ctx, master) }()
	plugClock(t, clk)
	defer func() {
		cancel()
		<-emuDone
		master.Close()
		if err := clk.Unplug(); err != nil {
			t.Error(err)
		}
	}()

	c := testConfig(t.TempDir(), slave)
	c.Boards[0].TimeControl = tc
	c.Boards[0].Clock = &config.Clock{Port: clk.Link, Driver: "lineclock"}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	w := newWatcher()
	d, stop := runDaemonAt(t, c, w, speed)

	w.waitFor(t, "6 plies completed", 30*time.Second, func() bool {
		m := completed(w.stream("1"))
		return m.White+m.Black >= 6
	})
	if err := clk.Unplug(); err != nil {
		t.Error(err)
	}
	w.waitFor(t, "the clock seen disconnected", 30*time.Second, func() bool {
		return has(w.stream("1"), func(e reconcile.Event) bool {
			return e.Type == reconcile.TypeAnomaly && e.Kind == reconcile.KindClockDisconnected
		})
	})
	plugClock(t, clk)
	w.waitFor(t, "the game to end", 60*time.Second, func() bool { return has(w.stream("1"), isOver) })
	stop()

	evs := w.stream("1")
	var flag *reconcile.Event
	var clockStates []string
	for i, e := range evs {
		switch {
		case e.Type == reconcile.TypeFlag:
			flag = &evs[i]
		case e.Type == reconcile.TypeSession && e.Port == ClockPortName:
			clockStates = append(clockStates, string(e.State))
		case e.Type == reconcile.TypeAnomaly && e.Kind != reconcile.KindClockDisconnected:
			t.Errorf("anomaly: %s", reconcile.Marshal(e))
		}
	}
	if t.Failed() {
		for _, e := range evs {
			t.Logf("%s", reconcile.Marshal(e))
		}
	}
	if flag == nil || flag.Side != clockd.Black || flag.Verdict != reconcile.VerdictLoss {
		t.Fatalf("flag %v, want Black's flag and a loss", flag)
	}
	if m := completed(evs); m.White != 11 || m.Black != 10 {
		t.Errorf("completed %+v, want 11 and 10", m)
	}
	if got := strings.Join(clockStates, " "); got != "start start disconnected start end" {
		t.Errorf("clock port sessions %q, want start start disconnected start end", got)
	}
	capt := readFile(t, capturePath(d.Dir(), "1"))
	if !strings.Contains(capt, "#port board dgt\n#port clock lineclock\n") || !strings.Contains(capt, " clock r ") {
		t.Errorf("the capture does not declare and record the clock port")
	}
	sameStream(t, d.Dir(), "1", true)
}

// A restart recovers a game with a separate clock: the clock was not read
// while the daemon was away, so its port is marked disconnected (a
// clock-disconnected alert) like the board's. A clock added to the
// configuration of a game in progress is declared in its capture.
func TestRecoverSeparateClock(t *testing.T) {
	for _, tc := range []struct {
		name, ports, want string
		anomaly           bool
	}{
		{"clock-in-capture", "#port board dgt\n#port clock lineclock\n", " clock disconnected\n", true},
		{"clock-added", "#port board dgt\n", "#port clock lineclock\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := t.TempDir()
			c := testConfig(data, "/dev/null-board")
			c.Boards[0].Clock = &config.Clock{Port: "/dev/null-clock", Driver: "lineclock"}
			dir := filepath.Join(data, "round-"+c.Round)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			capt := "#capture v1\n" + tc.ports + "#meta board=1\n#meta timecontrol=" + testTC + "\n" +
				"0.000000 board r " + fmt.Sprintf("%x", drivertest.DGTBoardDump(drivertest.DGTStartPosition())) + "\n"
			if err := os.WriteFile(capturePath(dir, "1"), []byte(capt), 0o644); err != nil {
				t.Fatal(err)
			}
			w := newWatcher()
			d, err := New(Options{Config: c, OnEvent: w.onEvent})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			cancel() // Run on a done context just closes the journal
			if err := d.Run(ctx); err != nil {
				t.Fatal(err)
			}
			got := readFile(t, capturePath(dir, "1"))
			if !strings.Contains(got, tc.want) {
				t.Errorf("recovered capture:\n%s\nwant it to contain %q", got, tc.want)
			}
			if has(w.stream("1"), func(e reconcile.Event) bool {
				return e.Type == reconcile.TypeAnomaly && e.Kind == reconcile.KindClockDisconnected
			}) != tc.anomaly {
				t.Errorf("clock-disconnected alert %v, want %v", !tc.anomaly, tc.anomaly)
			}
			if !has(w.stream("1"), func(e reconcile.Event) bool {
				return e.Type == reconcile.TypeSession && e.Port == ClockPortName
			}) {
				t.Error("no session event for the clock port")
			}
		})
	}
}
