package audit

import (
	"fmt"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
)

// Tolerances for clocks that broadcasts round to the second and read a
// little late.
const (
	tolGain = 3 * time.Second  // time gained beyond the increments that is still rounding
	tolFlag = 3 * time.Second  // time left that still counts as run out
	tolIncr = 3 * time.Second  // how close a residual must be to one increment
	minIncr = 5 * time.Second  // increments smaller than this are not checked move by move
	tolEMT  = 60 * time.Second // %emt and %clk may disagree by this before the %emt is ignored
	maxMiss = 2                // a counting clock miscounts by at most this many presses
)

// addition is a period's time seen on a side's clock.
type addition struct {
	side      clockd.Side
	period    int           // the period that started (2, 3…)
	time      time.Duration // its time
	move      int           // the first move whose clock shows it
	from      int           // the earliest move it can have come at (gaps in the clocks)
	atFlag    bool          // the side's time had run out
	completed int           // completed moves when it came; -1 when the clocks cannot tell
	required  int           // moves the ending period required
	withFlag  bool          // came with the opponent's flag (a clock that adds to both)
}

// sideReplay is the replay of one side's clocks against the control.
type sideReplay struct {
	side     clockd.Side
	adds     []addition
	findings []Finding
	byEMT    []Finding // increment findings resting on %emt: checked against the opponent's moves
	points   []Point
	flagEnd  bool          // the side's last reading is 0:00:00
	last     time.Duration // the side's last reading (Unknown if none)
	lastMove int
}

// credit is the increment a Fischer clock adds after a move in period p.
func credit(tc clockd.TimeControl, p int) time.Duration {
	if p < 1 || p > len(tc.Periods) {
		return 0
	}
	q := tc.Periods[p-1]
	if q.Mode != clockd.Fischer {
		return 0
	}
	return q.Increment
}

// replaySide walks a side's clock readings with the control: each reading
// is the previous one, plus the increments of the moves between, less the
// time used, plus any period added. Time used is never negative, so a
// reading higher than that allows means time was added: a period, an
// extra increment, or something no clock does.
//
// oppFlags holds the plies at which the opponent's time ran out and a
// period was added: a clock that gives both players the period at the
// first flag adds this side's at the same moment, with time left.
func replaySide(side clockd.Side, ms []sideMove, tc clockd.TimeControl, oppFlags []int) sideReplay {
	out := sideReplay{side: side, last: Unknown}
	if len(tc.Periods) == 0 {
		out.points = readings(ms)
		return out
	}
	p := 1
	first := tc.Periods[0]
	pre := first.Time + credit(tc, 1) // before the first move (Fischer: one increment already)
	kPrev, iPrev := 0, -1
	trust := emtTrusted(ms, tc)
	zeroSeen := false // a 0:00 reading with play going on was reported
	stale := false    // the last reading did not change (read before the press)
	for idx, m := range ms {
		if m.clk == Unknown {
			continue
		}
		out.points = append(out.points, Point{Move: m.k, Seconds: secs(m.clk)})
		out.last, out.lastMove = m.clk, m.k
		last := idx == len(ms)-1
		g := m.k - kPrev
		inc := credit(tc, p)
		incs := time.Duration(g) * inc
		e := m.clk - pre - incs // time gained beyond the increments: ≤ 0 unless time was added
		added, addedKnown := addedSince(ms, iPrev, idx, e)
		wasZero := iPrev >= 0 && pre == 0
		handled := false
		next := time.Duration(-1)
		if p < len(tc.Periods) {
			next = tc.Periods[p].Time
		}
		if next > 0 && (e > tolGain && e <= next+tolGain || addedKnown && e <= tolGain && absDur(added-next) <= max(tolEMT, next/20)) {
			if a, ok := out.period(ms, iPrev, idx, pre, e, inc, tc, p, oppFlags); ok {
				out.adds = append(out.adds, a)
				p++
				handled = true
			}
		}
		if !handled && e > tolGain && g == 1 && m.k >= 2 && !last && inc >= minIncr && e <= inc+tolIncr && !wasZero && !stale {
			// At most one increment gained: the clock credited a second
			// one, as it does for a press without a move.
			out.add(IncrementExtra, m.k, "6.10, 7.5.3", fmt.Sprintf("the clock went from %s after move %d to %s after move %d, %s more than one increment (%s) allows: a second increment was credited — a press without a move (7.5.3), or a clock that credits twice", hms(pre), kPrev, hms(m.clk), m.k, hms(e), hms(inc)))
			handled = true
		}
		if !handled && e <= tolGain && g == 1 && !last && m.k >= 2 && inc >= minIncr && m.emt != Unknown && trust {
			out.checkIncrementByEMT(ms, idx, e, pre, inc)
			handled = true
		}
		if !handled && e > tolGain {
			out.gain(m, e, pre, inc, g, wasZero, kPrev)
		} else if !handled && wasZero && !last && !zeroSeen {
			zeroSeen = true
			out.add(ClockData, kPrev, "6.10", fmt.Sprintf("the clock read 0:00 after move %d and play went on (%s after move %d): a flag that nobody claimed (6.8), or a wrong reading", kPrev, hms(m.clk), m.k))
		}
		stale = m.clk == pre && g == 1 || iPrev < 0 && m.clk == pre+credit(tc, 1)
		pre, kPrev, iPrev = m.clk, m.k, idx
	}
	out.flagEnd = out.last == 0 && out.lastMove == len(ms) && len(ms) > 0
	return out
}

// readings are the points of the moves with a clock reading.
func readings(ms []sideMove) []Point {
	var points []Point
	for _, m := range ms {
		if m.clk != Unknown {
			points = append(points, Point{Move: m.k, Seconds: secs(m.clk)})
		}
	}
	return points
}

// addedSince is the time added to the clock from the reading at iPrev to
// the one at idx, which gained e beyond the increments. It is known when
// every move in between has its %emt: a player who overstepped by more
// than the period's time shows no gain, only a clock above zero.
func addedSince(ms []sideMove, iPrev, idx int, e time.Duration) (added time.Duration, known bool) {
	added = e
	for j := iPrev + 1; j <= idx; j++ {
		if ms[j].emt == Unknown {
			return added, false
		}
		added += ms[j].emt
	}
	return added, true
}

// checkIncrementByEMT holds the reading of move ms[idx], e beyond the
// increments from pre, against the move's %emt: what the increment and the
// move's time do not explain is an increment not credited, or one too
// many.
func (out *sideReplay) checkIncrementByEMT(ms []sideMove, idx int, e, pre, inc time.Duration) {
	m := ms[idx]
	r := e + m.emt // the clock's change less what the increment and the move's time explain
	switch {
	case absDur(r+inc) <= tolIncr && cleanAround(ms, idx, inc):
		out.addEMT(IncrementMissing, m.k, "6.10", fmt.Sprintf("move %d took %s (%%emt) and the clock went from %s to %s: the %s increment was not credited", m.k, hms(m.emt), hms(pre), hms(m.clk), hms(inc)))
	case absDur(r-inc) <= tolIncr && cleanAround(ms, idx, inc):
		out.addEMT(IncrementExtra, m.k, "6.10", fmt.Sprintf("move %d took %s (%%emt) and the clock went from %s to %s: one increment (%s) more than the control gives was credited", m.k, hms(m.emt), hms(pre), hms(m.clk), hms(inc)))
	}
}

func absDur(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

func (r *sideReplay) add(kind string, move int, article, detail string) {
	r.findings = append(r.findings, Finding{Kind: kind, Side: r.side.String(), Move: move, Article: article, Detail: detail})
}

func (r *sideReplay) addEMT(kind string, move int, article, detail string) {
	r.byEMT = append(r.byEMT, Finding{Kind: kind, Side: r.side.String(), Move: move, Article: article, Detail: detail})
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

// emtTrusted reports whether a side's %emt agree with its clocks move
// after move (the clock's change less the increment), all but one in
// twenty: only then is a lone disagreement read as the clock's fault.
// The first and last moves are left out (broadcasts put the time since the
// board went live on the first, and the last may end the game unpressed).
func emtTrusted(ms []sideMove, tc clockd.TimeControl) bool {
	inc := credit(tc, 1)
	n, bad := 0, 0
	for i := 2; i < len(ms)-1; i++ {
		a, b := ms[i-1], ms[i]
		if a.clk == Unknown || b.clk == Unknown || b.emt == Unknown || b.clk-a.clk > 5*time.Minute {
			continue
		}
		n++
		if absDur(b.clk-a.clk-inc+b.emt) > tolIncr {
			bad++
		}
	}
	return n >= 5 && bad-1 <= n/20
}

// gain reports time that appeared on a clock with no period to explain it.
func (r *sideReplay) gain(m sideMove, e, pre, inc time.Duration, g int, wasZero bool, kPrev int) {
	what := fmt.Sprintf("the clock went from %s after move %d to %s after move %d", hms(pre), kPrev, hms(m.clk), m.k)
	if kPrev == 0 {
		what = fmt.Sprintf("the clock read %s after move %d, %s more than the control allows", hms(m.clk), m.k, hms(e))
	}
	extra := fmt.Sprintf("%s: %s more than the increments explain", what, hms(e))
	if kPrev == 0 {
		extra = what
	}
	switch {
	case wasZero:
		extra += "; the reading of 0:00 before it was a flag nobody claimed (6.8), or a wrong reading"
	case m.emt != Unknown && byHand(e+m.emt, inc):
		// The arbiter's hand: two minutes (one in rapid and blitz) for
		// the opponent's illegal move (7.5.5, A.3), or for a rejected
		// claim (10.2).
		r.add(TimeAdded, m.k, "7.5.5, 10.2", fmt.Sprintf("%s; with the move's %%emt (%s) that is %s added by hand: the arbiter's award to %s for the opponent's illegal move (2 minutes, 7.5.5; 1 minute in rapid and blitz, A.3) or a rejected claim (10.2) shows like this. Check the arbiter's report for it",
			extra, hms(m.emt), hms(e+m.emt), r.side))
		return
	}
	r.add(ClockData, m.k, "6.10", extra+". A data fault or a correction, not a finding about the control.")
}

// byHand reports whether a clock's gain beyond the increments and the time
// used is what an arbiter adds by hand: two minutes, or one in rapid and
// blitz (7.5.5, A.3, 10.2), possibly with the increment of the press back
// that follows a press without a move.
func byHand(added, inc time.Duration) bool {
	for _, d := range []time.Duration{2 * time.Minute, time.Minute} {
		if absDur(added-d) <= tolGain || inc > 0 && absDur(added-d-inc) <= tolGain {
			return true
		}
	}
	return false
}

// period decides what a gain of e that the next period's time could
// explain was: a period added at a flag, at a press, or something else.
// idx is the reading's index, iPrev the previous reading's (-1: the
// start).
func (r *sideReplay) period(ms []sideMove, iPrev, idx int, pre, e, inc time.Duration, tc clockd.TimeControl, p int, oppFlags []int) (addition, bool) {
	m := ms[idx]
	kPrev := 0
	if iPrev >= 0 {
		kPrev = ms[iPrev].k
	}
	g := m.k - kPrev
	P := tc.Periods[p].Time
	used := P - e // the time the gap's moves took, if exactly P was added
	left := pre + time.Duration(g-1)*inc - used
	a := addition{side: r.side, period: p + 1, time: P, move: m.k, from: kPrev + 1, completed: -1, required: tc.Required(p)}
	req := a.required
	a.atFlag = left <= tolFlag
	if a.atFlag && g == 1 && m.emt != Unknown && absDur(used-m.emt) > max(tolEMT, used/2) {
		return a, false // the move's %emt says it was short: the gain was not the period
	}
	if a.atFlag {
		j := 0
		if g == 1 {
			j = m.k
		} else if t, ok := locateFlag(ms, iPrev, idx, pre, inc); ok {
			j = t
		}
		switch {
		case j > 0:
			a.move, a.completed = j, j-1
		case kPrev >= req:
			a.completed = kPrev // at least
		}
		return a, true
	}
	// Time was left: the period came with the opponent's flag, or with a
	// press.
	for _, f := range oppFlags {
		if d := m.ply - f; d >= -2 && d <= 2 {
			a.withFlag, a.completed = true, m.k-1
			return a, true
		}
	}
	if g == 1 {
		if m.emt != Unknown && absDur(e+m.emt-P) > tolEMT && m.k < a.required {
			return a, false // the move's %emt says the early gain was not the period
		}
		a.completed = m.k
	} else if kPrev < req && req <= m.k {
		a.completed = req
	}
	if a.completed >= 0 && a.completed < req-maxMiss || a.completed < 0 && m.k < req-maxMiss {
		return a, false // far too early for a miscounting clock
	}
	return a, true
}

// locateFlag finds, from the %emt of every move in a gap of clock
// readings, the move during which the side's time ran out.
func locateFlag(ms []sideMove, iPrev, idx int, pre, inc time.Duration) (int, bool) {
	t := pre
	for j := iPrev + 1; j <= idx; j++ {
		if j < 0 || ms[j].emt == Unknown {
			return 0, false
		}
		t -= ms[j].emt
		if t <= tolFlag {
			return ms[j].k, true
		}
		t += inc
	}
	return 0, false
}
