package pipeline

import (
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/driver/dgt"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
)

// The DGT 3000's readings, as the board relays them, recover every press
// of a 100-move game — including presses merged into one reading — when
// decoded by driver/dgt and interpreted by clockd.
func TestDGTClockReadingsRecoverEveryPress(t *testing.T) {
	tc := "40/5400+30:1800+30"
	ctl, err := clockd.ParseTimeControl(tc)
	if err != nil {
		t.Fatal(err)
	}
	periods, err := emulator.ParseTimeControl(tc)
	if err != nil {
		t.Fatal(err)
	}
	merged := []int{20, 45, 77, 120, 151, 188}
	var script []emulator.Action
	for _, p := range merged {
		script = append(script, emulator.Action{Kind: emulator.MergedPress, Ply: p})
	}
	for _, rule := range []emulator.PeriodRule{emulator.AtFlag, emulator.AfterPresses} {
		for _, right := range []bool{false, true} {
			e, err := emulator.New(emulator.Config{Game: longGame(t, 200), Periods: periods, PeriodBy: rule, WhiteOnRight: right,
				Seed: 11, Script: script, ThinkTime: func(p int) time.Duration { return time.Duration(5+p%40) * time.Second }})
			if err != nil {
				t.Fatal(err)
			}
			dec := dgt.NewDecoder()
			in := clockd.NewInterpreter(ctl, clockd.WhiteAuto)
			var presses [2]int
			inferred := 0
			for _, c := range e.Play() {
				for _, m := range dec.Feed(c.Data) {
					ct, ok := m.(dgt.ClockTime)
					if !ok {
						continue
					}
					for _, ev := range in.Feed(Reading(c.At, ct)) {
						if ev.Kind == clockd.Press {
							presses[ev.Side]++
							if ev.Inferred {
								inferred++
							}
						}
						if ev.Kind == clockd.Impossible {
							t.Errorf("%v right=%v: impossible reading at %v: %s", rule, right, ev.At, ev.Detail)
						}
					}
				}
			}
			if presses[clockd.White] != 100 || presses[clockd.Black] != 100 {
				t.Errorf("%v, White on the right %v: presses white %d black %d, want 100 each", rule, right, presses[clockd.White], presses[clockd.Black])
			}
			if inferred < len(merged) {
				t.Errorf("%v, White on the right %v: %d presses inferred, want at least %d (one per merged pair)", rule, right, inferred, len(merged))
			}
		}
	}
}
