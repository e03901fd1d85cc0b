package pipeline

import (
	"bytes"
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/driver/drivertest"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// separateClockCapture plays cfg with no clock on the board and the game's
// clock on a lineclock of its own, and writes a capture with a "board" dgt
// port and a "clock" lineclock port, the data of both merged in time order.
func separateClockCapture(t testing.TB, cfg emulator.Config, tc string, meta ...string) []byte {
	t.Helper()
	ctl, err := clockd.ParseTimeControl(tc)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Periods, err = emulator.ParseTimeControl(tc); err != nil {
		t.Fatal(err)
	}
	lc := emulator.NewLineClock(ctl, cfg.WhiteOnRight)
	var end time.Duration // the last thing the emulation did (a flag sends no board bytes)
	cfg.Observe = func(n emulator.Note) {
		end = max(end, n.At)
		lc.Observe(n)
	}
	cfg.NoClock = true
	e, err := emulator.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	type rec struct {
		at   time.Duration
		port string
		data []byte
	}
	recs := []rec{{0, "board", drivertest.DGTBoardDump(drivertest.DGTStartPosition())}}
	for _, c := range e.Play() {
		recs = append(recs, rec{c.At, "board", c.Data})
		end = max(end, c.At)
	}
	for _, c := range lc.Take(end + 2*time.Second) {
		recs = append(recs, rec{c.At, "clock", c.Data})
	}
	sort.SliceStable(recs, func(i, j int) bool { return recs[i].at < recs[j].at })

	var buf bytes.Buffer
	w, err := capture.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range [][2]string{{"board", "dgt"}, {"clock", "lineclock"}} {
		if err := w.Port(p[0], p[1]); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range append([]string{"timecontrol=" + tc}, meta...) {
		k, v, _ := strings.Cut(m, "=")
		if err := w.Meta(k, v); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range recs {
		if err := w.Data(r.at, r.port, capture.Read, r.data); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

// A board with no clock and a separate lineclock: every ply is completed by
// a lineclock press with the right counts, and the flag that ends the game
// gets its verdict — the clock readings come from the clock's own port.
func TestSeparateLineClock(t *testing.T) {
	moves := strings.Fields("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7 c4")
	for _, tc := range []struct {
		name       string
		onRight    bool
		clockWhite string
	}{
		{"white-left-auto", false, "auto"},
		{"white-right-auto", true, "auto"},
		{"white-right-configured", true, "right"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			capt := separateClockCapture(t, emulator.Config{Game: moves, Seed: 4, WhiteOnRight: tc.onRight, End: emulator.EndFlag,
				ThinkTime: func(int) time.Duration { return 4 * time.Second }}, "180+2", "board=7", "clock-white="+tc.clockWhite)
			evs, p := replayAll(t, capt)
			var presses [2]int
			completes := 0
			var flag *reconcile.Event
			for i, e := range evs {
				switch e.Type {
				case reconcile.TypeComplete:
					completes++
					if e.By != reconcile.ByPress {
						t.Errorf("completed by %s, want press: %s", e.By, reconcile.Marshal(e))
					}
					want := (e.Ply + 1) / 2
					if got := e.Moves.Of(e.Side); got != want {
						t.Errorf("ply %d: %s has completed %d moves, want %d", e.Ply, e.Side, got, want)
					}
				case reconcile.TypePress:
					presses[e.Side]++
				case reconcile.TypeAnomaly:
					t.Errorf("unexpected anomaly: %s", reconcile.Marshal(e))
				case reconcile.TypeFlag:
					flag = &evs[i]
				}
			}
			if completes != len(moves) {
				t.Fatalf("%d complete events, want %d\n%s", completes, len(moves), jsonl(evs))
			}
			if presses[clockd.White] != 11 || presses[clockd.Black] != 10 {
				t.Errorf("presses white %d black %d, want 11 and 10", presses[clockd.White], presses[clockd.Black])
			}
			if flag == nil {
				t.Fatalf("no flag event:\n%s", jsonl(evs))
			}
			// After 21 plies Black is to move and thinks until the flag: the
			// last period, so a loss unless White cannot mate (White can).
			if flag.Side != clockd.Black || flag.Verdict != reconcile.VerdictLoss {
				t.Errorf("flag %s, want Black's flag with verdict loss", reconcile.Marshal(*flag))
			}
			if st := p.Game().State(); st.Completed.White != 11 || st.Completed.Black != 10 {
				t.Errorf("completed moves %+v, want 11 and 10", st.Completed)
			}
			if s, ok := p.ClockStats(); !ok || s.Bad != 0 || s.Gaps != 0 || s.Messages == 0 {
				t.Errorf("clock line stats %+v (ok %v), want messages and no bad line or gap", s, ok)
			}
		})
	}
}

// With a lineclock declared, the board's own clock messages are not clock
// readings: a board reporting "no clock" raises no clock-disconnected
// anomaly, and a BWTIME showing other times changes nothing.
func TestLineClockIgnoresBoardClock(t *testing.T) {
	moves := strings.Fields("d4 d5 c4 e6")
	capt := separateClockCapture(t, emulator.Config{Game: moves, Seed: 2}, "300+2")
	ref, _ := replayAll(t, capt)
	noClock := drivertest.DGTClock(drivertest.Face{}, drivertest.Face{}, drivertest.ClockNone)
	other := drivertest.DGTClock(drivertest.Face{Time: 17 * time.Second}, drivertest.Face{Time: 42 * time.Second},
		drivertest.ClockRunning|drivertest.ClockLeftTurn)
	lines := strings.SplitAfter(string(capt), "\n")
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		if strings.Contains(l, " board r ") {
			at := strings.Fields(l)[0]
			fmt.Fprintf(&b, "%s board r %x\n%s board r %x\n", at, noClock, at, other)
		}
	}
	got, _ := replayAll(t, []byte(b.String()))
	if !bytes.Equal(jsonl(ref), jsonl(got)) {
		t.Fatalf("the board's clock messages changed the events:\nwithout:\n%s\nwith:\n%s", jsonl(ref), jsonl(got))
	}
}

// A game has one clock: a second lineclock port is refused, naming both;
// a port declared again with another driver is refused.
func TestSecondLineClockRefused(t *testing.T) {
	for _, tc := range []struct{ capt, want string }{
		{"#capture v1\n#port board dgt\n#port clock lineclock\n#port clock2 lineclock\n", "line 4"},
		{"#capture v1\n#port board dgt\n#port clock lineclock\n", ""},
	} {
		_, err := Replay(strings.NewReader(tc.capt), Options{}, func(reconcile.Event) error { return nil })
		if tc.want == "" {
			if err != nil {
				t.Errorf("%q: %v", tc.capt, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "clock2") || !strings.Contains(err.Error(), "one clock") {
			t.Errorf("%q: error %v, want one naming %s, clock2 and the one-clock rule", tc.capt, err, tc.want)
		}
	}
	p := New(Options{})
	if _, err := p.Port("clock", "lineclock"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Port("clock", "dgt"); err == nil || !strings.Contains(err.Error(), "lineclock") {
		t.Errorf("redeclaring clock as dgt: %v, want an error naming the old driver", err)
	}
}

// A clock port's disconnection marker is a clock-disconnected anomaly.
func TestLineClockDisconnectedMarker(t *testing.T) {
	capt := separateClockCapture(t, emulator.Config{Game: strings.Fields("e4 e5 Nf3")}, "300+2")
	capt = append(capt, "#"+FormatSessionMarker(20*time.Second, "clock", "disconnected")+"\n"...)
	evs, _ := replayAll(t, capt)
	n := 0
	for _, e := range evs {
		if e.Type == reconcile.TypeAnomaly && e.Kind != reconcile.KindClockStopped { // the players stop the clock at the end
			if e.Kind != reconcile.KindClockDisconnected {
				t.Errorf("anomaly %s, want only clock-disconnected", reconcile.Marshal(e))
			}
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d other anomalies, want one clock-disconnected:\n%s", n, jsonl(evs))
	}
}

// Whatever arrives on the clock's line — random bytes spliced into its
// lines at random places — the replay never fails: bad lines are counted
// and skipped, the board's moves are still reconstructed, and the same
// capture gives the same events.
func TestLineClockGarbageProperty(t *testing.T) {
	moves := strings.Fields("e4 e5 Nf3 Nc6 Bb5 a6")
	base := separateClockCapture(t, emulator.Config{Game: moves, Seed: 8}, "300+2")
	rng := rand.New(rand.NewSource(1))
	bad := 0
	for i := 0; i < 30; i++ {
		var b strings.Builder
		for _, l := range strings.SplitAfter(string(base), "\n") {
			f := strings.Fields(l)
			if len(f) == 4 && f[1] == "clock" && rng.Intn(3) == 0 {
				junk := make([]byte, 1+rng.Intn(40))
				rng.Read(junk)
				fmt.Fprintf(&b, "%s clock r %x\n", f[0], junk)
			}
			b.WriteString(l)
		}
		capt := []byte(b.String())
		a, p := replayAll(t, capt)
		again, _ := replayAll(t, capt)
		if !bytes.Equal(jsonl(a), jsonl(again)) {
			t.Fatalf("round %d: two replays differ", i)
		}
		if got := count(a, reconcile.TypeMove); got < len(moves) {
			t.Errorf("round %d: %d move events, want at least %d", i, got, len(moves))
		}
		s, _ := p.ClockStats()
		if s.Messages == 0 {
			t.Errorf("round %d: no clock line decoded", i)
		}
		bad += s.Bad
	}
	if bad == 0 {
		t.Error("no bad clock line in 30 rounds of garbage: the test does not test")
	}
}

// BenchmarkReplaySeparateClock replays a 60-ply game with a board and a
// separate lineclock (its STATUS lines every 500 ms included).
func BenchmarkReplaySeparateClock(b *testing.B) {
	capt := separateClockCapture(b, emulator.Config{Game: longGame(b, 60), Seed: 5}, "40/5400+30:1800+30")
	b.SetBytes(int64(len(capt)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Replay(bytes.NewReader(capt), Options{}, func(reconcile.Event) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}

// A port is the clock because its declared driver is lineclock, not
// because of its name: a lineclock port named "timer" that goes away is
// the clock's disconnection, a DGT board on a port named "clockside" the
// board's.
func TestClockIsTheDeclaredDriver(t *testing.T) {
	capt := string(separateClockCapture(t, emulator.Config{Game: strings.Fields("e4 e5 Nf3")}, "300+2"))
	capt = strings.ReplaceAll(capt, " clock ", " timer ")
	if !strings.Contains(capt, "#port timer lineclock\n") {
		t.Fatalf("the clock port was not renamed:\n%s", capt)
	}
	capt += "#" + FormatSessionMarker(20*time.Second, "timer", "disconnected") + "\n"
	evs, _ := replayAll(t, []byte(capt))
	kinds := map[reconcile.Kind]int{}
	for _, e := range evs {
		if e.Type == reconcile.TypeAnomaly {
			kinds[e.Kind]++
		}
	}
	if kinds[reconcile.KindClockDisconnected] != 1 || kinds[reconcile.KindBoardDisconnected] != 0 {
		t.Fatalf("anomalies %v, want one clock-disconnected:\n%s", kinds, jsonl(evs))
	}

	p := New(Options{})
	if _, err := p.Port("clockside", "dgt"); err != nil {
		t.Fatal(err)
	}
	out, err := p.Session(time.Second, "clockside", "disconnected")
	if err != nil {
		t.Fatal(err)
	}
	var got []reconcile.Kind
	for _, e := range out {
		if e.Type == reconcile.TypeAnomaly {
			got = append(got, e.Kind)
		}
	}
	if len(got) != 1 || got[0] != reconcile.KindBoardDisconnected {
		t.Fatalf("a DGT port named clockside gave anomalies %v, want board-disconnected", got)
	}
}
