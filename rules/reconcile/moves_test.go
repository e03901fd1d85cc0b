package reconcile

import (
	"strings"
	"testing"

	"github.com/notnil/chess"
)

func TestASlideEndReportedAfterTheReplyIsMergedWhenTheSideMovesAgain(t *testing.T) {
	// Black's queen goes d8-a5 and White replies h3 at once. One scan
	// reports the queen on b6, on her way; the next reports h3 and then
	// the queen's square a5 (a board sends a scan's changed squares one
	// after the other). That reads as Qb6, h3, Qa5, and nothing
	// contradicts it until Black moves again: then the board is explained
	// only by Qa5, h3 and Black's new move. The record is corrected once,
	// and play goes on in step, with no illegal-move alerts.
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.opening("e4", "c6", "Nf3")
	h.setBoard(10, "rnb1kbnr/pp1ppppp/1qp5/8/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
	h.press(10.1, B)
	h.setBoard(10.2, "rnb1kbnr/pp1ppppp/1qp5/8/4P3/5N1P/PPPP1PP1/RNBQKB1R b KQkq - 0 3")
	h.setBoard(10.21, "rnb1kbnr/pp1ppppp/2p5/q7/4P3/5N1P/PPPP1PP1/RNBQKB1R b KQkq - 0 3")
	h.press(10.25, W)
	h.setBoard(13, "rnb1kbnr/pp1p1ppp/2p1p3/q7/4P3/5N1P/PPPP1PP1/RNBQKB1R w KQkq - 0 4")
	h.press(13.3, B)
	h.advance(20)
	if got := h.g.State().Completed; got != (Moves{White: 3, Black: 3}) {
		t.Errorf("completed %+v, want 3 and 3 (e4 Nf3 h3, c6 Qa5 e6)", got)
	}
	if san := h.g.led.rec.SAN(4) + " " + h.g.led.rec.SAN(5) + " " + h.g.led.rec.SAN(6); san != "Qa5 h3 e6" {
		t.Errorf("plies 4 to 6 recorded as %s, want Qa5 h3 e6", san)
	}
	h.wantAnomalies(KindMoveCorrected)
}

func TestTwoMovesAnomaly(t *testing.T) {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(3, "e4")
	h.press(3.2, W)
	// White plays d4 as well, without Black moving.
	h.put(6, "d2", chess.NoPiece)
	h.put(6.1, "d4", chess.WhitePawn)
	h.advance(20)
	h.wantAnomalies(KindTwoMoves)
	if a := h.of(TypeAnomaly)[0]; a.Side != W || !strings.Contains(a.Detail, "d4") {
		t.Errorf("two-moves = %+v", a)
	}
}
