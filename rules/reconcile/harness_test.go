package reconcile

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func sec(s float64) time.Duration { return time.Duration(math.Round(s * float64(time.Second))) }

// harness feeds a Game the inputs of a scenario: a shadow record is the
// game really played on the board; snapshots are built from it with
// rules.SnapshotOf, clock events by hand.
type harness struct {
	t      testing.TB
	g      *Game
	shadow *rules.Game
	board  rules.Snapshot // what is on the board, White at the bottom
	rotate bool           // the board reports itself turned round
	out    []Event
	log    []input // every input fed, for replaying (benchmarks, determinism)

	// a simple displayed-clock model for the scenarios
	clk     clockd.Times
	running clockd.Side
	since   float64
	inc     time.Duration
	halted  bool // the clock is stopped (6.11)
}

func newHarness(t testing.TB, cfg Config) *harness {
	t.Helper()
	if cfg.Board == "" {
		cfg.Board = "1"
	}
	g, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	sh, err := rules.NewGame(cfg.StartFEN)
	if err != nil {
		t.Fatalf("shadow: %v", err)
	}
	h := &harness{t: t, g: g, shadow: sh, board: rules.SnapshotOf(sh.Position())}
	if len(cfg.TimeControl.Periods) > 0 {
		p := cfg.TimeControl.Periods[0]
		h.clk = clockd.Times{White: p.Time, Black: p.Time}
		if p.Mode == clockd.Fischer {
			h.inc = p.Increment
		}
	} else {
		h.clk = clockd.Times{White: 5400 * time.Second, Black: 5400 * time.Second}
	}
	return h
}

func (h *harness) feed(evs []Event) {
	for _, e := range evs {
		checkText(h.t, e)
	}
	h.out = append(h.out, evs...)
}

// show reports the current board.
func (h *harness) show(at float64) {
	s := h.board
	if h.rotate {
		s = s.Rotated()
	}
	h.log = append(h.log, input{at: sec(at), snap: s, board: true})
	h.feed(h.g.Board(sec(at), s))
}

// dump shows the board as a board dump does (the board read afresh, as the
// keep-alive poll reads it each second).
func (h *harness) dump(at float64) {
	s := h.board
	if h.rotate {
		s = s.Rotated()
	}
	h.log = append(h.log, input{at: sec(at), snap: s, board: true, dump: true})
	h.feed(h.g.Dump(sec(at), s))
}

// input is one recorded input of a scenario.
type input struct {
	at    time.Duration
	board bool
	dump  bool
	snap  rules.Snapshot
	clock *clockd.ClockEvent
	state string // session
}

// replay feeds recorded inputs to g.
func replay(g *Game, log []input) []Event {
	var out []Event
	for _, in := range log {
		switch {
		case in.dump:
			out = append(out, g.Dump(in.at, in.snap)...)
		case in.board:
			out = append(out, g.Board(in.at, in.snap)...)
		case in.clock != nil:
			out = append(out, g.Clock(*in.clock)...)
		case in.state != "":
			out = append(out, g.Session(in.at, State(in.state), "board")...)
		default:
			out = append(out, g.Advance(in.at)...)
		}
	}
	return out
}

// opening shows the starting position, starts the clock at 1 s and plays
// sans one a second from 2 s on, each pressed half a second after it.
func (h *harness) opening(sans ...string) {
	h.t.Helper()
	h.show(0)
	h.start(1)
	for i, san := range sans {
		at := float64(2 + i)
		h.play(at, san)
		h.press(at+0.5, clockd.Side(i%2))
	}
}

// play makes moves (SAN) on the board and shows the result in one scan.
func (h *harness) play(at float64, sans ...string) {
	h.t.Helper()
	for _, s := range sans {
		if err := h.shadow.MoveSAN(s); err != nil {
			h.t.Fatalf("play %s: %v", s, err)
		}
	}
	h.board = rules.SnapshotOf(h.shadow.Position())
	h.show(at)
}

// unseen makes moves (SAN) on the board without showing them: moves made
// while the board was not read; the next show or dump reads them.
func (h *harness) unseen(sans ...string) {
	h.t.Helper()
	for _, s := range sans {
		if err := h.shadow.MoveSAN(s); err != nil {
			h.t.Fatalf("unseen %s: %v", s, err)
		}
	}
	h.board = rules.SnapshotOf(h.shadow.Position())
}

// put changes one square of the board without a move (noise, hands).
func (h *harness) put(at float64, square string, p chess.Piece) {
	h.t.Helper()
	sq := squareOf(h.t, square)
	h.board.Squares[sq] = p
	h.show(at)
}

func squareOf(t testing.TB, s string) chess.Square {
	t.Helper()
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		t.Fatalf("bad square %q", s)
	}
	return chess.Square(int(s[1]-'1')*8 + int(s[0]-'a'))
}

// setBoard puts a whole position on the board (FEN placement).
func (h *harness) setBoard(at float64, fen string) {
	h.t.Helper()
	opt, err := chess.FEN(fen)
	if err != nil {
		h.t.Fatalf("FEN: %v", err)
	}
	h.board = rules.SnapshotOf(chess.NewGame(opt).Position())
	h.show(at)
}

func (h *harness) tick(at float64) {
	d := sec(at - h.since)
	if h.halted {
		d = 0
	}
	if h.running == clockd.White {
		h.clk.White -= d
	} else {
		h.clk.Black -= d
	}
	h.since = at
}

func (h *harness) start(at float64) {
	h.since, h.running = at, clockd.White
	h.clock(clockd.ClockEvent{Kind: clockd.Started, At: sec(at)})
}

// press reports a press by side, with the displayed times of the model.
func (h *harness) press(at float64, side clockd.Side) {
	h.pressX(at, side, false)
}

func (h *harness) pressX(at float64, side clockd.Side, inferred bool) {
	h.tick(at)
	if side == clockd.White {
		h.clk.White += h.inc
	} else {
		h.clk.Black += h.inc
	}
	h.running = side.Other()
	h.clock(clockd.ClockEvent{Kind: clockd.Press, At: sec(at), Side: side, Inferred: inferred})
}

// addPeriod reports the clock adding a period to side.
func (h *harness) addPeriod(at float64, side clockd.Side, period int, added time.Duration) {
	if side == clockd.White {
		h.clk.White += added
	} else {
		h.clk.Black += added
	}
	h.clock(clockd.ClockEvent{Kind: clockd.PeriodAdded, At: sec(at), Side: side, Period: period, Added: added})
}

// flag reports side's flag: its time is zero.
func (h *harness) flag(at float64, side clockd.Side) {
	h.tick(at)
	if side == clockd.White {
		h.clk.White = 0
	} else {
		h.clk.Black = 0
	}
	h.clock(clockd.ClockEvent{Kind: clockd.Flag, At: sec(at), Side: side})
}

// halt stops the clock, as a hand on its stop button does.
func (h *harness) halt(at float64) {
	h.tick(at)
	h.halted = true
	h.clock(clockd.ClockEvent{Kind: clockd.Stopped, At: sec(at), Side: h.running})
}

// setTime changes side's time by d while the clock is stopped.
func (h *harness) setTime(at float64, side clockd.Side, d time.Duration) {
	if side == clockd.White {
		h.clk.White += d
	} else {
		h.clk.Black += d
	}
	h.clock(clockd.ClockEvent{Kind: clockd.Adjusted, At: sec(at), Side: side, Added: d})
}

// resume starts the stopped clock again.
func (h *harness) resume(at float64) {
	h.tick(at)
	h.halted = false
	h.clock(clockd.ClockEvent{Kind: clockd.Resumed, At: sec(at), Side: h.running})
}

func (h *harness) clock(ev clockd.ClockEvent) {
	if ev.Kind != clockd.Started {
		ev.Clock = h.clk
	}
	h.log = append(h.log, input{at: ev.At, clock: &ev})
	h.feed(h.g.Clock(ev))
}

func (h *harness) advance(at float64) {
	h.log = append(h.log, input{at: sec(at)})
	h.feed(h.g.Advance(sec(at)))
}

func (h *harness) end(at float64) {
	h.log = append(h.log, input{at: sec(at), state: "end"})
	h.feed(h.g.Session(sec(at), "end", "board"))
}

func (h *harness) jsonl() []byte {
	var b bytes.Buffer
	for _, e := range h.out {
		b.Write(Marshal(e))
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// golden compares the events with testdata/NAME.jsonl (rewritten with -update).
func (h *harness) golden(name string) {
	h.t.Helper()
	got := h.jsonl()
	path := filepath.Join("testdata", name+".jsonl")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			h.t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		h.t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) || i < len(wl); i++ {
			var a, b string
			if i < len(gl) {
				a = gl[i]
			}
			if i < len(wl) {
				b = wl[i]
			}
			if a != b {
				h.t.Fatalf("%s differs at line %d:\n got: %s\nwant: %s", path, i+1, a, b)
			}
		}
	}
}

// of returns the events of one type.
func (h *harness) of(tp Type) []Event {
	var r []Event
	for _, e := range h.out {
		if e.Type == tp {
			r = append(r, e)
		}
	}
	return r
}

// wantCompletions checks the completed plies, in order, as "1.e4 2.e5 …"
// (ply number and SAN).
func (h *harness) wantCompletions(want string) {
	h.t.Helper()
	var got []string
	for _, c := range h.of(TypeComplete) {
		got = append(got, fmt.Sprintf("%d.%s", c.Ply, c.SAN))
	}
	if strings.Join(got, " ") != want {
		h.t.Errorf("completed %q, want %q", strings.Join(got, " "), want)
	}
}

// anomalies lists the anomaly kinds in order.
func (h *harness) anomalies() []Kind {
	var r []Kind
	for _, e := range h.of(TypeAnomaly) {
		r = append(r, e.Kind)
	}
	return r
}

// joinKinds lists anomaly kinds separated by commas.
func joinKinds(kinds []Kind) string {
	s := make([]string, len(kinds))
	for i, k := range kinds {
		s[i] = string(k)
	}
	return strings.Join(s, ",")
}

func (h *harness) wantAnomalies(kinds ...Kind) {
	h.t.Helper()
	got := joinKinds(h.anomalies())
	if want := joinKinds(kinds); got != want {
		h.t.Errorf("anomalies = [%s], want [%s]\n%s", got, want, h.jsonl())
	}
}

func (h *harness) wantCompleted(white, black int) {
	h.t.Helper()
	if c := h.g.State().Completed; c.White != white || c.Black != black {
		h.t.Errorf("completed = %+v, want white %d black %d\n%s", c, white, black, h.jsonl())
	}
}

func mustTC(t testing.TB, s string) clockd.TimeControl {
	t.Helper()
	tc, err := clockd.ParseTimeControl(s)
	if err != nil {
		t.Fatalf("ParseTimeControl(%q): %v", s, err)
	}
	return tc
}
