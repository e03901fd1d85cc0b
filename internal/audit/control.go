package audit

import (
	"cmp"
	"math"
	"slices"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
)

// The control a round is judged by.
//
// The games of one round of one event share a control. It is chosen once,
// from all their clocks, among candidates: the controls FIDE events use
// (library), the TimeControl tags of the round's games, and a control
// fitted to the round's clocks. Each candidate's score is the sum, over
// the round's games, of the cost of the cheapest explanation of each
// game's clocks under it (explainGame), so a candidate is judged on whole
// clock histories, not reading by reading. A tag gets a head start: one
// odd reading, rounding or a missing clock is no reason to drop it. A game
// gets a control of its own only on strong evidence: its clocks cost far
// less under another control (a tiebreak, an Armageddon game).

// library holds the controls FIDE-rated events use, in the notation of
// docs/timecontrol.md.
var library = []string{
	"40/5400+30:1800+30",           // 90/40 + 30, 30 s from move 1 (FIDE's standard)
	"40/6000+30:20/3000+30:900+30", // 100/40 + 50/20 + 15, 30 s from move 1
	"40/7200:1800+30",              // 120/40 + 30, 30 s from move 41
	"40/7200:20/3600:900+30",       // 120/40 + 60/20 + 15, 30 s from move 61
	"40/6000+30:900+30",            // 100/40 + 15, 30 s from move 1
	"40/7200+30:1800+30",           // 120/40 + 30, 30 s from move 1
	"5400+30", "6000+30", "3600+30", "2700+30", "3600+10",
	"1500+10", "1800+10", "1200+10", "900+10", "900+5", "600+10", "600+5", "900+0", "600+0",
	"300+3", "300+2", "180+2", "300+0", "180+0", "60+1",
}

var libraryTC = func() []clockd.TimeControl {
	out := make([]clockd.TimeControl, len(library))
	for i, s := range library {
		tc, err := clockd.ParseTimeControl(s)
		if err != nil {
			panic("audit: library control " + s + ": " + err.Error())
		}
		out[i] = tc
	}
	return out
}()

// Head starts and margins, in points.
const (
	tagHeadStart   = 12.0 // a tag over the other candidates, plus one a game
	fittedPenalty  = 4.0  // a fitted control behind a library one that fits as well, plus half a point a game
	ownControlGain = 20.0 // how much better a game's clocks must fit another control to get it
	ownStart       = 8.0  // how badly its start must fit the round's control first
	keepCandidates = 3    // distinct starts whose controls, besides tags, are kept after the start's quick test
)

// candidate is a control a round or a game may be judged by.
type candidate struct {
	tc     [2]clockd.TimeControl
	source string  // SourceTag or SourceClocks
	bonus  float64 // points taken off its score
}

func (c candidate) same(o candidate) bool {
	return c.tc[0].String() == o.tc[0].String() && c.tc[1].String() == o.tc[1].String()
}

// roundGame is one game of a round, read for the audit.
type roundGame struct {
	g       *Game
	s       [2][]sideMove
	sd      [2]sideData
	swapped bool // the readings were each other's clock's, and are put back (unswap)
	tag     parsedTag
	// The judgement: the control, where it came from, and the
	// explanation under it.
	tc       [2]clockd.TimeControl
	source   string
	mismatch bool
	ex       gameExplanation
	prior    family // the kind of clock the round's other games show
	// noFlag[side] is the game explained without side's flag before the
	// control, once asked for (noFlagGame).
	noFlag [2]*gameExplanation
}

// countSure reports whether an accusation of a flag before the control
// may rest on the game's control: how many moves each period requires is
// what the flag is judged by. It may where the control was given
// (--timecontrol, or a tag the clocks do not contradict) or is one FIDE
// events use; a control fitted to the clocks (a move count of 41, say,
// where flags after the 40th move clustered) is a measurement, and an
// accusation does not rest on it.
func (rg *roundGame) countSure() bool {
	return rg.controlGiven() || isLibrary(rg.tc)
}

// controlGiven reports whether the game's control was given (by
// --timecontrol or a tag the clocks do not contradict) rather than
// inferred from the clocks: a flag the clock hid is judged by the period's
// exact time.
func (rg *roundGame) controlGiven() bool {
	return rg.source == SourceFlag || rg.source == SourceTag
}

func (rg *roundGame) hasClocks() bool { return len(rg.sd[0].rs)+len(rg.sd[1].rs) > 0 }

// parsedTag is a TimeControl tag as parsed (files repeat the same tag).
type parsedTag struct {
	tc  clockd.TimeControl
	err error
}

// parseTagCached parses a TimeControl tag, through cache: a file's games
// mostly share one tag.
func parseTagCached(cache map[string]parsedTag, text string) parsedTag {
	pt, ok := cache[text]
	if !ok {
		pt.tc, pt.err = ParseTimeControl(text)
		if len(cache) > 256 {
			clear(cache)
		}
		cache[text] = pt
	}
	return pt
}

// quickCost is the start's cost of a game under a control: the first
// readings against the time the clock starts from.
func quickCost(sd [2]sideData, tc [2]clockd.TimeControl) float64 {
	c := 0.0
	for side := range sd {
		rs := sd[side].rs
		if len(rs) == 0 || len(tc[side].Periods) == 0 {
			continue
		}
		r := rs[0]
		if len(rs) > 1 && r.k > 3 {
			continue
		}
		t := tc[side]
		used := periodTime(t, 1) + time.Duration(r.k+1)*credit(t, 1) - r.o
		if r.k > t.Required(1) && t.Required(1) > 0 {
			continue
		}
		if used < -tolRound {
			c += costJump
		} else {
			c += startCost(used, r.k, periodTime(t, 1))
		}
	}
	return c
}

// judgeRound chooses the control of each game of a round and explains its
// clocks under it. flag is the --timecontrol option (nil: none); known
// are controls the round was judged by before (its games read earlier).
// It returns the control chosen for the round, if it chose one.
func judgeRound(games []*roundGame, flag *clockd.TimeControl, known []candidate) ([2]clockd.TimeControl, bool) {
	var withClocks []*roundGame
	for _, rg := range games {
		if rg.hasClocks() {
			withClocks = append(withClocks, rg)
		}
	}
	if flag != nil {
		c := candidate{tc: [2]clockd.TimeControl{*flag, *flag}, source: SourceFlag}
		for _, rg := range games {
			rg.tc, rg.source = c.tc, SourceFlag
			if rg.hasClocks() {
				rg.ex = explainGame(&rg.sd, c.tc, [2]bool{}, familyAny)
				if rg.ex.cost >= ownControlGain && quickCost(rg.sd, c.tc) >= ownStart {
					own := bestOwn(rg, nil)
					rg.mismatch = own.cost+ownControlGain <= rg.ex.cost
				}
			}
		}
		return [2]clockd.TimeControl{}, false
	}
	// Games without clocks: judged by their tag, or by nothing.
	for _, rg := range games {
		if !rg.hasClocks() {
			if rg.tag.err == nil {
				rg.tc, rg.source = [2]clockd.TimeControl{rg.tag.tc, rg.tag.tc}, SourceTag
			} else {
				rg.source = SourceNone
			}
		}
	}
	if len(withClocks) == 0 {
		return [2]clockd.TimeControl{}, false
	}
	cands := roundCandidates(withClocks)
	// A control the round was judged by before: ahead like a tag.
	for _, c := range known {
		c.bonus += float64(len(withClocks))
		dup := false
		for i := range cands {
			if cands[i].same(c) {
				cands[i].bonus = max(cands[i].bonus, c.bonus)
				dup = true
			}
		}
		if !dup {
			cands = append(cands, c)
		}
	}
	// The score of each candidate over the round, the likeliest first (by
	// the start's quick test, less its head start): a candidate is
	// dropped as soon as its partial score passes the best one's.
	quick := make([]float64, len(cands))
	// rest[ci][gi]: the start's cost of the games from gi on, about what
	// they will add at least (the start is part of each explanation).
	rest := make([][]float64, len(cands))
	for ci, c := range cands {
		rest[ci] = make([]float64, len(withClocks)+1)
		for gi := len(withClocks) - 1; gi >= 0; gi-- {
			rest[ci][gi] = rest[ci][gi+1] + quickCost(withClocks[gi].sd, c.tc)
		}
		quick[ci] = rest[ci][0] - c.bonus
	}
	order := make([]int, len(cands))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(quick[a], quick[b]) })
	best, bestScore := -1, 0.0
	exs := make([][]gameExplanation, len(cands))
	for _, ci := range order {
		c := cands[ci]
		score := -c.bonus
		exs[ci] = make([]gameExplanation, len(withClocks))
		complete := true
		for gi, rg := range withClocks {
			if best >= 0 && score+rest[ci][gi]/2 > bestScore {
				score += rest[ci][gi] / 2
				complete = false
				break // half the starts still to come already puts it behind
			}
			ex := explainGame(&rg.sd, c.tc, [2]bool{}, familyAny)
			exs[ci][gi] = ex
			score += ex.cost
		}
		if complete {
			score += incrementCost(withClocks, exs[ci])
		}
		if best < 0 || score < bestScore {
			best, bestScore = ci, score
		}
	}
	best = keepTag(withClocks, cands, exs, best)
	chosen := cands[best]
	for gi, rg := range withClocks {
		rg.tc, rg.source, rg.ex = chosen.tc, chosen.source, exs[best][gi]
		rg.mismatch = rg.tag.err == nil && !sameTC(rg.tc, [2]clockd.TimeControl{rg.tag.tc, rg.tag.tc})
		// A game of its own: a control that fits it far better (there is
		// none unless the round's fits it badly).
		if rg.ex.cost < ownControlGain || quickCost(rg.sd, chosen.tc) < ownStart {
			continue
		}
		own := bestOwn(rg, cands)
		if own.cost+ownControlGain <= rg.ex.cost && !sameTC(own.tc, chosen.tc) {
			rg.tc, rg.source, rg.ex = own.tc, SourceClocks, own
			if rg.tag.err == nil && sameTC(own.tc, [2]clockd.TimeControl{rg.tag.tc, rg.tag.tc}) {
				rg.source = SourceTag
			}
		}
		rg.mismatch = rg.tag.err == nil && !sameTC(rg.tc, [2]clockd.TimeControl{rg.tag.tc, rg.tag.tc})
	}
	applyPrior(withClocks)
	return chosen.tc, true
}

// explained reports whether ex holds an explanation: the scoring loop
// leaves a candidate's later games unexplained once it falls behind.
func explained(ex gameExplanation) bool {
	return ex.sides[0].rs != nil || ex.sides[1].rs != nil
}

// isLibrary reports whether both sides' control is one FIDE events use.
func isLibrary(tc [2]clockd.TimeControl) bool {
	for _, t := range tc {
		if !slices.Contains(library, t.String()) {
			return false
		}
	}
	return true
}

// keepTag returns the candidate a round is judged by: best, unless a tag
// lost to it that the clocks do not contradict. One game's odd stretch
// (a garbled run of readings that a period nobody played would explain)
// is no contradiction: the clocks contradict a tag where at least two
// games fit the other control clearly better (by two wrong readings'
// worth, tagContradicts), or most games fit it better at all (an
// increment a second off shows a little in every game). exs holds the explanations each candidate got; a tag's
// that were cut short are completed.
// tagContradicts is how much better a game must fit another control to
// count against the round's tag: two wrong readings' worth.
const tagContradicts = 2 * costGlitch

func keepTag(games []*roundGame, cands []candidate, exs [][]gameExplanation, best int) int {
	if cands[best].source == SourceTag {
		return best
	}
	for ti, c := range cands {
		if c.source != SourceTag {
			continue
		}
		// The games whose starts fit the tag worst first: where the tag
		// is contradicted, they say so soonest.
		order := make([]int, len(games))
		far := make([]float64, len(games))
		for gi, rg := range games {
			order[gi] = gi
			far[gi] = quickCost(rg.sd, c.tc) - quickCost(rg.sd, cands[best].tc)
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(far[b], far[a]) })
		clearly, better, contradicted := 0, 0, false
		for _, gi := range order {
			rg := games[gi]
			var d float64
			switch {
			case explained(exs[ti][gi]):
				d = exs[ti][gi].cost - exs[best][gi].cost
			case far[gi] >= 2*tagContradicts:
				// The first readings alone contradict the tag on both
				// sides by two wrong readings' worth (a tiebreak under
				// the classical tag): no need to explain the rest.
				d = far[gi]
			default:
				exs[ti][gi] = explainGame(&rg.sd, c.tc, [2]bool{}, familyAny)
				d = exs[ti][gi].cost - exs[best][gi].cost
			}
			if d >= tagContradicts {
				clearly++
			}
			if d > 0 {
				better++
			}
			if clearly >= 2 || 2*better > len(games) {
				contradicted = true
				break
			}
		}
		if !contradicted {
			for gi, rg := range games { // the tag is kept: every game is explained under it
				if !explained(exs[ti][gi]) {
					exs[ti][gi] = explainGame(&rg.sd, c.tc, [2]bool{}, familyAny)
				}
			}
			return ti
		}
	}
	return best
}

// The %emt of a round's moves tell its increments to within a second,
// where readings alone leave them a second or two uncertain in rapid and
// blitz (a move takes a second or so either way). Between two readings a
// move apart the clock changes by the increment less the move's time, so
// the change plus the move's %emt is the increment: on average, over many
// moves, to a fraction of a second. Broadcasts cut the clocks and the
// %emt to the second, which makes that average fall up to half a second
// short of the increment, never more than a little over it.
const (
	incEMTMin    = 20                      // moves a period needs for its average to count
	incEMTBias   = -250 * time.Millisecond // where the average sits, cuts to the second included
	incEMTSlack  = 500 * time.Millisecond  // how far from there it may sit under the right increment
	incEMTWeight = 2.0                     // points per move, per second the average strays beyond that
	incEMTNear   = 5 * time.Second         // residuals further than this from the increment are not moves but events
)

// incrementCost weighs a candidate's increments against the round's %emt:
// for each period, over the single moves the explanations hold as plain
// use of time on sides whose %emt agree with their clocks, the average of
// the clock's change plus the move's %emt, against the period's increment.
// An average a second away says the increment is a second off.
func incrementCost(games []*roundGame, exs []gameExplanation) float64 {
	// implied[p-1] holds, for period p, each move's clock change plus its
	// %emt: the increment as that move measures it; inc[p-1] is the
	// candidate's.
	var implied [][]time.Duration
	var inc []time.Duration
	for gi, rg := range games {
		ex := exs[gi]
		for side := range 2 {
			if rg.sd[side].emt == emtPoor {
				continue
			}
			se := ex.sides[side]
			tc := ex.tc[side]
			for j, rd := range se.rs {
				st := se.steps[j]
				if !se.kept[j] || st.kind != stepUse || st.from < 0 || rd.emt == Unknown || rd.o < time.Second {
					continue
				}
				prev := se.rs[st.from]
				p := se.after[j].p
				if rd.k-prev.k != 1 || se.after[st.from].p != p || prev.k < 2 {
					continue
				}
				if tc.Periods[p-1].Mode != clockd.Fischer {
					continue // a delay gives back time, it adds none
				}
				for len(implied) < p {
					implied = append(implied, nil)
					inc = append(inc, 0)
				}
				implied[p-1] = append(implied[p-1], rd.o-prev.o+rd.emt)
				inc[p-1] = credit(tc, p)
			}
		}
	}
	cost := 0.0
	for p, v := range implied {
		if len(v) < incEMTMin {
			continue
		}
		// The moves near the middle measurement: the others are events
		// (an extra press, time added), not the increment.
		slices.Sort(v)
		mid := v[len(v)/2]
		n, t := 0, time.Duration(0)
		for _, x := range v {
			if absDur(x-mid) <= incEMTNear {
				n++
				t += x - inc[p]
			}
		}
		if n < incEMTMin {
			continue
		}
		mean := t / time.Duration(n)
		if off := absDur(mean-incEMTBias) - incEMTSlack; off > 0 {
			cost += incEMTWeight * float64(n) * off.Seconds()
		}
	}
	return cost
}

// clearMargin is how much better one kind of clock must explain a game
// for the game to show the round's kind.
const clearMargin = 10.0

// applyPrior finds the kind of clock a round's games show (two games or
// more that one kind explains clearly better than every other kind tried,
// and at most a quarter as many clearly another kind: an event sets its
// clocks one way, and a board or two set otherwise show it on their own)
// and explains the games whose clock was judged of another kind again
// with that prior. A game that shows another kind clearly keeps it: the
// prior costs less than clearMargin.
func applyPrior(games []*roundGame) {
	var clear [3]int
	for _, rg := range games {
		for m := range rg.ex.modeCost {
			c := rg.ex.modeCost[m]
			isClear, tried := true, 0
			for o, oc := range rg.ex.modeCost {
				if o == m {
					continue
				}
				if !math.IsInf(oc, 1) {
					tried++
				}
				if oc-c < clearMargin {
					isClear = false
				}
			}
			if isClear && tried > 0 && !math.IsInf(c, 1) {
				clear[m]++
			}
		}
	}
	prior := familyAny
	for m, n := range clear {
		others := 0
		for o, on := range clear {
			if o != m {
				others += on
			}
		}
		if n >= 2 && 4*others <= n {
			prior = familyOf(clockMode(m))
		}
	}
	if prior == familyAny {
		return
	}
	for _, rg := range games {
		rg.prior = prior
		if prior.penalty(rg.ex.mode) > 0 {
			rg.ex = explainGame(&rg.sd, rg.tc, [2]bool{}, prior)
		}
	}
}

func sameTC(a, b [2]clockd.TimeControl) bool {
	return a[0].String() == b[0].String() && a[1].String() == b[1].String()
}

// roundCandidates are the controls a round may be judged by: its tags,
// the library's controls that pass the start's quick test best, and one
// fitted to its clocks.
func roundCandidates(games []*roundGame) []candidate {
	var cands []candidate
	add := func(c candidate) {
		for i, o := range cands {
			if o.same(c) {
				if c.bonus > o.bonus {
					cands[i] = c
				}
				return
			}
		}
		cands = append(cands, c)
	}
	n := float64(len(games))
	for _, rg := range games {
		if rg.tag.err == nil && len(rg.tag.tc.Periods) > 0 {
			add(candidate{tc: [2]clockd.TimeControl{rg.tag.tc, rg.tag.tc}, source: SourceTag, bonus: tagHeadStart + n})
		}
	}
	var sds [][2]sideData
	for _, rg := range games {
		sds = append(sds, rg.sd)
	}
	for _, c := range quickBest(sds, keepCandidates) {
		add(c)
	}
	if f, ok := fitControl(sds); ok {
		add(candidate{tc: f, source: SourceClocks, bonus: -fittedPenalty - n/2})
		// The library's controls that start as the fitted one does: a
		// fit is a measurement, and the control the event used is most
		// likely the standard one nearest to it.
		for _, tc := range libraryTC {
			if sameStart(tc, f[0]) || sameStart(tc, f[1]) {
				add(candidate{tc: [2]clockd.TimeControl{tc, tc}, source: SourceClocks})
			}
		}
	}
	return cands
}

// sameStart reports whether two controls have the same first period: its
// time, its moves and its increment.
func sameStart(a, b clockd.TimeControl) bool {
	if len(a.Periods) == 0 || len(b.Periods) == 0 {
		return false
	}
	p, q := a.Periods[0], b.Periods[0]
	return p.Time == q.Time && p.Moves == q.Moves && p.Increment == q.Increment && p.Mode == q.Mode
}

// quickBest returns the library's controls whose starts are among the n
// that fit the games best. The quick test reads only the start, so
// controls that start alike score alike: all of them are kept, and the
// n starts are distinct (three controls of 100 minutes must not crowd
// out the 90 minutes a round's one odd start put a point behind).
func quickBest(sds [][2]sideData, n int) []candidate {
	type scored struct {
		i int
		c float64
	}
	var sc []scored
	for i, tc := range libraryTC {
		c := 0.0
		for _, sd := range sds {
			c += quickCost(sd, [2]clockd.TimeControl{tc, tc})
		}
		sc = append(sc, scored{i, c})
	}
	slices.SortStableFunc(sc, func(a, b scored) int { return cmp.Compare(a.c, b.c) })
	var out []candidate
	var starts []clockd.TimeControl
	for _, s := range sc {
		tc := libraryTC[s.i]
		known := false
		for _, st := range starts {
			known = known || sameStart(st, tc)
		}
		if !known {
			if len(starts) == n {
				continue
			}
			starts = append(starts, tc)
		}
		out = append(out, candidate{tc: [2]clockd.TimeControl{tc, tc}, source: SourceClocks})
	}
	return out
}

// bestOwn is the cheapest explanation of one game's clocks under the
// round's candidates and a control fitted to this game alone.
func bestOwn(rg *roundGame, cands []candidate) gameExplanation {
	var best gameExplanation
	found := false
	try := func(tc [2]clockd.TimeControl) {
		ex := explainGame(&rg.sd, tc, [2]bool{}, familyAny)
		if !found || ex.cost < best.cost {
			best, found = ex, true
		}
	}
	for _, c := range cands {
		try(c.tc)
	}
	for _, c := range quickBest([][2]sideData{rg.sd}, 2) {
		try(c.tc)
	}
	if f, ok := fitControl([][2]sideData{rg.sd}); ok {
		try(f) // each side its own first period when they differ by far: an Armageddon game
	}
	if !found {
		return gameExplanation{cost: 0}
	}
	return best
}

// Common increments, for snapping values read from rounded clocks.
var commonIncrements = []time.Duration{0, 1, 2, 3, 5, 10, 15, 20, 30, 60}

// snapUp is the increment a largest single-move gain v shows: the
// smallest common increment not below v less a second of rounding, or the
// next one when v is above it and the next is within a second (a move
// takes a second or so, so the largest gain is the increment or just
// under).
func snapUp(v time.Duration) time.Duration {
	for i, c := range commonIncrements {
		c *= time.Second
		if c < v-time.Second {
			continue
		}
		if c < v && i+1 < len(commonIncrements) && commonIncrements[i+1]*time.Second <= v+time.Second {
			return commonIncrements[i+1] * time.Second
		}
		return c
	}
	return v.Round(time.Second)
}

// fitControl fits a control to the clocks of games (each side's, when
// they differ by far: an Armageddon game). The increment is the smallest
// common one no move's clock gains more than (before and after move 40
// separately: an increment may start with the second period); the first
// period's time is what the earliest readings started from, in whole
// minutes; a second period is the time the clocks gained at once, after
// the moves where most such gains came.
func fitControl(sds [][2]sideData) ([2]clockd.TimeControl, bool) {
	var g1, g2 []time.Duration    // single-move gains before and after move 40
	var big []time.Duration       // gains of a period
	var bigAt []int               // the moves they came at
	var gainMoves [][]int         // each game's moves with a period's gain
	var spans [][2]int            // each game's first and last move with a reading
	var starts [2][]time.Duration // each side's start estimates
	for _, sd := range sds {
		var gained []int
		span := [2]int{math.MaxInt, 0}
		for side := range sd {
			rs := sd[side].rs
			if len(rs) > 0 {
				span = [2]int{min(span[0], rs[0].k), max(span[1], rs[len(rs)-1].k)}
			}
			for j := 1; j < len(rs)-1; j++ { // not the last: often read late
				a, b := rs[j-1], rs[j]
				if b.k-a.k != 1 {
					continue
				}
				d := b.o - a.o
				switch {
				case d > 5*time.Minute && b.k >= 20:
					// A period's time stays: the next readings keep most
					// of it (a wrong reading, or a garbled run, comes
					// back or wanders).
					if stays(rs, j, d) {
						big = append(big, d)
						bigAt = append(bigAt, b.k)
						gained = append(gained, b.k)
					}
				case d > 3*time.Minute || d < -3*time.Minute:
				case b.k <= 39:
					g1 = append(g1, d)
				case b.k >= 42:
					g2 = append(g2, d)
				}
			}
		}
		gainMoves = append(gainMoves, gained)
		spans = append(spans, span)
	}
	inc1 := robustMaxGain(g1)
	inc2 := inc1
	if len(g2) >= 5 {
		inc2 = robustMaxGain(g2)
	}
	for _, sd := range sds {
		for side := range sd {
			rs := sd[side].rs
			if len(rs) == 0 || rs[0].k > 3 || len(rs) == 1 {
				continue
			}
			starts[side] = append(starts[side], rs[0].o-time.Duration(rs[0].k+1)*inc1)
		}
	}
	var base [2]time.Duration
	for side := range starts {
		v := starts[side]
		if len(v) == 0 {
			continue
		}
		slices.Sort(v)
		top := v[len(v)-1]
		if len(v) >= 4 {
			top = v[len(v)-2] // one high reading is not the start
		}
		base[side] = ceilMinute(top - 2*time.Second)
	}
	switch {
	case base[0] == 0 && base[1] == 0:
		return [2]clockd.TimeControl{}, false
	case base[0] == 0:
		base[0] = base[1]
	case base[1] == 0:
		base[1] = base[0]
	}
	// The sides start alike but for an Armageddon, whose side with the
	// draw odds has less time, but never under half: sides further apart
	// than that are a garbled start on one of them, not two controls.
	if hi, lo := max(base[0], base[1]), min(base[0], base[1]); hi-lo <= hi/10 || hi > 2*lo {
		base = [2]time.Duration{hi, hi}
	}
	var tc [2]clockd.TimeControl
	for side := range tc {
		tc[side] = clockd.TimeControl{Periods: []clockd.Period{{Time: base[side], Increment: inc1}}}
	}
	if len(big) >= 2 && agreeing(big) && (max(base[0], base[1]) >= time.Hour || periodShown(gainMoves, spans)) {
		at := 40
		counts := map[int]int{}
		for _, k := range bigAt {
			counts[k]++
		}
		for k, c := range counts {
			if c*10 >= len(bigAt)*6 && k >= 20 && countShows(k, gainMoves, spans) {
				at = k
			}
		}
		add := slices.Max(agreeingGains(big)) - inc2
		for side := range tc {
			tc[side] = clockd.TimeControl{Periods: []clockd.Period{
				{Moves: at, Time: base[side], Increment: inc1},
				{Time: ceilMinute(add - 2*time.Second), Increment: inc2},
			}}
		}
	}
	return tc, true
}

// periodShown reports whether most games that reach move 40 show a
// period's gain: where the first period is under an hour (rapid and
// blitz, whose controls have one period), a gain in a game or two is a
// garbled run of readings, not a control.
func periodShown(gainMoves [][]int, spans [][2]int) bool {
	reach, shown := 0, 0
	for g, sp := range spans {
		if sp[1] < 41 {
			continue
		}
		reach++
		if len(gainMoves[g]) > 0 {
			shown++
		}
	}
	return reach > 0 && 2*shown >= reach
}

// countShows reports whether the gains at move k (give or take the press
// a counting clock may be off) show a clock that counts moves, not flags
// that happened to fall there: a count gives the period in every game that
// reaches it, so at least half of the games with readings on both sides
// of move k show the gain, two games at least. Flags fall where they fall.
func countShows(k int, gainMoves [][]int, spans [][2]int) bool {
	with, passed := 0, 0
	for gi, s := range spans {
		if slices.ContainsFunc(gainMoves[gi], func(m int) bool { return m >= k-1 && m <= k+1 }) {
			with++
		}
		if s[0] < k && s[1] > k {
			passed++
		}
	}
	return with >= 2 && 2*with >= passed
}

// stays reports whether the gain d into reading j of rs stays as a
// clock's time does: the next two readings, within four moves, keep more
// than half of it, and neither rises by more than a minute (no increment
// is larger; a garbled run's values wander both ways).
func stays(rs []reading, j int, d time.Duration) bool {
	a, b := rs[j-1], rs[j]
	n := 0
	for x := j + 1; x < len(rs) && x <= j+2; x++ {
		if rs[x].k-b.k > 4 || rs[x].o-a.o <= d/2 || rs[x].o-rs[x-1].o > time.Minute {
			return false
		}
		n++
	}
	return n == 2
}

// agreeingGains are the gains within two minutes of the middle one.
func agreeingGains(big []time.Duration) []time.Duration {
	v := slices.Clone(big)
	slices.Sort(v)
	mid := v[len(v)/2]
	var out []time.Duration
	for _, x := range v {
		if absDur(x-mid) <= 2*time.Minute {
			out = append(out, x)
		}
	}
	return out
}

// agreeing reports whether the gains of a period mostly agree: the
// middle one is within two minutes of at least half of them, three at
// least (the gain of a period's time is that time less the move's, so it
// varies a little; wrong readings that stay a move or two do not agree).
func agreeing(big []time.Duration) bool {
	n := len(agreeingGains(big))
	return n >= 3 && 2*n >= len(big)
}

// robustMaxGain is the increment the gains of single moves show: the
// largest gain but for a few odd ones, snapped up to a common increment.
func robustMaxGain(g []time.Duration) time.Duration {
	if len(g) < 5 {
		return 0
	}
	slices.Sort(g)
	v := g[len(g)-1-len(g)/20]
	if v <= 0 {
		return 0
	}
	return snapUp(v)
}

func ceilMinute(d time.Duration) time.Duration {
	if d <= time.Minute {
		return max(time.Second, d.Round(time.Second))
	}
	return ((d + time.Minute - 1) / time.Minute) * time.Minute
}
