package pipeline_test

import (
	"strings"
	"testing"

	"github.com/arbiterd/arbiterd/internal/testkit/feedtest"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// Games that end in checkmate, after which the emulated players stop the
// clock (1 to 3 s after the last press): the stop is expected once the
// game has ended and raises no clock-stopped (6.11) alert.
func TestNoClockStoppedAfterCheckmate(t *testing.T) {
	for _, g := range []string{
		"e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#",
		"f3 e5 g4 Qh4#",
		"e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#",
		"e4 e5 f4 exf4 Bc4 Qh4+ Kf1 b5 Bxb5 Nf6 Nf3 Qh6 d3 Nh5 Nh4 Qg5 Nf5 c6 g4 Nf6 Rg1 cxb5 h4 Qg6 h5 Qg5 Qf3 Ng8 " +
			"Bxf4 Qf6 Nc3 Bc5 Nd5 Qxb2 Bd6 Bxg1 e5 Qxa1+ Ke2 Na6 Nxg7+ Kd8 Qf6+ Nxf6 Be7#",
	} {
		evs := feedtest.Events(t, strings.Fields(g), "40/5400+30:1800+30", nil)
		ended := false
		for _, e := range evs {
			switch e.Type {
			case reconcile.TypeEnd:
				ended = e.Reason == "checkmate"
			case reconcile.TypeAnomaly:
				t.Errorf("%s: %s", g, reconcile.Marshal(e))
			}
		}
		if !ended {
			t.Errorf("%s: the game did not end by checkmate", g)
		}
	}
}
