package emulator

import (
	"bytes"
	"context"
	"errors"
	"net"
	"testing"
	"time"
)

// item is one decoded frame with the emulated time of its chunk.
type item struct {
	at    time.Duration
	frame tframe
	chunk int
}

func stream(t *testing.T, cfg Config) []Chunk {
	t.Helper()
	em, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return em.Play()
}

func items(t *testing.T, chunks []Chunk) (out []item, skipped int) {
	t.Helper()
	for i, c := range chunks {
		fr, sk := splitFrames(c.Data)
		skipped += sk
		for _, f := range fr {
			out = append(out, item{at: c.At, frame: f, chunk: i})
		}
	}
	return out, skipped
}

func flat(chunks []Chunk) []byte {
	var b []byte
	for _, c := range chunks {
		b = append(b, c.Data...)
	}
	return b
}

func onlyFrames(its []item) []tframe {
	out := make([]tframe, len(its))
	for i, it := range its {
		out[i] = it.frame
	}
	return out
}

// turns lists the running face of each clock frame that shows one
// ('L' or 'R'), collapsing repeats: the presses the host can see.
func turns(its []item) string {
	var b []byte
	for _, it := range its {
		if it.frame.id != 0x8d {
			continue
		}
		c := decodeClock(it.frame.data)
		if c.ack {
			continue
		}
		var r byte
		switch {
		case c.status&0x08 != 0: // D3: the left face runs (as real boards send it)
			r = 'L'
		case c.status&0x10 != 0: // D4: the right face runs
			r = 'R'
		default:
			continue
		}
		if len(b) == 0 || b[len(b)-1] != r {
			b = append(b, r)
		}
	}
	return string(b)
}

var faultGame = immortal[:20]

func faultConfig(script ...Action) Config {
	return Config{Game: faultGame, Seed: 7, Periods: []Period{{Time: 15 * time.Minute, Increment: 10 * time.Second}}, Script: script}
}

func TestBaselineTurnsAndPositions(t *testing.T) {
	its, skipped := items(t, stream(t, faultConfig()))
	if skipped != 0 {
		t.Fatalf("%d stray bytes", skipped)
	}
	// White starts on the left: L, then one switch per ply.
	if got := turns(its); len(got) != len(faultGame)+1 || got[0] != 'L' {
		t.Errorf("turns %q: want %d alternations starting with L", got, len(faultGame)+1)
	}
	reached, _ := replayBoard(t, onlyFrames(its), gameFENs(t, "", faultGame), false)
	if reached != len(faultGame) {
		t.Errorf("reached %d of %d positions", reached, len(faultGame))
	}
	last := its[len(its)-1].frame
	if last.id != 0x8d || decodeClock(last.data).status&0x01 != 0 {
		t.Errorf("the stream does not end with the clock stopped: % x", last.data)
	}
}

// removed returns the frames of base missing from sub (sub must be base
// with some frames deleted).
func removed(t *testing.T, base, sub []tframe) []tframe {
	t.Helper()
	var out []tframe
	j := 0
	for _, f := range base {
		if j < len(sub) && f.id == sub[j].id && bytes.Equal(f.data, sub[j].data) {
			j++
			continue
		}
		out = append(out, f)
	}
	if j != len(sub) {
		t.Fatalf("the faulty stream is not the baseline with frames removed (matched %d of %d)", j, len(sub))
	}
	return out
}

func TestFaultGarbage(t *testing.T) {
	base := flat(stream(t, faultConfig()))
	chunks := stream(t, faultConfig(Action{Kind: Garbage, Ply: 6, N: 32}))
	its, skipped := items(t, chunks)
	if skipped == 0 {
		t.Fatal("no garbage in the stream")
	}
	if bytes.Equal(flat(chunks), base) {
		t.Error("garbage changed nothing")
	}
	reached, _ := replayBoard(t, onlyFrames(its), gameFENs(t, "", faultGame), false)
	if reached != len(faultGame) {
		t.Errorf("reached %d of %d positions", reached, len(faultGame))
	}
}

func TestFaultDropField(t *testing.T) {
	base, _ := items(t, stream(t, faultConfig()))
	got, _ := items(t, stream(t, faultConfig(Action{Kind: DropField, Ply: 5, N: 2})))
	miss := removed(t, onlyFrames(base), onlyFrames(got))
	if len(miss) != 2 || miss[0].id != 0x8e || miss[1].id != 0x8e {
		t.Errorf("dropped %v, want two field updates", miss)
	}
}

func TestFaultDropClock(t *testing.T) {
	base, _ := items(t, stream(t, faultConfig()))
	got, _ := items(t, stream(t, faultConfig(Action{Kind: DropClock, Ply: 5})))
	miss := removed(t, onlyFrames(base), onlyFrames(got))
	if len(miss) != 1 || miss[0].id != 0x8d {
		t.Fatalf("dropped %v, want one clock frame", miss)
	}
	// It is the frame of White's third press (ply 5): the right clock now runs.
	if c := decodeClock(miss[0].data); c.status&0x10 == 0 || c.status&0x02 == 0 {
		t.Errorf("the dropped frame is not a press by the left player: %+v", c)
	}
}

// plyWindows splits the field updates by the position last reached: index
// k holds the updates seen after position k and before position k+1.
func plyWindows(t *testing.T, its []item, fens []string) [][]tframe {
	t.Helper()
	w := make([][]tframe, len(fens))
	board := fenFields(t, fens[0])
	k := 0
	for _, it := range its {
		if it.frame.id != 0x8e {
			continue
		}
		board[it.frame.data[0]] = it.frame.data[1]
		w[k] = append(w[k], it.frame)
		if k+1 < len(fens) && board == fenFields(t, fens[k+1]) {
			k++
		}
	}
	return w
}

func TestFaultPressWithoutMove(t *testing.T) {
	its, _ := items(t, stream(t, faultConfig(Action{Kind: PressNoMove, Ply: 5})))
	// Two extra presses: White presses without moving, Black presses back.
	if got := turns(its); len(got) != len(faultGame)+3 {
		t.Errorf("turns %q: %d, want %d", got, len(got), len(faultGame)+3)
	}
	// No field update between the two extra presses.
	sw := 0
	var prev byte
	for _, it := range its {
		if it.frame.id == 0x8d {
			c := decodeClock(it.frame.data)
			r := c.status & 0x18
			if r != 0 && r != prev {
				sw++
				prev = r
			}
			continue
		}
		if sw == 6 { // after the 5th switch (the extra press) and before the 6th
			t.Errorf("field update between the press without a move and the press back: % x", it.frame.data)
		}
	}
}

func TestFaultNoPress(t *testing.T) {
	its, _ := items(t, stream(t, faultConfig(Action{Kind: NoPress, Ply: 5})))
	if got := turns(its); len(got) != len(faultGame)-1 {
		t.Errorf("turns %q: %d, want %d (ply 5 and 6 not pressed)", got, len(got), len(faultGame)-1)
	}
	reached, _ := replayBoard(t, onlyFrames(its), gameFENs(t, "", faultGame), false)
	if reached != len(faultGame) {
		t.Errorf("reached %d of %d positions", reached, len(faultGame))
	}
}

func TestFaultMergedPress(t *testing.T) {
	its, _ := items(t, stream(t, faultConfig(Action{Kind: MergedPress, Ply: 5})))
	if got := turns(its); len(got) != len(faultGame)-1 {
		t.Errorf("turns %q: %d, want %d (two presses merged)", got, len(got), len(faultGame)-1)
	}
	reached, _ := replayBoard(t, onlyFrames(its), gameFENs(t, "", faultGame), false)
	if reached != len(faultGame) {
		t.Errorf("reached %d of %d positions", reached, len(faultGame))
	}
}

func TestFaultExtraPress(t *testing.T) {
	its, _ := items(t, stream(t, faultConfig(Action{Kind: ExtraPress, Ply: 5})))
	if got := turns(its); len(got) != len(faultGame)+3 {
		t.Errorf("turns %q: %d, want %d", got, len(got), len(faultGame)+3)
	}
}

func TestFaultSlideWrong(t *testing.T) {
	// Ply 5 is 3. Bc4: the bishop goes to a wrong square first.
	fens := gameFENs(t, "", faultGame)
	its, _ := items(t, stream(t, faultConfig(Action{Kind: SlideWrong, Ply: 5})))
	w := plyWindows(t, its, fens)
	after := fenFields(t, fens[5])
	before := fenFields(t, fens[4])
	wrong := false
	for _, f := range w[4] {
		sq, p := f.data[0], f.data[1]
		// A white bishop (4) placed where neither position has it and not
		// on the diagonal f1–c4 (f1=61, e2=52, d3=43, c4=34).
		if p == 4 && after[sq] != 4 && before[sq] != 4 && sq != 52 && sq != 43 {
			wrong = true
		}
	}
	if !wrong {
		t.Errorf("no wrong square during ply 5: %v", w[4])
	}
	reached, _ := replayBoard(t, onlyFrames(its), fens, false)
	if reached != len(faultGame) {
		t.Errorf("reached %d of %d positions", reached, len(faultGame))
	}
}

func TestFaultTwoPlies(t *testing.T) {
	fens := gameFENs(t, "", faultGame)
	its, _ := items(t, stream(t, faultConfig(Action{Kind: TwoPlies, Ply: 7})))
	// Board states at chunk ends (after each scan): position 6 is never
	// seen, positions 5 and 7 are.
	board := fenFields(t, fens[0])
	seen := map[int]bool{}
	for i, it := range its {
		if it.frame.id == 0x8e {
			board[it.frame.data[0]] = it.frame.data[1]
		}
		if i+1 == len(its) || its[i+1].chunk != it.chunk {
			for k, f := range fens {
				if board == fenFields(t, f) {
					seen[k] = true
				}
			}
		}
	}
	if !seen[6] || !seen[8] || seen[7] {
		t.Errorf("after scans: position 6 seen %v, 7 seen %v (want false), 8 seen %v", seen[6], seen[7], seen[8])
	}
}

func TestFaultEarlyPeriod(t *testing.T) {
	cfg := faultConfig(Action{Kind: EarlyPeriod, Ply: 7})
	cfg.Periods = []Period{{Moves: 10, Time: 10 * time.Minute}, {Time: 5 * time.Minute}}
	cfg.PeriodBy = AfterPresses
	its, _ := items(t, stream(t, cfg))
	// At White's 4th press (ply 7) White's face (left) jumps by 5 minutes.
	var prevLeft int
	jumped := 0
	for _, it := range its {
		if it.frame.id != 0x8d {
			continue
		}
		c := decodeClock(it.frame.data)
		if prevLeft != 0 && c.leftSecs > prevLeft+200 {
			jumped++
		}
		prevLeft = c.leftSecs
	}
	if jumped != 1 {
		t.Errorf("white's time jumped %d times, want once", jumped)
	}
}

func TestFaultFlag(t *testing.T) {
	its, _ := items(t, stream(t, faultConfig(Action{Kind: Flag, Ply: 8})))
	last := its[len(its)-1].frame
	if last.id != 0x8d {
		t.Fatalf("the stream does not end with a clock frame: %#x", last.id)
	}
	c := decodeClock(last.data)
	// Ply 8 is Black's (right face): blocked at zero, the clock stopped.
	if c.rightSecs != 0 || c.rightFlags&0x10 == 0 || c.status&0x01 != 0 || c.leftSecs == 0 {
		t.Errorf("last clock frame %+v", c)
	}
	reached, _ := replayBoard(t, onlyFrames(its), gameFENs(t, "", faultGame), false)
	if reached != 7 && reached != 8 {
		t.Errorf("reached %d positions; the game should stop at ply 8", reached)
	}
}

func TestFaultFlagAtFlagRunsOn(t *testing.T) {
	cfg := faultConfig(Action{Kind: Flag, Ply: 8})
	cfg.Periods = []Period{{Moves: 40, Time: 5 * time.Minute}, {Time: 30 * time.Minute}}
	its, _ := items(t, stream(t, cfg))
	shown := false
	for _, it := range its {
		if it.frame.id == 0x8d {
			if c := decodeClock(it.frame.data); !c.ack && c.rightFlags&0x40 != 0 && c.status&0x01 != 0 {
				shown = true
			}
		}
	}
	if !shown {
		t.Error("no frame shows Black's flag with the clock running on")
	}
	reached, _ := replayBoard(t, onlyFrames(its), gameFENs(t, "", faultGame), false)
	if reached != len(faultGame) {
		t.Errorf("reached %d of %d: play should go on after the period was added", reached, len(faultGame))
	}
}

func TestFaultUnplug(t *testing.T) {
	chunks := stream(t, faultConfig(Action{Kind: Unplug, Ply: 6}))
	its, _ := items(t, chunks)
	reached, _ := replayBoard(t, onlyFrames(its), gameFENs(t, "", faultGame), false)
	if reached != 5 {
		t.Errorf("reached %d positions before the unplug, want 5", reached)
	}
	// Run returns ErrUnplugged.
	cfg := faultConfig(Action{Kind: Unplug, Ply: 6})
	cfg.Speed = 20000
	if _, err := run(t, cfg, 10*time.Second, nil); !errors.Is(err, ErrUnplugged) {
		t.Errorf("Run = %v, want ErrUnplugged", err)
	}
}

func TestFaultUnplugFor(t *testing.T) {
	chunks := stream(t, faultConfig(Action{Kind: Unplug, Ply: 6, For: 30 * time.Second}))
	its, _ := items(t, chunks)
	reached, _ := replayBoard(t, onlyFrames(its), gameFENs(t, "", faultGame), false)
	if reached != 5 {
		t.Errorf("reached %d positions, want 5", reached)
	}
	// The board came back in idle mode: it sends nothing unasked, so the
	// stream ends where the unplug began.
	base := stream(t, faultConfig())
	if len(flat(chunks)) >= len(flat(base)) {
		t.Error("the unplugged board sent as much as the baseline")
	}
}

func TestFaultKings(t *testing.T) {
	for _, tc := range []struct {
		result string
		wk, bk byte // fields of the kings
	}{{"1-0", 36, 27}, {"0-1", 35, 28}, {"1/2-1/2", 36, 28}} {
		its, _ := items(t, stream(t, faultConfig(Action{Kind: Kings, Ply: 11, Result: tc.result})))
		fens := gameFENs(t, "", faultGame)
		reached, board := replayBoard(t, onlyFrames(its), fens, false)
		if reached != 10 {
			t.Errorf("%s: reached %d positions, want 10", tc.result, reached)
		}
		if board[tc.wk] != 5 || board[tc.bk] != 11 {
			t.Errorf("%s: kings not on fields %d/%d: %v", tc.result, tc.wk, tc.bk, board)
		}
		last := its[len(its)-1].frame
		if last.id != 0x8d || decodeClock(last.data).status&0x01 != 0 {
			t.Errorf("%s: the clock was not stopped", tc.result)
		}
	}
}

func TestFaultTakeback(t *testing.T) {
	fens := gameFENs(t, "", faultGame)
	its, _ := items(t, stream(t, faultConfig(Action{Kind: Takeback, Ply: 9})))
	// Position 8 is reached, left for another position, reached again,
	// then position 9.
	board := fenFields(t, fens[0])
	p8 := fenFields(t, fens[8])
	var visits, leaves int
	at8 := false
	for _, it := range its {
		if it.frame.id != 0x8e {
			continue
		}
		board[it.frame.data[0]] = it.frame.data[1]
		if board == p8 && !at8 {
			visits++
			at8 = true
		} else if board != p8 && at8 {
			at8 = false
			leaves++
		}
	}
	if visits < 2 {
		t.Errorf("position after ply 8 seen %d times, want at least 2 (a move taken back)", visits)
	}
	reached, _ := replayBoard(t, onlyFrames(its), fens, false)
	if reached != len(faultGame) {
		t.Errorf("reached %d of %d positions", reached, len(faultGame))
	}
}

func TestDeterminism(t *testing.T) {
	cfg := faultConfig(Action{Kind: Garbage, Ply: 3}, Action{Kind: SlideWrong, Ply: 4})
	a, b := flat(stream(t, cfg)), flat(stream(t, cfg))
	if !bytes.Equal(a, b) {
		t.Error("Play: same seed, different bytes")
	}
	cfg2 := cfg
	cfg2.Seed++
	if bytes.Equal(a, flat(stream(t, cfg2))) {
		t.Error("Play: different seeds, same bytes")
	}
	// Run over a pipe, twice: the same bytes as each other and as Play.
	cfg.Speed = 20000
	r1, err1 := run(t, cfg, 20*time.Second, nil)
	r2, err2 := run(t, cfg, 20*time.Second, nil)
	if err1 != nil || err2 != nil {
		t.Fatalf("Run: %v, %v", err1, err2)
	}
	if !bytes.Equal(r1, r2) {
		t.Error("Run: same seed, different bytes")
	}
	if !bytes.Equal(r1, a) {
		t.Error("Run and Play differ")
	}
}

func TestRunStopsOnContext(t *testing.T) {
	em, err := New(faultConfig())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	dev, host := pipePair()
	defer host.Close()
	go drain(host)
	start := time.Now()
	err = em.Run(ctx, dev)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Run = %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Run took %s to stop", d)
	}
}

// TestFaultUnplugForOverRun: after its return the board answers again; a
// host that keeps asking (update-nice and a board dump) ends with the
// final position.
func TestFaultUnplugForOverRun(t *testing.T) {
	cfg := faultConfig(Action{Kind: Unplug, Ply: 6, For: 30 * time.Second})
	cfg.Speed = 2000
	stopAsking := make(chan struct{})
	b, err := run(t, cfg, 30*time.Second, func(h net.Conn) {
		for {
			select {
			case <-stopAsking:
				return
			case <-time.After(5 * time.Millisecond):
			}
			if _, err := h.Write([]byte{0x4b, 0x42}); err != nil {
				return
			}
		}
	})
	close(stopAsking)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	frames, _ := splitFrames(b)
	var dumps int
	var last []byte
	for _, f := range frames {
		if f.id == 0x86 {
			dumps++
			last = f.data
		}
	}
	fens := gameFENs(t, "", faultGame)
	final := fenFields(t, fens[len(fens)-1])
	if dumps < 2 || !bytes.Equal(last, final[:]) {
		t.Errorf("%d dumps; the last is not the final position", dumps)
	}
}

func TestObserve(t *testing.T) {
	var notes []Note
	cfg := faultConfig(Action{Kind: Flag, Ply: 8})
	cfg.Observe = func(n Note) { notes = append(notes, n) }
	stream(t, cfg)
	count := map[string]int{}
	for _, n := range notes {
		count[n.Kind]++
	}
	// Seven plies made and pressed (ply 8 is Black's flag; its move may or
	// may not have been begun), one action, one flag.
	if count["press"] != 7 || count["action"] != 1 || count["flag"] != 1 || count["move"] < 7 || count["move"] > 8 {
		t.Errorf("notes %v", count)
	}
	last := notes[len(notes)-1]
	if last.Kind != "flag" && last.Kind != "move" {
		t.Errorf("last note %+v", last)
	}
}

func TestFaultPressWithoutMoveAfterTheGame(t *testing.T) {
	its, _ := items(t, stream(t, faultConfig(Action{Kind: PressNoMove, Ply: len(faultGame) + 1})))
	if got := turns(its); len(got) != len(faultGame)+3 {
		t.Errorf("turns %q: %d, want %d", got, len(got), len(faultGame)+3)
	}
}

func TestFaultClockOff(t *testing.T) {
	fens := gameFENs(t, "", faultGame)
	for _, forever := range []bool{true, false} {
		a := Action{Kind: ClockOff, Ply: 6}
		if !forever {
			a.For = time.Minute
		}
		its, _ := items(t, stream(t, faultConfig(a)))
		noClock, after := -1, 0
		for k, it := range its {
			if it.frame.id != 0x8d {
				continue
			}
			c := decodeClock(it.frame.data)
			if c.status&0x20 != 0 {
				if noClock >= 0 {
					t.Errorf("two no-clock frames")
				}
				noClock = k
				if c.leftSecs != 0 || c.rightSecs != 0 {
					t.Errorf("no-clock frame shows times: %+v", c)
				}
				continue
			}
			if noClock >= 0 {
				after++
			}
		}
		if noClock < 0 {
			t.Fatalf("forever %v: no frame says the clock is gone", forever)
		}
		if forever && after != 0 {
			t.Errorf("clock frames after the clock was unplugged for good: %d", after)
		}
		if !forever && after == 0 {
			t.Errorf("no clock frame after the clock came back")
		}
		if reached, _ := replayBoard(t, onlyFrames(its), fens, false); reached != len(faultGame) {
			t.Errorf("forever %v: reached %d of %d positions (the board plays on)", forever, reached, len(faultGame))
		}
	}
}
