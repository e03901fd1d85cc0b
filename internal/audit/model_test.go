package audit

import (
	"slices"
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

// TestDecodeCreditsOneFlag decodes White's clock in a game of three
// periods with a flag credited over White's moves 29 to 31, as the search
// for a clock that gives both players the period credits a flag where the
// opponent's clock gained the second period's time: White's time ran out
// in move 31 (39:30 left, 50:03 after it). The credit goes to the flag
// that begins the second period, once: a flag in move 29 beginning the
// second period and another in move 31 beginning the third would take it
// twice.
func TestDecodeCreditsOneFlag(t *testing.T) {
	tc, err := clockd.ParseTimeControl("40/6000+30:20/3000+30:900+30")
	if err != nil {
		t.Fatal(err)
	}
	inc := constant(30 * time.Second)
	white := series(100*time.Minute+30*time.Second, 28, constant(138*time.Second), inc, nil)
	white = append(white, "0:45:50", "0:39:30", "0:50:03", "0:47:10", "0:00:31")
	white = append(white, series(31*time.Second, 10, constant(20*time.Second), inc, nil)...)
	black := series(100*time.Minute+30*time.Second, 43, constant(60*time.Second), inc, nil)
	g := readAll(t, clockGame(t, map[string]string{"TimeControl": tc.String()}, white, black))[0]
	sd := sidesData(split(g))
	w := &sd[clockd.White]
	credits := []flagCredit{{lo: w.plys[28-1], hi: w.plys[31-1] + 1, period: 2, bonus: costJump}}
	e := decodeSide(w, hypothesis{tc: tc, mode: modeFlagBoth, credits: credits, emt: w.emt})
	flags := runOutPlies(e, *w, tc)
	if want := []oppFlag{{ply: w.plys[31-1], period: 2}}; !slices.Equal(flags, want) {
		t.Errorf("White's flags %v, want %v (the second period in move 31)", flags, want)
	}
}
