package pgn

import (
	"strings"
	"testing"
	"time"

	"github.com/notnil/chess"

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

// A ply the board showed before an absence, never completed, is among the
// plies the unverified-moves anomaly names (after its verified_ply): the
// movetext does not write it as a move.
func TestAPlyShownBeforeAnAbsenceIsInTheGap(t *testing.T) {
	g := New(Tags{})
	g.Add(reconcile.Event{Type: reconcile.TypeComplete, Ply: 1, Side: clockd.White, SAN: "e4", By: reconcile.ByPress})
	g.Add(reconcile.Event{Type: reconcile.TypeComplete, Ply: 2, Side: clockd.Black, SAN: "e5", By: reconcile.ByPress})
	g.Add(reconcile.Event{Type: reconcile.TypeMove, Ply: 3, Side: clockd.White, SAN: "Nf3"})
	g.Add(reconcile.Event{Type: reconcile.TypeAnomaly, Kind: reconcile.KindUnverified, NoSide: true, Ply: 2, Made: 4,
		Plies: []string{"Nf3", "Nc6", "Bb5", "a6"}, FEN: "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4"})
	g.Add(reconcile.Event{Type: reconcile.TypeMove, Ply: 7, Side: clockd.White, SAN: "Ba4"})
	g.Add(reconcile.Event{Type: reconcile.TypeComplete, Ply: 7, Side: clockd.White, SAN: "Ba4", By: reconcile.ByPress})
	var b strings.Builder
	if err := g.Write(&b); err != nil {
		t.Fatal(err)
	}
	out := strings.Join(strings.Fields(b.String()), " ")
	want := "1... e5 {[%clk 0:00:00] [%emt 0:00:00]} {arbiterd: plies 3 to 6 were made while the board was not read and could not be verified} 4. Ba4"
	if !strings.Contains(out, want) || strings.Contains(out, "Nf3") {
		t.Errorf("PGN lacks %q, or writes Nf3 as a move:\n%s", want, out)
	}
}

// A forgotten press (6.2.1): Black's 2...Nc6 is not pressed, White replies
// 3.Bb5 (White's clock is not running, so White cannot press) and Black's
// 3...a6 is pressed. The presses complete ply 6 before ply 5, which its
// side's next move completes later; the record keeps the board's order
// and a PGN reader accepts it at every step.
func TestCompletionsOutOfBoardOrder(t *testing.T) {
	g := New(Tags{})
	game := strings.Fields("e4 e5 Nf3 Nc6 Bb5 a6 Ba4")
	side := func(ply int) clockd.Side {
		if ply%2 == 0 {
			return clockd.Black
		}
		return clockd.White
	}
	n := reconcile.Moves{}
	move := func(ply int) {
		g.Add(reconcile.Event{Type: reconcile.TypeMove, Ply: ply, Side: side(ply), SAN: game[ply-1]})
	}
	complete := func(ply int, by reconcile.By) {
		if side(ply) == clockd.White {
			n.White++
		} else {
			n.Black++
		}
		g.Add(reconcile.Event{Type: reconcile.TypeComplete, Ply: ply, Side: side(ply), SAN: game[ply-1], By: by, Moves: n})
	}
	read := func(want string) {
		t.Helper()
		var b strings.Builder
		if err := g.Write(&b); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(readPGN(t, b.String()), " "); got != want {
			t.Fatalf("the PGN reads %q, want %q\n%s", got, want, b.String())
		}
	}
	for ply := 1; ply <= 3; ply++ {
		move(ply)
		complete(ply, reconcile.ByPress)
	}
	move(4) // 2...Nc6, not pressed
	move(5) // 3.Bb5
	read("e4 e5 Nf3")
	move(6)
	complete(4, reconcile.ByNextMove)
	complete(6, reconcile.ByPress)
	read("e4 e5 Nf3 Nc6 Bb5 a6")
	var b strings.Builder
	g.Write(&b)
	if out := strings.Join(strings.Fields(b.String()), " "); !strings.Contains(out, "3. Bb5 a6 {[%clk") {
		t.Errorf("the uncompleted ply is not written as made, without a clock:\n%s", out)
	}
	if len(g.Moves()) != 5 {
		t.Errorf("%d completed moves, want 5", len(g.Moves()))
	}
	move(7)
	complete(5, reconcile.ByNextMove)
	complete(7, reconcile.ByPress)
	read("e4 e5 Nf3 Nc6 Bb5 a6 Ba4")
	for i, m := range g.Moves() {
		if m.Ply != i+1 {
			t.Fatalf("Moves() out of the board's order: %+v", g.Moves())
		}
	}
	// a take-back of the completed reply takes the uncompleted ply with it
	g.Add(reconcile.Event{Type: reconcile.TypeRetract, Ply: 7, Reason: reconcile.ReasonTakeback})
	g.Add(reconcile.Event{Type: reconcile.TypeRetract, Ply: 6, Reason: reconcile.ReasonTakeback})
	read("e4 e5 Nf3 Nc6 Bb5")
}

// readPGN re-reads a PGN with notnil/chess's PGN reader, which refuses a
// movetext that is not a legal game, and returns its moves in SAN.
func readPGN(t *testing.T, text string) []string {
	t.Helper()
	opt, err := chess.PGN(strings.NewReader(text))
	if err != nil {
		t.Fatalf("a PGN reader refuses the PGN: %v\n%s", err, text)
	}
	g := chess.NewGame(opt)
	pos := g.Positions()
	var out []string
	for i, m := range g.Moves() {
		out = append(out, chess.AlgebraicNotation{}.Encode(pos[i], m))
	}
	return out
}

// A flag that ends nothing (the control was reached; the clock added the
// next period at the flag): the move the flagging player then completes
// took the time to the flag and the time after it, so its %emt is the
// old clock plus the period added, minus the clock after, plus the
// increment — not the time since the flag alone.
func TestEMTAcrossAFlagThatEndsNothing(t *testing.T) {
	tc, err := clockd.ParseTimeControl("10/600+30:300+30")
	if err != nil {
		t.Fatal(err)
	}
	g := New(Tags{TimeControl: tc})
	times := func(w, b float64) clockd.Times { return clockd.Times{White: sec(w), Black: sec(b)} }
	for _, e := range []reconcile.Event{
		{Type: reconcile.TypeComplete, Ply: 23, Side: clockd.White, SAN: "h4", By: reconcile.ByPress, At: sec(1610), Clock: times(214, 133), Moves: reconcile.Moves{White: 12, Black: 11}},
		{Type: reconcile.TypeComplete, Ply: 24, Side: clockd.Black, SAN: "Qg6", By: reconcile.ByPress, At: sec(1643), Clock: times(214, 130), Moves: reconcile.Moves{White: 12, Black: 12}},
		{Type: reconcile.TypePeriod, Side: clockd.White, Period: 2, Added: sec(300)},
		{Type: reconcile.TypeFlag, Side: clockd.White, Clock: times(0, 130), Period: 1, Verdict: reconcile.VerdictNone},
		{Type: reconcile.TypeComplete, Ply: 25, Side: clockd.White, SAN: "h5", By: reconcile.ByPress, At: sec(1907), Clock: times(280, 130), Moves: reconcile.Moves{White: 13, Black: 12}},
	} {
		g.Add(e)
	}
	ms := g.Moves()
	if got, want := ms[len(ms)-1].EMT, sec(214+300+30-280); got != want {
		t.Errorf("%%emt of the move after the flag %v, want %v", got, want)
	}
}

// The arbiter's change of a clock is a comment after the move it followed,
// and the next move's %emt counts from the time set, not the time before.
func TestAdjustIsACommentAndTheNextEMTCountsFromIt(t *testing.T) {
	tc, err := clockd.ParseTimeControl("40/5400+30:1800+30")
	if err != nil {
		t.Fatal(err)
	}
	g := New(Tags{TimeControl: tc})
	times := func(w, b float64) clockd.Times { return clockd.Times{White: sec(w), Black: sec(b)} }
	for _, e := range []reconcile.Event{
		{Type: reconcile.TypeComplete, Ply: 1, Side: clockd.White, SAN: "e4", By: reconcile.ByPress, Clock: times(5420, 5430), Moves: reconcile.Moves{White: 1}},
		{Type: reconcile.TypeAdjust, Side: clockd.White, From: sec(5420), To: sec(5540), Delta: sec(120), Clock: times(5540, 5400), Article: "7.5.5"},
		{Type: reconcile.TypeComplete, Ply: 2, Side: clockd.Black, SAN: "e5", By: reconcile.ByPress, Clock: times(5540, 5390), Moves: reconcile.Moves{White: 1, Black: 1}},
	} {
		g.Add(e)
	}
	var b strings.Builder
	if err := g.Write(&b); err != nil {
		t.Fatal(err)
	}
	want := "1. e4 {[%clk 1:30:20] [%emt 0:00:40]} {arbiterd: the arbiter set White's clock +2:00 to 1:32:20 (7.5.5)} 1... e5"
	if !strings.Contains(strings.ReplaceAll(b.String(), "\n", " "), want) {
		t.Errorf("movetext:\n%s\nwant it to contain:\n%s", b.String(), want)
	}
	// Black had 5400 when the clock restarted; 5390 after a move with a
	// 30 s increment: 40 s used.
	if got := g.Moves()[1].EMT; got != sec(40) {
		t.Errorf("%%emt of the move after the adjustment %v, want 40 s", got)
	}
}

// A claim and its decision are comments where they happened.
func TestClaimIsAComment(t *testing.T) {
	g := New(Tags{})
	g.Add(reconcile.Event{Type: reconcile.TypeComplete, Ply: 1, Side: clockd.White, SAN: "e4", By: reconcile.ByPress, Moves: reconcile.Moves{White: 1}})
	g.Add(reconcile.Event{Type: reconcile.TypeClaim, Side: clockd.White, Article: "10.2"})
	g.Add(reconcile.Event{Type: reconcile.TypeDecision, Side: clockd.White, Decision: reconcile.DecisionRejected, Article: "10.2"})
	var b strings.Builder
	if err := g.Write(&b); err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(b.String(), "\n", " ")
	for _, want := range []string{"{arbiterd: white claims a draw (10.2)}", "{arbiterd: the arbiter rejected White's claim (10.2)}"} {
		if !strings.Contains(text, want) {
			t.Errorf("PGN lacks %q:\n%s", want, b.String())
		}
	}
}

// The players' tags as lichess's broadcasts and LiveChess write them,
// after the seven-tag roster; unknown values are left out.
func TestPlayerTags(t *testing.T) {
	tc, err := clockd.ParseTimeControl("40/5400+30:1800+30")
	if err != nil {
		t.Fatal(err)
	}
	g := New(Tags{Event: "Masters", Site: "Wijk aan Zee, NL", Date: "2026.01.17", Round: "13", Board: "5",
		White: "Giri, Anish", Black: "Niemann, Hans Moke", TimeControl: tc,
		WhitePlayer: Player{FideID: "24116068", Elo: "2760", Title: "GM", Federation: "NED"},
		BlackPlayer: Player{FideID: "2093596", Title: "GM", Team: "USA"}})
	var b strings.Builder
	if err := g.Write(&b); err != nil {
		t.Fatal(err)
	}
	want := `[Event "Masters"]
[Site "Wijk aan Zee, NL"]
[Date "2026.01.17"]
[Round "13.5"]
[White "Giri, Anish"]
[Black "Niemann, Hans Moke"]
[Result "*"]
[Board "5"]
[WhiteFideId "24116068"]
[BlackFideId "2093596"]
[WhiteElo "2760"]
[WhiteTitle "GM"]
[BlackTitle "GM"]
[WhiteFederation "NED"]
[BlackTeam "USA"]
[TimeControl "40/5400+30:1800+30"]
`
	if !strings.HasPrefix(b.String(), want) {
		t.Errorf("tags:\n%s\nwant them to start:\n%s", b.String(), want)
	}
	var plain strings.Builder
	New(Tags{White: "A", Black: "B"}).Write(&plain)
	if strings.Contains(plain.String(), "Elo") || strings.Contains(plain.String(), "FideId") {
		t.Errorf("tags without values:\n%s", plain.String())
	}
}
