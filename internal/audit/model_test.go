package audit

import (
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
)

// TestDecodeTakesThePeriodAtTheOpponentsFlag: on a clock that gives both
// players the period at the first flag, the hypothesis that the opponent's
// time ran out at a ply is one that this side's clock gained the period
// then. Black's readings go on plainly, as if nothing had come (a player
// who spent nearly all of it on the next moves would show just that): the
// explanation under White's flag at move 30 still has Black in the second
// period from the reading after it on, whatever that costs, and the same
// readings without the flag stay in the first.
func TestDecodeTakesThePeriodAtTheOpponentsFlag(t *testing.T) {
	tc, err := clockd.ParseTimeControl("40/5400+30:1800+30")
	if err != nil {
		t.Fatal(err)
	}
	use := constant(90 * time.Second)
	white := series(90*time.Minute+30*time.Second, 36, use, constant(30*time.Second), nil)
	black := series(90*time.Minute+30*time.Second, 36, use, constant(30*time.Second), nil)
	g := readAll(t, clockGame(t, map[string]string{"TimeControl": tc.String()}, white, black))[0]
	sd := sidesData(split(g))
	flagPly := sd[clockd.White].plys[30-1] // White's move 30
	for _, c := range []struct {
		opp  []oppFlag
		want int // Black's period after move 31
	}{
		{nil, 1},
		{[]oppFlag{{ply: flagPly, period: 2}}, 2},
	} {
		e := decodeSide(&sd[clockd.Black], hypothesis{tc: tc, mode: modeFlagBoth, oppFlags: c.opp, emt: sd[clockd.Black].emt})
		for j, r := range e.rs {
			if !e.kept[j] || r.ply <= flagPly {
				continue
			}
			if e.after[j].p != c.want {
				t.Errorf("opponent's flags %v: Black's period after move %d is %d, want %d", c.opp, r.k, e.after[j].p, c.want)
			}
		}
	}
}
