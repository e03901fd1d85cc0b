package reconcile

import (
	"testing"

	"github.com/notnil/chess"
)

// Castling rook first in a scramble: White
// moves the rook, presses before the board reports the king, Black
// castles and presses at once, and White's next move is in the hand when
// the presses are judged. White's press completes O-O, which the board
// reported within two scans of it, not the Rf1 it showed at the press;
// no illegal move is charged to either side.
func TestCastlingRookFirstInAScramble(t *testing.T) {
	h := newHarness(t, Config{StartFEN: "rnb1k2r/pppp1ppp/5n2/2b1q3/4P3/2NB4/PPPP1PPP/R1BQK2R w KQkq - 0 6",
		TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.put(36.334, "h1", chess.NoPiece)
	h.put(36.546, "f1", chess.WhiteRook)
	h.put(36.551, "e1", chess.NoPiece)
	h.press(36.628, W)
	h.put(36.758, "h8", chess.NoPiece)
	h.put(36.763, "g1", chess.WhiteKing)
	h.put(36.970, "f8", chess.BlackRook)
	h.put(36.975, "e8", chess.NoPiece)
	h.put(36.980, "g8", chess.BlackKing)
	h.press(36.997, B)
	for _, san := range []string{"O-O", "O-O"} {
		if err := h.shadow.MoveSAN(san); err != nil {
			t.Fatal(err)
		}
	}
	h.put(38.242, "a2", chess.NoPiece) // White's next move, in the hand
	h.put(38.878, "a3", chess.WhitePawn)
	if err := h.shadow.MoveSAN("a3"); err != nil {
		t.Fatal(err)
	}
	h.press(39.2, W)
	h.advance(45)
	h.wantAnomalies()
	h.wantCompleted(7, 6)
	var sans []string
	for _, e := range h.of(TypeComplete) {
		sans = append(sans, e.SAN)
	}
	if len(sans) != 3 || sans[0] != "O-O" || sans[1] != "O-O" || sans[2] != "a3" {
		t.Errorf("completions %v, want O-O O-O a3", sans)
	}
}
