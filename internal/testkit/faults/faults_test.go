package faults

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// plies is the length of the game every trial plays (the Immortal Game).
const plies = 45

// trials is how many trials each fault gets: ARBITERD_TRIALS, else 10
// (3 with -short).
func trials(t *testing.T) int {
	if s := os.Getenv("ARBITERD_TRIALS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("ARBITERD_TRIALS=%q: want a positive number", s)
		}
		return n
	}
	if testing.Short() {
		return 3
	}
	return 10
}

// masterSeed fixes every trial's random moment: ARBITERD_FAULT_SEED, else 1.
func masterSeed(t *testing.T) int64 {
	if s := os.Getenv("ARBITERD_FAULT_SEED"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("ARBITERD_FAULT_SEED=%q: want an integer", s)
		}
		return n
	}
	return 1
}

// trialSeeds returns the seeds of the n trials a test runs, derived from
// the master seed and the test's offset; ARBITERD_FAULT_TRIAL_SEED instead
// runs the one trial whose seed a failure printed, alone, exactly as it
// ran among the others.
func trialSeeds(t *testing.T, n int, offset int64) []int64 {
	if s := os.Getenv("ARBITERD_FAULT_TRIAL_SEED"); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("ARBITERD_FAULT_TRIAL_SEED=%q: want an integer", s)
		}
		return []int64{v}
	}
	seed := masterSeed(t)
	seeds := make([]int64, n)
	for i := range seeds {
		seeds[i] = seed*1_000_003 + offset + int64(i)
	}
	return seeds
}

// rerun is the command that runs one failed trial again, alone.
func rerun(t *testing.T, trialSeed int64) string {
	return fmt.Sprintf("rerun alone: ARBITERD_FAULT_TRIAL_SEED=%d go test -count=1 -run '^%s$' -v ./internal/testkit/faults/", trialSeed, t.Name())
}

// A fault draws one scripted action from the trial's random generator.
type fault struct {
	name string
	draw func(r *rand.Rand) emulator.Action
}

var faultKinds = []fault{
	{"garbage", func(r *rand.Rand) emulator.Action {
		return emulator.Action{Kind: emulator.Garbage, Ply: 1 + r.Intn(plies), N: 1 + r.Intn(64)}
	}},
	{"drop-field", func(r *rand.Rand) emulator.Action {
		return emulator.Action{Kind: emulator.DropField, Ply: 1 + r.Intn(plies), N: 1 + r.Intn(3)}
	}},
	{"drop-clock", func(r *rand.Rand) emulator.Action {
		return emulator.Action{Kind: emulator.DropClock, Ply: 1 + r.Intn(plies), N: 1 + r.Intn(3)}
	}},
	{"unplug", func(r *rand.Rand) emulator.Action {
		return emulator.Action{Kind: emulator.Unplug, Ply: 1 + r.Intn(plies), For: time.Duration(1+r.Intn(30)) * time.Second}
	}},
	{"clock-off", func(r *rand.Rand) emulator.Action {
		return emulator.Action{Kind: emulator.ClockOff, Ply: 1 + r.Intn(plies), For: time.Duration(2+r.Intn(30)) * time.Second}
	}},
}

// verdict judges a trial against the undisturbed run: "equal" (same
// completed moves and outcome), "reported" (different, but the stream
// reports trouble for each side whose count differs), or an error.
func verdict(base, got outcome) (string, error) {
	if got.RunErr != nil {
		return "", fmt.Errorf("run failed: %v", got.RunErr)
	}
	if got.Completed == base.Completed && got.Result == base.Result {
		return "equal", nil
	}
	// A completed move the game does not have at that ply is a move
	// invented or misattributed: never acceptable, reported or not.
	// After an unverified-moves report (plies made while the board was not
	// read) arbiterd numbers the plies that follow from the fewest that can
	// have been made, which may be too few: from there on each completed
	// move must still be the game's move, by the same side and in the
	// game's order, but its ply number may be low by one constant (fixed
	// by the completions up to the next report, and never negative: the
	// smallest that fits them all, as a game may repeat a move, 5...Nf6
	// and 10...Nf6).
	played := map[int]string{}
	last := 0
	for _, e := range base.Events {
		if e.Type == reconcile.TypeComplete {
			played[e.Ply] = e.SAN
			last = max(last, e.Ply)
		}
	}
	fits := func(from, d int) bool { // the completions from event from on, to the next report
		for _, e := range got.Events[from:] {
			if e.Type == reconcile.TypeAnomaly && e.Kind == reconcile.KindUnverified {
				break
			}
			if e.Type == reconcile.TypeComplete && played[e.Ply+d] != e.SAN {
				return false
			}
		}
		return true
	}
	shift, open := 0, false
	for i, e := range got.Events {
		if e.Type == reconcile.TypeAnomaly && e.Kind == reconcile.KindUnverified {
			open = true
		}
		if e.Type != reconcile.TypeComplete {
			continue
		}
		if open {
			open = false
			for d := shift; e.Ply+d <= last; d += 2 { // the same side: an even shift
				if fits(i, d) {
					shift = d
					break
				}
			}
		}
		if played[e.Ply+shift] != e.SAN {
			return "", fmt.Errorf("ply %d completed as %s (by %s); the game's move is %s", e.Ply+shift, e.SAN, e.By, played[e.Ply+shift])
		}
	}
	// More completed moves than the game has is a move invented or
	// counted twice: never acceptable.
	if got.Completed.White > base.Completed.White || got.Completed.Black > base.Completed.Black {
		return "", fmt.Errorf("completed %+v, more than the %+v played", got.Completed, base.Completed)
	}
	for _, side := range []clockd.Side{clockd.White, clockd.Black} {
		if got.Completed.Of(side) != base.Completed.Of(side) && len(got.reports(side)) == 0 {
			return "", fmt.Errorf("%s completed %d moves, undisturbed %d, and nothing was reported", side, got.Completed.Of(side), base.Completed.Of(side))
		}
	}
	if got.Result != base.Result && len(got.reports(clockd.White))+len(got.reports(clockd.Black)) == 0 {
		return "", fmt.Errorf("outcome %q, undisturbed %q, and nothing was reported", got.Result, base.Result)
	}
	return "reported", nil
}

// parallel bounds how many live games run at once (each is a pty, an
// emulator and a live path; the machine is shared): ARBITERD_FAULT_PARALLEL,
// else 3. A game spends most of its time waiting for the next move (about
// 0.35 s of CPU in the 9 s it plays), so many can share two cores without
// changing what each one sees; the long forms run with more.
var parallel = func() int {
	if n, err := strconv.Atoi(os.Getenv("ARBITERD_FAULT_PARALLEL")); err == nil && n > 0 {
		return n
	}
	return 3
}()

// TestFaults plays the game through a pty with one scripted fault per trial,
// at a random ply, and judges every trial against the undisturbed run.
func TestFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("fault injection through ptys: not in -short")
	}
	base := baseline(t)
	if base.Result != "end 1-0" || base.Completed != (reconcile.Moves{White: 23, Black: 22}) {
		t.Fatalf("undisturbed run: completed %+v, outcome %q; want 23/22 and 1-0 by mate", base.Completed, base.Result)
	}
	seed := masterSeed(t)
	sem := make(chan struct{}, parallel)
	for _, f := range faultKinds {
		t.Run(f.name, func(t *testing.T) {
			var mu sync.Mutex
			count := map[string]int{}
			var wg sync.WaitGroup
			seeds := trialSeeds(t, trials(t), 0)
			n := len(seeds)
			for i, trialSeed := range seeds {
				a := f.draw(rand.New(rand.NewSource(trialSeed)))
				wg.Add(1)
				sem <- struct{}{}
				go func() {
					defer wg.Done()
					defer func() { <-sem }()
					var capBuf bytes.Buffer
					got := playLive(context.Background(), emuConfig(1, a), &capBuf, false)
					v, err := verdict(base, got)
					mu.Lock()
					defer mu.Unlock()
					if err != nil {
						count["FAILED"]++
						kept := keepBytes(capBuf.Bytes(), fmt.Sprintf("%s-seed-%d.capture", f.name, trialSeed))
						t.Errorf("trial %d (seed %d, %s): %v\n%s\ncapture kept in %s (arbiterd replay it)\n%s", i, trialSeed, a, err, rerun(t, trialSeed), kept, summary(got))
						return
					}
					count[v]++
					if v == "reported" && got.Result == base.Result {
						count["in step"]++ // the game was followed to its end
					}
				}()
			}
			wg.Wait()
			t.Logf("%s: %d trials: %d equal, %d reported (%d of them followed to the game's end), %d failed (master seed %d)", f.name, n, count["equal"], count["reported"], count["in step"], count["FAILED"], seed)
		})
	}
}

// summary lists a run's completions, anomalies and outcome for a failure
// message.
func summary(o outcome) string {
	var b strings.Builder
	for _, e := range o.Events {
		switch e.Type {
		case reconcile.TypeComplete, reconcile.TypeAnomaly, reconcile.TypeSession, reconcile.TypeEnd, reconcile.TypeFlag:
			b.Write(reconcile.Marshal(e))
			b.WriteByte('\n')
		}
	}
	fmt.Fprintf(&b, "completed %+v outcome %q", o.Completed, o.Result)
	return b.String()
}
