package emulator

import (
	"bytes"
	"math/rand"
	"net"
	"testing"
	"time"
)

// TestFaultSoup scripts random faults on random games: the emulation must
// always end, send only well-formed messages (garbage aside), and, when no
// fault loses or hides board data, leave the host's board on the final
// position.
func TestFaultSoup(t *testing.T) {
	n := 60
	if testing.Short() {
		n = 15
	}
	checked := 0
	defer func() {
		if checked < n/4 {
			t.Errorf("only %d of %d soups checked the final board", checked, n)
		}
	}()
	for seed := int64(1); seed <= int64(n); seed++ {
		rng := rand.New(rand.NewSource(seed))
		moves := randomGame(rng, 20+rng.Intn(60))
		if len(moves) < 4 {
			continue
		}
		var script []Action
		lossy := false
		for k := 0; k < 1+rng.Intn(4); k++ {
			kind := actionKinds[rng.Intn(len(actionKinds))]
			a := Action{Kind: kind, Ply: 1 + rng.Intn(len(moves)-1)}
			switch kind {
			case Kings:
				a.Result = []string{"1-0", "0-1", "1/2-1/2"}[rng.Intn(3)]
			case Unplug:
				if rng.Intn(2) == 0 {
					a.For = time.Duration(1+rng.Intn(60)) * time.Second
				}
			}
			switch kind {
			case Garbage, DropField, Unplug, Kings, Flag:
				lossy = true
			}
			script = append(script, a)
		}
		periods := []Period{{Moves: 20, Time: 20 * time.Minute, Increment: 10 * time.Second}, {Time: 10 * time.Minute, Increment: 10 * time.Second}}
		if rng.Intn(3) == 0 {
			periods = []Period{{Time: 5 * time.Minute, Increment: 3 * time.Second, Mode: Mode(rng.Intn(3))}}
		}
		cfg := Config{Game: moves, Seed: seed, Script: script, Periods: periods,
			PeriodBy: PeriodRule(rng.Intn(2)), End: EndRule(rng.Intn(2)), Reversed: rng.Intn(2) == 0}
		em, err := New(cfg)
		if err != nil {
			t.Fatalf("seed %d: New: %v", seed, err)
		}
		chunks := em.Play()
		its, skipped := items(t, chunks)
		hasGarbage := false
		for _, a := range script {
			hasGarbage = hasGarbage || a.Kind == Garbage
		}
		if skipped != 0 && !hasGarbage {
			t.Errorf("seed %d %v: %d stray bytes", seed, script, skipped)
		}
		for i := 1; i < len(chunks); i++ {
			if chunks[i].At < chunks[i-1].At {
				t.Fatalf("seed %d: time goes back", seed)
			}
		}
		if lossy {
			continue
		}
		checked++
		fens := gameFENs(t, "", moves)
		final := fenFields(t, fens[len(fens)-1])
		if cfg.Reversed {
			final = reverseFields(final)
		}
		if _, board := replayBoard(t, onlyFrames(its), fens, cfg.Reversed); board != final {
			t.Errorf("seed %d %v: the host's board does not end on the final position", seed, script)
		}
	}
}

// TestThinkTimeIsTheClock: with fixed think times the clock frames show
// exactly the arithmetic of the time control.
func TestThinkTimeIsTheClock(t *testing.T) {
	cfg := Config{Game: immortal[:6], Seed: 3,
		Periods:   []Period{{Time: 300 * sec, Increment: 5 * sec}},
		ThinkTime: func(ply int) time.Duration { return time.Duration(ply) * 10 * sec }}
	chunks := stream(t, cfg)
	its, _ := items(t, chunks)
	// After ply k (10·k seconds) the presser has 305 − Σ its think + 5 per press.
	want := []struct{ left, right int }{
		{300, 305}, // ply 1: white used 10
		{300, 290}, // ply 2: black used 20
		{275, 290}, // ply 3: white used 30
		{275, 255}, // ply 4: black used 40
		{230, 255}, // ply 5: white used 50
		{230, 200}, // ply 6: black used 60
	}
	k := 0
	prevTurn := byte(0x08) // D3: the left face (White's) runs
	for _, it := range its {
		if it.frame.id != 0x8d {
			continue
		}
		c := decodeClock(it.frame.data)
		turn := c.status & 0x18
		if turn == prevTurn || turn == 0 {
			continue
		}
		prevTurn = turn
		if k >= len(want) {
			break
		}
		if c.leftSecs != want[k].left || c.rightSecs != want[k].right {
			t.Errorf("after ply %d: left %d right %d, want %d %d", k+1, c.leftSecs, c.rightSecs, want[k].left, want[k].right)
		}
		// The press happens exactly at the end of the think time.
		var at time.Duration
		for p := 1; p <= k+1; p++ {
			at += time.Duration(p) * 10 * sec
		}
		if it.at != at {
			t.Errorf("press of ply %d at %s, want %s", k+1, it.at, at)
		}
		k++
	}
	if k != len(want) {
		t.Errorf("saw %d presses", k)
	}
}

// TestFlagFallsAtTheClocksTime: the flag frame comes exactly when the
// clock reaches zero.
func TestFlagFallsAtTheClocksTime(t *testing.T) {
	cfg := Config{Game: immortal[:6], Seed: 3,
		Periods:   []Period{{Time: 60 * sec, Increment: 2 * sec}},
		ThinkTime: func(ply int) time.Duration { return map[bool]time.Duration{true: 100 * sec, false: 10 * sec}[ply == 3] }}
	its, _ := items(t, stream(t, cfg))
	last := its[len(its)-1]
	c := decodeClock(last.frame.data)
	// White: 62 − 10 + 2 = 54 after ply 1; its flag falls 54 s after Black's
	// press at 20 s.
	if last.at != 74*sec || c.leftSecs != 0 || c.leftFl&0x10 == 0 {
		t.Errorf("flag frame at %s: %+v", last.at, c)
	}
}

// TestSpeedScalesRealTime: a game of T emulated seconds at speed S takes at
// least T/S of real time under Run.
func TestSpeedScalesRealTime(t *testing.T) {
	cfg := Config{Game: immortal[:10], Seed: 2, Periods: []Period{{Time: 10 * time.Minute}}}
	chunks := stream(t, cfg)
	total := chunks[len(chunks)-1].At
	cfg.Speed = float64(total / (300 * time.Millisecond))
	start := time.Now()
	if _, err := run(t, cfg, 30*time.Second, nil); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 250*time.Millisecond {
		t.Errorf("a game of %s at speed %.0f took only %s", total, cfg.Speed, d)
	}
}

// TestDeterminismWithHostStart: a host that resets the board and asks for
// updates before play (Wait) gets the same bytes every time.
func TestDeterminismWithHostStart(t *testing.T) {
	cfg := faultConfig(Action{Kind: MergedPress, Ply: 3}, Action{Kind: TwoPlies, Ply: 9})
	cfg.Speed, cfg.Wait = 20000, true
	drive := func(h net.Conn) { _, _ = h.Write([]byte{0x40, 0x4b, 0x42}) }
	a, errA := run(t, cfg, 20*time.Second, drive)
	b, errB := run(t, cfg, 20*time.Second, drive)
	if errA != nil || errB != nil {
		t.Fatalf("Run: %v, %v", errA, errB)
	}
	if !bytes.Equal(a, b) {
		t.Error("same seed and the same host start gave different bytes")
	}
	frames, _ := splitFrames(a)
	if len(frames) == 0 || frames[0].id != 0x86 {
		t.Errorf("the first message is not the board dump the host asked for")
	}
}
