package audit

import (
	"math"
	"sync"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
)

// The model of one side's clock history.
//
// A clock, between two of a player's readings, loses the time the player
// used and gains the increments of the presses between; when a period
// ends it also gains the next period's time. How it decides that a period
// has ended is the clock's mode:
//
//   - counting: at the press that completes the period's moves (a clock
//     that miscounts adds it a press or two early or late);
//   - at the flag: when the player's time runs out, to that player only;
//   - at the flag, to both: when the first player's time runs out, to both
//     players at once.
//
// A counting clock whose player runs out before the count stands at 0:00
// until the count adds the next period.
//
// A broadcast's reading is usually that clock, rounded to the second; it
// can also be wrong once (a glitch: another moment's value, another
// board's), equal to the previous reading (read before the press), or
// missing. Time can also appear that no clock gives: an extra increment (a
// press without a move), two minutes added by the arbiter, or a correction.
//
// An explanation of a side's readings says which readings are kept, and
// for each step between two kept readings what happened: the player used
// time, a period's time came (how), the clock stood at 0:00, or time
// appeared. Each explanation has a cost, a rough negative log-likelihood
// in points: a glitch, a flag before the control and time from nowhere
// cost points; a move that took implausibly long costs more the longer it
// took. decodeSide finds the cheapest explanation under a hypothesis of
// the control and the clock's mode, by dynamic programming over the kept
// readings.

// Costs of the explanations' parts, in points.
const (
	costGlitch     = 10.0 // a reading set aside as wrong
	costGlitchLast = 2.0  // the side's last reading set aside (often read late, or from the next game)
	costStale      = 2.0  // a reading equal to the previous one set aside (read before the press)
	costGlitchRun  = 7.0  // a reading set aside after one set aside: a feed garbled for a few moves
	costJump       = 30.0 // time that appeared which no clock behaviour gives (a correction, a data fault)
	costExtraInc   = 12.0 // one increment more than the moves give (a press without a move)
	costHand       = 12.0 // the two minutes (one in rapid) an arbiter adds, shown by the move's %emt
	costFlag       = 12.0 // a flag before the control (or a flag nobody claimed): rarer than a glitch
	costMiscount   = 6.0  // a counting clock one press off
	costBothMode   = 1.0  // a clock that gives both players the period at the first flag
	costEMT        = 4.0  // a move whose %emt disagrees with the time the clocks say it took
)

const (
	tolRound   = 3 * time.Second  // readings are rounded or truncated to the second, and read a moment off
	maxSkip    = 6                // at most this many readings in a row are set aside between two kept ones
	longMove   = 15 * time.Minute // a move that took longer than this costs points
	longMoveBy = 3 * time.Minute  // a point for every this much beyond longMove
	maxSamples = 8                // fast moves needed before an increment is judged too large
	// flagEMTMargin is how far beyond the time left a move's %emt must go
	// to show a flag that a counting clock's count hid (the reading is the
	// fresh period's either way).
	flagEMTMargin = 5 * time.Second
	// shownIncr is the least increment a reading shows: a press with it
	// leaves at least a second on the clock, so 0:00 after it is a clock
	// whose time ran out, and a reading read before the press credited it
	// reads clearly low; a smaller one is lost in the rounding.
	shownIncr = 2 * time.Second
)

// clockMode is how the clock adds the next period.
type clockMode uint8

const (
	modeCount    clockMode = iota // at the press that completes the period's moves
	modeFlag                      // when the player's time runs out, to that player
	modeFlagBoth                  // when the first player's time runs out, to both
)

func (m clockMode) String() string {
	switch m {
	case modeFlag:
		return "at the flag"
	case modeFlagBoth:
		return "at the first flag, to both players"
	}
	return "counting moves"
}

// hypothesis is a way a side's clock may have run.
type hypothesis struct {
	tc     clockd.TimeControl
	mode   clockMode
	offset int // modeCount: the period came this many presses late (negative: early)
	// oppFlags (modeFlagBoth) are the plies at which the opponent's time
	// ran out and the period began.
	oppFlags []oppFlag
	// noEarlyFlag forbids a flag before the control: the alternative an
	// accusation is weighed against.
	noEarlyFlag bool
	// noHiddenFlag (modeFlagBoth) forbids a flag before the control that
	// the period the opponent's flag gave early hid: a reading in that
	// period, before the moves the period before it requires were
	// completed, below the period's time and its increment (hiddenFlag).
	noHiddenFlag bool
	// periodBy (when its period is set) has that period begun by that
	// ply: every reading after it is in that period or a later one. The
	// alternative that the opponent's flag gave the period is weighed with
	// the opponent's readings explained so.
	periodBy oppFlag
	// ownFlagIn (with periodBy) has that period begin with this side's
	// own flag, dated in those moves: the alternative that the opponent's
	// time ran out, not the player's, is the opponent's clock run down to
	// 0:00, not one that kept its time and was given the period.
	ownFlagIn moveSpan
	// noGainAt forbids time added by hand, and an increment too many,
	// after that move (0: none): the alternative a clock finding that
	// says one came is weighed against.
	noGainAt int
	// noFlagIn forbids a flag before the control dated in those moves
	// (the zero span: none): the alternative the move of an accusation is
	// weighed against.
	noFlagIn moveSpan
	// credits (modeFlagBoth) are stretches of plies in which a flag of this
	// side would explain time the opponent's clock gained that nothing
	// else explains: a flag there costs that much less while the side is
	// decoded, so the decoder weighs the two clocks together. The
	// explanation's cost is then given back without them (creditBack).
	credits []flagCredit
	// emt is how far the side's %emt can be believed: where they agree
	// with its clocks to the second nearly everywhere, a move's %emt is
	// held to that; otherwise only to a minute (broadcasts time %emt from
	// the board, %clk from the clock), and where they mostly agree a large
	// disagreement still counts.
	emt emtLevel
}

// moveSpan is a side's moves from..to; the zero span holds none.
type moveSpan struct{ from, to int }

func (s moveSpan) has(k int) bool { return s.from > 0 && k >= s.from && k <= s.to }

// forbids reports whether the hypothesis forbids a flag before the control
// over step st, which ends at the side's move k: one dated in the span
// noFlagIn, or undated and read at a move in it.
func (h hypothesis) forbids(st step, k int) bool {
	if st.flagAt > 0 {
		return h.noFlagIn.has(st.flagAt)
	}
	return h.noFlagIn.has(k)
}

// oppFlag is a flag of the opponent's: its ply and the period it began.
type oppFlag struct{ ply, period int }

// flagCredit is a stretch of plies (lo, hi), exclusive, in which a flag
// that begins the period earns bonus points (once: a second flag in the
// stretch begins another period).
type flagCredit struct {
	lo, hi int
	period int
	bonus  float64
}

// flagPlies is the stretch of plies [lo, hi] a flag over a step from the
// side's move k to reading r can have fallen in.
func (d *decoder) flagPlies(k, flagAt int, r reading) (lo, hi int) {
	if flagAt > 0 && flagAt <= len(d.sd.plys) {
		f := d.sd.plys[flagAt-1]
		return f, f
	}
	lo = r.ply
	if k < len(d.sd.plys) {
		lo = d.sd.plys[k] // the side's move k+1
	}
	return lo, r.ply
}

// flagBonus is the bonus a flag in plies [lo, hi] that begins period p
// earns.
func (d *decoder) flagBonus(lo, hi, p int) float64 {
	for _, c := range d.h.credits {
		if c.period == p && lo < c.hi && hi > c.lo {
			return c.bonus
		}
	}
	return 0
}

// reading is one of a side's clock readings.
type reading struct {
	k   int           // the side's move number
	ply int           // the ply (index in Game.Plies)
	o   time.Duration // the reading ([%clk])
	emt time.Duration // the move's [%emt], Unknown when absent
}

// stepKind is what happened between two kept readings.
type stepKind uint8

const (
	stepUse      stepKind = iota // the player used time
	stepPeriod                   // a period's time came (how says how)
	stepRunOut                   // the player's time ran out and the clock stands at 0:00
	stepJump                     // time appeared that no clock behaviour gives
	stepExtraInc                 // one increment too many
	stepHand                     // the arbiter's two minutes (one in rapid)
)

// periodHow is how a period's time came.
type periodHow uint8

const (
	byCount        periodHow = iota // at the counted press
	byRunOut                        // when the player's time ran out
	byOpponentFlag                  // when the opponent's ran out (both-players clock)
	afterRunOut                     // at the count, to a clock standing at 0:00
)

// step is the transition into a kept reading.
type step struct {
	kind    stepKind
	how     periodHow
	from    int           // the previous kept reading's index (-1: the start)
	periods int           // periods that began (stepPeriod)
	flagAt  int           // move during which the time ran out (0: not known exactly)
	flagMin int           // the earliest move it can have run out in
	early   bool          // the time ran out before the period's moves were completed
	used    time.Duration // time used over the step, as the readings imply
	gained  time.Duration // time that appeared (stepJump, stepExtraInc, stepHand)
}

// state is where a side's clock stands after a kept reading: the period
// in force, and whether it stands at 0:00.
type state struct {
	p      int // period, from 1
	frozen bool
}

func (s state) index() int {
	i := s.p * 2
	if s.frozen {
		i++
	}
	return i
}

// sideExplanation is the cheapest explanation of a side's readings.
type sideExplanation struct {
	rs    []reading
	kept  []bool
	steps []step  // steps[i]: the transition into reading i (kept readings only)
	after []state // after[i]: the state after reading i
	cost  float64
	// fast holds the time used on single moves with a plain step: an
	// increment larger than the clock's shows as no fast move at all.
	fast []time.Duration
	// rises counts the single moves whose clock rose beyond the increment
	// (within the rounding a plain step allows): with an increment smaller
	// than the clock's, many do.
	rises int
}

// decoder holds one side's readings and the control.
type decoder struct {
	rs     []reading
	sd     *sideData
	h      hypothesis
	n      int
	nst    int
	counts []int // counts[p]: the press at which a counting clock starts period p+1 (0: none)
	// The tables, and the step being relaxed: into reading j, from cell
	// from (-1: the start) at cost base.
	cost []float64
	back []step
	prev []int32
	j    int
	from int32
	base float64
}

// emit offers a way into reading d.j, in state to, costing c more.
func (d *decoder) emit(to state, c float64, st step) {
	if to.p < 1 || to.p > len(d.h.tc.Periods) {
		return
	}
	if by := d.h.periodBy; by.period > 0 {
		if to.p < by.period && d.rs[d.j].ply > by.ply {
			return
		}
		// Begun with the side's own flag: the step into it must be that flag.
		if d.h.ownFlagIn.from > 0 && to.p >= by.period && d.fromPeriod() < by.period &&
			!(st.kind == stepPeriod && st.how == byRunOut && d.flagIn(st, d.h.ownFlagIn)) {
			return
		}
	}
	if d.h.noGainAt > 0 && (st.kind == stepHand || st.kind == stepExtraInc) && d.rs[d.j].k == d.h.noGainAt {
		return
	}
	if d.h.noHiddenFlag && to.p >= 2 {
		if r := d.rs[d.j]; r.k <= d.h.tc.Required(to.p-1) && r.o-credit(d.h.tc, to.p) <= periodTime(d.h.tc, to.p)-tolRound {
			return // the reading shows a flag the period given early hid
		}
	}
	if d.h.mode == modeFlagBoth && d.from >= 0 {
		// The hypothesis that the opponent's time ran out at a ply is one
		// that this side's clock gained its next period then: a step past
		// that ply does not stay in the period before it.
		from, p := int(d.from)/d.nst, d.fromPeriod()
		if to.p <= p && d.oppFlagBetween(d.rs[from].ply, d.rs[d.j].ply, p+1) {
			return
		}
	}
	cell := d.j*d.nst + to.index()
	if c += d.base; c < d.cost[cell] {
		d.cost[cell], d.back[cell], d.prev[cell] = c, st, d.from
	}
}

// fromPeriod is the period of the state the step being offered leaves
// (1 at the start).
func (d *decoder) fromPeriod() int {
	if d.from < 0 {
		return 1
	}
	return int(d.from) % d.nst / 2
}

// flagIn reports whether the flag over step st, into reading d.j, may
// have fallen in the moves of span.
func (d *decoder) flagIn(st step, span moveSpan) bool {
	m := st.flagMoves(d.rs[d.j].k)
	return m.from <= span.to && m.to >= span.from
}

// flagMoves are the moves the flag over step st, which ends at the side's
// move k, may have fallen in: its move where the readings date it, else
// the moves they leave open.
func (st step) flagMoves(k int) moveSpan {
	if st.flagAt > 0 {
		return moveSpan{st.flagAt, st.flagAt}
	}
	return moveSpan{max(1, st.flagMin), k}
}

// oppFlagBetween reports whether an opponent's flag falls strictly between
// plies lo and hi: with period > 0, one that began that period.
func (d *decoder) oppFlagBetween(lo, hi, period int) bool {
	for _, f := range d.h.oppFlags {
		if f.ply > lo && f.ply < hi && (period == 0 || f.period == period) {
			return true
		}
	}
	return false
}

// credit is the increment a press adds in period p (1-based).
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

// periodTime is the time period p (1-based) adds.
func periodTime(tc clockd.TimeControl, p int) time.Duration {
	if p < 1 || p > len(tc.Periods) {
		return 0
	}
	return tc.Periods[p-1].Time
}

// countAt is the press at which a counting clock starts period p+1, or 0
// when period p lasts to the end.
func (d *decoder) countAt(p int) int {
	if p < 1 || p >= len(d.counts) {
		return 0
	}
	return d.counts[p]
}

// moveCost is what time used over gap moves costs: nothing while the
// average move is not implausibly long.
func moveCost(used time.Duration, gap int) float64 {
	if gap < 1 {
		gap = 1
	}
	a := used / time.Duration(gap)
	if a <= longMove {
		return 0
	}
	return float64(a-longMove) / float64(longMoveBy)
}

// startCost is what the first kept reading's distance from the start
// costs: a first move takes seconds, a late arrival minutes; a control
// that gives far more time than the clocks show does not fit. The
// allowance and the scale grow with the first period's time t.
func startCost(used time.Duration, k int, t time.Duration) float64 {
	allow := max(20*time.Second, t/18) * time.Duration(max(1, k))
	if used <= allow {
		return 0
	}
	return min(30, float64(used-allow)/float64(max(5*time.Second, t/45)))
}

// pressed reports whether reading r can follow reading o by presses that
// credited inc each: a clock that was pressed shows at least the increment
// (less a second of rounding), so 0:00 after a press with an increment of
// 2 s or more is a clock whose time ran out; without an increment, 0:00
// after 0:00 is too (no move takes no time).
func pressed(o, r, inc time.Duration) bool {
	if inc >= shownIncr {
		return r+time.Second >= inc
	}
	return r >= time.Second || o >= time.Second
}

// costLastSecond is the least a press with under a second left costs:
// rarer than a flag in the same move is likely.
const costLastSecond = 3.0

// pointsPerNat converts a log-likelihood into points: a wrong reading,
// at the rate noiseBase, costs costGlitch.
var pointsPerNat = costGlitch / -math.Log(noiseBase)

// lastSecondCost is what moves that used the time left, o, to the second
// cost: the moves may have taken any time up to o, and one second of it
// is the last, so the more time was left the rarer it is (with 14 minutes
// left, about as rare as two wrong readings).
func lastSecondCost(o time.Duration) float64 {
	return max(costLastSecond, pointsPerNat*math.Log(max(1, o.Seconds())))
}

// lastSecond is the cost of a press that left the clock at 0:00 (from o,
// without an increment to lift it).
func lastSecond(o, r, inc time.Duration) float64 {
	if inc < shownIncr && r < time.Second && o >= time.Second {
		return lastSecondCost(o)
	}
	return 0
}

// glitchCost is what setting reading x aside costs, the reading before it
// kept (prevKept) or set aside too. A reading equal to the one before,
// read before the press, shows the clock's value before the move: the
// value of the reading before only when that one is right. Equal to one
// set aside as wrong, it is the same wrong value again. After one set
// aside, a wrong reading costs less: a feed that goes wrong tends to stay
// wrong for a few moves, and the run is one fault, not one per reading.
func (d *decoder) glitchCost(x int, prevKept bool) float64 {
	switch {
	case x == d.n-1:
		return costGlitchLast
	case x > 0 && d.rs[x].o == d.rs[x-1].o && (x < 2 || d.rs[x-1].o != d.rs[x-2].o):
		if !prevKept {
			return costGlitch
		}
		return costStale // once: a run of equal readings is a clock standing still, not stale reads
	case d.confirmed(x):
		// Before the preIncrement test: a reading read before the
		// press credited its increment is that much below what the
		// move's %emt says the clock showed.
		return costConfirmed
	case d.preIncrement(x):
		return costStale
	case standsAtZero(d.rs[x].o) && x > 0 && d.rs[x-1].o >= time.Minute && credit(d.h.tc, d.h.tc.PeriodOf(d.rs[x].k-1)) >= shownIncr:
		return costGlitch + costZero
	case !prevKept:
		return costGlitchRun
	}
	return costGlitch
}

// costZero is what a wrong reading costs beyond costGlitch when it shows
// 0:00 where an increment makes that no press's reading, after a reading
// of a minute or more: a wrong value lands anywhere over minutes, and on
// the one value a clock whose time ran out shows only by coincidence.
// (Without an increment a press in the last second shows 0:00 too; with
// under a minute left, a reading a little off shows 0:00 as well.)
const costZero = 5.0

// costConfirmed is what setting aside a reading costs that its move's
// %emt confirms: a wrong reading is a wrong value, and this one is what
// the clock showed if the move took what the board says it took.
const costConfirmed = 25.0

// confirmed reports whether reading x follows the reading before it by
// its move's %emt to the second, plainly or with a period's time added
// at a flag, where the side's %emt can be believed.
func (d *decoder) confirmed(x int) bool {
	if x < 1 || d.h.emt == emtPoor {
		return false
	}
	a, r := d.rs[x-1], d.rs[x]
	if r.k-a.k != 1 || r.emt == Unknown {
		return false
	}
	tc := d.h.tc
	// A period without an increment confirms nothing where the move's
	// period by the count has one: a reading taken before the press
	// credited it reads the same.
	byCount := credit(tc, tc.PeriodOf(r.k-1))
	for p := 1; p <= len(tc.Periods); p++ {
		inc := credit(tc, p)
		if absDur(a.o+inc-r.emt-r.o) <= tolIncr && !(inc < shownIncr && byCount >= shownIncr) {
			return true
		}
		if p < len(tc.Periods) && r.emt >= a.o && absDur(a.o+max(inc, credit(tc, p+1))+periodTime(tc, p+1)-r.emt-r.o) <= tolIncr {
			return true
		}
	}
	return false
}

// preIncrement reports whether reading x is one read before the press
// credited its increment: with the increment it follows the reading
// before and leads to the one after as plain moves, without it not.
func (d *decoder) preIncrement(x int) bool {
	if x < 1 || x+1 >= d.n {
		return false
	}
	a, r, b := d.rs[x-1], d.rs[x], d.rs[x+1]
	if r.k-a.k != 1 || b.k-r.k != 1 {
		return false
	}
	inc := credit(d.h.tc, d.h.tc.PeriodOf(r.k-1))
	if inc < shownIncr {
		return false
	}
	late := r.o + inc
	if !(a.o+inc-r.o >= -tolRound && // the reading itself is no gain
		r.o+inc-b.o < -tolRound && // as read, the next move gains
		a.o+inc-late >= -tolRound && late+inc-b.o >= -tolRound) { // with its increment, both moves are plain
		return false
	}
	// The two moves' %emt, where the side's can be believed, must agree
	// with the times read so: a flag whose overstep left the clock a
	// little above the reading before looks the same, with a long move.
	if d.h.emt != emtPoor {
		tol := d.h.emt.tol()
		if r.emt != Unknown && absDur(a.o+inc-late-r.emt) > tol || b.emt != Unknown && absDur(late+inc-b.o-b.emt) > tol {
			return false
		}
	}
	return true
}

// decodeSide finds the cheapest explanation of rs under h.
func decodeSide(sd *sideData, h hypothesis) sideExplanation {
	rs := sd.rs
	d := &decoder{rs: rs, sd: sd, h: h, n: len(rs), nst: 2 * (len(h.tc.Periods) + 1)}
	var counts [8]int
	d.counts = counts[:0]
	for p := 0; p <= len(h.tc.Periods); p++ {
		c := 0
		if r := h.tc.Required(p); p > 0 && r > 0 {
			c = max(1, r+h.offset)
		}
		d.counts = append(d.counts, c)
	}
	ex := sideExplanation{rs: rs, kept: make([]bool, d.n), steps: make([]step, d.n), after: make([]state, d.n)}
	if d.n == 0 || len(h.tc.Periods) == 0 {
		return ex // nothing to judge by: every reading set aside, at no cost
	}
	inf := math.Inf(1)
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	cells := d.n * d.nst
	cost := grow(&sc.cost, cells)
	back := grow(&sc.back, cells)
	prev := grow(&sc.prev, cells) // previous (reading, state) cell, -1: the start
	for i := range cost {
		cost[i] = inf
	}
	// skipCost[x] is the cost of setting readings 0..x-1 aside, each after
	// one set aside; firstSkip[x] is reading x's, after one kept: setting
	// aside the readings between kept i and kept j costs skipped(i, j).
	skipCost := grow(&sc.skip, d.n+1)
	firstSkip := grow(&sc.first, d.n)
	skipCost[0] = 0
	for x := 0; x < d.n; x++ {
		skipCost[x+1] = skipCost[x] + d.glitchCost(x, false)
		firstSkip[x] = d.glitchCost(x, true)
	}
	skipped := func(i, j int) float64 {
		if i+1 >= j {
			return 0
		}
		return firstSkip[i+1] + skipCost[j] - skipCost[i+2]
	}
	d.cost, d.back, d.prev = cost, back, prev
	// From the start: the clock shows the first period's time plus one
	// increment before the first move.
	start := state{p: 1}
	for j := 0; j < d.n && j <= maxSkip; j++ {
		d.j, d.from, d.base = j, -1, skipCost[j] // the start is no reading: none before the first is kept
		d.steps(-1, 0, 0, periodTime(h.tc, 1)+credit(h.tc, 1), start, j)
	}
	for i := 0; i < d.n; i++ {
		for si := 0; si < d.nst; si++ {
			cell := i*d.nst + si
			c0 := cost[cell]
			if math.IsInf(c0, 1) {
				continue
			}
			from := state{p: si / 2, frozen: si%2 == 1}
			r := rs[i]
			last := min(d.n-1, i+1+maxSkip)
			if d.h.periodBy.period == 0 && !d.oppFlagBetween(r.ply, rs[min(i+2, d.n-1)].ply, 0) && d.plain(from.p, i+1) && d.plain(from.p, i+2) {
				// Readings i+1 and i+2 follow each other plainly in
				// this period: setting i+1 aside cannot do better
				// (unless the period must change: an opponent's flag
				// between them gives it).
				last = i + 1
			}
			for j := i + 1; j <= last; j++ {
				d.j, d.from, d.base = j, int32(cell), c0+skipped(i, j)
				d.steps(i, r.k, r.ply, r.o, from, j)
			}
		}
	}
	// The end: the readings after the last kept one are set aside.
	best, bestCell := inf, -1
	for i := 0; i < d.n; i++ {
		tail := skipped(i, d.n)
		for si := 0; si < d.nst; si++ {
			if c := cost[i*d.nst+si] + tail; c < best {
				best, bestCell = c, i*d.nst+si
			}
		}
	}
	if bestCell < 0 {
		ex.cost = skipCost[d.n]
		return ex
	}
	ex.cost = best
	for cell := int32(bestCell); cell >= 0; cell = prev[cell] {
		j, si := int(cell)/d.nst, int(cell)%d.nst
		ex.kept[j] = true
		ex.steps[j] = back[cell]
		ex.after[j] = state{p: si / 2, frozen: si%2 == 1}
	}
	for j := range ex.kept {
		if st := ex.steps[j]; ex.kept[j] && st.kind == stepUse && st.from >= 0 && rs[j].k-rs[st.from].k == 1 {
			ex.fast = append(ex.fast, st.used)
			if p := ex.after[j].p; ex.after[st.from].p == p && rs[st.from].o+credit(h.tc, p)-rs[j].o <= -time.Second {
				ex.rises++
			}
		}
	}
	return ex
}

// scratch holds a decode's tables, reused from one decode to the next.
type scratch struct {
	cost  []float64
	back  []step
	prev  []int32
	skip  []float64
	first []float64
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// grow returns (*buf)[:n], reallocating when it is too short.
func grow[T any](buf *[]T, n int) []T {
	if cap(*buf) < n {
		*buf = make([]T, n)
	}
	return (*buf)[:n]
}

// plain reports whether reading x follows reading x-1 plainly in period
// p: the clock lost a plausible time, with its increments, shows what a
// press leaves, and the move's %emt (if any) agree.
func (d *decoder) plain(p, x int) bool {
	if x < 1 || x >= d.n || p < 1 {
		return false
	}
	a, b := d.rs[x-1], d.rs[x]
	gap := b.k - a.k
	inc := credit(d.h.tc, p)
	used := a.o + time.Duration(gap)*inc - b.o
	if used < -tolRound || moveCost(used, gap) > 0 || a.o == b.o || !pressed(a.o, b.o, inc) {
		return false
	}
	if emt, ok := d.emtSum(a.k, b.k); ok && absDur(used-emt) > tolIncr {
		return false
	}
	return true
}

// tol is how far a move's %emt may be from the time the clocks say it
// took and still agree: to the increment's tolerance where the side's
// %emt agree with its clocks nearly everywhere, otherwise to a minute
// (broadcasts time %emt from the board, %clk from the clock).
func (l emtLevel) tol() time.Duration {
	if l == emtTight {
		return tolIncr
	}
	return time.Minute
}

// timeCost is what the time used over a step costs: a first reading's
// distance from the start, a move implausibly long, or one its %emt
// contradicts. gift is what a flag during the step's one move would have
// added to the reading (the next period's time and any change of
// increment; 0 where no flag adds time): a %emt longer than the time used
// by exactly that much is the flag's own signature, and for a wrong %emt
// to land on it to the second is a coincidence as rare as a wrong reading.
func (d *decoder) timeCost(i, k int, r reading, gap int, used, gift time.Duration) float64 {
	if i < 0 {
		return startCost(used, r.k, periodTime(d.h.tc, 1))
	}
	emt, ok := d.emtSum(k, r.k)
	bound := false // emt is only the moves that have one: a lower bound
	if !ok {
		emt, ok = d.emtKnown(k, r.k)
		bound = ok
	}
	if ok {
		tol := d.h.emt.tol()
		m := absDur(used - d.delayed(k, r.k, emt))
		if bound {
			m = max(0, emt-used)
			if d.h.emt == emtTight {
				tol += time.Duration(r.k-k) * time.Second // each %emt cut to the second
			}
		}
		if m <= tol {
			return 0 // the moves' %emt say they took that long
		}
		c := moveCost(used, gap) + costEMT // the moves' %emt say otherwise
		if gift > 0 && gap == 1 && !bound && absDur(emt-used-gift) <= tolRound {
			c += costGlitch
		}
		switch d.h.emt {
		case emtTight:
			// All but one in twenty of the side's %emt agree to the
			// second: one that disagrees is as rare as a wrong reading,
			// and one that disagrees by half a minute rarer still (a
			// point for each 3 s, up to a wrong reading's worth more).
			c = max(c+min(costGlitch, float64(m)/float64(3*time.Second)), moveCost(used, gap)+costGlitch)
		case emtFair:
			// Three in four of the side's %emt agree to the second, and
			// broadcasts time them from the board, where a long move is
			// timed as exactly as a short one: one that disagrees by more
			// than a minute is as rare as a wrong reading.
			c = max(c+min(costGlitch, float64(m)/float64(2*time.Minute)), moveCost(used, gap)+costGlitch)
		}
		return c
	}
	return moveCost(used, gap)
}

// unexplained offers the explanations of time that appeared over a step
// (used is negative): a correction or a data fault, an extra increment,
// the arbiter's two minutes.
func (d *decoder) unexplained(i int, r reading, gap int, to state, used, inc time.Duration) {
	gained := -used
	st := step{kind: stepJump, from: i, gained: gained}
	d.emit(to, costJump, st)
	if gap == 1 && i >= 0 && inc >= minIncr && gained <= inc+tolRound {
		// With the second increment the move took used+inc, which a
		// longer %emt contradicts: a flag whose overstep left the
		// reading a little above the one before looks like this, and
		// only the move's %emt, far longer, tells them apart. (A
		// shorter one does not: the press without a move splits the
		// move's time, and a %emt may count only what came after it.)
		st.kind = stepExtraInc
		c := costExtraInc
		if took := max(0, used+inc); r.emt != Unknown && r.emt > took {
			c += d.timeCost(i, d.rs[i].k, r, gap, took, 0)
		}
		d.emit(to, c, st)
	}
	award := handAward(d.h.tc)
	if i >= 0 && gap == 1 && r.emt != Unknown && byHand(gained+r.emt, inc, award) {
		st.kind = stepHand
		d.emit(to, costHand, st)
	} else if i >= 0 && gap == 1 && r.emt == Unknown && handWithoutEMT(gained, inc, award) {
		// The arbiter's minutes less a move of up to a minute: without
		// the move's %emt it cannot be told exactly.
		st.kind = stepHand
		d.emit(to, costHand+costEMT, st)
	}
}

// handWithoutEMT reports whether a gain beyond the increment is what the
// time an arbiter adds by hand, award (handAward), leaves after a move of
// up to a minute.
func handWithoutEMT(gained, inc, award time.Duration) bool {
	return gained >= award-time.Minute && gained <= award+inc+tolRound
}

// steps offers (emit) every way the clock can have gone from a kept
// reading (index i, -1 for the start; move k; ply; value o; state from)
// to reading j, with its cost.
func (d *decoder) steps(i, k, ply int, o time.Duration, from state, j int) {
	r := d.rs[j]
	gap := r.k - k
	if gap < 1 {
		return
	}
	tc := d.h.tc
	P := len(tc.Periods)
	if from.frozen {
		d.fromZero(i, k, from, r)
		return
	}
	switch d.h.mode {
	case modeCount:
		// The periods that begin at presses in (k, r.k], and the credits.
		p := from.p
		var credits, added time.Duration
		began := 0
		for m := k + 1; m <= r.k; m++ {
			if p < P && d.countAt(p) == m {
				added += periodTime(tc, p+1)
				p++
				began++
			}
			credits += credit(tc, p)
		}
		to := state{p: p}
		used := o + credits + added - r.o
		// A period counted at the press of the reading's own move came with
		// time left: the move took no more than the clock had.
		countable := began == 0 || gap > 1 || i < 0 || used <= o+tolRound
		if used >= -tolRound && countable && pressed(o, r.o, credit(tc, p)) {
			st := step{kind: stepUse, from: i, used: max(0, used)}
			c := d.timeCost(i, k, r, gap, used, 0) + lastSecond(o, r.o, credit(tc, p)) + d.runOutBetween(k, r.k, o, from.p)
			if began > 0 {
				st.kind, st.how, st.periods = stepPeriod, byCount, began
				if gap == 1 && i >= 0 && used >= o-time.Second {
					c += lastSecondCost(o) // the move left under a second before the count
				} else if gap > 1 && i >= 0 && began == 1 && d.countAt(from.p) == r.k && r.o-added-credit(tc, p) < time.Second {
					// The moves up to the count used the time to the
					// second: the reading is the fresh period's, as after
					// a flag the count ended.
					c += lastSecondCost(o)
				}
			}
			d.emit(to, c, st)
		} else if used < -tolRound {
			d.unexplained(i, r, gap, to, used, credit(tc, p))
		}
		// The time ran out during the very move the count completed: the
		// clock stood at 0:00 for the rest of the move and the press then
		// added the period, so the reading is the fresh period's, as if the
		// move had taken exactly the time left. Only the move's %emt, well
		// beyond that time, tells the two apart.
		if began == 1 && gap == 1 && i >= 0 && r.emt != Unknown && used >= o && used-o <= tolRound &&
			r.emt >= o+flagEMTMargin && !d.h.noEarlyFlag && !d.h.noFlagIn.has(r.k) {
			early := r.k-1 < tc.Required(from.p)
			d.emit(to, flagCost(o, periodTime(tc, from.p)), step{kind: stepPeriod, how: afterRunOut, from: i, periods: 1, flagAt: r.k, flagMin: r.k, early: early, used: o})
		}
		// The time ran out during the gap and the clock stands at 0:00.
		if standsAtZero(r.o) && (i >= 0 || r.k > 1) {
			// Before the control by the Laws' count of completed moves,
			// not by the clock's, which may have miscounted. A count in
			// the gap gave the period first (to a clock standing at 0:00
			// too): the time that ran out is then the new period's.
			q, left := p, o+added
			early := q < P && r.k <= tc.Required(q)
			if early && d.h.noEarlyFlag {
				return
			}
			st := step{kind: stepRunOut, from: i, flagMin: k + 1, early: early, used: left}
			if began > 0 {
				st.flagMin = d.countAt(q-1) + 1 // after the count that began the period
			}
			if gap == 1 {
				st.flagAt = r.k
			} else if at, ok := d.locateFlag(i, j, o, credit(tc, q)); ok && began == 0 {
				st.flagAt = at
			}
			if early && d.h.forbids(st, r.k) {
				return
			}
			c := flagCost(left, periodTime(tc, q))
			if q < P && !early {
				// After the period's moves, before a late count: the
				// player, owed the next period, played on as with it.
				c /= 2
			}
			d.emit(state{p: q, frozen: true}, c+d.shortOfRunOut(i, k, r, gap, left), st)
		}
	default:
		p := from.p
		inc := credit(tc, p)
		used := o + time.Duration(gap)*inc - r.o
		var gift time.Duration // what a flag in the step would have added
		if p < P {
			gift = periodTime(tc, p+1) + max(inc, credit(tc, p+1)) - inc
		}
		if used >= -tolRound && pressed(o, r.o, inc) {
			d.emit(from, d.timeCost(i, k, r, gap, used, gift)+lastSecond(o, r.o, inc), step{kind: stepUse, from: i, used: max(0, used)})
		} else if used < -tolRound {
			d.unexplained(i, r, gap, from, used, inc)
		}
		if p == P {
			// A flag in the last period: the clock stands at 0:00.
			if standsAtZero(r.o) && i >= 0 {
				d.emit(state{p: p, frozen: true}, costFlag+d.shortOfRunOut(i, k, r, gap, o), step{kind: stepRunOut, from: i, flagMin: k + 1, used: o})
			}
			return
		}
		next := periodTime(tc, p+1)
		inc2 := credit(tc, p+1)
		// The time ran out during the gap: the reading is at most the
		// fresh period and the increments since (above it, the clock had
		// time left when the move was completed).
		if r.o <= next+time.Duration(gap)*max(inc, inc2) {
			used := o + time.Duration(gap)*max(inc, inc2) + next - r.o
			st := step{kind: stepPeriod, how: byRunOut, from: i, periods: 1, flagMin: k + 1, used: max(0, used)}
			at, located := d.locateFlag(i, j, o, inc)
			if gap == 1 {
				at, located = r.k, true
			}
			if located {
				st.flagAt = at
			}
			req := tc.Required(p)
			st.early = located && at-1 < req || !located && r.k-1 < req
			// Across missing readings the flag may have fallen before or
			// after the control: half a flag's cost, and never where no
			// flag before the control is allowed.
			ambiguous := !located && !st.early && k < req
			ok := true
			if gap == 1 && r.emt != Unknown && absDur(used-r.emt) > max(time.Minute, used/2) {
				ok = false // the move's %emt says it was short: no flag
			}
			if st.early && d.h.noEarlyFlag {
				ok = false // an ambiguous flag stays: it may have fallen after the control
			}
			if st.early && d.h.forbids(st, r.k) {
				ok = false
			}
			if ok && used >= -tolRound {
				c := d.timeCost(i, k, r, gap, used, 0)
				if len(d.h.credits) > 0 {
					lo, hi := d.flagPlies(k, st.flagAt, r)
					c -= d.flagBonus(lo, hi, p+1)
				}
				switch {
				case st.early:
					c += flagCost(o, periodTime(tc, p))
				case ambiguous:
					c += flagCost(o, periodTime(tc, p)) / 2
				}
				d.emit(state{p: p + 1}, c, st)
			}
		}
		// The opponent's time ran out between the two readings: a clock
		// that gives both players the period then.
		if d.h.mode == modeFlagBoth && i >= 0 {
			for _, f := range d.h.oppFlags {
				if f.ply > ply && f.ply < r.ply && f.period == p+1 {
					used := o + time.Duration(gap)*max(inc, inc2) + next - r.o
					if used >= -tolRound {
						d.emit(state{p: p + 1}, d.timeCost(i, k, r, gap, used, 0), step{kind: stepPeriod, how: byOpponentFlag, from: i, periods: 1, used: max(0, used)})
					}
					break
				}
			}
		}
	}
}

// shortOfRunOut is what the moves' %emt cost a clock that ran out between
// reading i (o left after move k) and reading r and stands at 0:00: the
// moves took at least the time left, and %emt that say they took less
// disagree with it as with any time used (the moves' length itself is
// not weighed: the clock stopped, so the readings do not say it).
func (d *decoder) shortOfRunOut(i, k int, r reading, gap int, o time.Duration) float64 {
	if i < 0 {
		return 0
	}
	if emt, ok := d.emtSum(k, r.k); !ok || emt >= o {
		return 0
	}
	return d.timeCost(i, k, r, gap, o, 0) - moveCost(o, gap)
}

// flagCost is what a flag before the control costs, from a reading of o
// in a period of time t: a player in time trouble (under two minutes of a
// 90-minute period, a forty-fifth of any) is no rarer to overstep than to
// press in the last second.
func flagCost(o, t time.Duration) float64 {
	if o < t/45 {
		return costFlag / 2
	}
	return costFlag
}

// standsAtZero reports whether a reading is that of a clock whose time
// ran out: it stands at 0:00, however the broadcast rounds it, and a
// reading taken a moment off still shows 0:00 (the clock no longer runs).
// A reading of 0:01, or of a fraction of a second where the broadcast
// gives tenths, shows time left.
func standsAtZero(o time.Duration) bool { return o <= 0 }

// fromZero continues from a clock standing at 0:00 (a flag nobody
// claimed): it stays there, and a counting clock adds the next period at
// the count.
func (d *decoder) fromZero(i, k int, from state, r reading) {
	tc := d.h.tc
	P := len(tc.Periods)
	if standsAtZero(r.o) {
		d.emit(from, 0, step{kind: stepUse, from: i})
	}
	if d.h.mode != modeCount || from.p >= P {
		d.emit(from, costJump, step{kind: stepJump, from: i, gained: r.o})
		return
	}
	c := d.countAt(from.p)
	if c > r.k || c <= k {
		if c > r.k {
			d.emit(from, costJump, step{kind: stepJump, from: i, gained: r.o})
		}
		return
	}
	p := from.p + 1
	credits := time.Duration(r.k-c+1) * credit(tc, p)
	used := periodTime(tc, p) + credits - r.o
	// Read at the count, the clock shows the period and its increment
	// exactly, the clock being stopped: a reading above shows time left.
	slack := tolRound
	if r.k == c {
		slack = 0
	}
	if used >= -slack {
		d.emit(state{p: p}, moveCost(used, r.k-c+1), step{kind: stepPeriod, how: afterRunOut, from: i, periods: 1, used: max(0, used)})
	} else {
		d.emit(state{p: p}, costJump, step{kind: stepJump, from: i, gained: -used})
	}
}

// emtSum is the time the moves after move k up to move m took by their
// %emt, when each has one (the first move's is left out: broadcasts put
// the time since the board went live there).
func (d *decoder) emtSum(k, m int) (time.Duration, bool) {
	if k < 1 || m > len(d.sd.emts) {
		return 0, false
	}
	if d.sd.emtMissing[m]-d.sd.emtMissing[k] > 0 {
		return 0, false
	}
	return d.sd.emtTotal[m] - d.sd.emtTotal[k], true
}

// emtKnown is the time the moves after move k up to move m took by the
// %emt of those that have one, when some do and some do not: the moves
// took at least that long.
func (d *decoder) emtKnown(k, m int) (time.Duration, bool) {
	if k < 1 || m > len(d.sd.emts) || d.sd.emtMissing[m]-d.sd.emtMissing[k] == m-k {
		return 0, false
	}
	return d.sd.emtTotal[m] - d.sd.emtTotal[k], true
}

// delayed is what the moves after move k up to move m, which took emt by
// their %emt, cost the clock in a delay mode: a delay clock does not run
// for the first seconds of a move, a Bronstein clock gives back up to the
// delay after it; a Fischer clock's increment is already in the step's
// time used.
func (d *decoder) delayed(k, m int, emt time.Duration) time.Duration {
	tc := d.h.tc
	p := tc.PeriodOf(max(0, m-1))
	if p < 1 || p > len(tc.Periods) || tc.Periods[p-1].Mode == clockd.Fischer || tc.Periods[p-1].Increment == 0 {
		return emt
	}
	delay := tc.Periods[p-1].Increment
	var t time.Duration
	for x := k + 1; x <= m; x++ {
		t += max(0, d.sd.emts[x-1]-delay)
	}
	return t
}

// runOutBetween is what a counting clock's step from move k (o left) to
// move m without a flag costs where the %emt of every move between say the
// time ran out before move m: the clock then stood at 0:00 until the
// count, which leaves the same reading after it as moves that used the
// time to the second, and only the %emt tell a flag from those. The
// moves' own total is weighed by timeCost; this is the time running out
// on the way, which the total hides (the increments after it make up for
// it), charged as %emt that disagree with the clocks.
func (d *decoder) runOutBetween(k, m int, o time.Duration, p int) float64 {
	if k < 1 || m-k < 2 {
		return 0
	}
	tc := d.h.tc
	tol := time.Minute
	if d.h.emt == emtTight {
		tol = tolRound
	}
	t := o
	for x := k + 1; x < m; x++ {
		if x-1 >= len(d.sd.emts) || d.sd.emts[x-1] == Unknown {
			return 0
		}
		if t -= d.sd.emts[x-1]; t < -tol {
			if d.h.emt == emtTight || d.h.emt == emtFair {
				return costGlitch
			}
			return costEMT
		}
		if p < len(tc.Periods) && d.countAt(p) == x {
			t += periodTime(tc, p+1)
			p++
		}
		t += credit(tc, p)
	}
	return 0
}

// locateFlag finds, from the %emt of every move after reading i up to
// reading j, the move during which the time (o after reading i) ran out.
func (d *decoder) locateFlag(i, j int, o, inc time.Duration) (int, bool) {
	if i < 0 {
		return 0, false
	}
	t := o
	for m := d.rs[i].k + 1; m <= d.rs[j].k; m++ {
		if m-1 >= len(d.sd.emts) || d.sd.emts[m-1] == Unknown {
			return 0, false
		}
		t -= d.sd.emts[m-1]
		switch {
		case t < -tolRound:
			return m, true // clearly run out during move m
		case t <= tolRound:
			return 0, false // within a reading's rounding of zero: m, or the move after
		}
		t += inc
	}
	return 0, false
}
