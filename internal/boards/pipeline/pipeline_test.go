package pipeline

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/driver/drivertest"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// captureOf plays cfg through the emulator with no host and writes what the
// board sent as a capture, with the given meta lines.
func captureOf(t testing.TB, cfg emulator.Config, meta ...string) []byte {
	t.Helper()
	e, err := emulator.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := capture.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Port("board", "dgt"); err != nil {
		t.Fatal(err)
	}
	for _, m := range meta {
		k, v, _ := strings.Cut(m, "=")
		if err := w.Meta(k, v); err != nil {
			t.Fatal(err)
		}
	}
	// A host asks for a board dump when it connects; Play has no host, so
	// the dump of the start position comes first, as it would live.
	fields := drivertest.DGTStartPosition()
	if cfg.Reversed {
		for i := 0; i < 32; i++ {
			fields[i], fields[63-i] = fields[63-i], fields[i]
		}
	}
	if err := w.Data(0, "board", capture.Read, drivertest.DGTBoardDump(fields)); err != nil {
		t.Fatal(err)
	}
	for _, c := range e.Play() {
		if err := w.Data(c.At, "board", capture.Read, c.Data); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

func replayAll(t testing.TB, capt []byte) ([]reconcile.Event, *Pipeline) {
	t.Helper()
	var evs []reconcile.Event
	p, err := Replay(bytes.NewReader(capt), Options{}, func(e reconcile.Event) error {
		evs = append(evs, e)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return evs, p
}

func count(evs []reconcile.Event, typ reconcile.Type) int {
	n := 0
	for _, e := range evs {
		if e.Type == typ {
			n++
		}
	}
	return n
}

func jsonl(evs []reconcile.Event) []byte {
	var b bytes.Buffer
	for _, e := range evs {
		b.Write(reconcile.Marshal(e))
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// A clean game through the real decoder and reconciliation: every ply is
// completed by a press, counted per side, with no anomaly but the clock
// stopping when the game runs out of moves.
func TestCleanGameAllOrientations(t *testing.T) {
	moves := strings.Fields("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7")
	for _, tc := range []struct {
		name              string
		reversed, onRight bool
		clockWhite        string
	}{
		{"white-bottom-left", false, false, "auto"},
		{"black-bottom-left", true, false, "auto"},
		{"white-bottom-right", false, true, "auto"},
		{"configured-right", true, true, "right"},
	} {
		for _, bits2015 := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/turn-bits-2015=%v", tc.name, bits2015), func(t *testing.T) {
				capt := captureOf(t, emulator.Config{Game: moves, Seed: 3, Reversed: tc.reversed, WhiteOnRight: tc.onRight, TurnBits2015: bits2015},
					"board=4", "timecontrol=40/5400+30:1800+30", "clock-white="+tc.clockWhite)
				evs, p := replayAll(t, capt)
				if got := count(evs, reconcile.TypeComplete); got != len(moves) {
					t.Fatalf("%d complete events, want %d\n%s", got, len(moves), jsonl(evs))
				}
				for _, e := range evs {
					if e.Type == reconcile.TypeAnomaly && e.Kind != reconcile.KindClockStopped {
						t.Errorf("unexpected anomaly: %s", reconcile.Marshal(e))
					}
					if e.Type == reconcile.TypeComplete && e.By != reconcile.ByPress {
						t.Errorf("completed by %s, want press: %s", e.By, reconcile.Marshal(e))
					}
				}
				last := p.Game().State()
				if last.Completed.White != 10 || last.Completed.Black != 10 {
					t.Errorf("completed moves %+v, want 10 each", last.Completed)
				}
			})
		}
	}
}

// A clock that adds the next period when a flag falls (as FIDE events set
// them) shows the flag with the new period's time. The flag belongs to
// the period whose time ran out: after the control it is no loss, and the
// game goes on, every later move completed and counted. Over both
// turn-bit conventions and both faces for White.
func TestFlagAfterControlOnAFlagAddClock(t *testing.T) {
	moves := strings.Fields("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7 c4 c6 cxb5 axb5 Nc3 Bb7")
	periods, err := emulator.ParseTimeControl("10/600+30:300+30")
	if err != nil {
		t.Fatal(err)
	}
	for _, onRight := range []bool{false, true} {
		for _, bits2015 := range []bool{false, true} {
			t.Run(fmt.Sprintf("white-right=%v/turn-bits-2015=%v", onRight, bits2015), func(t *testing.T) {
				// Ply 23 is White's 12th move: White oversteps with 11
				// moves completed, past the control of 10.
				capt := captureOf(t, emulator.Config{Game: moves, Seed: 5, WhiteOnRight: onRight, TurnBits2015: bits2015,
					Periods: periods, PeriodBy: emulator.AtFlag, Script: []emulator.Action{{Kind: emulator.Flag, Ply: 23}}},
					"timecontrol=10/600+30:300+30")
				evs, p := replayAll(t, capt)
				var flags []reconcile.Event
				for _, e := range evs {
					switch e.Type {
					case reconcile.TypeFlag:
						flags = append(flags, e)
					case reconcile.TypeAnomaly:
						if e.Kind != reconcile.KindClockStopped {
							t.Errorf("unexpected anomaly: %s", reconcile.Marshal(e))
						}
					case reconcile.TypeEnd:
						t.Errorf("the game ended: %s", reconcile.Marshal(e))
					}
				}
				if len(flags) != 1 {
					t.Fatalf("%d flags, want 1\n%s", len(flags), jsonl(evs))
				}
				f := flags[0]
				if f.Side != clockd.White || f.Period != 1 || f.Verdict != reconcile.VerdictNone || !f.ControlReached || f.MovesCompleted != 11 {
					t.Errorf("flag %s: want White's in period 1 after 11 moves, control reached, verdict none", reconcile.Marshal(f))
				}
				if got := count(evs, reconcile.TypeComplete); got != len(moves) {
					t.Errorf("%d plies completed, want %d", got, len(moves))
				}
				if c := p.Game().State().Completed; c.White != 13 || c.Black != 13 {
					t.Errorf("completed %+v, want 13 each", c)
				}
			})
		}
	}
}

// Replay is a deterministic function of the capture.
func TestReplayDeterministic(t *testing.T) {
	capt := captureOf(t, emulator.Config{Game: strings.Fields("d4 d5 c4 e6 Nc3 Nf6 Bg5 Be7"), Seed: 9},
		"timecontrol=300+2")
	a, _ := replayAll(t, capt)
	b, _ := replayAll(t, capt)
	if !bytes.Equal(jsonl(a), jsonl(b)) {
		t.Fatal("two replays of the same capture differ")
	}
}

// Bad meta values are reported with the capture line that holds them.
func TestBadMetaNamesLine(t *testing.T) {
	capt := "#capture v1\n#port board dgt\n#meta timecontrol=40/90x\n0.000000 board r 8e\n"
	_, err := Replay(strings.NewReader(capt), Options{}, func(reconcile.Event) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "line 3") || !strings.Contains(err.Error(), "timecontrol") {
		t.Fatalf("error %v, want one naming line 3 and the time control", err)
	}
	capt = "#capture v1\n#port board millennium\n"
	_, err = Replay(strings.NewReader(capt), Options{}, func(reconcile.Event) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "line 2") || !strings.Contains(err.Error(), "millennium") {
		t.Fatalf("error %v, want one naming line 2 and the driver", err)
	}
}

// The session marker comment reproduces connection changes in replay.
func TestSessionMarker(t *testing.T) {
	capt := captureOf(t, emulator.Config{Game: strings.Fields("e4 e5")}, "board=1")
	capt = append(capt, []byte("#"+FormatSessionMarker(90*time.Second, "board", "disconnected")+"\n")...)
	evs, _ := replayAll(t, capt)
	found := false
	for _, e := range evs {
		if e.Type == reconcile.TypeSession && e.State == "disconnected" && e.At == 90*time.Second {
			found = true
		}
	}
	if !found {
		t.Fatalf("no disconnected session event at 90 s:\n%s", jsonl(evs))
	}
}
