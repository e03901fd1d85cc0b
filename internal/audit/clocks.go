package audit

import (
	"slices"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/i18n"
)

// The move-by-move checks that rest on [%emt]: the time a move took, timed
// from the board, against the clock's change.

const (
	tolIncr = 3 * time.Second // how close a residual must be to one increment
	minIncr = 5 * time.Second // increments smaller than this are not checked move by move
	// minIncrEMT is the least increment checked against the moves' %emt:
	// a residual of one increment must lie clear of the tolerance around
	// none, or a clock and a board that round and time a second or two
	// apart read as an increment missing or credited twice.
	minIncrEMT = 2*tolIncr + time.Second
)

// emtFindings checks each plain step of a side's explanation between
// consecutive moves against the move's %emt: what the increment and the
// move's time do not explain is an increment not credited, or one too
// many. Only where the side's %emt agree with its clocks nearly
// everywhere, the neighbouring moves agree, and the opponent's moves
// around agree too (a late press shows on both sides in turn).
func emtFindings(side clockd.Side, ex sideExplanation, d *sideData, s [2][]sideMove, tc [2]clockd.TimeControl) []Finding {
	var out []Finding
	t := tc[side]
	if d.emt != emtTight {
		return nil
	}
	ms := d.ms
	for j, r := range ex.rs {
		st := ex.steps[j]
		if !ex.kept[j] || st.kind != stepUse || st.from < 0 || j == len(ex.rs)-1 || r.emt == Unknown || r.k < 2 {
			continue
		}
		prev := ex.rs[st.from]
		if r.k-prev.k != 1 {
			continue
		}
		inc := credit(t, ex.after[j].p)
		if inc < minIncrEMT || ex.after[st.from].p != ex.after[j].p || ex.after[j].frozen {
			continue // (a clock standing at 0:00 credits nothing the %emt could check)
		}
		idx := r.k - 1
		res := r.o - prev.o - inc + r.emt // what the increment and the move's time do not explain
		var kind string
		var detail i18n.Message
		switch {
		case absDur(res+inc) <= tolIncr && cleanAround(ms, idx, inc):
			kind = IncrementMissing
			detail = m("audit.increment-missing", r.k, hms(r.emt), hms(prev.o), hms(r.o), hms(inc))
		case absDur(res-inc) <= tolIncr && cleanAround(ms, idx, inc):
			kind = IncrementExtra
			detail = m("audit.increment-extra", r.k, hms(r.emt), hms(prev.o), hms(r.o), hms(inc))
		default:
			continue
		}
		if opponentClean(s, tc, side, r.k) {
			out = append(out, finding(kind, side, r.k, "6.10", detail))
		}
	}
	return out
}

// dropReturned leaves out of one side's findings an increment missing and
// one too many within two moves of each other, either way round (from the
// %emt or from the clocks alone): the clock gave back what it had not
// credited, or took back what it had credited twice, which no clock does.
// The readings between were read before the press credited the increment,
// or after a second one: the clock's total is right.
func dropReturned(fs []Finding) []Finding {
	inc := func(f Finding) bool { return f.Kind == IncrementMissing || f.Kind == IncrementExtra }
	drop := make([]bool, len(fs))
	for i, f := range fs {
		for j := i + 1; j < len(fs) && !drop[i]; j++ {
			if g := fs[j]; inc(f) && inc(g) && !drop[j] && f.Kind != g.Kind && abs(f.Move-g.Move) <= 2 {
				drop[i], drop[j] = true, true
			}
		}
	}
	out := fs[:0]
	for i, f := range fs {
		if !drop[i] {
			out = append(out, f)
		}
	}
	return out
}

// opponentClean reports whether the opponent's moves just before and
// after the side's move have clocks and %emt that agree. %emt is timed
// from the board and %clk from the clock, so a player who presses late
// makes both sides' %emt disagree with their clocks, by the same amount
// in turn: that is a late press, not an increment.
func opponentClean(s [2][]sideMove, tc [2]clockd.TimeControl, side clockd.Side, k int) bool {
	ms := s[side]
	if k < 1 || k > len(ms) {
		return false
	}
	ply := ms[k-1].ply
	opp := s[side.Other()]
	inc := credit(tc[side.Other()], 1)
	for i := 1; i < len(opp)-1; i++ {
		if d := opp[i].ply - ply; d != 1 && d != -1 {
			continue
		}
		a, b := opp[i-1], opp[i]
		if a.clk == Unknown || b.clk == Unknown || b.emt == Unknown {
			continue
		}
		if absDur(b.clk-a.clk-inc+b.emt) > tolIncr {
			return false
		}
	}
	return true
}

// cleanAround reports whether the moves next to idx have clocks and %emt
// that agree with one increment each: then a residual at idx is that
// move's, not a reading taken a move late.
func cleanAround(ms []sideMove, idx int, inc time.Duration) bool {
	n := 0
	for _, j := range []int{idx - 1, idx + 1} {
		if j < 1 || j >= len(ms) {
			continue
		}
		a, b := ms[j-1], ms[j]
		if a.clk == Unknown || b.clk == Unknown || b.emt == Unknown {
			continue
		}
		if j == len(ms)-1 {
			continue
		}
		if absDur(b.clk-a.clk-inc+b.emt) > tolIncr {
			return false
		}
		n++
	}
	return n > 0
}

// emtLevel is how far a side's %emt can be believed.
type emtLevel uint8

const (
	emtPoor  emtLevel = iota // fewer than five moves to tell, or a quarter or more disagree
	emtFair                  // three in four agree: a large disagreement means something
	emtTight                 // all but one in twenty agree, to the second
)

// emtTrust measures how well a side's %emt agree with its clocks move
// after move: the clock's change plus the move's %emt is the increment,
// whatever the control, and a control changes its increment at most once
// (from none to one at move 41 or 61, say), so it is measured against the
// value most moves show before some move and the value most show after it,
// not a candidate's increment. The first and
// last moves are left out (broadcasts put the time since the board went
// live on the first, and the last may end the game unpressed), and so are
// moves after which the clock reads 0:00 (a flag: the clock no longer
// measures the moves).
func emtTrust(ms []sideMove) emtLevel {
	res := emtResiduals(ms, func(b sideMove) time.Duration { return b.emt })
	n := len(res)
	if n < 5 {
		return emtPoor
	}
	best := emtAgreeing(res)
	bad := n - best
	switch {
	case bad-1 <= n/20:
		return emtTight
	case bad*4 <= n:
		return emtFair
	}
	return emtPoor
}

// emtResiduals are a side's clock changes move after move plus each
// move's time as emtOf gives it (Unknown: none), which is the increment
// where the two agree, leaving out the first and last moves and the steps
// that measure no move: a clock at 0:00 measures none (its player's time
// ran out), and a period's time is no increment.
func emtResiduals(ms []sideMove, emtOf func(b sideMove) time.Duration) []time.Duration {
	var res []time.Duration
	for i := 2; i < len(ms)-1; i++ {
		a, b := ms[i-1], ms[i]
		if a.clk == Unknown || b.clk == Unknown || b.clk-a.clk > 5*time.Minute || b.clk <= tolRound {
			continue
		}
		if e := emtOf(b); e != Unknown {
			res = append(res, (b.clk - a.clk + e).Round(time.Second))
		}
	}
	return res
}

// emtAgreeing counts the residuals, in the order of the moves, that agree to
// within tolIncr with the value most of them show before some move or the
// value most show from it on: a control's increment changes at most once.
func emtAgreeing(res []time.Duration) int {
	var centers []time.Duration
	for _, r := range res {
		if !slices.Contains(centers, r) {
			centers = append(centers, r)
		}
	}
	n := len(res)
	// before[s]: the most residuals among res[:s] near one center; after
	// likewise for res[s:].
	before, after := make([]int, n+1), make([]int, n+1)
	near := make([]int, n+1)
	for _, c := range centers {
		for i, r := range res {
			near[i+1] = near[i]
			if absDur(r-c) <= tolIncr {
				near[i+1]++
			}
		}
		for s := 0; s <= n; s++ {
			before[s] = max(before[s], near[s])
			after[s] = max(after[s], near[n]-near[s])
		}
	}
	best := 0
	for s := 0; s <= n; s++ {
		best = max(best, before[s]+after[s])
	}
	return best
}

// byHand reports whether a clock's gain beyond the increments and the time
// used is what an arbiter adds by hand, award (handAward), possibly with
// the increment of the press back that follows a press without a move.
func byHand(added, inc, award time.Duration) bool {
	return absDur(added-award) <= tolRound || inc > 0 && absDur(added-award-inc) <= tolRound
}

// handAward is the time an arbiter adds by hand for the opponent's
// illegal move or a rejected claim under control tc: two minutes in
// standard play (7.5.5, 10.2), one in rapid and blitz (A.3, B).
func handAward(tc clockd.TimeControl) time.Duration {
	if tc.Class() == clockd.Standard {
		return 2 * time.Minute
	}
	return time.Minute
}

func absDur(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}
