package reconcile

import (
	"testing"

	"github.com/notnil/chess"
)

// A player presses without moving (7.5.3); the opponent, whose clock that
// started, presses back to give the turn back. That press back is no
// offence: one press-without-move anomaly, not a second one, and not an
// illegal move when the first player has a piece in the hand as the
// opponent presses back.
func TestPressBackAfterAPressWithoutAMove(t *testing.T) {
	for _, inHand := range []bool{false, true} {
		h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
		h.show(0)
		h.start(1)
		h.play(5, "e4")
		h.press(5.5, W)
		h.press(8, B) // Black presses without a move
		if inHand {
			h.put(8.4, "e7", chess.NoPiece) // Black lifts the pawn
		}
		h.press(8.6, W) // White presses back
		h.play(11, "e5")
		h.press(11.5, B)
		h.play(14, "Nf3")
		h.press(14.5, W)
		h.advance(20)
		h.wantAnomalies(KindPressWithoutMove)
		h.wantCompleted(2, 1)
	}
}
