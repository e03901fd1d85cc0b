package dgtmodel_test

import (
	"testing"

	"github.com/notnil/chess"
)

// The model's own reference of the Laws for a flag fall.
//
// 6.3.1: a player must complete a minimum number of moves in an allotted
// period. 6.4: the flag decides whether that happened. 6.9: a player whose
// flag falls loses, unless the opponent cannot checkmate by any series of
// legal moves (then it is a draw). A flag in a period that is not the last,
// with the control reached, ends nothing.
//
// ranOut is the period whose time ran out, as the clock counts them: with
// a clock that adds the next period when the time runs out it is the
// period before the addition (the flag and the new time appear together),
// never the one just added. When a clock has given a player time of a
// later period before that player completed an earlier control (a counter
// fooled by an extra press, or a period added to both players at the
// opponent's flag), the time that ran out included the earlier period's,
// whose control was not reached: the earliest unreached control is judged.

type judgement struct {
	period   int    // the period judged
	required int    // cumulative moves it requires; 0 in the last period
	verdict  string // "loss", "draw" or "none"
}

// mate is the opponent's 6.9 answer as the model knows it: "yes", "no",
// or "" when the model cannot tell (then loss and draw are both accepted).
func judge(tc control, ranOut, completed int, mate string) judgement {
	eff := ranOut
	for p := 1; p < ranOut; p++ {
		if r := tc.cum(p); r > 0 && completed < r {
			eff = p
			break
		}
	}
	j := judgement{period: eff, required: tc.cum(eff)}
	last := eff >= len(tc.periods)
	switch {
	case !last && completed >= j.required:
		j.verdict = "none"
	case mate == "no":
		j.verdict = "draw"
	default:
		j.verdict = "loss"
	}
	return j
}

// canMate is the model's 6.9 answer for side in pos: "yes" with a queen or
// a rook (a helpmate always exists), "no" with a bare king, "" otherwise.
func canMate(pos *chess.Position, side chess.Color) string {
	bare := true
	for _, p := range pos.Board().SquareMap() {
		if p.Color() != side || p.Type() == chess.King {
			continue
		}
		bare = false
		if p.Type() == chess.Queen || p.Type() == chess.Rook {
			return "yes"
		}
	}
	if bare {
		return "no"
	}
	return ""
}

func TestJudge(t *testing.T) {
	two := control{periods: []period{{40, 5400e3}, {0, 1800e3}}}
	three := control{periods: []period{{40, 6000e3}, {20, 3000e3}, {0, 900e3}}}
	one := control{periods: []period{{0, 300e3}}}
	cases := []struct {
		name      string
		tc        control
		ranOut, c int
		mate      string
		want      judgement
	}{
		{"sudden death", one, 1, 12, "yes", judgement{1, 0, "loss"}},
		{"sudden death, bare king", one, 1, 12, "no", judgement{1, 0, "draw"}},
		{"before the control", two, 1, 39, "yes", judgement{1, 40, "loss"}},
		{"before the control, cannot mate", two, 1, 39, "no", judgement{1, 40, "draw"}},
		{"at the control (flag-add clock)", two, 1, 40, "yes", judgement{1, 40, "none"}},
		{"after the control (flag-add clock)", two, 1, 45, "yes", judgement{1, 40, "none"}},
		{"in the last period", two, 2, 45, "yes", judgement{2, 0, "loss"}},
		{"period 2 given early", two, 2, 39, "yes", judgement{1, 40, "loss"}},
		{"three periods, second control", three, 2, 60, "yes", judgement{2, 60, "none"}},
		{"three periods, short of the second", three, 2, 59, "yes", judgement{2, 60, "loss"}},
		{"three periods, last", three, 3, 70, "no", judgement{3, 0, "draw"}},
		{"three periods, given both early", three, 3, 30, "yes", judgement{1, 40, "loss"}},
	}
	for _, c := range cases {
		if got := judge(c.tc, c.ranOut, c.c, c.mate); got != c.want {
			t.Errorf("%s: judge = %+v, want %+v", c.name, got, c.want)
		}
	}
}
