package faults

import (
	"bytes"
	"fmt"
	"math/rand"
	"path/filepath"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/driver/dgt"
	"github.com/arbiterd/arbiterd/driver/drivertest"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
)

// pollInterval is the session's keep-alive poll in game time (see
// harness_test.go: once per second of game time, as at real speed).
const pollInterval = time.Second

// unpluggedCapture writes the capture a live host makes of the board's
// byte stream chunks when the board is unplugged at from and plugged back
// length later, without depending on a pty's timing. As the live session
// does, the host polls every pollInterval (phase is the first poll's time):
// each poll the board answers with a dump of its squares and its serial
// number. Unplugged, the board sends nothing; a poll that went unanswered
// until the next one marks the port disconnected. Plugged back, the board
// is idle (no field updates, no clock) until the next poll sets its mode
// again: that poll's answer marks the port connected, and its dump shows
// whatever was played meanwhile. What the board sent at from itself (the
// press that began the ply at which the emulator unplugs it) is read.
func unpluggedCapture(t *testing.T, chunks []emulator.Chunk, from, length, phase time.Duration) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := capture.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(w.Port("board", "dgt"))
	must(w.Meta("board", "1"))
	must(w.Meta("timecontrol", timeControl))
	must(w.Meta("clock-white", "left"))
	image := drivertest.DGTStartPosition()
	must(w.Data(0, "board", capture.Read, drivertest.DGTBoardDump(image)))
	back := from + length // the board is powered again, idle
	var reply time.Duration = -1
	disconnected := false
	dec := dgt.NewDecoder()
	poll := phase
	end := chunks[len(chunks)-1].At + 3*time.Second
	i := 0
	for i < len(chunks) || poll <= end {
		if i < len(chunks) && chunks[i].At < poll {
			c := chunks[i]
			i++
			dec.FeedFunc(c.Data, func(m dgt.Message) {
				if f, ok := m.(dgt.FieldUpdate); ok && int(f.Field) < len(image) {
					image[f.Field] = f.Piece
				}
			})
			if c.At > from && (reply < 0 || c.At < reply) {
				continue // unplugged, or back but idle until a poll
			}
			must(w.Data(c.At, "board", capture.Read, c.Data))
			continue
		}
		// a poll: answered unless the board is unplugged
		at := poll
		poll += pollInterval
		if at >= from && reply < 0 {
			if at < back {
				if at-pollInterval >= from && !disconnected {
					disconnected = true
					must(w.Marker(capture.Session(at, "board", "disconnected")))
				}
				continue
			}
			reply = at
			if disconnected {
				must(w.Marker(capture.Session(at, "board", "connected")))
			}
		}
		answer := append(drivertest.DGTBoardDump(image), drivertest.DGTSerial("20260")...)
		must(w.Data(at, "board", capture.Read, answer))
	}
	return buf.Bytes()
}

// pliesBegin returns when each ply of the game begins in the undisturbed
// emulation (index 0: ply 1): the previous ply's press.
func pliesBegin(t *testing.T) ([]emulator.Chunk, []time.Duration) {
	t.Helper()
	var begins []time.Duration
	cfg := emuConfig(1)
	cfg.Observe = func(n emulator.Note) {
		if n.Kind == "press" && n.Ply == len(begins) {
			begins = append(begins, n.At)
		}
	}
	begins = append(begins, 0)
	em, err := emulator.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return em.Play(), begins
}

// TestUnplugReplay unplugs the board at random moments of the game for 1–30
// s, as the fault suite's unplug trials do through a pty, but on the bytes
// of the undisturbed emulation and a host that polls on time: the same
// inputs every run. Each trial is judged as the live trials are (verdict),
// and no penalty may be invented: the players played the game's moves.
func TestUnplugReplay(t *testing.T) {
	chunks, begins := pliesBegin(t)
	base := replayChunks(t, chunks)
	if base.RunErr != nil || base.Result != "end 1-0" {
		t.Fatalf("undisturbed replay: %v, outcome %q", base.RunErr, base.Result)
	}
	seed := masterSeed(t)
	seeds := trialSeeds(t, 10*trials(t), 950)
	var failed int
	for i, trialSeed := range seeds {
		r := rand.New(rand.NewSource(trialSeed))
		ply := 1 + r.Intn(len(begins))
		length := time.Duration(1+r.Intn(30)) * time.Second
		phase := time.Duration(r.Int63n(int64(pollInterval)))
		from, how := begins[ply-1], ""
		if r.Intn(2) == 0 {
			// unplugged as the press was made: its clock reading is lost
			from, how = from-time.Nanosecond, ", the press that began it lost"
		}
		what := fmt.Sprintf("trial %d (seed %d; %s): unplugged at ply %d%s for %v, polls at %v", i, trialSeed, rerun(t, trialSeed), ply, how, length, phase.Round(time.Millisecond))
		if err := judgeUnplug(t, base, unpluggedCapture(t, chunks, from, length, phase)); err != nil {
			failed++
			t.Errorf("%s: %v", what, err)
		}
	}
	t.Logf("unplug replay: %d trials: %d failed (master seed %d)", len(seeds), failed, seed)
}

// judgeUnplug replays capt and judges it against the undisturbed game.
func judgeUnplug(t *testing.T, base outcome, capt []byte) error {
	t.Helper()
	got := replayReader(bytes.NewReader(capt))
	if _, err := verdict(base, got); err != nil {
		return fmt.Errorf("%v\n%s", err, summary(got))
	}
	if p := penalties(got); len(p) > 0 {
		return fmt.Errorf("%d invented penalties\n%s", len(p), summary(got))
	}
	return nil
}

// TestUnplugPolledBack is item 8's trial (unplug@ply=26,for=4s) with a host
// that polls on time: the board comes back showing two plies on while play
// goes on fast, and every keep-alive dump shows the same squares again. A
// dump that shows nothing new must not restart the wait for the board to
// settle, or the plies are held, and the presses wait for them, for as long
// as the polls come faster than the scan lag.
func TestUnplugPolledBack(t *testing.T) {
	chunks, begins := pliesBegin(t)
	base := replayChunks(t, chunks)
	for _, phase := range []time.Duration{0, 130 * time.Millisecond, 500 * time.Millisecond, 870 * time.Millisecond} {
		if err := judgeUnplug(t, base, unpluggedCapture(t, chunks, begins[25], 4*time.Second, phase)); err != nil {
			t.Errorf("unplugged at ply 26 for 4 s, polls at %v: %v", phase, err)
		}
	}
}

// TestUnplugPressLost unplugs the board as White presses after 13.h5:
// the board showed h5, the clock reading of the press is lost with the
// board, and the first reading after the board is back shows three presses
// at once — White's for h5, Black's for 13...Qg5 and White's for 14.Qf3,
// made meanwhile. White's two presses are in the order made: the first
// completes h5, the second Qf3, and neither is a press without a move.
func TestUnplugPressLost(t *testing.T) {
	chunks, begins := pliesBegin(t)
	base := replayChunks(t, chunks)
	for _, phase := range []time.Duration{0, 130 * time.Millisecond, 500 * time.Millisecond, 870 * time.Millisecond} {
		if err := judgeUnplug(t, base, unpluggedCapture(t, chunks, begins[25]-time.Nanosecond, 4*time.Second, phase)); err != nil {
			t.Errorf("unplugged at ply 26 for 4 s, the press of ply 25 lost, polls at %v: %v", phase, err)
		}
	}
}

// TestUnplugCapture replays the capture of the live trial of item 8 (seed
// 7000030, unplug@ply=26,for=4s) that completed 18...Bxg1 as ply 36 and
// 19.e5 as ply 35, then raised false illegal-move and two-moves anomalies:
// the board came back showing Black's 13...Qg5 and White's queen on its way
// to f3, the keep-alive dumps kept the two plies held, and the presses of
// plies 26 to 34 waited for them. Replay is what arbiterd did live.
func TestUnplugCapture(t *testing.T) {
	chunks, _ := pliesBegin(t)
	base := replayChunks(t, chunks)
	got := replayCapture(filepath.Join("testdata", "unplug-7000030-misattributed.capture"))
	if got.RunErr != nil {
		t.Fatal(got.RunErr)
	}
	v, err := verdict(base, got)
	if err != nil {
		t.Fatalf("item 8: %v\n%s", err, summary(got))
	}
	if p := penalties(got); len(p) > 0 {
		t.Fatalf("item 8: %d invented penalties\n%s", len(p), summary(got))
	}
	t.Logf("unplug capture: %s (completed %+v, outcome %q)", v, got.Completed, got.Result)
}

// TestUnplugAbsencePresses replays a live trial whose board went away
// twice in quick succession while play went on: the first clock reading
// after its return showed the five presses made meanwhile, merged. They
// belong to the plies arbiterd could not verify and complete nothing;
// before, two were charged to White as presses without a move (7.5.3) and
// a third after the record was corrected.
func TestUnplugAbsencePresses(t *testing.T) {
	chunks, _ := pliesBegin(t)
	base := replayChunks(t, chunks)
	got := replayCapture(filepath.Join("testdata", "unplug-12000037-midslide.capture"))
	if got.RunErr != nil {
		t.Fatal(got.RunErr)
	}
	if _, err := verdict(base, got); err != nil {
		t.Fatalf("%v\n%s", err, summary(got))
	}
	if p := penalties(got); len(p) > 0 {
		t.Fatalf("%d invented penalties\n%s", len(p), summary(got))
	}
}
