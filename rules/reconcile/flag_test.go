package reconcile

import (
	"strings"
	"testing"

	"github.com/arbiterd/arbiterd/clockd"
)

func TestMaterialOracle(t *testing.T) {
	cases := []struct {
		fen  string
		side clockd.Side
		want Mate
	}{
		{"8/8/8/4k3/8/8/3QK3/8 w - - 0 1", B, "no"},
		{"8/8/8/4k3/8/8/3QK3/8 w - - 0 1", W, "unknown"},
		{"8/8/8/4k3/8/8/3NK3/8 w - - 0 1", W, "no"},
		{"8/8/8/4k3/4p3/8/3NK3/8 w - - 0 1", W, "unknown"},
		{"8/8/8/4k3/8/8/3BK3/8 w - - 0 1", W, "no"},
		{"not a fen", W, "unknown"},
	}
	for _, c := range cases {
		if got, line := (MaterialOracle{}).CanMate(c.fen, c.side); got != c.want || line != nil {
			t.Errorf("%s %s: %s %v, want %s", c.fen, c.side, got, line, c.want)
		}
	}
}

func TestBothFlagsLastPeriodDraw(t *testing.T) {
	h := newHarness(t, Config{TimeControl: mustTC(t, "300+0")})
	h.show(0)
	h.start(1)
	h.play(3, "e4")
	h.press(3.2, W)
	h.flag(400, B)
	h.flag(400, W) // one reading: the order is unknown
	h.advance(402)
	f := h.of(TypeFlag)
	if len(f) != 2 || f[0].Verdict != VerdictDraw || f[1].Verdict != VerdictDraw || f[0].Article != "III.3.1" {
		t.Fatalf("flags = %+v", f)
	}
	if e := h.of(TypeEnd); len(e) != 1 || e[0].Result != "1/2-1/2" || e[0].Article != "III.3.1" {
		t.Fatalf("end = %+v", e)
	}
}

func TestUnknownTimeControl(t *testing.T) {
	h := newHarness(t, Config{})
	h.show(0)
	h.start(1)
	h.play(3, "e4")
	h.press(3.2, W)
	h.flag(400, B)
	h.advance(402)
	f := h.of(TypeFlag)
	if len(f) != 1 || f[0].Verdict != VerdictUnknown || f[0].MovesRequired != 0 || !strings.Contains(string(f[0].Reason), "does not know the time control") {
		t.Fatalf("flag = %+v", f)
	}
	if len(h.of(TypeEnd)) != 0 {
		t.Fatal("a flag without a known control ended the game")
	}
}

func TestAPressReadAfterTheFlagDoesNotCountAtTheFlag(t *testing.T) {
	// White makes its second move as the flag falls: the clock's reading
	// shows the flag, the next one (the same instant) White's press. The
	// move was not completed when the flag fell (6.3.1): one move, and the
	// move is noted as made without a press, whenever the press is
	// resolved.
	h := newHarness(t, Config{TimeControl: mustTC(t, "2/60:60")})
	h.opening("e4", "e5")
	h.play(60, "Nf3")
	h.flag(60.5, W)
	h.press(60.5, W)
	h.advance(70)
	f := h.of(TypeFlag)
	if len(f) != 1 || f[0].MovesCompleted != 1 || f[0].Verdict != VerdictLoss {
		t.Fatalf("flag %+v, want White's with 1 completed move, lost", f)
	}
	h.wantAnomalies(KindMoveWithoutPress)
}
