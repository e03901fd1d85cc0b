package reconcile

import (
	"strings"
	"testing"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules"
)

func TestResyncSideToMoveFromTheClock(t *testing.T) {
	// While the board was away White played Ra2, Rb2 and Black Kd8, Ke7:
	// four plies, White to move. The shortest sequence to the board's
	// position has three (Ra2/Rb1, Ke7, Rb2) and leaves Black to move,
	// but the clock's last press was Black's: the record is rebuilt from
	// the board with White to move, numbered after four plies.
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC), StartFEN: "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"})
	h.show(0)
	h.start(1)
	h.feed(h.g.Session(sec(2), "disconnected", "board"))
	for i, s := range []string{"Ra2", "Kd8", "Rb2", "Ke7"} {
		if err := h.shadow.MoveSAN(s); err != nil {
			t.Fatal(err)
		}
		h.press(3+float64(i), clockd.Side(i%2))
	}
	h.feed(h.g.Session(sec(7.5), "connected", "board"))
	h.board = rules.SnapshotOf(h.shadow.Position())
	h.dump(8) // the board read afresh on its return
	h.advance(11)
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	h.play(12, "Rb7+")
	h.press(12.3, W)
	h.advance(15)
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	c := h.of(TypeComplete)
	if len(c) != 1 || c[0].SAN != "Rb7+" || c[0].Ply != 5 || c[0].Side != W {
		t.Fatalf("completions %+v\n%s", c, h.jsonl())
	}
}

// parityHarness plays 1.e4 e5, then the board is away while 2.Nf3 Qe7
// 3.Nc3 Qf6 are played: four plies, White to move. The shortest sequence
// that reaches that position is three plies (the queen d8-f6 at once),
// which leaves Black to move.
func parityHarness(t *testing.T) *harness {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.opening("e4", "e5")
	h.feed(h.g.Session(sec(4), "disconnected", "board"))
	h.feed(h.g.Session(sec(20), "connected", "board"))
	return h
}

// playBc4Nc6 plays 4.Bc4 and 4...Nc6 of the parity scenario after the
// return, each pressed, and returns the plies they were completed at
// (0: never).
func (h *harness) playBc4Nc6() (bc4, nc6 int) {
	h.play(31, "Bc4")
	h.press(31.5, W)
	h.play(33, "Nc6")
	h.press(33.5, B)
	h.advance(40)
	return h.completedAt("Bc4"), h.completedAt("Nc6")
}

// completedAt returns the ply at which san was completed (0: never).
func (h *harness) completedAt(san string) int {
	for _, c := range h.of(TypeComplete) {
		if c.SAN == san {
			return c.Ply
		}
	}
	return 0
}

func TestResyncTakesTheSideToMoveFromTheClockReadAgain(t *testing.T) {
	// The clock, read again after the gap with no press to count, shows
	// White's time running, and the board, read afresh, then shows 3...Qf6: more plies
	// were made than the shortest sequence, so the record is rebuilt from
	// the board with White to move: 4.Bc4 is ply 7, 4...Nc6 ply 8.
	h := parityHarness(t)
	h.clock(clockd.ClockEvent{Kind: clockd.Running, At: sec(20.5), Side: W})
	h.unseen("Nf3", "Qe7", "Nc3", "Qf6")
	h.dump(21) // the board read afresh on its return
	h.advance(30)
	bc4, nc6 := h.playBc4Nc6()
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	if a := h.of(TypeAnomaly)[1]; a.Ply != 2 || a.Made != 4 {
		t.Errorf("unverified-moves: verified ply %d, made %d (want 2, 4): %s", a.Ply, a.Made, a.Detail)
	}
	if bc4 != 7 || nc6 != 8 {
		t.Errorf("Bc4 and Nc6 completed as plies %d and %d, want 7 and 8", bc4, nc6)
	}
}

func TestResyncTakesTheSideToMoveFromAPressReadAfterTheBoard(t *testing.T) {
	// Back from the absence the board shows 3...Qf6, then Black presses:
	// White is to move in that position. The shortest sequence leaves Black
	// to move, so more plies were made than it numbers: the record is
	// rebuilt from the board with White to move, numbered from the fewest
	// plies that give White the move (four): 4.Bc4 is ply 7, 4...Nc6 ply 8.
	h := parityHarness(t)
	h.play(21, "Nf3", "Qe7", "Nc3", "Qf6")
	h.press(21.5, B)
	h.advance(30)
	bc4, nc6 := h.playBc4Nc6()
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	if a := h.of(TypeAnomaly)[1]; a.Ply != 2 || a.Made != 4 || !strings.Contains(a.Detail, "with Black to move, while Black pressed the clock after the board showed it") {
		t.Errorf("unverified-moves: verified ply %d, made %d (want 2, 4): %s", a.Ply, a.Made, a.Detail)
	}
	if bc4 != 7 || nc6 != 8 {
		t.Errorf("Bc4 and Nc6 completed as plies %d and %d, want 7 and 8", bc4, nc6)
	}
}

func TestResyncIsNotMisledByAMoveNotYetPressed(t *testing.T) {
	// Back from the absence the board shows 3.Bc4 and White presses; then
	// Black sets down 3...Bc5 and has not pressed when the board has shown
	// it long enough to settle. White's press says Black is to move, but in
	// a position before Black's move: it says nothing of the one the board
	// shows now. The four plies stand, with White to move: 4.c3 is ply 7.
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.opening("e4", "e5")
	h.feed(h.g.Session(sec(4), "disconnected", "board"))
	h.feed(h.g.Session(sec(20), "connected", "board"))
	h.play(20.2, "Nf3", "Nc6", "Bc4")
	h.press(20.4, W)
	h.play(20.6, "Bc5")
	h.advance(25)
	h.press(26, B)
	h.play(28, "c3")
	h.press(28.5, W)
	h.advance(35)
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	if p := h.completedAt("c3"); p != 7 {
		t.Errorf("c3 completed as ply %d, want 7", p)
	}
}

func TestResyncOfTheWrongParityIsMendedWhenTheClockSpeaks(t *testing.T) {
	// No clock reading came before the board settled: the three plies of
	// the shortest sequence are recorded, unverified, with Black to move.
	// Then White presses with 4.Bc4 on the board, which only a move by the
	// side the record has not to move explains: the clock says the
	// unverified plies were laid with the wrong side to move. The ply
	// numbers from there on may be too low, never too high: 4...Nc6 is
	// ply 8 at most (it is ply 8 in the game).
	h := parityHarness(t)
	h.play(21, "Nf3", "Qe7", "Nc3", "Qf6")
	h.advance(30)
	if a := h.of(TypeAnomaly); len(a) != 2 || a[1].Made != 3 {
		t.Fatalf("before the press: %v, want the three plies of the shortest sequence reported", h.anomalies())
	}
	_, nc6 := h.playBc4Nc6()
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	if nc6 < 1 || nc6 > 8 {
		t.Errorf("Nc6 completed as ply %d, want 8 or fewer (and completed)", nc6)
	}
	for _, c := range h.of(TypeComplete) {
		if c.Ply > 2 && c.SAN != "Bc4" && c.SAN != "Nc6" {
			t.Errorf("a ply nobody saw completed: %+v", c)
		}
	}
}

func TestTheClocksWordBeforeAChangeIsStale(t *testing.T) {
	// The clock is read again before the board, which comes back with a
	// field update (a change, not the board read afresh): the clock's word
	// was about the position before that change, and the runner's own move
	// may be the change. It decides nothing: the shortest sequence is laid.
	h := parityHarness(t)
	h.clock(clockd.ClockEvent{Kind: clockd.Running, At: sec(20.5), Side: W})
	h.play(21, "Nf3", "Qe7", "Nc3", "Qf6")
	h.dump(21.2)
	h.advance(30)
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	if a := h.of(TypeAnomaly)[1]; a.Made != 3 || len(a.Plies) != 3 {
		t.Errorf("unverified-moves: made %d, plies %v; want the three plies of the shortest sequence: %s", a.Made, a.Plies, a.Detail)
	}
}

// queenOnG5Harness plays 1.e4 e5 2.Nf3 and Black's queen set down on g5
// (pressed at 6 s, or not), the daemon killed at down; while it was down
// 3.Nc3 Nc6 4.Bc4 Qh4 were played, and the board is read whole at 20 s.
func queenOnG5Harness(t *testing.T, pressed bool, down float64) *harness {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.opening("e4", "e5", "Nf3")
	h.play(5, "Qg5")
	if pressed {
		h.press(6, B)
	}
	h.feed(h.g.Session(sec(down), "disconnected", "board"))
	h.feed(h.g.Session(sec(20), "connected", "board"))
	h.unseen("Nc3", "Nc6", "Bc4", "Qh4")
	h.dump(20)
	return h
}

// wantUnverified checks the anomalies are the disconnection and one
// unverified-moves report, from verified ply ply, made plies made.
func (h *harness) wantUnverified(ply, made int) {
	h.t.Helper()
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	if a := h.of(TypeAnomaly); len(a) == 2 && (a[1].Ply != ply || a[1].Made != made) {
		h.t.Errorf("unverified-moves from verified ply %d, %d made; want %d and %d: %s", a[1].Ply, a[1].Made, ply, made, a[1].Detail)
	}
}

func TestTheClocksTurnAfterTheNextMoveIsAboutTheBoardThen(t *testing.T) {
	// Black's queen was seen on g5, not pressed, when the daemon was killed;
	// while it was down Black pressed, and 3.Nc3 Nc6 4.Bc4 Qh4 were played.
	// Back, the board is read whole, and in one burst the clock names
	// White's clock running, White plays 5.d3 and presses. The shortest
	// sequence to the position read (Qd8-h4 at once, 3.Nc3 Nc6 4.Bc4) leaves
	// Black to move, where the clock's word, given after d3, says White was:
	// the word is about the board after d3, and one move of White's leads
	// there. So more plies were made than four, and d3 is the next move,
	// completed by its press: ply 9, as in the game.
	h := queenOnG5Harness(t, false, 5.5)
	h.clock(clockd.ClockEvent{Kind: clockd.Running, At: sec(21), Side: W})
	h.play(21, "d3")
	h.press(21, W)
	h.advance(30)
	h.wantCompletions("1.e4 2.e5 3.Nf3 9.d3")
	h.wantUnverified(3, 5)
}

func TestTheClocksWordBeforeTheFirstDumpIsAboutTheDump(t *testing.T) {
	// Back from the absence, the board first sends a field update (the
	// queen set down on f6), laid on the image of before the absence; then
	// the clock names White's clock running; then the board is read whole:
	// 2.Nf3 Qe7 3.Nc3 Qf6. The clock's word came after the board was back
	// but before it was read whole: it is about the position the dump
	// shows, not the stale image. The shortest sequence (2.Nf3 Qf6 3.Nc3)
	// leaves Black to move where the clock says White: at least four plies
	// were made, and 4.Bc4 and 4...Nc6 are plies 7 and 8, as in the game.
	h := parityHarness(t)
	h.put(20.1, "f6", chess.BlackQueen)
	h.clock(clockd.ClockEvent{Kind: clockd.Running, At: sec(20.3), Side: W})
	h.unseen("Nf3", "Qe7", "Nc3", "Qf6")
	h.dump(20.5)
	h.advance(30)
	if a := h.of(TypeAnomaly); len(a) != 2 || a[1].Made != 4 {
		t.Fatalf("after the dump: %v, want the unverified plies counted four (%+v)", h.anomalies(), a)
	}
	bc4, nc6 := h.playBc4Nc6()
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	if bc4 != 7 || nc6 != 8 {
		t.Errorf("Bc4 and Nc6 completed as plies %d and %d, want 7 and 8", bc4, nc6)
	}
}
