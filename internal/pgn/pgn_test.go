package pgn

import (
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

func sec(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

func TestWriteFromEvents(t *testing.T) {
	tc, err := clockd.ParseTimeControl("40/5400+30:1800+30")
	if err != nil {
		t.Fatal(err)
	}
	g := New(Tags{Event: "Club \"Open\"", White: "Anand, V", Black: "Carlsen, M", Round: "3", Board: "12", TimeControl: tc, Date: "2026.11.30"})
	times := func(w, b float64) clockd.Times { return clockd.Times{White: sec(w), Black: sec(b)} }
	evs := []reconcile.Event{
		{Type: reconcile.TypePress, Side: clockd.White, At: sec(10), Clock: times(5420, 5430)},
		{Type: reconcile.TypeComplete, Ply: 1, Side: clockd.White, SAN: "e4", By: reconcile.ByPress, At: sec(10), Clock: times(5420, 5430), Moves: reconcile.Moves{White: 1}},
		{Type: reconcile.TypePress, Side: clockd.Black, At: sec(75), Clock: times(5420, 5395)},
		{Type: reconcile.TypeComplete, Ply: 2, Side: clockd.Black, SAN: "c5", By: reconcile.ByPress, At: sec(75), Clock: times(5420, 5395), Moves: reconcile.Moves{White: 1, Black: 1}},
		{Type: reconcile.TypeComplete, Ply: 3, Side: clockd.White, SAN: "Nf3", By: reconcile.ByPress, At: sec(80), Clock: times(5445, 5395), Moves: reconcile.Moves{White: 2, Black: 1}},
		{Type: reconcile.TypeRetract, Ply: 3, Reason: reconcile.ReasonTakeback},
		{Type: reconcile.TypeComplete, Ply: 3, Side: clockd.White, SAN: "Nc3", By: reconcile.ByPress, At: sec(90), Clock: times(5440, 5395), Moves: reconcile.Moves{White: 2, Black: 1}},
		{Type: reconcile.TypeFlag, Side: clockd.Black, Clock: times(5440, 0), Verdict: reconcile.VerdictLoss, Reason: "Black's flag fell after 1 completed move; the first period requires 40."},
	}
	for _, e := range evs {
		g.Add(e)
	}
	var b strings.Builder
	if err := g.Write(&b); err != nil {
		t.Fatal(err)
	}
	out := strings.Join(strings.Fields(b.String()), " ")
	for _, want := range []string{
		`[Event "Club \"Open\""]`, `[Round "3.12"]`, `[Result "1-0"]`, `[TimeControl "40/5400+30:1800+30"]`,
		`[WhiteClock "1:30:40"]`, `[BlackClock "0:00:00"]`, `[Termination "time forfeit"]`,
		"1. e4 {[%clk 1:30:20] [%emt 0:00:40]} 1... c5 {[%clk 1:29:55] [%emt 0:01:05]}",
		"2. Nc3 {[%clk 1:30:40]", "{Black's flag fell", "} 1-0",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("PGN lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Nf3") {
		t.Errorf("taken-back move still in the PGN:\n%s", out)
	}
	if len(g.Moves()) != 3 {
		t.Errorf("%d moves, want 3", len(g.Moves()))
	}
}

func TestStartFromFEN(t *testing.T) {
	g := New(Tags{StartFEN: "8/8/8/8/8/1N6/r1K5/k7 b - - 0 57"})
	g.Add(reconcile.Event{Type: reconcile.TypeComplete, Ply: 1, Side: clockd.Black, SAN: "Rb2", By: reconcile.ByPress, Clock: clockd.Times{White: sec(60), Black: sec(30)}})
	var b strings.Builder
	g.Write(&b)
	out := b.String()
	for _, want := range []string{`[SetUp "1"]`, `[FEN "8/8/8/8/8/1N6/r1K5/k7 b - - 0 57"]`, "57... Rb2 {[%clk 0:00:30]}"} {
		if !strings.Contains(out, want) {
			t.Errorf("PGN lacks %q:\n%s", want, out)
		}
	}
}

func TestClockFormat(t *testing.T) {
	for d, want := range map[time.Duration]string{0: "0:00:00", sec(5399.9): "1:29:59", sec(-3): "0:00:00", sec(36000): "10:00:00"} {
		if got := Clock(d); got != want {
			t.Errorf("Clock(%v) = %s, want %s", d, got, want)
		}
	}
}

// Plies arbiterd could not verify (made while the board was not read) are
// not invented: a comment says where they belong, and the moves after
// them keep their own move numbers.
func TestUnverifiedPliesLeaveAMarkedGap(t *testing.T) {
	g := New(Tags{})
	add := func(ply int, san string) {
		side := clockd.White
		if ply%2 == 0 {
			side = clockd.Black
		}
		g.Add(reconcile.Event{Type: reconcile.TypeComplete, Ply: ply, Side: side, SAN: san, By: reconcile.ByPress})
	}
	add(1, "e4")
	add(2, "e5")
	add(6, "Nf6") // plies 3 to 5 unverified
	add(7, "Bc4")
	add(9, "O-O") // ply 8 unverified
	var b strings.Builder
	if err := g.Write(&b); err != nil {
		t.Fatal(err)
	}
	out := strings.Join(strings.Fields(b.String()), " ")
	for _, want := range []string{
		"1... e5 {[%clk 0:00:00] [%emt 0:00:00]} {arbiterd: plies 3 to 5 were made while the board was not read and could not be verified} 3... Nf6",
		"4. Bc4 {[%clk 0:00:00] [%emt 0:00:00]} {arbiterd: ply 8 was made while the board was not read and could not be verified} 5. O-O",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("PGN lacks %q:\n%s", want, out)
		}
	}
}
