package faults

import (
	"bytes"
	"fmt"
	"math/rand"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/driver/drivertest"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// replayChunks replays a board's byte stream (after the start-up dump a
// host asks for) through the pipeline, as the capture of a live game would
// be replayed, and returns what it saw.
func replayChunks(t *testing.T, chunks []emulator.Chunk) outcome {
	t.Helper()
	var buf bytes.Buffer
	w, err := capture.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	w.Port("board", "dgt")
	w.Meta("board", "1")
	w.Meta("timecontrol", timeControl)
	w.Meta("clock-white", "left")
	w.Data(0, "board", capture.Read, drivertest.DGTBoardDump(drivertest.DGTStartPosition()))
	for _, c := range chunks {
		if err := w.Data(c.At, "board", capture.Read, c.Data); err != nil {
			t.Fatal(err)
		}
	}
	return replayReader(&buf)
}

// stall is a host that stops reading for a while (a loaded machine, a
// pause): everything the board sent meanwhile waits in the line's buffer
// and arrives in one read, stamped when the host reads again.
func stall(chunks []emulator.Chunk, from, length time.Duration) []emulator.Chunk {
	var out []emulator.Chunk
	var held []byte
	for _, c := range chunks {
		if c.At >= from && c.At < from+length {
			held = append(held, c.Data...)
			continue
		}
		if held != nil && c.At >= from+length {
			out = append(out, emulator.Chunk{At: from + length, Data: held})
			held = nil
		}
		out = append(out, c)
	}
	if held != nil {
		out = append(out, emulator.Chunk{At: from + length, Data: held})
	}
	return out
}

// penalties lists the anomalies that penalise a player (7.5.1, 7.5.3): a
// host stall must never invent one.
func penalties(o outcome) []reconcile.Event {
	var out []reconcile.Event
	for _, e := range o.Events {
		if e.Type == reconcile.TypeAnomaly && (e.Kind == "press-without-move" || e.Kind == "illegal-move" || e.Kind == "two-moves") {
			out = append(out, e)
		}
	}
	return out
}

// completions lists the completed plies in stream order.
func completions(o outcome) string {
	var b bytes.Buffer
	for _, e := range o.Events {
		if e.Type == reconcile.TypeComplete {
			fmt.Fprintf(&b, "%d:%s ", e.Ply, e.SAN)
		}
	}
	return b.String()
}

// TestHostStall replays the game with the host stalled for 1–8 s of game
// time at a random moment: the bytes are the same, only read late and all
// at once. The completed-move counts and the outcome must be those of the
// undisturbed game, the completions must come in the order of the plies,
// each with the counts and clocks of its own press, and no penalty may be
// invented (docs/RELIABILITY.md, finding R1: one read carrying several
// presses was once mis-paired).
func TestHostStall(t *testing.T) {
	em, err := emulator.New(emuConfig(1))
	if err != nil {
		t.Fatal(err)
	}
	chunks := em.Play()
	base := replayChunks(t, chunks)
	if base.RunErr != nil || base.Result != "end 1-0" || len(penalties(base)) != 0 {
		t.Fatalf("undisturbed replay: %v, outcome %q, penalties %d", base.RunErr, base.Result, len(penalties(base)))
	}
	end := chunks[len(chunks)-1].At
	seed := masterSeed(t)
	seeds := trialSeeds(t, 10*trials(t), 900)
	n := len(seeds)
	var failed, disordered, invented int
	for i, trialSeed := range seeds {
		r := rand.New(rand.NewSource(trialSeed))
		from := time.Duration(r.Int63n(int64(end)))
		length := time.Second + time.Duration(r.Int63n(int64(7*time.Second)))
		got := replayChunks(t, stall(chunks, from, length))
		what := fmt.Sprintf("trial %d (seed %d; %s): host stalled %v from %v", i, trialSeed, rerun(t, trialSeed), length.Round(time.Millisecond), from.Round(time.Millisecond))
		switch {
		case got.RunErr != nil:
			failed++
			t.Errorf("%s: %v", what, got.RunErr)
			continue
		case got.Completed != base.Completed || got.Result != base.Result:
			failed++
			t.Errorf("%s: completed %+v outcome %q, undisturbed %+v %q", what, got.Completed, got.Result, base.Completed, base.Result)
			continue
		}
		if completions(got) != completions(base) {
			disordered++
			t.Errorf("%s: completions out of order: %s", what, completions(got))
		}
		if p := penalties(got); len(p) > 0 {
			invented++
			t.Errorf("%s: %d invented penalties, the first: %s", what, len(p), reconcile.Marshal(p[0]))
		}
	}
	t.Logf("host-stall: %d trials: %d failed; %d with completions out of order, %d with invented penalties (master seed %d)", n, failed, disordered, invented, seed)
}
