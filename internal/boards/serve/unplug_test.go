package serve

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

func isSession(state string) func(reconcile.Event) bool {
	return func(e reconcile.Event) bool { return e.Type == reconcile.TypeSession && string(e.State) == state }
}

// TestUnplugAndPlugBack unplugs board 1 in the middle of its game (its pty
// goes away) and plugs it back on a new pty, which the board's stable
// by-id name now points at. The game goes on in the same capture with no
// completed move lost, and board 2 is not disturbed.
func TestUnplugAndPlugBack(t *testing.T) {
	const cut = 16 // plies played before the cable is pulled
	sans := immortal(t)
	byID := filepath.Join(t.TempDir(), "usb-DGT_DGT_Board_1-if00")
	e1 := startCabled(t, emulator.Config{Game: sans, Seed: 3, Script: []emulator.Action{{Kind: emulator.Flag, Ply: 38}}})
	link(t, byID, e1.path)
	e2 := startEmu(t, emulator.Config{Game: sans, Seed: 4})
	data := t.TempDir()
	w := newWatcher()
	d, stop := runDaemon(t, testConfig(data, byID, e2.path), w)

	w.waitFor(t, "board 1 to complete 16 plies", 60*time.Second, func() bool {
		m := completed(w.stream("1"))
		return m.White+m.Black >= cut
	})
	e1.unplug() // the cable is out: the pty is gone
	w.waitFor(t, "board 1 to be seen disconnected", 30*time.Second, func() bool {
		return has(w.stream("1"), isSession("disconnected"))
	})
	os.Remove(byID)
	time.Sleep(100 * time.Millisecond) // reopen attempts fail: no device

	// Plugged back: a new pty (a new ttyUSB), the by-id name follows it.
	link(t, byID, e1.plug(t))

	w.waitFor(t, "both games to end", 90*time.Second, func() bool {
		return has(w.stream("1"), isOver) && has(w.stream("2"), isOver)
	})
	stop()

	b1 := w.stream("1")
	checkFlagGame(t, b1, sans)
	// Reconnected once: connected at the start and after the plug.
	var states []string
	for _, e := range b1 {
		if e.Type == reconcile.TypeSession {
			states = append(states, string(e.State))
		}
	}
	if s := strings.Join(states, " "); !strings.Contains(s, "connected disconnected connected") {
		t.Errorf("board 1 session states: %s", s)
	}
	b2 := w.stream("2")
	if has(b2, isSession("disconnected")) {
		t.Error("board 2 saw a disconnection when board 1 was unplugged")
	}
	if m := completed(b2); m.White != 23 || m.Black != 22 {
		t.Errorf("board 2: completed %+v, want the whole game", m)
	}
	for _, id := range []string{"1", "2"} {
		sameStream(t, d.Dir(), id, true)
	}
	if p := readFile(t, pgnPath(d.Dir(), "1")); !strings.Contains(p, "Bxg1") || !strings.Contains(p, "Nh5") {
		t.Errorf("board 1 PGN lost moves:\n%s", p)
	}
}
