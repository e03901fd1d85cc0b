package broadcastsim

import (
	"github.com/arbiterd/arbiterd/clockd"
)

// plyOf returns the index of the side's move in the published plies, or -1.
func (g *Game) plyOf(s clockd.Side, move int) int {
	for i, p := range g.Plies {
		if p.Side == s && p.Move == move {
			return i
		}
	}
	return -1
}

// nearby says whether the side has another incident than skip within its
// moves lo..hi.
func (g *Game) nearby(skip int, s clockd.Side, lo, hi int) bool {
	for i, in := range g.Incidents {
		if i == skip || in.Side != s || in.Move < lo || in.Move > hi {
			continue
		}
		switch in.Kind {
		case TimeAdded, ExtraPress, PeriodEarly, PeriodLate, FlagBeforeControl, FlagLastPeriod:
			return true
		}
	}
	return false
}

// judgeEvidence settles, for each flag before the control and each period
// shift, whether the published readings show it (see the package doc).
//
// A flag the opponent's flag hid is judged last: it rests on that flag.
func (r *Round) judgeEvidence(g *Game) {
	for _, hidden := range []bool{false, true} {
		for i := range g.Incidents {
			in := &g.Incidents[i]
			switch {
			case in.Kind == FlagBeforeControl && in.Hidden == hidden:
				in.Evidence, in.Why = r.flagEvidence(g, i)
			case (in.Kind == PeriodEarly || in.Kind == PeriodLate) && !hidden:
				in.Evidence, in.Why = r.shiftEvidence(g, i)
			}
		}
	}
}

// openerShown says, for a flag hidden by the opponent's flag during ply
// pi, whether the readings show that opponent's flag: where it fell before
// the opponent's control it is itself evident; after it, the opponent's
// readings around the period's arrival are undamaged.
func (g *Game) openerShown(s clockd.Side, pi int) bool {
	o := s.Other()
	for _, in := range g.Incidents {
		if in.Side != o || in.Ply > pi || in.Ply < pi-1 {
			continue
		}
		switch in.Kind {
		case FlagBeforeControl:
			return in.Evidence
		case FlagAfterControl:
			for _, a := range g.Additions {
				if a.Side == o && a.Ply == in.Ply && a.AtFlag {
					return g.additionShown(a)
				}
			}
		}
	}
	return false
}

func (r *Round) flagEvidence(g *Game, ii int) (bool, string) {
	in := g.Incidents[ii]
	ps := r.Control.Periods
	s, m, pi := in.Side, in.Move, in.Ply
	final := len(g.Plies) - 1
	if pi >= final {
		return false, "the flag move is the game's last published move"
	}
	pp := g.plyOf(s, m-1)
	if pp < 0 {
		return false, "no move before the flag move"
	}
	before, at := g.Plies[pp], g.Plies[pi]
	if !before.ClkOK {
		return false, "the reading before the flag move is missing or damaged"
	}
	if !at.ClkOK {
		return false, "the flag move's reading is missing or damaged"
	}
	if before.Clock < 3 {
		return false, "under 3 s left after the move before: which move the flag fell in does not show"
	}
	if g.nearby(ii, s, m-1, m+3) {
		return false, "another incident of the player's clock within moves m-1..m+3"
	}
	if in.Hidden {
		if g.Mode == Counting {
			return false, "a counting clock that added the period early hid the flag: its display never ran out"
		}
		given := false
		for _, a := range g.Additions {
			given = given || (a.ByOpponent && a.Side == s && a.Move == m)
		}
		if !given {
			return false, "the period the opponent's flag gave came moves before the flag"
		}
		if !g.openerShown(s, pi) {
			return false, "the opponent's flag that gave the period early does not show in the opponent's readings"
		}
	}
	if at.Period > before.Period+1 {
		return false, "the overstep used up the next period too"
	}
	cb := before.Period // 1-based: the next period is ps[cb]
	next := ps[cb]
	o := in.Seconds
	switch g.Mode {
	case Counting:
		if at.Period > before.Period {
			// the count came at the flag move: the reading is the fresh
			// period exactly, whether the time ran out or not
			if !at.EMTOK || o < 5 {
				return false, "the count came at the flag move, which hides the overstep, and no undamaged [%emt] shows it by 5 s"
			}
		} else if secs(ps[cb-1].Increment) < 2 && (!at.EMTOK || o < 5) {
			return false, "without an increment a reading of 0:00 is also what under a second left shows, and no undamaged [%emt] shows the overstep by 5 s"
		}
	default:
		if o < 5 {
			return false, "overstepped by under 5 s: the reading is within a few seconds of the fresh period's"
		}
		if at.Clock-before.Clock < secs(next.Increment)+60 && !at.EMTOK {
			return false, "the clock rose by less than the increment and a minute (the overstep took most of the fresh period): without an undamaged [%emt] the period's arrival does not show"
		}
	}
	follow, ok := 0, 0
	for j := pi + 1; j < final && follow < 6; j++ {
		if g.Plies[j].Side != s {
			continue
		}
		follow++
		if g.Plies[j].ClkOK {
			ok++
		}
	}
	if ok >= 3 {
		return true, ""
	}
	if ok == 2 && g.Mode == AtFlagBoth && pi+1 < final && pi >= 1 &&
		g.Plies[pi+1].ClkOK && g.Plies[pi-1].ClkOK && !g.nearby(-1, s.Other(), g.Plies[pi-1].Move, g.Plies[pi+1].Move) {
		for _, a := range g.Additions {
			if a.ByOpponent && a.Side == s.Other() && a.Ply == pi {
				return true, ""
			}
		}
	}
	return false, "fewer than 3 undamaged readings of the player follow"
}

func (r *Round) shiftEvidence(g *Game, ii int) (bool, string) {
	in := g.Incidents[ii]
	tc := r.Control
	s, a, pi := in.Side, in.Move, in.Ply
	final := len(g.Plies) - 1
	pp, pn := g.plyOf(s, a-1), g.plyOf(s, a+1)
	switch {
	case pi >= final || pn < 0 || pn >= final:
		return false, "at the end of the game"
	case pp < 0 || !g.Plies[pp].ClkOK || !g.Plies[pi].ClkOK || !g.Plies[pn].ClkOK:
		return false, "a reading around it is missing or damaged"
	case g.nearby(ii, s, a-1, a+1):
		return false, "another incident of the player's clock next to it"
	}
	at := g.Plies[pi]
	p := tc.Periods[at.Period-1]
	if at.Clock-secs(p.Time+p.Increment) < 3 {
		return false, "the player's time had run out when it came"
	}
	if in.Kind == PeriodLate {
		o := s.Other()
		need := tc.Required(at.Period - 1)
		for _, ad := range g.Additions {
			if ad.Side == o && ad.AtPress && ad.Off == 0 && ad.Period == at.Period {
				q, qp := g.plyOf(o, need), g.plyOf(o, need-1)
				if q >= 0 && qp >= 0 && q < final && g.Plies[q].ClkOK && g.Plies[qp].ClkOK &&
					g.Plies[q].Clock-secs(p.Time+p.Increment) >= 3 {
					return true, ""
				}
			}
		}
		return false, "the opponent's clock does not show a count at the control"
	}
	return true, ""
}

// HasClocks says whether a game has clocks: each side has at least 3
// undamaged readings besides the last move.
func (g *Game) HasClocks() bool {
	var n [2]int
	for i, p := range g.Plies {
		if i < len(g.Plies)-1 && p.ClkOK {
			n[p.Side]++
		}
	}
	return n[0] >= 3 && n[1] >= 3
}

// additionShown says whether a period addition shows in the readings: the
// side's reading of the move that shows it, the one before and the two
// after are undamaged (and not the game's last).
func (g *Game) additionShown(a Addition) bool {
	final := len(g.Plies) - 1
	for _, mv := range []int{a.Move - 1, a.Move, a.Move + 1, a.Move + 2} {
		i := g.plyOf(a.Side, mv)
		if i < 0 || i >= final || !g.Plies[i].ClkOK {
			return false
		}
	}
	return true
}

// Identifiable says whether the round's control can be told from its
// clocks alone, by the package's criterion:
//
//   - at least 4 games have clocks (HasClocks);
//   - the first period's time shows: some side's first reading is
//     undamaged and its move took at most 30 s (the reading is the time
//     plus two increments less the move's);
//   - each period's increment shows: two consecutive undamaged readings of
//     a side in the period, the later move taking at most a second or
//     carrying an undamaged [%emt] (the rise is the increment less the
//     move's time);
//   - each later period's time shows: some game shows it arriving (the
//     readings of the move before, the move that shows it and the two
//     after undamaged, not the game's last), the move that shows it taking
//     at most 30 s or carrying an undamaged [%emt] (the rise is the
//     period's time and the increment less the move's time: without the
//     move's time only a lower bound shows);
//   - each period's move count other than the first period's 40 (the
//     convention a tool must assume) is shown by a counting clock that
//     added the next period exactly at it.
func (r *Round) Identifiable() (bool, string) {
	n := 0
	for _, g := range r.Games {
		if g.HasClocks() {
			n++
		}
	}
	if n < 4 {
		return false, "fewer than 4 games with clocks"
	}
	ps := r.Control.Periods
	first := false
	incShown := make([]bool, len(ps))
	for _, g := range r.Games {
		final := len(g.Plies) - 1
		last := [2]int{-1, -1}
		for i, p := range g.Plies {
			if i == final {
				break
			}
			if p.Move == 1 && p.ClkOK && p.Think <= 30 {
				first = true
			}
			if j := last[p.Side]; j >= 0 && p.ClkOK && g.Plies[j].ClkOK && g.Plies[j].Period == p.Period &&
				g.Plies[j].Move == p.Move-1 && (p.Think <= 1 || p.EMTOK) && !g.nearby(-1, p.Side, p.Move-1, p.Move) {
				incShown[p.Period-1] = true
			}
			last[p.Side] = i
		}
	}
	if !first {
		return false, "no first reading shows the first period's time"
	}
	for j := 2; j <= len(ps); j++ {
		counted := j == 2 && ps[0].Moves == 40
		shown, timed := false, false
		for _, g := range r.Games {
			for _, a := range g.Additions {
				if a.Period != j || !g.additionShown(a) {
					continue
				}
				shown = true
				if p := g.Plies[g.plyOf(a.Side, a.Move)]; p.Think <= 30 || p.EMTOK {
					timed = true
				}
				if a.AtPress && a.Off == 0 {
					counted = true
				}
			}
		}
		switch {
		case !shown:
			return false, "no game shows period " + itoa(int64(j)) + " arriving"
		case !timed:
			return false, "no game shows period " + itoa(int64(j)) + "'s time (only lower bounds)"
		case !counted:
			return false, "no counting clock shows period " + itoa(int64(j-1)) + "'s move count"
		}
	}
	for j, ok := range incShown {
		if !ok {
			return false, "no readings show period " + itoa(int64(j+1)) + "'s increment"
		}
	}
	return true, ""
}
