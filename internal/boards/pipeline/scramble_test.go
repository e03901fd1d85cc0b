package pipeline

import (
	"fmt"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// In a scramble at the control, plies come faster than a period check
// waits (ScanLag): the side's next press may complete its next move before
// the check of the period the clock added at the control is due. The
// check counts the moves completed up to the press the period came with,
// so a clock counting presses right raises no clock-counter alarm; one
// that adds the period a move early still does. Presses 0.7 s apart,
// with two presses merged into one reading or two plies in one board
// scan, around the control of 10 moves.
func TestScrambleAtTheControl(t *testing.T) {
	const tc = "10/600+30:300+30"
	periods, err := emulator.ParseTimeControl(tc)
	if err != nil {
		t.Fatal(err)
	}
	game := longGame(t, 50)
	fast := func(int) time.Duration { return 700 * time.Millisecond }
	for _, kind := range []emulator.ActionKind{emulator.MergedPress, emulator.TwoPlies} {
		for ply := 17; ply <= 22; ply++ {
			t.Run(fmt.Sprintf("%s@%d", kind, ply), func(t *testing.T) {
				capt := captureOf(t, emulator.Config{Game: game, Seed: 5, Periods: periods, PeriodBy: emulator.AfterPresses,
					ThinkTime: fast, Script: []emulator.Action{{Kind: kind, Ply: ply}}}, "timecontrol="+tc)
				evs, _ := replayAll(t, capt)
				for _, e := range evs {
					if e.Type == reconcile.TypeAnomaly && e.Kind != reconcile.KindClockStopped {
						t.Errorf("false alarm: %s", reconcile.Marshal(e))
					}
				}
				if got := count(evs, reconcile.TypeComplete); got != len(game) {
					t.Errorf("%d plies completed, want %d", got, len(game))
				}
			})
		}
	}
	t.Run("early period in a scramble", func(t *testing.T) {
		capt := captureOf(t, emulator.Config{Game: game, Seed: 5, Periods: periods, PeriodBy: emulator.AfterPresses,
			ThinkTime: fast, Script: []emulator.Action{{Kind: emulator.EarlyPeriod, Ply: 17}}}, "timecontrol="+tc)
		evs, _ := replayAll(t, capt)
		var counter []reconcile.Event
		for _, e := range evs {
			if e.Type == reconcile.TypeAnomaly && e.Kind == reconcile.KindClockCounter {
				counter = append(counter, e)
			}
		}
		if len(counter) != 1 {
			t.Fatalf("%d clock-counter anomalies, want 1 for the period added a move early\n%s", len(counter), jsonl(evs))
		}
		t.Log(counter[0].Detail)
	})
}
