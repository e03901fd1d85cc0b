// Package feedtest builds real event streams for the feed tests: an
// emulated DGT game (internal/device/emulator) recorded as a capture and replayed
// through the pipeline, exactly what a live board would publish.
package feedtest

import (
	"bytes"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/driver/drivertest"
	"github.com/arbiterd/arbiterd/internal/boards/pipeline"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// Think is a steady player: a few seconds a move.
func Think(ply int) time.Duration { return time.Duration(8+ply%7) * time.Second }

// Events plays moves (SAN) from the standard start with the given time
// control and meta keys (board, white, black, ...) and returns the events
// the pipeline derives from the capture. Script adds emulator actions
// (a flag, a fault).
func Events(t testing.TB, moves []string, tc string, meta map[string]string, script ...emulator.Action) []reconcile.Event {
	t.Helper()
	periods, err := emulator.ParseTimeControl(tc)
	if err != nil {
		t.Fatal(err)
	}
	e, err := emulator.New(emulator.Config{Game: moves, Periods: periods, ThinkTime: Think, Script: script})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := capture.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	check := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	check(w.Port("board", "dgt"))
	for _, k := range []string{"board", "white", "black"} {
		if v, ok := meta[k]; ok {
			check(w.Meta(k, v))
		}
	}
	check(w.Meta("timecontrol", tc))
	check(w.Data(0, "board", capture.Read, drivertest.DGTBoardDump(drivertest.DGTStartPosition())))
	for _, c := range e.Play() {
		check(w.Data(c.At, "board", capture.Read, c.Data))
	}
	var evs []reconcile.Event
	if _, err := pipeline.Replay(bytes.NewReader(buf.Bytes()), pipeline.Options{}, func(e reconcile.Event) error {
		evs = append(evs, e)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return evs
}
