package scaleout

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/boards/serve"
	"github.com/arbiterd/arbiterd/internal/config"
)

// childEnv names the configuration a child test process serves as a venue
// (as `arbiterd serve` does with a nats section), until it is killed.
const childEnv = "ARBITERD_SCALEOUT_VENUE_CONFIG"

func TestMain(m *testing.M) {
	if path := os.Getenv(childEnv); path != "" {
		os.Exit(runChildVenue(path))
	}
	if args := os.Getenv(loadEnv); args != "" {
		os.Exit(runLoadVenue(strings.Fields(args)))
	}
	if args := os.Getenv(emuEnv); args != "" {
		os.Exit(runEmuVenue(strings.Fields(args)))
	}
	os.Exit(m.Run())
}

func runChildVenue(path string) int {
	c, err := config.Load(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var log *slog.Logger
	if os.Getenv("ARBITERD_SCALEOUT_LOG") != "" {
		log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo})).With("child", c.NATS.Venue)
	}
	vo, err := VenueOptionsFrom(c, log)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	v, err := OpenVenue(vo)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	d, err := serve.New(serve.Options{Config: c, Speed: testSpeed, Logger: log, Mounts: []serve.Mount{}, Runners: []serve.Runner{},
		OnEvent: v.OnEvent})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := v.Serve(context.Background(), d.Hub(), d.Run); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// startChild runs the venue v in a child process.
func (v *tVenue) startChild() *exec.Cmd {
	v.t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "data: %s\nlisten: 127.0.0.1:0\nevent: %q\nround: \"1\"\nbroadcast: \"off\"\nnats:\n  venue: %s\n  leaf_listen: %s\nboards:\n",
		v.data, v.cfg.Event, v.name, v.leaf)
	for _, bd := range v.cfg.Boards {
		fmt.Fprintf(&b, "  - number: %d\n    port: %s\n    white: %q\n    black: %q\n    timecontrol: %s\n", bd.Number, bd.Port, bd.White, bd.Black, bd.TimeControl)
	}
	path := filepath.Join(v.t.TempDir(), "venue.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		v.t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+path, fmt.Sprintf("ARBITERD_SCALEOUT_SPEED=%d", int(testSpeed)))
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		v.t.Fatal(err)
	}
	v.t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	return cmd
}

// A venue's process is killed (SIGKILL) in the middle of its games and
// started again: the games go on from the captures, and the hall has
// every event once, in order.
func TestVenueKillAndRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("NATS servers and venue processes (tens of seconds on two cores): not in -short")
	}
	vs, h := faultVenues(t)
	// North runs in a child process from the start.
	vs[0].stop()
	child := vs[0].startChild()
	waitShown(t, h, vs)
	// Killed once north's first board has completed a few moves.
	deadline := time.Now().Add(time.Minute)
	for {
		h.mu.Lock()
		n := len(h.events["north/"+vs[0].cfg.Boards[0].ID()])
		h.mu.Unlock()
		if n >= 30 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("north's first board: %d events at the hall after a minute", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := child.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	child.Wait()
	time.Sleep(300 * time.Millisecond) // five minutes of the emulated games
	vs[0].startChild()
	waitSettled(t, h, vs, 4*time.Minute, 15*time.Second)
	checkHall(t, h, vs, false)
}
