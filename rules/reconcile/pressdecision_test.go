package reconcile

import (
	"testing"

	"github.com/notnil/chess"
)

// decidePress as a table: each case plays up to a press that waits, and
// the press is decided at a time, on the state as it then stands.
func TestDecidePress(t *testing.T) {
	for _, c := range []struct {
		name  string
		setup func(h *harness)
		at    float64
		want  pressDecision
	}{
		{"the presser's move is on the board", func(h *harness) {
			h.opening()
			h.play(5, "e4")
			h.press(5.5, W)
		}, 7, pressCompletesPly},
		{"no move of the presser's", func(h *harness) {
			h.opening("e4")
			h.advance(5)
			h.press(8, B)
		}, 9.6, pressNoMove},
		{"the press back after a press without a move", func(h *harness) {
			h.opening("e4")
			h.press(8, B)
			h.advance(10)
			h.press(10.5, W)
		}, 12, pressGivesTurnBack},
		{"two plies the board showed at once are taken first", func(h *harness) {
			h.opening()
			h.play(5, "e4", "e5")
			h.press(5.2, B)
		}, 5.5, pressAfterHeld},
		{"a piece put where no legal move puts it, the board still changing", func(h *harness) {
			h.opening()
			h.put(5, "e2", chess.NoPiece)
			h.put(5, "e5", chess.WhitePawn)
			h.press(5.5, W)
		}, 5.6, pressWaitsForBoard},
		{"a piece put where no legal move puts it", func(h *harness) {
			h.opening()
			h.put(5, "e2", chess.NoPiece)
			h.put(5, "e5", chess.WhitePawn)
			h.press(5.5, W)
		}, 7, pressIllegalMove},
		{"while the board shows the start mid-game", func(h *harness) {
			h.opening("e4", "e5", "Nf3")
			h.advance(8)
			h.setBoard(10, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
			h.advance(12)
			h.press(12.5, B)
		}, 14, pressNotJudged},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
			c.setup(h)
			if len(h.g.waiting.presses) == 0 {
				t.Fatal("no press waits")
			}
			g, pr := h.g, h.g.waiting.presses[0]
			if got, _ := g.waiting.decidePress(g.pressInput(sec(c.at)), pr); got != c.want {
				t.Errorf("decided %v, want %v", got, c.want)
			}
		})
	}
	if got := pressDecision(99).String(); got != "pressDecision(99)" {
		t.Errorf("an unknown decision is named %q", got)
	}
}
