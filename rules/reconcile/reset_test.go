package reconcile

import (
	"strings"
	"testing"
	"time"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules"
)

// A board that shows the starting position in the middle of a game (it was
// reset, or another board was put in its place) is not a take-back of the
// whole game: the arbiter is told once, the completed moves stay
// completed, presses meanwhile are not judged, the clock being reset too
// raises no clock-counter, and once the game's position is set up again
// the game goes on.
func TestBoardShowingTheStartMidGame(t *testing.T) {
	const startFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	for _, c := range []struct {
		name string
		show func(h *harness, at float64) // the board comes back showing the start
		want []Kind
	}{
		{"reset in place", func(h *harness, at float64) { h.setBoard(at, startFEN) }, nil},
		{"another board, after the port came back", func(h *harness, at float64) {
			h.feed(h.g.Session(sec(at-5), "disconnected", "board"))
			h.feed(h.g.Session(sec(at-1), "connected", "board"))
			h.setBoard(at, startFEN)
		}, []Kind{KindBoardDisconnected}},
		{"another board, turned round", func(h *harness, at float64) {
			h.rotate = true
			h.setBoard(at, startFEN)
		}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
			h.show(0)
			h.start(1)
			at := 5.0
			for i, san := range strings.Fields("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7") {
				h.play(at, san)
				h.press(at+0.3, clockd.Side(i%2))
				at += 10
			}
			h.advance(at)
			game := h.board
			c.show(h, 200)
			h.advance(202)
			// the clock is reset too, and the players press it
			h.addPeriod(203, W, 2, 5400*time.Second)
			h.addPeriod(203, B, 2, 5400*time.Second)
			h.press(210, W)
			h.press(215, B)
			h.advance(260)
			h.wantAnomalies(append(c.want, KindBoardReset)...)
			if a := h.of(TypeAnomaly); len(a) > 0 {
				if d := a[len(a)-1].Detail; !strings.Contains(d, "starting position") || !strings.Contains(d, "ply 10") {
					t.Errorf("the anomaly does not say what happened: %s", d)
				}
			}
			if r := h.of(TypeRetract); len(r) != 0 {
				t.Fatalf("the game was taken back: %+v", r)
			}
			h.wantCompleted(5, 5)
			if st := h.g.State(); st.Ply != 10 || st.Status != "playing" {
				t.Fatalf("state after the reset: %+v", st)
			}
			// The arbiter sets the game's position up again (on a board
			// turned round, turned round too): the game goes on.
			h.board = game
			h.show(300)
			h.play(310, "Re1")
			h.press(310.3, W)
			h.advance(315)
			h.wantAnomalies(append(c.want, KindBoardReset)...)
			h.wantCompleted(6, 5)
			if r := h.of(TypeRetract); len(r) != 0 {
				t.Fatalf("retractions: %+v", r)
			}
		})
	}
}

// A take-back of the first moves to the starting position stays a
// take-back (7.1): an illegal first move is undone that way.
func TestTakeBackToTheStartEarly(t *testing.T) {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(5, "e4")
	h.press(5.3, W)
	h.board = rules.SnapshotOf(chess.StartingPosition())
	h.show(20)
	h.advance(25)
	h.wantAnomalies()
	h.wantCompleted(0, 0)
	if r := h.of(TypeRetract); len(r) != 1 || r[0].Reason != ReasonTakeback {
		t.Fatalf("retractions: %+v", r)
	}
}

// A board that shows the start position after a game ended begins a new
// game in the same Game: every group of the old game's state is set anew
// (the board's absences, held plies, pending presses, the unexplained
// board), only the session's (the sequence, the inputs) goes on.
func TestNewGameResetsTheGamesState(t *testing.T) {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(5, "e4")
	h.press(6, W)
	h.advance(10)
	g := h.g
	// The game ended with state of its own left over.
	g.end = &gameEnd{"1-0", "checkmate"}
	g.away = absence{awayFacts: awayFacts{search: unsettled, unverified: [2]int{1, 0}, unverifiedFrom: 2, suspect: true, stale: true}}
	g.view.held = held{kind: heldAwayInHand, replaces: replacesCompleted, ambiguous: true, backTo: 3, from: 1}
	g.waiting = pressQueue{back: blackBackExpected, pressFacts: pressFacts{turn: clockWord{board: wordOnBoard}}, wait: true}
	g.view.unexplained = unexplainedBoard{state: boardUnexplainedReported, since: stamp{in: 4}}
	seq, inputs := g.em.seq, g.inputs
	h.board = rules.SnapshotOf(g.start)
	h.show(20)
	if g.end != nil || g.led.rec.Ply() != 0 || g.led.counts != (Moves{}) {
		t.Fatalf("no new game: ended %v, ply %d, counts %+v", g.end != nil, g.led.rec.Ply(), g.led.counts)
	}
	if g.away != (absence{}) {
		t.Errorf("the old game's absence survived: %+v", g.away)
	}
	if g.view.held.plies != nil || g.view.held.kind != heldPlain || g.view.held.ambiguous || g.view.held.replaces != replacesNothing || g.view.held.backTo != -1 || g.view.held.from != 0 {
		t.Errorf("the old game's held plies survived: %+v", g.view.held)
	}
	if g.waiting.back != noBackExpected || g.waiting.turn.seen() || g.waiting.wait || len(g.waiting.presses) != 0 {
		t.Errorf("the old game's pending presses survived: %+v", g.waiting)
	}
	if g.view.unexplained != (unexplainedBoard{}) {
		t.Errorf("the old game's unexplained board survived: %+v", g.view.unexplained)
	}
	if g.em.seq <= seq || g.inputs != inputs+1 {
		t.Errorf("the session's count went back: seq %d → %d, inputs %d → %d", seq, g.em.seq, inputs, g.inputs)
	}
}
