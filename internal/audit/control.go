package audit

import (
	"slices"
	"strings"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
)

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
	first := 0
	if f := strings.Fields(g.Tag("FEN")); len(f) >= 2 && f[1] == "b" {
		first = 1
	}
	var s [2][]sideMove
	for i, p := range g.Plies {
		side := (i + first) % 2
		s[side] = append(s[side], sideMove{k: len(s[side]) + 1, ply: i, clk: p.Clk, emt: p.EMT})
	}
	return s
}

// clockFacts is what a side's clocks tell about the control.
type clockFacts struct {
	clocks    int           // moves with a %clk
	base      time.Duration // first period's time (a lower bound unless exact)
	baseExact bool          // every move up to the first %clk has its %emt
	hasBase   bool
	first     time.Duration // the first reading (within the first three moves)
}

// Common increments and delays, for snapping values read from rounded clocks.
var commonIncrements = []time.Duration{0, 1, 2, 3, 5, 10, 15, 20, 30, 60}

// inferIncrement estimates the Fischer increment from both sides' clocks:
// from %clk differences plus %emt where moves carry both (exact up to the
// display's rounding), else from the largest %clk gains between
// consecutive moves (a fast move gains nearly the whole increment). It
// returns the increment, the number of samples it rests on, and whether
// those came with %emt (else the value is a lower bound: no move gains
// more than the increment).
func inferIncrement(s [2][]sideMove) (time.Duration, int, bool) {
	var withEMT []int64
	var gains []time.Duration
	for _, ms := range s {
		for i := 1; i < len(ms)-1; i++ { // the last move may end the game unpressed
			a, b := ms[i-1], ms[i]
			if a.clk == Unknown || b.clk == Unknown {
				continue
			}
			d := b.clk - a.clk
			if d > 3*time.Minute {
				continue // a period or an adjustment
			}
			if b.emt != Unknown {
				r := d + b.emt
				if r >= -5*time.Second && r <= 3*time.Minute {
					withEMT = append(withEMT, int64((r+time.Second/2)/time.Second))
				}
			} else {
				gains = append(gains, d)
			}
		}
	}
	if len(withEMT) >= 3 {
		return snapIncrement(time.Duration(mode(withEMT))*time.Second, time.Second), len(withEMT), true
	}
	if len(gains) >= 3 {
		slices.Sort(gains)
		v := gains[len(gains)-3] // the third largest: robust to two odd values
		if v < 0 {
			v = 0
		}
		return snapIncrement(v.Round(time.Second), 2*time.Second), len(gains), false
	}
	return 0, 0, false
}

func mode(v []int64) int64 {
	slices.Sort(v)
	best, bestN := v[0], 0
	for i := 0; i < len(v); {
		j := i
		for j < len(v) && v[j] == v[i] {
			j++
		}
		if j-i > bestN {
			best, bestN = v[i], j-i
		}
		i = j
	}
	return best
}

func snapIncrement(v, within time.Duration) time.Duration {
	for _, c := range commonIncrements {
		c *= time.Second
		lim := within
		if c <= 3*time.Second {
			lim = min(within, time.Second) / 2
		}
		if v >= c-lim && v <= c+lim {
			return c
		}
	}
	return max(0, v)
}

// inferBase estimates a side's first-period time from its first %clk: the
// clock then shows the time at the start (the first period's time plus
// one increment before the first move, in Fischer mode), less the time
// used, plus one increment per move. The %emt of the moves up to it gives
// the time used, but only when it is small: broadcasts often put the time
// since the board went live on the first move. Otherwise the result is a
// lower bound.
func inferBase(ms []sideMove, inc time.Duration) clockFacts {
	var f clockFacts
	used := time.Duration(0)
	exact := true
	for i, m := range ms {
		if m.clk != Unknown {
			f.clocks++
		}
		if f.hasBase || i >= 3 {
			continue
		}
		if m.emt != Unknown {
			used += m.emt
		} else {
			exact = false
		}
		if m.clk == Unknown || i == len(ms)-1 && len(ms) > 1 {
			continue
		}
		low := m.clk - time.Duration(i+2)*inc
		f.base, f.hasBase, f.first = low, true, m.clk
		if exact && used <= max(time.Minute, low/20) {
			f.base, f.baseExact = low+used, true
		}
	}
	return f
}

// snapBase rounds an inferred first-period time to the whole minute
// controls are made of.
func snapBase(b time.Duration) time.Duration {
	if b < time.Minute {
		return max(time.Second, b.Round(time.Second))
	}
	return b.Round(time.Minute)
}

// fits reports whether a side's clocks agree with the control's first
// period: the time at the start, and the increment.
func fits(tc clockd.TimeControl, f clockFacts, inc time.Duration, incN int, incExact bool) bool {
	if len(tc.Periods) == 0 {
		return false
	}
	p := tc.Periods[0]
	if f.hasBase {
		base, exact := f.base, f.baseExact
		if p.Mode != clockd.Fischer {
			// A delay-mode clock never gains time: the first reading is
			// a lower bound of the period's time.
			base, exact = f.first, false
		}
		tol := max(time.Minute, p.Time*3/100)
		if base > p.Time+tol {
			return false // more time than the control gives
		}
		low := tol
		if !exact {
			low = max(2*time.Minute, p.Time*15/100)
		}
		if base < p.Time-low {
			return false
		}
	}
	if incN >= 3 {
		// Without %emt a slow player's clock gains less than the
		// increment. A delay-mode clock gains nothing; replaySide reports
		// any gain.
		d := inc - p.Increment
		switch {
		case p.Mode == clockd.Fischer && (d > 2*time.Second || incExact && d < -2*time.Second):
			return false
		}
	}
	return true
}

// parsedTag is a TimeControl tag as parsed (files repeat the same tag).
type parsedTag struct {
	tc  clockd.TimeControl
	err error
}

// judged is the control a game is judged by.
type judged struct {
	tc       [2]clockd.TimeControl // per side (they differ only in an Armageddon game)
	source   string
	mismatch bool
	tagText  string
}

// chooseControl decides the control: the option, else the tag when the
// clocks agree with it, else what the clocks show.
func chooseControl(g *Game, s [2][]sideMove, flag *clockd.TimeControl, cache map[string]parsedTag) judged {
	j := judged{tagText: g.Tag("TimeControl")}
	inc, incN, incExact := inferIncrement(s)
	var facts [2]clockFacts
	for i := range s {
		facts[i] = inferBase(s[i], inc)
	}
	hasClocks := facts[0].clocks+facts[1].clocks > 0
	fitsSide := func(tc clockd.TimeControl, i int) bool { return fits(tc, facts[i], inc, incN, incExact) }
	agree := func(tc clockd.TimeControl) bool { return fitsSide(tc, 0) && fitsSide(tc, 1) }
	if flag != nil {
		j.tc = [2]clockd.TimeControl{*flag, *flag}
		j.source = SourceFlag
		j.mismatch = hasClocks && !agree(*flag)
		return j
	}
	tag := parseTagCached(cache, j.tagText)
	if tag.err == nil && (!hasClocks || agree(tag.tc)) {
		j.tc = [2]clockd.TimeControl{tag.tc, tag.tc}
		j.source = SourceTag
		return j
	}
	if !hasClocks {
		j.source = SourceNone
		return j
	}
	j.source = SourceClocks
	j.mismatch = tag.err == nil
	j.tc = clocksControl(s, facts, inc, tag, fitsSide)
	return j
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

// clocksControl is each side's control as the clocks show it: the tag's
// where it fits the side's clocks, else one period of the time the side's
// clock started from with the increment inc, and a second period when the
// clocks show one added.
func clocksControl(s [2][]sideMove, facts [2]clockFacts, inc time.Duration, tag parsedTag, fitsSide func(clockd.TimeControl, int) bool) [2]clockd.TimeControl {
	var tc [2]clockd.TimeControl
	var base [2]time.Duration
	for i := range s {
		f := facts[i]
		if !f.hasBase {
			f = facts[1-i]
		}
		base[i] = snapBase(f.base)
	}
	// Both sides normally have the same time: a first move that took a
	// while only lowers one side's estimate. An Armageddon game differs
	// by far more.
	if hi, lo := max(base[0], base[1]), min(base[0], base[1]); hi-lo <= hi/10 {
		base = [2]time.Duration{hi, hi}
	}
	for i := range s {
		if tag.err == nil && fitsSide(tag.tc, i) {
			tc[i] = tag.tc
			continue
		}
		tc[i] = clockd.TimeControl{Periods: []clockd.Period{{Time: base[i], Increment: inc}}}
	}
	// A second period the clocks show (the tag missing or wrong): its
	// time, after the FIDE standard 40 moves.
	if add := observedAddition(s, tc[0]); add > 0 && len(tc[0].Periods) == 1 && len(tc[1].Periods) == 1 {
		for i := range tc {
			p := tc[i].Periods[0]
			tc[i] = clockd.TimeControl{Periods: []clockd.Period{
				{Moves: 40, Time: p.Time, Increment: p.Increment},
				{Time: add, Increment: p.Increment},
			}}
		}
	}
	return tc
}

// observedAddition returns the time a clock gained in one step beyond the
// increment, after move 20 and before the side's last move, when that gain
// is larger than five minutes (a period), in whole minutes; 0 when there
// is none.
func observedAddition(s [2][]sideMove, tc clockd.TimeControl) time.Duration {
	inc := time.Duration(0)
	if len(tc.Periods) > 0 {
		inc = tc.Periods[0].Increment
	}
	var best time.Duration
	for _, ms := range s {
		for i := 1; i < len(ms)-1; i++ { // not the last move: broadcasts read it late, or from the next game
			a, b := ms[i-1], ms[i]
			if a.clk == Unknown || b.clk == Unknown || b.k < 20 {
				continue
			}
			gain := b.clk - a.clk - inc
			if b.emt != Unknown {
				gain += b.emt
			}
			if gain > 5*time.Minute && gain > best {
				best = gain
			}
		}
	}
	if best == 0 {
		return 0
	}
	return best.Round(time.Minute)
}
