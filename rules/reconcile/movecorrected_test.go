package reconcile

import (
	"testing"

	"github.com/notnil/chess"
)

// The clock is read while a move is still on its way: Black castles rook
// first in a scramble, presses while only the rook has moved, and then
// the king arrives. The press completed Rf8; the board then shows 4...O-O.
// arbiterd corrects the record once (a retract and a complete, one
// move-corrected anomaly), instead of an illegal-move alert on every scan,
// and the game goes on in step.
func TestCompletedMoveCorrectedByTheBoard(t *testing.T) {
	h := newHarness(t, Config{StartFEN: "rnbqk2r/pppp1ppp/5n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 5 4",
		TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.put(5, "h8", chess.NoPiece)
	h.put(5.1, "f8", chess.BlackRook)
	h.press(5.3, B) // read before the king lands
	h.advance(7.5)  // the press is resolved: Rf8 is completed
	h.put(8, "e8", chess.NoPiece)
	h.put(8.1, "g8", chess.BlackKing)
	if err := h.shadow.MoveSAN("O-O"); err != nil {
		t.Fatal(err)
	}
	h.advance(11)
	h.play(12, "O-O")
	h.press(12.5, W)
	h.play(15, "d6")
	h.press(15.5, B)
	h.advance(20)
	h.wantAnomalies(KindMoveCorrected)
	h.wantCompleted(5, 5)
	var sans []string
	for _, e := range h.of(TypeComplete) {
		sans = append(sans, e.SAN)
	}
	if got, want := len(sans), 4; got != want {
		t.Fatalf("completions %v", sans)
	}
	if sans[0] != "Rf8" || sans[1] != "O-O" || sans[2] != "O-O" || sans[3] != "d6" {
		t.Errorf("completions %v, want Rf8 corrected to O-O, then O-O d6", sans)
	}
	if h.g.led.rec.FEN() != h.shadow.Position().String() {
		t.Errorf("record %s, board %s", h.g.led.rec.FEN(), h.shadow.Position().String())
	}
}

// A piece held in the hand is no move that went on: White's queen, lifted
// from f5 and held past ScanLag (its flag falling meanwhile) while Black's
// queen stands on h4, must not be read as 15.Qh4 Qxh4. Nothing is
// corrected.
func TestPieceInTheHandIsNoCorrection(t *testing.T) {
	h := newHarness(t, Config{StartFEN: "2r1kb1r/ppp1npp1/n7/4p2Q/3p2b1/NPP1PPq1/P2P3P/RBBK2NR w k - 6 15",
		TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(5, "Qf5")
	h.press(5.3, W)
	h.play(8, "Qh4")
	h.press(8.3, B)
	h.advance(11)
	h.put(12, "f5", chess.NoPiece) // White lifts the queen and holds it
	h.advance(16)
	for _, k := range h.anomalies() {
		if k == KindMoveCorrected {
			t.Fatalf("anomalies %v: a piece in the hand rewrote the record\n%s", h.anomalies(), h.jsonl())
		}
	}
	if got := h.g.led.rec.SAN(h.g.led.rec.Ply() - 1); got != "Qf5" {
		t.Errorf("ply before last %s, want Qf5", got)
	}
}
