package reconcile

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules"
)

const (
	W = clockd.White
	B = clockd.Black
)

// randomGame returns the UCI moves of a seeded random legal game of n plies
// that does not end before its last ply.
func randomGame(t testing.TB, seed uint64, n int) []string {
	t.Helper()
	for s := seed; s < seed+1000; s++ {
		r := rand.New(rand.NewPCG(s, 7))
		g, err := rules.NewGame("")
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for len(out) < n && !g.Status().Over {
			ms := g.Position().ValidMoves()
			m := ms[r.IntN(len(ms))]
			if err := g.Move(m); err != nil {
				t.Fatal(err)
			}
			out = append(out, g.UCI(g.Ply()))
		}
		if len(out) == n && (!g.Status().Over || n == 0) {
			return out
		}
	}
	t.Fatalf("no random game of %d plies", n)
	return nil
}

// playUCI makes one move given in UCI on the board.
func (h *harness) playUCI(at float64, uci string) {
	h.t.Helper()
	if err := h.shadow.MoveUCI(uci); err != nil {
		h.t.Fatalf("play %s: %v", uci, err)
	}
	h.board = rules.SnapshotOf(h.shadow.Position())
	h.show(at)
}

// fixedOracle answers every 6.9 question the same way (the mapping of the
// answers to verdicts is under test, not the analysis).
type fixedOracle struct {
	answer Mate
	line   []string
}

func (o fixedOracle) CanMate(string, clockd.Side) (Mate, []string) { return o.answer, o.line }

var standardTC = "40/5400+30:1800+30"

func TestCleanGameTo41(t *testing.T) {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	moves := randomGame(t, 1, 82)
	done := [2]int{}
	at := 2.0
	for i, m := range moves {
		side := clockd.Side(i % 2)
		h.playUCI(at, m)
		h.press(at+0.4, side)
		done[side]++
		if done[side] == 40 {
			h.addPeriod(at+0.4, side, 2, 1800*time.Second)
		}
		at += 10
	}
	h.end(at)
	h.wantAnomalies()
	h.wantCompleted(41, 41)
	if n := len(h.of(TypePeriod)); n != 2 {
		t.Errorf("%d period events, want 2", n)
	}
	for _, e := range h.of(TypeComplete) {
		if e.By != ByPress {
			t.Errorf("ply %d completed by %s, want press", e.Ply, e.By)
		}
	}
	h.golden("clean-41")
}

func TestFlagAt38MatingOpponent(t *testing.T) {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC), Oracle: fixedOracle{"yes", []string{"d1h5", "e8e7", "h5e5"}}})
	h.show(0)
	h.start(1)
	moves := randomGame(t, 2, 75)
	at := 2.0
	for i, m := range moves {
		h.playUCI(at, m)
		h.press(at+0.5, clockd.Side(i%2))
		at += 60
	}
	h.flag(at+30, B)
	h.advance(at + 35)
	h.wantAnomalies()
	h.wantCompleted(38, 37)
	f := h.of(TypeFlag)
	if len(f) != 1 || f[0].Verdict != VerdictLoss || f[0].MovesRequired != 40 || f[0].MovesCompleted != 37 || f[0].ControlReached || f[0].Article != "6.9" {
		t.Fatalf("flag = %+v", f)
	}
	if e := h.of(TypeEnd); len(e) != 1 || e[0].Result != "1-0" {
		t.Fatalf("end = %+v", e)
	}
	h.golden("flag-38-loss")
}

func TestFlagOpponentBareKingDraw(t *testing.T) {
	h := newHarness(t, Config{StartFEN: "8/8/8/4k3/8/8/3QK3/8 w - - 0 60", TimeControl: mustTC(t, "5400+30")})
	h.show(0)
	h.start(1)
	h.flag(30, W)
	h.advance(32)
	h.wantAnomalies()
	f := h.of(TypeFlag)
	if len(f) != 1 || f[0].Verdict != VerdictDraw || f[0].OpponentCanMate != "no" || f[0].MovesRequired != 0 || f[0].MovesCompleted != 59 {
		t.Fatalf("flag = %+v", f)
	}
	if e := h.of(TypeEnd); len(e) != 1 || e[0].Result != "1/2-1/2" {
		t.Fatalf("end = %+v", e)
	}
	h.golden("flag-bare-king-draw")
}

func TestFlagAfterControlNone(t *testing.T) {
	h := newHarness(t, Config{StartFEN: "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 40", TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(10, "Bb5")
	h.press(10.5, W)
	h.play(20, "a6")
	h.press(20.5, B)
	h.flag(40, W)
	h.addPeriod(40.2, W, 2, 1800*time.Second) // the clock adds the period at the flag, to both
	h.addPeriod(40.2, B, 2, 1800*time.Second)
	h.play(50, "Ba4")
	h.press(50.5, W)
	h.advance(53)
	h.wantAnomalies()
	h.wantCompleted(41, 40)
	f := h.of(TypeFlag)
	if len(f) != 1 || f[0].Verdict != VerdictNone || !f[0].ControlReached || f[0].Period != 1 || f[0].MovesRequired != 40 {
		t.Fatalf("flag = %+v", f)
	}
	if len(h.of(TypeEnd)) != 0 {
		t.Fatal("the game ended after a flag with the control reached")
	}
	h.golden("flag-after-control-none")
}

func TestPressWithoutMove(t *testing.T) {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(5, "e4")
	h.press(5.3, W)
	h.press(12, B) // Black presses without moving
	h.advance(14)
	h.play(20, "e5")
	h.play(30, "Nf3")
	h.press(30.2, W)
	h.advance(35)
	h.wantAnomalies(KindPressWithoutMove, KindMoveWithoutPress)
	h.wantCompleted(2, 0)
	h.golden("press-without-move")
}

func TestMoveWithoutPressAtFlag(t *testing.T) {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(5, "d4")
	h.press(5.3, W)
	h.play(9, "d5")
	h.press(9.2, B)
	h.play(5400, "c4") // made, never pressed
	h.flag(5404.6, W)
	h.advance(5407)
	h.wantAnomalies(KindMoveWithoutPress)
	h.wantCompleted(1, 1)
	f := h.of(TypeFlag)
	if len(f) != 1 || f[0].Verdict != VerdictLoss || f[0].MovesCompleted != 1 {
		t.Fatalf("flag = %+v", f)
	}
	h.golden("move-without-press-at-flag")
}

func TestSlideCorrectedBeforePress(t *testing.T) {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(5, "e4")
	h.press(5.3, W)
	h.play(9, "e5")
	h.press(9.3, B)
	// White's bishop slides f1-e2-d3-c4; the board sees every square.
	h.put(14.0, "f1", chess.NoPiece)
	h.put(14.1, "e2", chess.WhiteBishop)
	h.put(14.2, "e2", chess.NoPiece)
	h.put(14.25, "d3", chess.WhiteBishop)
	h.put(14.3, "d3", chess.NoPiece)
	h.play(14.4, "Bc4")
	h.press(14.6, W)
	// Black's queen slides d8-h4 and the press is read before the board
	// shows the last square.
	h.put(20.0, "d8", chess.NoPiece)
	h.put(20.1, "f6", chess.BlackQueen)
	h.put(20.2, "f6", chess.NoPiece)
	h.put(20.3, "g5", chess.BlackQueen)
	h.press(20.35, B)
	h.put(20.4, "g5", chess.NoPiece)
	h.play(20.6, "Qh4")
	// White puts a knight on f3, thinks better of it and plays Nc3.
	h.put(30.0, "g1", chess.NoPiece)
	h.put(30.5, "f3", chess.WhiteKnight)
	h.put(31.5, "f3", chess.NoPiece)
	h.put(32.0, "g1", chess.WhiteKnight)
	h.play(33.0, "Nc3")
	h.press(33.2, W)
	h.advance(40)
	h.wantAnomalies()
	h.wantCompleted(3, 2)
	reasons := map[Reason]int{}
	for _, e := range h.of(TypeRetract) {
		reasons[e.Reason]++
	}
	if reasons[ReasonSlide] == 0 || reasons[ReasonCorrection] == 0 || reasons[ReasonTakeback] != 0 {
		t.Errorf("retract reasons %v", reasons)
	}
	h.golden("slide-corrected")
}

func TestTwoPliesBetweenScans(t *testing.T) {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(5, "e4")
	h.press(5.3, W)
	h.press(8.0, B)
	h.play(8.2, "e5", "Nf3") // one scan shows Black's and White's moves
	h.press(8.5, W)
	h.play(12, "Nc6")
	h.press(12.2, B)
	h.advance(15)
	h.wantAnomalies()
	h.wantCompleted(2, 2)
	h.golden("two-plies-between-scans")
}

func TestMergedPresses(t *testing.T) {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(5, "e4")
	h.press(5.3, W)
	h.play(10, "e5")
	h.play(10.3, "Nf3")
	h.pressX(10.6, B, true) // one reading: the clock recovers both presses
	h.pressX(10.6, W, true)
	h.advance(13)
	h.wantAnomalies()
	h.wantCompleted(2, 1)
	h.golden("merged-presses")
}

func TestClockAddsTimeAfter39(t *testing.T) {
	// The hardware counts presses: a press without a move made it add the
	// second period at White's 39th completed move.
	h := newHarness(t, Config{StartFEN: "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 38", TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(10, "Bb5")
	h.press(10.5, W) // White: 38 completed
	h.play(20, "a6")
	h.press(20.5, B)
	h.press(21, W) // no move: the clock counts it anyway
	h.play(25, "Ba4")
	h.press(30, B) // Black presses to give White the move back (arbiter-tolerated)
	h.press(30.5, W)
	h.addPeriod(30.5, W, 2, 1800*time.Second) // the clock's 40th press, White's 39th move
	h.advance(33)
	h.wantCompleted(39, 38)
	ks := h.anomalies()
	if len(ks) == 0 || ks[len(ks)-1] != KindClockCounter {
		t.Fatalf("anomalies %v, want a clock-counter last\n%s", ks, h.jsonl())
	}
	a := h.of(TypeAnomaly)
	if d := a[len(a)-1].Detail; !contains(d, "Remove 30 minutes from White's clock until move 40 is completed") {
		t.Errorf("detail %q", d)
	}
	h.golden("clock-counter-39")
}

func contains(s, sub string) bool {
	return len(sub) == 0 || (len(s) >= len(sub) && indexOf(s, sub) >= 0)
}

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

func TestCheckmateWithoutPress(t *testing.T) {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(5, "f3")
	h.press(5.3, W)
	h.play(9, "e5")
	h.press(9.3, B)
	h.play(12, "g4")
	h.press(12.3, W)
	h.play(15, "Qh4#") // no press
	h.advance(20)
	h.flag(5500, B) // later flag: the result stands
	h.advance(5502)
	h.wantAnomalies()
	h.wantCompleted(2, 2)
	c := h.of(TypeComplete)
	if last := c[len(c)-1]; last.By != ByGameEnd || last.Side != B {
		t.Errorf("last completion %+v", last)
	}
	e := h.of(TypeEnd)
	if len(e) != 1 || e[0].Result != "0-1" || e[0].Article != "5.1.1" {
		t.Fatalf("end = %+v", e)
	}
	if f := h.of(TypeFlag); len(f) != 1 || f[0].Verdict != VerdictNone || f[0].Article != "6.8" {
		t.Fatalf("flag = %+v", f)
	}
	h.golden("checkmate-without-press")
}

func TestTimeControlModes(t *testing.T) {
	for _, tcText := range []string{"300+2", "300b5", "300d5"} {
		t.Run(tcText, func(t *testing.T) {
			tc := mustTC(t, tcText)
			h := newHarness(t, Config{TimeControl: tc, Class: tc.Class()})
			h.show(0)
			h.start(1)
			h.play(3, "e4")
			h.press(3.2, W)
			h.play(6, "c5")
			h.press(6.2, B)
			h.put(9, "g1", chess.NoPiece) // Ng1-g3 is no knight move
			h.put(9.2, "g3", chess.WhiteKnight)
			h.press(9.4, W)
			h.advance(11)
			h.put(15, "g3", chess.NoPiece) // the arbiter restores the position
			h.put(15.2, "g1", chess.WhiteKnight)
			h.play(20, "Nf3")
			h.press(20.3, W)
			h.flag(300, B)
			h.advance(302)
			h.wantAnomalies(KindIllegalMove)
			if d := h.of(TypeAnomaly)[0].Detail; !contains(d, "add 1 minute to Black's clock") {
				t.Errorf("penalty detail %q", d)
			}
			f := h.of(TypeFlag)
			if len(f) != 1 || f[0].Verdict != VerdictLoss || f[0].MovesRequired != 0 {
				t.Fatalf("flag = %+v", f)
			}
			h.golden("mode-" + tcText)
		})
	}
}

func TestTakeBack(t *testing.T) {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(5, "e4")
	h.press(5.3, W)
	h.play(9, "e5")
	h.press(9.3, B)
	h.play(12, "Nf3")
	h.press(12.3, W)
	h.play(15, "Nc6")
	h.press(15.3, B)
	// The arbiter restores the position after 1...e5 (7.1).
	if err := h.shadow.TakeBack(2); err != nil {
		t.Fatal(err)
	}
	h.board = rules.SnapshotOf(h.shadow.Position())
	h.show(40)
	h.advance(42) // no press follows: a take-back, not two quick moves
	h.wantCompleted(1, 1)
	h.play(50, "Bc4")
	h.press(50.3, W)
	h.advance(55)
	h.wantAnomalies()
	h.wantCompleted(2, 1)
	n := 0
	for _, e := range h.of(TypeRetract) {
		if e.Reason == ReasonTakeback {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d take-back retractions, want 2", n)
	}
	h.golden("takeback")
}

func TestKingsSignal(t *testing.T) {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(5, "e4")
	h.press(5.3, W)
	h.play(9, "e5")
	h.press(9.3, B)
	// White's king on e4 and Black's on d5: both light squares, White won.
	h.put(30, "e1", chess.NoPiece)
	h.put(30.5, "e4", chess.WhiteKing)
	h.put(31, "e8", chess.NoPiece)
	h.put(31.5, "d5", chess.BlackKing)
	h.advance(35)
	h.wantAnomalies()
	e := h.of(TypeEnd)
	if len(e) != 1 || e[0].Result != "1-0" {
		t.Fatalf("end = %+v", e)
	}
	// The pieces are set up again: a new game on this board.
	h.shadow, _ = rules.NewGame("")
	h.board = rules.SnapshotOf(h.shadow.Position())
	h.show(60)
	h.play(70, "d4")
	h.press(70.3, W)
	h.advance(75)
	if p := h.of(TypePosition); len(p) != 2 {
		t.Fatalf("%d position events, want 2 (start and reset)", len(p))
	}
	h.wantCompleted(1, 0)
	if st := h.g.State(); st.Status != "playing" || st.Ply != 1 {
		t.Fatalf("after reset: %+v", st)
	}
	h.golden("kings-signal")
}

func TestIllegalMoveTwice(t *testing.T) {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC), Class: clockd.Standard})
	h.show(0)
	h.start(1)
	h.play(5, "e4")
	h.press(5.3, W)
	h.play(9, "e5")
	h.press(9.3, B)
	h.put(12, "g1", chess.NoPiece)
	h.put(12.2, "e2", chess.WhiteKnight) // Ng1-e2 is legal; ...
	h.put(12.4, "e2", chess.NoPiece)
	h.put(12.6, "h3", chess.WhiteBishop) // ... a bishop from nowhere is not
	h.put(12.7, "f1", chess.NoPiece)
	h.press(12.9, W) // first illegal move completed: Ng1 and Bf1 gone, Bh3 through the pawn
	h.advance(15)
	// The arbiter restores the position after 1...e5.
	h.board = rules.SnapshotOf(h.shadow.Position())
	h.show(60)
	h.play(70, "Nf3")
	h.press(70.3, W)
	h.play(80, "Nc6")
	h.press(80.3, B)
	h.put(90, "f1", chess.NoPiece)
	h.put(90.2, "a6", chess.WhiteBishop) // Bf1-a6 jumps over nothing but b5? it is legal... so take h3
	h.put(90.3, "a6", chess.NoPiece)
	h.put(90.4, "h3", chess.WhiteBishop) // Bf1-h3 through the g2 pawn
	h.press(90.6, W)
	h.advance(93)
	h.wantAnomalies(KindIllegalMove, KindIllegalMove)
	a := h.of(TypeAnomaly)
	if !contains(a[0].Detail, "add 2 minutes to Black's clock") {
		t.Errorf("first illegal move detail %q", a[0].Detail)
	}
	if !contains(a[1].Detail, "second completed illegal move: White loses (7.5.5) unless Black cannot checkmate") {
		t.Errorf("second illegal move detail %q", a[1].Detail)
	}
	h.wantCompleted(2, 2)
	h.golden("illegal-twice")
}

func TestOrientationBlackBottom(t *testing.T) {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.rotate = true
	h.show(0)
	h.start(1)
	h.play(5, "e4")
	h.press(5.3, W)
	h.play(9, "c5")
	h.press(9.3, B)
	h.advance(12)
	h.wantAnomalies()
	h.wantCompleted(1, 1)
	if p := h.of(TypePosition); len(p) != 1 || p[0].Orientation != "black-bottom" {
		t.Fatalf("position = %+v", p)
	}
}

func TestFivefoldEndsTheGame(t *testing.T) {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	at := 2.0
	for i := 0; i < 4; i++ {
		for j, san := range []string{"Nf3", "Nf6", "Ng1", "Ng8"} {
			h.play(at, san)
			if i < 3 || j < 3 {
				h.press(at+0.3, clockd.Side(j%2))
			}
			at += 5
		}
	}
	h.advance(at + 5)
	h.wantAnomalies()
	h.wantCompleted(8, 8)
	e := h.of(TypeEnd)
	if len(e) != 1 || e[0].Result != "1/2-1/2" || e[0].Reason != "fivefold-repetition" || e[0].Article != "9.6.1" {
		t.Fatalf("end = %+v", e)
	}
	c := h.of(TypeComplete)
	if last := c[len(c)-1]; last.By != ByGameEnd || last.Ply != 16 {
		t.Errorf("last completion %+v", last)
	}
}

func TestStartNotRecognised(t *testing.T) {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.setBoard(0, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
	h.advance(5)
	h.wantAnomalies()
	h.advance(12)
	h.wantAnomalies(KindUnexplainedPosition)
	h.setBoard(20, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
	h.play(25, "e4")
	h.press(25.2, W)
	h.advance(30)
	h.wantCompleted(1, 0)
	if p := h.of(TypePosition); len(p) != 1 {
		t.Fatalf("position events %+v", p)
	}
}

// A forgotten press (6.2.1): Black makes 2...Nc6 and does not press; White
// replies 3.Bb5 but cannot press (White's clock is not running); Black
// plays 3...a6 and presses. One alert names the forgotten press — White's
// unpressed reply is its consequence, not a second one. Nc6 is completed
// by Black's next move, a6 by the press, Bb5 by White's next move: every
// ply counts.
func TestForgottenPressOneAlert(t *testing.T) {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(5, "e4")
	h.press(5.3, W)
	h.play(10, "e5")
	h.press(10.3, B)
	h.play(15, "Nf3")
	h.press(15.3, W)
	h.play(20, "Nc6") // not pressed
	h.play(30, "Bb5") // White's clock is not running: no press
	h.play(40, "a6")
	h.press(40.3, B)
	h.play(50, "Ba4")
	h.press(50.3, W)
	h.advance(55)
	h.wantAnomalies(KindMoveWithoutPress)
	if a := h.of(TypeAnomaly); len(a) == 1 && (a[0].Side != B || !strings.Contains(a[0].Detail, "Nc6")) {
		t.Errorf("the alert is not about Black's Nc6: %s", Marshal(a[0]))
	}
	h.wantCompleted(4, 3)
	var plies []int
	for _, e := range h.of(TypeComplete) {
		plies = append(plies, e.Ply)
	}
	if fmt.Sprint(plies) != "[1 2 3 4 6 5 7]" {
		t.Errorf("completed plies %v, want [1 2 3 4 6 5 7] (6.2.1: a6 by its press before Bb5 by White's next move)", plies)
	}
}

// After a flag verdict of "none" (the control reached in a period that is
// not the last, 6.3.1) play goes on: later moves are completed and
// counted, and a later flag is judged in the period it falls in — with a
// clock that adds the next period to both sides at the flag, or only to
// the flagged side.
func TestPlayGoesOnAfterVerdictNone(t *testing.T) {
	for _, c := range []struct {
		name, tc string
		both     bool // the clock adds the next period to both sides
		// the second flag: White's in period 2
		required int     // 0: the last period
		verdict  Verdict // with an opponent who can mate
		end      string
	}{
		{"two periods, added to both", standardTC, true, 0, VerdictLoss, "0-1"},
		{"two periods, added to the flagged side", standardTC, false, 0, VerdictLoss, "0-1"},
		{"three periods, added to both", "40/5400+30:20/1800+30:900+30", true, 60, VerdictLoss, "0-1"},
		{"three periods, added to the flagged side", "40/5400+30:20/1800+30:900+30", false, 60, VerdictLoss, "0-1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, Config{StartFEN: "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 40",
				TimeControl: mustTC(t, c.tc), Oracle: fixedOracle{"yes", []string{"d8h4"}}})
			h.show(0)
			h.start(1)
			h.play(10, "Bb5")
			h.press(10.5, W)
			h.play(20, "a6")
			h.press(20.5, B)
			h.flag(40, W) // White's 40th move was completed: control reached
			h.addPeriod(40.2, W, 2, 1800*time.Second)
			if c.both {
				h.addPeriod(40.2, B, 2, 1800*time.Second)
			}
			h.advance(43)
			if f := h.of(TypeFlag); len(f) != 1 || f[0].Verdict != VerdictNone || f[0].Period != 1 || !f[0].ControlReached {
				t.Fatalf("first flag = %+v", f)
			}
			at := 50.0
			for i, san := range []string{"Ba4", "Nf6", "O-O", "Be7", "Re1", "b5"} {
				h.play(at, san)
				h.press(at+0.5, clockd.Side(i%2))
				at += 10
			}
			h.advance(at)
			h.wantCompleted(43, 43)
			n := 0
			for _, e := range h.of(TypeComplete) {
				if e.Ply > 2 {
					n++
					if e.By != ByPress {
						t.Errorf("ply %d after the verdict completed by %s", e.Ply, e.By)
					}
				}
			}
			if n != 6 {
				t.Errorf("%d moves completed after the verdict, want 6", n)
			}
			h.flag(at+100, W) // in period 2, short of its control (if any)
			h.advance(at + 105)
			h.wantAnomalies()
			f := h.of(TypeFlag)
			if len(f) != 2 {
				t.Fatalf("flags = %+v", f)
			}
			if g := f[1]; g.Period != 2 || g.MovesCompleted != 43 || g.MovesRequired != c.required || g.ControlReached || g.Verdict != c.verdict {
				t.Errorf("second flag = %s", Marshal(g))
			}
			if e := h.of(TypeEnd); len(e) != 1 || e[0].Result != c.end {
				t.Errorf("end = %+v", e)
			}
		})
	}
}

// A clock that shows the flag at 0:00 and adds the next period only with
// the flagged side's next press: after the verdict "none" (the control was
// reached), that addition is the flag's, not a counter one move late.
func TestPeriodAddedAtThePressAfterAFlag(t *testing.T) {
	h := newHarness(t, Config{StartFEN: "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 40",
		TimeControl: mustTC(t, standardTC), Oracle: fixedOracle{"yes", []string{"d8h4"}}})
	h.show(0)
	h.start(1)
	h.play(10, "Bb5")
	h.press(10.5, W)
	h.play(20, "a6")
	h.press(20.5, B)
	h.flag(40, W)
	h.advance(43)
	h.play(50, "Ba4")
	h.press(50.5, W)
	h.addPeriod(50.5, W, 2, 1800*time.Second)
	h.play(60, "Nf6")
	h.press(60.5, B)
	h.advance(65)
	h.wantAnomalies()
	h.wantCompleted(41, 41)
	if f := h.of(TypeFlag); len(f) != 1 || f[0].Verdict != VerdictNone {
		t.Errorf("flag = %+v", f)
	}
}

// Once the game has ended (checkmate, a result signalled, a flag) the
// players stop the clock: that is expected and raises nothing, even when
// the stop is read before the move that ended the game has settled on
// the board. During the game a stop is still a 6.11 matter.
func TestNoClockStoppedOnceTheGameHasEnded(t *testing.T) {
	stop := func(h *harness, at float64) { h.clock(clockd.ClockEvent{Kind: clockd.Stopped, At: sec(at)}) }
	foolsMate := func(h *harness, press bool) {
		h.play(5, "f3")
		h.press(5.3, W)
		h.play(9, "e5")
		h.press(9.3, B)
		h.play(12, "g4")
		h.press(12.3, W)
		h.play(15, "Qh4#")
		if press {
			h.press(15.3, B)
		}
	}
	for _, c := range []struct {
		name   string
		tc     string
		play   func(h *harness)
		result string // "" : the game goes on
		want   []Kind
	}{
		{"mate pressed, stopped before it settles", standardTC, func(h *harness) { foolsMate(h, true); stop(h, 16) }, "0-1", nil},
		{"mate not pressed, stopped at once", standardTC, func(h *harness) { foolsMate(h, false); stop(h, 15.4) }, "0-1", nil},
		{"mate, stopped later", standardTC, func(h *harness) { foolsMate(h, true); stop(h, 40) }, "0-1", nil},
		{"stopped, then the kings put on the centre", standardTC, func(h *harness) {
			h.play(5, "e4")
			h.press(5.3, W)
			h.play(9, "e5")
			h.press(9.3, B)
			stop(h, 29)
			h.put(30, "e1", chess.NoPiece)
			h.put(30.5, "e4", chess.WhiteKing)
			h.put(31, "e8", chess.NoPiece)
			h.put(32.5, "d5", chess.BlackKing)
		}, "1-0", nil},
		{"flag in the last period, the clock stops at zero", "5400+30", func(h *harness) {
			h.play(5, "e4")
			h.press(5.3, W)
			h.flag(5406, B)
			stop(h, 5406.1)
		}, "1-0", nil},
		{"stopped during the game", standardTC, func(h *harness) {
			h.play(5, "e4")
			h.press(5.3, W)
			stop(h, 20)
		}, "", []Kind{KindClockStopped}},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, Config{TimeControl: mustTC(t, c.tc), Oracle: fixedOracle{"yes", []string{"d1h5"}}})
			h.show(0)
			h.start(1)
			c.play(h)
			h.advance(6000)
			h.end(6001)
			h.wantAnomalies(c.want...)
			e := h.of(TypeEnd)
			switch {
			case c.result == "" && len(e) != 0:
				t.Errorf("end = %+v", e)
			case c.result != "" && (len(e) != 1 || e[0].Result != c.result):
				t.Errorf("end = %+v, want %s", e, c.result)
			}
		})
	}
}
