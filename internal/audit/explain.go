package audit

import (
	"math"
	"slices"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
)

// sideData is one side's moves as the decoder reads them.
type sideData struct {
	ms   []sideMove      // every move
	rs   []reading       // the moves with a reading
	emts []time.Duration // every move's %emt, by move number - 1
	plys []int           // every move's ply, by move number - 1
	// emt is how far the side's %emt can be believed.
	emt emtLevel
	// emtTotal[m] and emtMissing[m]: the %emt of moves 1..m added up, and
	// how many of them have none.
	emtTotal   []time.Duration
	emtMissing []int
}

// sideMove is one move of one side, with its clock comments.
type sideMove struct {
	k   int // the side's move number in this game, from 1
	ply int // index in Game.Plies
	clk time.Duration
	emt time.Duration
}

// split returns each side's moves (White, Black). Moves are counted from
// the start of the game as recorded (a game set up from a FEN counts its
// first move as 1).
func split(g *Game) [2][]sideMove {
	first := startSide(g)
	var s [2][]sideMove
	for i, p := range g.Plies {
		side := (i + first) % 2
		s[side] = append(s[side], sideMove{k: len(s[side]) + 1, ply: i, clk: p.Clk, emt: p.EMT})
	}
	return s
}

// sidesData turns each side's moves into what the decoder reads.
func sidesData(s [2][]sideMove) [2]sideData {
	var sd [2]sideData
	for side, ms := range s {
		d := sideData{ms: ms, emts: make([]time.Duration, len(ms)), plys: make([]int, len(ms)),
			emtTotal: make([]time.Duration, len(ms)+1), emtMissing: make([]int, len(ms)+1)}
		for i, m := range ms {
			d.emts[i], d.plys[i] = m.emt, m.ply
			d.emtTotal[i+1], d.emtMissing[i+1] = d.emtTotal[i], d.emtMissing[i]
			if m.emt == Unknown {
				d.emtMissing[i+1]++
			} else {
				d.emtTotal[i+1] += m.emt
			}
			if m.clk != Unknown {
				d.rs = append(d.rs, reading{k: m.k, ply: m.ply, o: m.clk, emt: m.emt})
			}
		}
		d.emt = emtTrust(ms)
		sd[side] = d
	}
	return sd
}

// gameExplanation is the cheapest explanation of a game's clocks under a
// control: the clock's mode, and each side's explanation.
type gameExplanation struct {
	tc     [2]clockd.TimeControl
	mode   clockMode
	offset [2]int // modeCount: each side's miscount
	sides  [2]sideExplanation
	cost   float64
	// modeCost[m] is the cheapest cost found under clock mode m, without
	// a round's prior (+Inf: not tried).
	modeCost [3]float64
}

// family is the kind of clock a round's games show: one that counts
// presses, one that adds the next period at the player's flag, or one
// that adds it to both players at the first flag.
type family uint8

const (
	familyAny      family = iota // no prior
	familyCount                  // the round's clocks count presses
	familyFlag                   // they add the period at the player's flag
	familyFlagBoth               // they add it to both players at the first flag
)

func familyOf(m clockMode) family {
	switch m {
	case modeFlag:
		return familyFlag
	case modeFlagBoth:
		return familyFlagBoth
	}
	return familyCount
}

// costOtherFamily is what a game's clock costs when it is of another kind
// than the round's: an event sets its clocks one way, and a board set
// another way needs evidence of its own.
const costOtherFamily = 8.0

func (f family) penalty(m clockMode) float64 {
	if f == familyAny || f == familyOf(m) {
		return 0
	}
	return costOtherFamily
}

// incCost is what an increment other than the clock's costs a side's
// explanation. With one too large, no move seems to take only seconds
// (with the clock's, one in twenty or more do, even in classical games'
// openings): two points for each such move missing, and more the longer
// the tenth of the moves fastest seem to take. With one too small,
// clocks rise beyond it move after move: a point for each beyond a few.
func incCost(se sideExplanation) float64 {
	c := 0.0
	if extra := se.rises - 2 - len(se.fast)/20; extra > 0 {
		c += float64(extra)
	}
	if len(se.fast) < maxSamples {
		return c
	}
	k := 0
	for _, f := range se.fast {
		if f <= 3*time.Second {
			k++
		}
	}
	if want := (len(se.fast) + 19) / 20; k < want {
		c += 2 * float64(want-k)
	}
	// And the tenth of the moves fastest took longer, the larger it is.
	f := slices.Clone(se.fast)
	slices.Sort(f)
	if q := f[len(f)/10]; q > 4*time.Second {
		c += min(20, float64(q-4*time.Second)/float64(2*time.Second))
	}
	return c
}

// reachesCount reports whether a side's moves come near the end of the
// first period, where the modes differ.
func reachesCount(sd *[2]sideData, tc [2]clockd.TimeControl) bool {
	for side := range sd {
		req := tc[side].Required(1)
		if req > 0 && len(sd[side].emts) >= req-3 {
			return true
		}
	}
	return false
}

// explainGame finds the cheapest explanation of a game's clocks under tc,
// trying each clock mode. noEarly forbids a side's flag before the
// control (the alternative an accusation is weighed against).
func explainGame(sd *[2]sideData, tc [2]clockd.TimeControl, noEarly [2]bool, prior family) gameExplanation {
	return explainGameBut(sd, tc, forbidden{earlyFlag: noEarly}, prior)
}

// forbidden is what an alternative explanation of a game may not hold,
// side by side: the explanations a finding is weighed against.
type forbidden struct {
	earlyFlag  [2]bool     // a flag before the control
	flagIn     [2]moveSpan // a flag before the control dated in those moves (the zero span: none)
	hiddenFlag [2]bool     // a flag that the period the opponent's flag gave early hid
	gainAt     [2]int      // time added by hand, or an increment too many, after that move (0: none)
}

// explainGameBut is explainGame with what not forbids forbidden.
func explainGameBut(sd *[2]sideData, tc [2]clockd.TimeControl, not forbidden, prior family) gameExplanation {
	hyp := func(side int, mode clockMode, offset int, opp []oppFlag) hypothesis {
		return hypothesis{tc: tc[side], mode: mode, offset: offset, oppFlags: opp, noEarlyFlag: not.earlyFlag[side], noFlagIn: not.flagIn[side],
			noHiddenFlag: not.hiddenFlag[side] && mode == modeFlagBoth, noGainAt: not.gainAt[side], emt: sd[side].emt}
	}
	decode := func(mode clockMode, opp [2][]oppFlag) gameExplanation {
		ex := gameExplanation{tc: tc, mode: mode}
		for side := range sd {
			ex.sides[side] = decodeSide(&sd[side], hyp(side, mode, 0, opp[side]))
			ex.cost += ex.sides[side].cost + incCost(ex.sides[side])
		}
		return ex
	}
	inf := math.Inf(1)
	if !reachesCount(sd, tc) {
		// Before the end of the first period the kinds of clock differ
		// only in how a flag shows: a period's time, or 0:00.
		own := decode(modeFlag, [2][]oppFlag{})
		own.modeCost = [3]float64{inf, inf, inf}
		if !hasStep(own, ranOut) && !hasStep(own, fromNowhere) && !readsZero(sd) {
			return own
		}
		ex := own
		ex.cost += prior.penalty(modeFlag)
		if count := decode(modeCount, [2][]oppFlag{}); count.cost+prior.penalty(modeCount) <= ex.cost {
			ex = count
			ex.cost += prior.penalty(modeCount)
		}
		// A flag before the control gives both players the period on some
		// clocks, in a game that ends before the control too.
		if ex.cost > costBothMode+prior.penalty(modeFlagBoth) && mayBeBoth(own) {
			if both, _ := bothModes(sd, tc, own, hyp); both.cost+prior.penalty(modeFlagBoth) < ex.cost {
				ex = both
				ex.cost += prior.penalty(modeFlagBoth)
			}
		}
		ex.modeCost = [3]float64{inf, inf, inf}
		return ex
	}
	// At the flag first: a counting clock is then tried only while it can
	// still do better, and wins a tie.
	own := decode(modeFlag, [2][]oppFlag{})
	costs := [3]float64{inf, own.cost, inf}
	own.cost += prior.penalty(modeFlag)
	best := own
	if best.cost > 0 {
		count := decode(modeCount, [2][]oppFlag{})
		count.cost += prior.penalty(modeCount)
		// A counting clock may have miscounted one side's presses: only
		// worth trying where that side's explanation costs more than a
		// miscount, and while the counting clock can still win.
		for side := range sd {
			base := count.sides[side].cost + incCost(count.sides[side])
			if base <= costMiscount || count.cost-base+costMiscount >= best.cost || !anomalyNearCount(count.sides[side], tc[side]) {
				continue
			}
			for _, off := range []int{-1, 1, -2, 2} {
				if costMiscount*float64(abs(off)) >= base {
					continue
				}
				e := decodeSide(&sd[side], hyp(side, modeCount, off, nil))
				c := e.cost + incCost(e) + costMiscount*float64(abs(off))
				if c < base {
					count.cost += c - base
					base = c
					count.sides[side], count.offset[side] = e, off
				}
			}
		}
		costs[modeCount] = count.cost - prior.penalty(modeCount)
		if count.cost <= best.cost {
			best = count
		}
	}
	if best.cost > costBothMode+prior.penalty(modeFlagBoth) && mayBeBoth(own) {
		both, raw := bothModes(sd, tc, own, hyp)
		costs[modeFlagBoth] = raw
		if both.cost += prior.penalty(modeFlagBoth); both.cost < best.cost {
			best = both
		}
	}
	best.modeCost = costs
	return best
}

// bothModes is the cheapest explanation of a game on a clock that gives
// both players the period at the first flag (its cost without the round's
// prior; +Inf when no side's flag explains anything). Each period comes to
// both players with whichever flag falls first, so one side may give the
// other one period and take the next from the other's flag. The search
// starts with one side's flags alone (its explanation has only its own
// flags, the other's may have the periods they gave), then lets each side
// take the periods the other's own flags give, for as long as that
// explains the clocks better. own is the game explained on a clock that
// adds the period at the player's own flag.
func bothModes(sd *[2]sideData, tc [2]clockd.TimeControl, own gameExplanation, hyp func(side int, mode clockMode, offset int, opp []oppFlag) hypothesis) (gameExplanation, float64) {
	best := gameExplanation{tc: tc, mode: modeFlagBoth, cost: math.Inf(1)}
	total := func(both *gameExplanation) {
		both.cost = 0
		for side := range sd {
			both.cost += both.sides[side].cost + incCost(both.sides[side])
		}
		both.cost += costBothMode + bothInconsistency(both, sd)
	}
	for first := range sd {
		both := gameExplanation{tc: tc, mode: modeFlagBoth}
		both.sides[first] = decodeSide(&sd[first], hyp(first, modeFlagBoth, 0, nil))
		flags := runOutPlies(both.sides[first], sd[first], tc[first])
		if len(flags) == 0 {
			// The opponent's clock may show the period this side's
			// flag gave both where this side's own readings hardly do
			// (one reading, which a glitch explains nearly as well).
			credits := gainCredits(own.sides[1-first], tc[1-first])
			if len(credits) == 0 {
				continue
			}
			h := hyp(first, modeFlagBoth, 0, nil)
			h.credits = credits
			e := decodeSide(&sd[first], h)
			if flags = runOutPlies(e, sd[first], tc[first]); len(flags) == 0 {
				continue
			}
			e.cost += creditBack(e, &sd[first], credits)
			both.sides[first] = e
		}
		both.sides[1-first] = decodeSide(&sd[1-first], hyp(1-first, modeFlagBoth, 0, flags))
		total(&both)
		// The other side's own flags give this side their periods.
		for range maxTurns {
			back := runOutPlies(both.sides[1-first], sd[1-first], tc[1-first])
			if len(back) == 0 {
				break
			}
			next := gameExplanation{tc: tc, mode: modeFlagBoth}
			next.sides[first] = decodeSide(&sd[first], hyp(first, modeFlagBoth, 0, back))
			if again := runOutPlies(next.sides[first], sd[first], tc[first]); slices.Equal(again, flags) {
				next.sides[1-first] = both.sides[1-first] // the same flags give the other side the same periods
			} else {
				next.sides[1-first] = decodeSide(&sd[1-first], hyp(1-first, modeFlagBoth, 0, again))
				flags = again
			}
			if total(&next); next.cost >= both.cost {
				break
			}
			both = next
		}
		// Time the other side's clock gained that no flag of its own or
		// of this side's explains may be this side's flag all the same:
		// one whose overstep ate nearly the whole fresh period leaves this
		// side's readings looking like a plain move's.
		if credits := gainCredits(both.sides[1-first], tc[1-first]); len(credits) > 0 {
			h := hyp(first, modeFlagBoth, 0, runOutPlies(both.sides[1-first], sd[1-first], tc[1-first]))
			h.credits = credits
			e := decodeSide(&sd[first], h)
			e.cost += creditBack(e, &sd[first], credits)
			next := gameExplanation{tc: tc, mode: modeFlagBoth}
			next.sides[first] = e
			next.sides[1-first] = decodeSide(&sd[1-first], hyp(1-first, modeFlagBoth, 0, runOutPlies(e, sd[first], tc[first])))
			if total(&next); next.cost < both.cost {
				both = next
			}
		}
		if both.cost < best.cost {
			best = both
		}
	}
	return best, best.cost
}

// mayBeBoth says whether a game explained on a clock that adds the period
// at the player's own flag shows what a clock that gives both players the
// period at the first flag may explain better: a flag, time from nowhere,
// or a reading set aside that shows about a period's time gained.
func mayBeBoth(own gameExplanation) bool {
	if hasStep(own, ranOut) || hasStep(own, fromNowhere) {
		return true
	}
	for side := range own.sides {
		if len(gainCredits(own.sides[side], own.tc[side])) > 0 {
			return true
		}
	}
	return false
}

// maxTurns is how many times bothModes lets the two sides take the
// periods each other's flags give: a game has at most three periods, and
// each turn settles who flagged first in one more of them.
const maxTurns = 3

// gainCredits are, for a side's opponent on a clock that gives both
// players the period at the first flag, the stretches of plies in which a
// flag of the opponent's would explain time that side's clock gained and
// its explanation could not, each worth what time from nowhere costs:
// about a period's time, over a step of time from nowhere, or shown by a
// reading set aside (the explanation took it for a wrong reading rather
// than time from nowhere; the first of a run of them).
func gainCredits(se sideExplanation, tc clockd.TimeControl) []flagCredit {
	var out []flagCredit
	last := -1 // the last kept reading
	for j, r := range se.rs {
		from := -1
		switch st := se.steps[j]; {
		case se.kept[j] && st.kind == stepJump:
			from = st.from
		case !se.kept[j] && last >= 0 && (len(out) == 0 || out[len(out)-1].lo != se.rs[last].ply):
			from = last
		}
		if se.kept[j] {
			last = j
		}
		if from < 0 {
			continue
		}
		p := se.after[from].p
		next := periodTime(tc, p+1)
		gap := time.Duration(r.k - se.rs[from].k)
		gained := r.o - se.rs[from].o - gap*credit(tc, p)
		if next == 0 || gained < next/2 || gained > next+gap*max(credit(tc, p), credit(tc, p+1))+tolRound {
			continue
		}
		out = append(out, flagCredit{lo: se.rs[from].ply, hi: r.ply, period: p + 1, bonus: costJump})
	}
	return out
}

// creditBack is the bonus an explanation decoded with credits took for
// its flags, to be added back to its cost.
func creditBack(ex sideExplanation, sd *sideData, credits []flagCredit) float64 {
	d := &decoder{sd: sd, h: hypothesis{credits: credits}}
	back := 0.0
	for j, r := range ex.rs {
		st := ex.steps[j]
		if !ex.kept[j] || st.kind != stepPeriod || st.how != byRunOut {
			continue
		}
		k := 0
		if st.from >= 0 {
			k = ex.rs[st.from].k
		}
		lo, hi := d.flagPlies(k, st.flagAt, r)
		back += d.flagBonus(lo, hi, ex.after[j].p)
	}
	return back
}

// bothInconsistency is what a both-players explanation costs for each
// flag that did not give the other player the period at the same moment:
// on such a clock the period comes to both at the first flag, so the other
// player's next reading must show it (unless that player was already in a
// later period).
func bothInconsistency(ex *gameExplanation, sd *[2]sideData) float64 {
	c := 0.0
	for side := range ex.sides {
		se := ex.sides[side]
		oe := ex.sides[1-side]
		for j := range se.rs {
			st := se.steps[j]
			if !se.kept[j] || st.kind != stepPeriod || st.how != byRunOut {
				continue
			}
			p := se.after[j].p - 1 // the period the flag fell in
			f, ok := flagPly(st, &sd[side], ex.tc[side].Required(p))
			if !ok {
				continue
			}
			for x, r := range oe.rs {
				if !oe.kept[x] || r.ply < f {
					continue
				}
				before := 1
				if from := oe.steps[x].from; from >= 0 {
					before = oe.after[from].p
				}
				if before == p && oe.after[x].p == p {
					c += costJump // the other clock did not get the period
				}
				break
			}
		}
	}
	// And each period that came with the opponent's flag needs that flag.
	for side := range ex.sides {
		se := ex.sides[side]
		oe := ex.sides[1-side]
		for j, r := range se.rs {
			st := se.steps[j]
			if !se.kept[j] || st.kind != stepPeriod || st.how != byOpponentFlag || st.from < 0 {
				continue
			}
			if !flagBetween(oe, &sd[1-side], ex.tc[1-side], se.rs[st.from].ply, r.ply, se.after[j].p) {
				c += costJump
			}
		}
	}
	return c
}

// flagBetween reports whether an explanation has a flag (a period that
// came when the time ran out) at a ply strictly between lo and hi.
func flagBetween(se sideExplanation, d *sideData, tc clockd.TimeControl, lo, hi, period int) bool {
	for j := range se.rs {
		st := se.steps[j]
		if !se.kept[j] || st.kind != stepPeriod || st.how != byRunOut || se.after[j].p != period {
			continue
		}
		if f, ok := flagPly(st, d, tc.Required(period-1)); ok && f > lo && f < hi {
			return true
		}
	}
	return false
}

// flagPly is the ply of the move a step's flag fell in (the earliest it
// can have, where the readings do not tell), the flag ending the period
// whose moves the control requires to be req. Where the step has the flag
// after the control, the earliest it can have is the move after those: a
// flag that gave the opponent the period earlier fell before the control.
func flagPly(st step, d *sideData, req int) (int, bool) {
	m := st.flagAt
	if m == 0 {
		m = st.flagMin
		if !st.early && req > 0 {
			m = max(m, req+1)
		}
	}
	if m < 1 || m > len(d.plys) {
		return 0, false
	}
	return d.plys[m-1], true
}

// hasStep reports whether an explanation keeps a step for which is holds.
func hasStep(ex gameExplanation, is func(step) bool) bool {
	for _, se := range ex.sides {
		for j := range se.rs {
			if se.kept[j] && is(se.steps[j]) {
				return true
			}
		}
	}
	return false
}

// readsZero reports whether a side's clock reads 0:00 before its last
// move: a counting clock's flag, or a wrong reading.
func readsZero(sd *[2]sideData) bool {
	for side := range sd {
		rs := sd[side].rs
		for j := 0; j+1 < len(rs); j++ {
			if standsAtZero(rs[j].o) {
				return true
			}
		}
	}
	return false
}

// ranOut is a period that came when a player's time ran out.
func ranOut(st step) bool { return st.kind == stepPeriod && st.how == byRunOut }

// fromNowhere is time that appeared which no clock behaviour gives.
func fromNowhere(st step) bool { return st.kind == stepJump }

// anomalyNearCount reports whether a counting clock's explanation of a
// side needs anything but used time within a few moves of a period's end:
// the place a miscount shows.
func anomalyNearCount(ex sideExplanation, tc clockd.TimeControl) bool {
	for j, r := range ex.rs {
		k := r.k
		near := false
		for p := 1; p < len(tc.Periods); p++ {
			if r := tc.Required(p); r > 0 && k >= r-3 && k <= r+3 {
				near = true
			}
		}
		if !near {
			continue
		}
		if !ex.kept[j] || ex.steps[j].kind != stepUse && ex.steps[j].kind != stepPeriod {
			return true
		}
	}
	return false
}

// runOutPlies are the plies at which a side's time ran out and a period
// began, as its explanation under modeFlag says.
func runOutPlies(ex sideExplanation, d sideData, tc clockd.TimeControl) []oppFlag {
	var out []oppFlag
	for j := range ex.rs {
		st := ex.steps[j]
		if !ex.kept[j] || st.kind != stepPeriod || st.how != byRunOut {
			continue
		}
		if f, ok := flagPly(st, &d, tc.Required(ex.after[j].p-1)); ok {
			out = append(out, oppFlag{ply: f, period: ex.after[j].p})
		}
	}
	return out
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
