package livechess

import (
	"encoding/json"
	"testing"
)

// BenchmarkEBoardEvent is the work per feed per hub update: the board's
// state to an eboardevent param, marshalled (a 10-ply game).
func BenchmarkEBoardEvent(b *testing.B) {
	h, evs := setup(b)
	for _, e := range evs {
		h.Publish("1", e)
	}
	board, err := h.Board("1")
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := json.Marshal(EventOf(board)); err != nil {
			b.Fatal(err)
		}
	}
}
