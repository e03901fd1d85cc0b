package audit

import (
	"math"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/i18n"
)

// Judging a game's explanation: its period additions, and the findings.
//
// A flag before the control is an accusation: the player lost, or drew
// (6.9), a game played on. It is reported only when the evidence excludes
// every other explanation:
//
//   - the period's time stays in the readings that follow (at least two of
//     the player's, or one and the opponent's period at the same moment on
//     a clock that gives both players the period), so it was no glitch;
//   - the reading after it fits a player who ran out during that move
//     (with the move's %emt when there is one), in a plausible time;
//   - the cheapest explanation without that flag, under every clock mode
//     and with readings set aside as glitches, costs clearly more.
//
// Otherwise, when the flag still explains the readings best, it is a
// possible-flag: the readings are shown and no verdict is given.
//
// The margin, strongMargin, is 8 points: the nearest explanation without
// the flag is then some forty times less likely (8 points are 3.7 nats at
// pointsPerNat). One wrong reading more costs 10; an explanation that
// needs one more and saves part of the flag's cost elsewhere (the
// opponent's own flag instead, a clock one press off, moves that used
// the time to the second) comes nearer, though the readings still favour
// the flag by far. In the test kit's simulated rounds, re-timed and noisy
// real games, no accusation between 8 and 10 points fell where no flag
// did (docs/RELIABILITY.md).

const (
	strongMargin   = 8.0              // points the best explanation without the flag must cost more (see above)
	possibleMargin = 4.0              // below this, a flag is no more likely than a glitch: nothing is said
	maxFlagMove    = 30 * time.Minute // a flag move that took longer is not evidence enough alone
	dateMargin     = 8.0              // points a flag in another move must cost more for the move to be known
	maxSpan        = 3                // an accusation names at most this many moves the flag may have fallen in
	// accuseEMTMargin is how far beyond the time left a move's %emt must
	// go to accuse on it alone: a %emt is timed from the board, and the
	// opponent's press seconds after the move lengthens it.
	accuseEMTMargin = 15 * time.Second
)

// settle drops a flag before the control that explains a side's readings
// no better than the best explanation of the game without it, under every
// clock mode: that one is kept. Where only the opponent's flag, on a clock
// that gives both players the period, comes as near, the flag stays: that
// alternative explains the one period, not the game, and the best
// explanation of the whole game without the flag may be far dearer, which
// would misjudge the rest of both clocks. The flag is not reported then
// (flagFinding weighs the same alternatives).
func settle(rg *roundGame) {
	for side := range rg.ex.sides {
		if !hasEarlyFlag(rg.ex.sides[side]) {
			continue
		}
		if alt := noFlagGame(rg, clockd.Side(side)); alt.cost-rg.ex.cost < possibleMargin {
			rg.ex = alt
		}
	}
}

// flagAlternative is an explanation of a game without a side's flag
// before the control: the game's clocks as it explains them (for the
// readings it sets aside), its cost, and, where it is the opponent's flag
// on a clock that gives both players the period, that flag's move.
type flagAlternative struct {
	ex      gameExplanation
	cost    float64
	oppMove int
}

// withoutFlag lists the explanations of a game in which side's time did
// not run out before the control: first the cheapest under every clock
// mode, with readings set aside (kept in place of a flag it comes near),
// then, for a period that came with the player's time run out, the
// opponent's time running out instead on each of the opponent's moves
// that could have given it, on a clock that gives both players the
// period at the first flag: the opponent's flag need not show on the
// opponent's clock (a player who overstepped by more than the period's
// time shows no gain), only cost its due.
func withoutFlag(rg *roundGame, sd clockd.Side) []flagAlternative {
	alt := noFlagGame(rg, sd)
	alts := []flagAlternative{{ex: alt, cost: alt.cost}}
	se := rg.ex.sides[sd]
	for j := range se.rs {
		st := se.steps[j]
		if !se.kept[j] || !st.early || st.kind != stepPeriod || st.from < 0 {
			continue
		}
		alts = append(alts, opponentFlags(rg, sd, se.rs[st.from], se.rs[j], se.after[st.from].p)...)
	}
	return alts
}

// noFlagGame is the cheapest explanation of the game, under every clock
// mode and with readings set aside, in which side's time did not run out
// before the control. It depends only on the game's clocks and control,
// and settle, the flag's finding and the opponent's hidden flag each ask
// for it: it is decoded once.
func noFlagGame(rg *roundGame, sd clockd.Side) gameExplanation {
	if rg.noFlag[sd] == nil {
		var noEarly [2]bool
		noEarly[sd] = true
		ex := explainGame(&rg.sd, rg.ex.tc, noEarly, rg.prior)
		rg.noFlag[sd] = &ex
	}
	return *rg.noFlag[sd]
}

// cheapest is the alternative that costs least.
func cheapest(alts []flagAlternative) flagAlternative {
	best := alts[0]
	for _, a := range alts[1:] {
		if a.cost < best.cost {
			best = a
		}
	}
	return best
}

// nearest is the alternative nearest to ex once the wrong readings each
// needs are weighed at the rate the game's clocks show them
// (noiseDiscount), and how far behind ex it is.
func nearest(ex gameExplanation, alts []flagAlternative) (flagAlternative, float64) {
	var best flagAlternative
	margin := math.Inf(1)
	for _, a := range alts {
		if d := behind(ex, a.ex, a.cost); d < margin {
			best, margin = a, d
		}
	}
	return best, margin
}

// behind is how far an explanation alt of the game, costing cost, is
// behind ex once the wrong readings it needs beyond ex's are weighed at
// the rate the game's clocks show them (noiseDiscount).
func behind(ex, alt gameExplanation, cost float64) float64 {
	return cost - ex.cost - noiseDiscount(ex, alt)
}

// plainWindow is how long a plain move takes, give or take, for the
// coincidence that a flag leaves a reading that looks like one.
const plainWindow = 2 * time.Minute

// opponentFlags are the explanations of a period that side's clock shows
// between readings a and b by the opponent's time running out on one of
// the opponent's moves between them (in period p, the same as side's), on
// a clock that gives both players the period then.
func opponentFlags(rg *roundGame, sd clockd.Side, a, b reading, p int) []flagAlternative {
	tc := rg.ex.tc
	od := &rg.sd[sd.Other()]
	next := periodTime(tc[sd.Other()], p+1)
	inc := max(credit(tc[sd.Other()], p), credit(tc[sd.Other()], p+1))
	var out []flagAlternative
	for x, r := range od.rs {
		if r.ply <= a.ply || r.ply >= b.ply || x == 0 {
			continue
		}
		// The opponent's previous reading, and its time used if the period
		// came during this move.
		q := od.rs[x-1]
		gap := r.k - q.k
		if r.o > next+time.Duration(gap)*inc+tolRound {
			continue // more than a fresh period: the opponent's time did not run out here
		}
		used := q.o + time.Duration(gap)*inc + next - r.o
		if emt, ok := (&decoder{sd: od}).emtSum(q.k, r.k); ok && absDur(used-emt) > max(time.Minute, used/2) {
			continue // the opponent's %emt says the move was short
		}
		h := hypothesis{tc: tc[sd], mode: modeFlagBoth, oppFlags: []oppFlag{{ply: r.ply, period: p + 1}}, noEarlyFlag: true, emt: rg.sd[sd].emt}
		e := decodeSide(&rg.sd[sd], h)
		// The opponent's clocks, explained with the period begun there by
		// the opponent's own flag in that move (the decoder charges it as
		// it charges the player's) and later ones with the player's later
		// flags: the move's time, and the readings after it, must follow
		// from a clock run down to 0:00 then, not from the period the
		// player's flag gave in the explanation judged.
		oh := hypothesis{tc: tc[sd.Other()], mode: modeFlagBoth, emt: od.emt, periodBy: oppFlag{ply: r.ply - 1, period: p + 1},
			ownFlagIn: moveSpan{r.k, r.k}, oppFlags: runOutPlies(e, rg.sd[sd], tc[sd])}
		oe := decodeSide(od, oh)
		extra := 0.0
		if plainAfter := q.o + time.Duration(gap)*inc - r.o; plainAfter >= -tolRound && plainAfter <= time.Duration(gap)*plainWindow {
			// The opponent's reading follows the one before as a plain
			// move would: a flag needs its overstep to have eaten the
			// fresh period to within that, a coincidence.
			extra += pointsPerNat * math.Log(float64(next)/float64(plainWindow))
		}
		c := e.cost + incCost(e) + oe.cost + incCost(oe) + extra + costBothMode + rg.prior.penalty(modeFlagBoth)
		alt := flagAlternative{cost: c, oppMove: r.k, ex: gameExplanation{tc: tc, mode: modeFlagBoth}}
		alt.ex.sides[sd], alt.ex.sides[sd.Other()] = e, oe
		out = append(out, alt)
	}
	return out
}

func hasEarlyFlag(se sideExplanation) bool {
	for j := range se.rs {
		if se.kept[j] && se.steps[j].early {
			return true
		}
	}
	return false
}

// judge adds a judged game's period additions and findings to r.
func (a *Auditor) judge(rg *roundGame, r *Report, pos *positions) {
	settle(rg)
	ex := rg.ex
	for side := range ex.sides {
		sd := clockd.Side(side)
		se := ex.sides[side]
		tc := ex.tc[side]
		start := len(r.Findings)
		for j, rd := range se.rs {
			if !se.kept[j] {
				continue
			}
			st := se.steps[j]
			prev := reading{k: 0, o: periodTime(tc, 1) + credit(tc, 1)}
			if st.from >= 0 {
				prev = se.rs[st.from]
			}
			switch st.kind {
			case stepPeriod:
				newP := se.after[j].p
				for p := newP - st.periods + 1; p <= newP; p++ {
					pa := PeriodAddition{Side: sd.String(), Period: p, Move: rd.k, Seconds: int(periodTime(tc, p) / time.Second),
						AtFlag: st.how == byRunOut || st.how == afterRunOut, WithFlag: st.how == byOpponentFlag, After: -1}
					req := tc.Required(p - 1)
					switch st.how {
					case byCount, afterRunOut:
						pa.After = max(1, req+ex.offset[side])
					case byRunOut:
						switch {
						case st.flagAt > 0:
							pa.After = st.flagAt - 1
						case prev.k >= req:
							pa.After = prev.k
						}
					case byOpponentFlag:
						pa.After = rd.k - 1
					}
					r.Periods = append(r.Periods, pa)
				}
				if f, ok := a.periodFinding(rg, sd, j, prev, pos, r.Result); ok {
					r.Findings = append(r.Findings, f)
				}
			case stepRunOut:
				if f, ok := a.runOutFinding(rg, sd, j, prev, pos, r.Result); ok {
					r.Findings = append(r.Findings, f)
				}
			case stepJump:
				r.Findings = append(r.Findings, jumpFinding(sd, rd, prev, st, tc, se.after[j].p))
			case stepExtraInc:
				if !gainStands(rg, sd, rd.k) {
					continue
				}
				inc := credit(tc, se.after[j].p)
				r.Findings = append(r.Findings, finding(IncrementExtra, sd, rd.k, "6.10, 7.5.3",
					m("audit.increment-extra.twice", hms(prev.o), prev.k, hms(rd.o), rd.k, hms(st.gained), hms(inc))))
			case stepHand:
				if !gainStands(rg, sd, rd.k) {
					continue
				}
				how := m("audit.hand.emt", hms(rd.emt), hms(st.gained+rd.emt))
				if rd.emt == Unknown {
					how = m("audit.hand.no-emt", hms(st.gained))
				}
				r.Findings = append(r.Findings, finding(TimeAdded, sd, rd.k, "7.5.5, 10.2",
					m("audit.time-added", hms(prev.o), prev.k, hms(rd.o), rd.k, how, sideLower(sd))))
			}
		}
		r.Findings = append(r.Findings, emtFindings(sd, se, &rg.sd[side], rg.s, ex.tc)...)
		r.Findings = append(r.Findings[:start], dropReturned(r.Findings[start:])...)
	}
}

// gainMargin is how far behind the explanation that holds it every
// explanation without time added by hand, or an increment too many, must
// be for the finding: the clocks say the arbiter or the clock added time,
// which wrong readings must not say in a noisy feed.
const gainMargin = possibleMargin

// gainStands reports whether the time side's clock gained after move k,
// read as time added by hand or as an increment too many, stands: every
// explanation without it (readings set aside, a data fault, a flag) is
// clearly behind, once the wrong readings it needs are weighed at the
// rate the game's clocks show them.
func gainStands(rg *roundGame, sd clockd.Side, k int) bool {
	var not forbidden
	not.gainAt[sd] = k
	alt := explainGameBut(&rg.sd, rg.ex.tc, not, rg.prior)
	return behind(rg.ex, alt, alt.cost) >= gainMargin
}

// jumpFinding reports time that appeared which no clock behaviour gives.
func jumpFinding(sd clockd.Side, rd, prev reading, st step, tc clockd.TimeControl, p int) Finding {
	what := m("audit.jump.between", hms(prev.o), prev.k, hms(rd.o), rd.k, hms(st.gained))
	if st.from < 0 {
		what = m("audit.jump.first", hms(rd.o), rd.k, hms(st.gained), tc.String())
	}
	var zero any = ""
	if prev.o == 0 && st.from >= 0 {
		zero = m("audit.jump.zero-before")
	}
	return finding(ClockData, sd, rd.k, "6.10", m("audit.clock-data.jump", what, zero))
}

// periodFinding judges a period's time that came: before the control at a
// flag, at a miscounted press, or where the clocks cannot tell.
func (a *Auditor) periodFinding(rg *roundGame, sd clockd.Side, j int, prev reading, pos *positions, result string) (Finding, bool) {
	ex := rg.ex
	se := ex.sides[sd]
	st := se.steps[j]
	rd := se.rs[j]
	tc := ex.tc[sd]
	p := se.after[j].p
	who := sideMsg(sd)
	added := m("audit.period-of", who, minutes(periodTime(tc, p)), p)
	req := tc.Required(p - 1)
	f := Finding{Side: sd.String(), Move: rd.k}
	switch st.how {
	case byCount:
		off := ex.offset[sd]
		if off == 0 || rd.o-prev.o < periodTime(tc, p)/2 {
			return f, false
		}
		if off < 0 && rd.k >= req || off > 0 && prev.k < req {
			// The readings leave the press that completed the period's
			// moves between them: the count may have come there, on time.
			return f, false
		}
		// The count came after the reading's move, or, where readings
		// before it are missing or set aside, in one of the moves since
		// the last kept one: the explanation's press counter names the
		// likeliest.
		at := req + off
		if at <= prev.k || at > rd.k {
			at = rd.k
		}
		when := m("audit.period.at", at)
		var from, to int
		if rd.k-prev.k > 1 {
			from, to = prev.k+1, rd.k
			when = m("audit.period.between", from, to)
		}
		if off < 0 {
			f.Kind, f.Article, f.MoveFrom, f.MoveTo = PeriodEarly, "6.10", from, to
			f.setMessage(m("audit.period-early",
				i18n.Cap{Arg: added}, when, who, req, hms(prev.o), prev.k, hms(rd.o), rd.k, req))
		} else if !countShown(ex.sides[sd.Other()], ex.tc[sd.Other()]) {
			// Nothing shows a counting clock: time that appeared.
			f.Kind, f.Article = ClockData, "6.10"
			f.setMessage(m("audit.clock-data.count",
				hms(prev.o), prev.k, hms(rd.o), rd.k, sideMsg(sd.Other()), ex.tc[sd.Other()].Required(p-1)))
		} else {
			f.Kind, f.Article, f.MoveFrom, f.MoveTo = PeriodLate, "6.10", from, to
			f.setMessage(m("audit.period-late",
				i18n.Cap{Arg: added}, when, req, hms(prev.o), prev.k, hms(rd.o), rd.k))
		}
		f.Move = at
		return f, true
	case byOpponentFlag:
		return a.hiddenFlag(rg, sd, j, prev, pos, result)
	case afterRunOut:
		if st.early {
			return a.flagFinding(rg, sd, j, prev, pos, result)
		}
		if x, ok := lateRunOut(rg, sd, j); ok {
			// The count came late, and the clock ran down to 0:00 after
			// the player had completed the period's moves.
			out, last := se.rs[x], se.rs[se.steps[x].from]
			f.Kind, f.Article = PeriodLate, "6.10"
			f.setMessage(m("audit.period-late.run-out", i18n.Cap{Arg: added}, rd.k, req,
				hms(last.o), last.k, out.k, hms(rd.o), rd.k, who, req))
			return f, true
		}
	case byRunOut:
		if st.early {
			return a.flagFinding(rg, sd, j, prev, pos, result)
		}
		if st.flagAt == 0 && prev.k < req && rd.k-1 >= req {
			f.Kind, f.Article = ClockData, "6.10"
			f.setMessage(m("audit.clock-data.period-unknown", i18n.Cap{Arg: added}, prev.k+1, rd.k, who, who, req))
			return f, true
		}
	}
	return f, false
}

// runOutFinding judges a clock that stands at 0:00 with play going on.
func (a *Auditor) runOutFinding(rg *roundGame, sd clockd.Side, j int, prev reading, pos *positions, result string) (Finding, bool) {
	se := rg.ex.sides[sd]
	st := se.steps[j]
	rd := se.rs[j]
	if st.early {
		return a.flagFinding(rg, sd, j, prev, pos, result)
	}
	// A flag in the last period that nobody claimed: play went on.
	later := false
	for x := j + 1; x < len(se.rs); x++ {
		if se.kept[x] {
			later = true
		}
	}
	if !later {
		return Finding{}, false
	}
	for x := j + 1; x < len(se.rs); x++ {
		if se.kept[x] && se.steps[x].kind == stepPeriod {
			if _, ok := lateRunOut(rg, sd, x); ok {
				return Finding{}, false // the late count's finding tells it
			}
			break
		}
	}
	return finding(ClockData, sd, rd.k, "6.10", m("audit.clock-data.zero", rd.k)), true
}

// lateRunOut reports whether side's period step j is a counting clock's
// late count that came to a clock standing at 0:00 since the player's time
// ran out after the period's moves were completed (on time the count
// would have given the period first), and the reading at which the clock
// first stood at 0:00. Only where the other player's clock shows a
// counting clock (countShown): otherwise the readings are time from
// nowhere.
func lateRunOut(rg *roundGame, sd clockd.Side, j int) (int, bool) {
	ex := rg.ex
	se := ex.sides[sd]
	st := se.steps[j]
	if ex.mode != modeCount || ex.offset[sd] <= 0 || st.kind != stepPeriod || st.how != afterRunOut || st.early || st.from < 0 {
		return 0, false
	}
	x := st.from
	for x >= 0 && se.steps[x].kind != stepRunOut {
		if !se.kept[x] || se.steps[x].from < 0 || !se.after[se.steps[x].from].frozen {
			return 0, false
		}
		x = se.steps[x].from
	}
	if x < 0 || se.steps[x].early || se.steps[x].from < 0 || !countShown(ex.sides[sd.Other()], ex.tc[sd.Other()]) {
		return 0, false // (a run-out with no reading kept before it shows no time left to date it by)
	}
	return x, true
}

// flagFinding weighs a flag before the control that the cheapest
// explanation holds: flag-before-control when the evidence excludes every
// other explanation, possible-flag when it only favours it, nothing when
// a glitch explains the readings nearly as well.
func (a *Auditor) flagFinding(rg *roundGame, sd clockd.Side, j int, prev reading, pos *positions, result string) (Finding, bool) {
	ex := rg.ex
	se := ex.sides[sd]
	st := se.steps[j]
	rd := se.rs[j]
	tc := ex.tc[sd]
	who := sideMsg(sd)
	alts := withoutFlag(rg, sd)
	if cheapest(alts).cost-ex.cost < possibleMargin {
		return Finding{}, false
	}
	flagMove := st.flagAt
	if flagMove == 0 {
		flagMove = rd.k
	}
	p := se.after[j].p // the period the flag fell in: p, or p-1 when a period came
	if st.kind == stepPeriod {
		p--
	}
	req := tc.Required(p)
	// What stays after it.
	after := 0
	for x := j + 1; x < len(se.rs); x++ {
		if !se.kept[x] {
			continue
		}
		k := se.steps[x].kind
		if k != stepUse && k != stepPeriod {
			break
		}
		after++
	}
	// The wrong readings each explanation without the flag needs are
	// weighed at the rate this game's clocks show them: where a feed gets
	// one reading in twelve wrong, three in a row are no rarity, and a
	// flag they would hide is not beyond doubt.
	alt, margin := nearest(ex, alts)
	if margin < possibleMargin {
		return Finding{}, false // at the game's own rate of wrong readings, a glitch explains it as well
	}
	corroborated := false
	if ex.mode == modeFlagBoth && st.kind == stepPeriod {
		flagPly := rg.sd[sd].plys[flagMove-1]
		oe := ex.sides[sd.Other()]
		for x, orr := range oe.rs {
			if oe.kept[x] && oe.steps[x].kind == stepPeriod && oe.steps[x].how == byOpponentFlag && orr.ply > flagPly && orr.ply <= flagPly+3 {
				corroborated = true
			}
		}
	}
	// The flag move's time: the time left, and how far past it the player
	// went, within what one move plausibly takes (or its %emt says so).
	fits := true

	var took time.Duration
	// The moves the flag may have fallen in: the move the readings date
	// it to, or, where they cannot, the moves they leave open.
	span := moveSpan{flagMove, flagMove}
	gap := rd.k - prev.k
	open := moveSpan{max(prev.k+1, st.flagMin), rd.k} // the moves the readings leave open
	if gap > 1 {
		span = open // read after missing or set-aside readings
	}
	if st.kind == stepPeriod {
		switch {
		case gap == 1 && rd.emt != Unknown:
			fits = rd.emt >= prev.o-tolRound
			took = rd.emt
			if st.how == afterRunOut && (rg.sd[sd].emt != emtTight || rd.emt < prev.o+accuseEMTMargin) {
				// The count hid the flag: the move's %emt is the only
				// evidence, and only a side whose %emt agree with its
				// clocks nearly everywhere makes one %emt enough, and
				// only beyond what a slow press adds to a %emt timed
				// from the board.
				fits = false
			}
		case gap == 1:
			// A move longer than that is plausible when the opponent's
			// clock shows the period given at that very moment.
			took = st.used
			fits = took <= maxFlagMove || corroborated
		case st.how == afterRunOut:
			fits = false // the count hid the flag, and missing readings hide the %emt that would show it
		default:
			fits = st.used <= maxFlagMove || corroborated
		}
	} else if gap == 1 && rd.emt != Unknown && rd.emt < prev.o-tolRound {
		fits = false // the move's %emt says it did not take the time left: the reading before is wrong
	}
	if fits {
		span, fits = a.flagMoves(rg, sd, j, prev, span, p, margin >= strongMargin, pos)
	}
	strong := fits && margin >= strongMargin && (after >= 2 || corroborated && after >= 1) && rg.countSure()
	around := readingsAround(se, j)
	because := altSentence(alt, sd, se, margin)
	f := Finding{Side: sd.String(), Move: flagMove}
	when := m("audit.flag.when.during", flagMove, flagMove-1, req)
	switch {
	case gap > 1 && (!fits || span == open):
		when = m("audit.flag.when.between", open.from, rd.k, rd.k-1, req)
		f.MoveFrom, f.MoveTo = open.from, rd.k
	case fits && span.from < span.to:
		when = m("audit.flag.when.span", span.from, span.to, span.to-1, req)
		f.MoveFrom, f.MoveTo = span.from, span.to
	}
	var how i18n.Message
	switch {
	case st.kind == stepPeriod && st.how == afterRunOut:
		how = m("audit.flag.how.at-zero", who, minutes(periodTime(tc, p+1)), p+1, rd.k, hms(took), hms(prev.o))
	case st.kind == stepPeriod:
		next := periodTime(tc, p+1)
		var tookMsg, both any = "", ""
		if took > 0 {
			tookMsg = m("audit.flag.how.took", hms(took), hms(prev.o))
		}
		if corroborated {
			both = m("audit.flag.how.both", sideMsg(sd.Other()))
		}
		how = m("audit.flag.how.period", who, minutes(next), p+1, rd.k, tookMsg, both)
	default:
		how = m("audit.flag.how.stood", who, rd.k)
	}
	if !strong {
		f.Kind, f.Article = PossibleFlag, "6.3.1"
		f.setMessage(m("audit.possible-flag",
			i18n.Cap{Arg: how}, who, when, around, because, doubt(fits, after, margin, corroborated, st.kind == stepRunOut)))
		return f, true
	}
	f.Kind, f.Article = FlagBeforeControl, "6.3.1, 6.9"
	f.setMessage(m("audit.flag-before-control",
		i18n.Cap{Arg: how}, who, when, around, because, a.verdictSentence(pos, positionBefore(rg, sd, flagMove), sd, result)))
	return f, true
}

// flagMoves narrows the moves a flag before the control, in period p of
// side's explanation, may have fallen in, from span, the moves the
// readings around reading j leave open. It reports false where they
// cannot be named: more than maxSpan of them, one outside the period or
// past its control, a flag in a move further off nearly as likely, or a
// 6.9 verdict that depends on the move. The explanations are asked only
// where date is set (for a flag that may be an accusation: each question
// is a decode of the game).
func (a *Auditor) flagMoves(rg *roundGame, sd clockd.Side, j int, prev reading, span moveSpan, p int, date bool, pos *positions) (moveSpan, bool) {
	ex := rg.ex
	se := ex.sides[sd]
	st := se.steps[j]
	tc := ex.tc[sd]
	req := tc.Required(p)
	// The reading before the flag move dates it, unless it is under a
	// few seconds (the flag may have fallen in that move), or repeats the
	// readings before it (a relay that sent the last reading again: the
	// flag may have fallen in any move since the first of them).
	if st.from >= 0 {
		first := st.from // the first of a run of repeats ending at prev
		for relayRepeat(se.rs, first, tc, rg.sd[sd].emt) {
			first--
		}
		switch {
		case first < st.from:
			span.from = min(span.from, se.rs[first].k+1)
		case prev.o <= tolRound:
			span.from = min(span.from, prev.k)
		}
	}
	// The explanations: the best one with the flag in another move
	// must cost clearly more (a reading set aside, not merely one read
	// before the press or a second's rounding). Where it does not, but
	// holds the same player's flag in the same period a move away, that
	// move joins the moves named, and the question is asked again of
	// them: the flag fell before the control all the same, the finding
	// names the moves it may have fallen in (up to maxSpan), and the 6.9
	// verdict must be the same after each.
	for date {
		var not forbidden
		not.flagIn[sd] = span
		other := explainGameBut(&rg.sd, ex.tc, not, rg.prior)
		if behind(ex, other, other.cost) >= dateMargin {
			break
		}
		near, ok := earlyFlagSpan(other.sides[sd], p)
		if !ok || near.from > span.to+1 || near.to < span.from-1 {
			return span, false // a flag in a move apart from those
		}
		wider := moveSpan{min(span.from, near.from), max(span.to, near.to)}
		if wider == span || wider.to-wider.from >= maxSpan {
			return span, false
		}
		span = wider
	}
	// Every move the flag may have fallen in belongs to the period and
	// comes before its control, and they are few enough to name.
	if span.from <= tc.Required(p-1) || span.to > req || span.to-span.from >= maxSpan {
		return span, false
	}
	if span.from < span.to {
		v, _ := a.canMate(pos, positionBefore(rg, sd, span.from), sd.Other())
		for mv := span.from + 1; mv <= span.to; mv++ {
			if w, _ := a.canMate(pos, positionBefore(rg, sd, mv), sd.Other()); w != v {
				return span, false // the verdict depends on the move the readings do not tell
			}
		}
	}
	return span, true
}

// relayRepeat reports whether reading x may be the last reading sent
// again: it equals the one before it, and its move's %emt does not
// confirm it (the increment the press gave back would make it what the
// clock showed).
func relayRepeat(rs []reading, x int, tc clockd.TimeControl, emt emtLevel) bool {
	return x >= 1 && rs[x-1].o == rs[x].o && !(&decoder{rs: rs, h: hypothesis{tc: tc, emt: emt}}).confirmed(x)
}

// positionBefore is the ply of the position a flag during side's move mv fell
// in: the position before that move.
func positionBefore(rg *roundGame, sd clockd.Side, mv int) int {
	return rg.sd[sd].plys[min(mv, len(rg.sd[sd].plys))-1]
}

// earlyFlagSpan is the moves a side's one flag before the control, in
// period p, may have fallen in, in an explanation: false when it holds no
// such flag, or more than one, or one in another period.
func earlyFlagSpan(se sideExplanation, p int) (moveSpan, bool) {
	var span moveSpan
	n := 0
	for x, rd := range se.rs {
		st := se.steps[x]
		if !se.kept[x] || !st.early {
			continue
		}
		n++
		in := se.after[x].p
		if st.kind == stepPeriod {
			in -= st.periods
		}
		if in != p {
			return moveSpan{}, false
		}
		span = st.flagMoves(rd.k)
	}
	return span, n == 1
}

// readingsAround lists a side's readings around reading j.
func readingsAround(se sideExplanation, j int) i18n.List {
	var parts []any
	for x := max(0, j-2); x < min(len(se.rs), j+4); x++ {
		code := "audit.reading"
		if !se.kept[x] {
			code = "audit.reading.set-aside"
		}
		parts = append(parts, m(code, hms(se.rs[x].o), se.rs[x].k))
	}
	return i18n.List{Sep: ", ", Items: parts}
}

// altSentence says what the nearest explanation without the flag needs.
func altSentence(a flagAlternative, sd clockd.Side, se sideExplanation, margin float64) i18n.Message {
	// Rounded down: a margin just short of the threshold an accusation
	// needs must not read as reaching it.
	margin = math.Floor(margin)
	if a.oppMove > 0 {
		return m("audit.alt.opponent", sideMsg(sd.Other()), a.oppMove, margin)
	}
	alt := a.ex.sides[sd]
	glitches, jumps := 0, 0
	for j := range alt.rs {
		if !alt.kept[j] {
			glitches++
		} else if k := alt.steps[j].kind; k == stepJump || k == stepExtraInc || k == stepHand {
			jumps++
		}
	}
	for j := range se.rs {
		if !se.kept[j] {
			glitches--
		}
	}
	var needs []any
	if glitches > 0 {
		needs = append(needs, m("audit.alt.glitches", glitches))
	}
	if jumps > 0 {
		needs = append(needs, m("audit.alt.jumps", jumps))
	}
	if len(needs) == 0 {
		needs = append(needs, m("audit.alt.long-moves"))
	}
	return m("audit.alt", i18n.List{Sep: m("list.and"), Items: needs}, margin)
}

// Wrong readings: the rate the costs assume, and the least rate a game
// is taken to have (a few dozen readings cannot show a rate below it).
const (
	noiseBase  = 0.01
	noiseFloor = 0.005
)

// noiseDiscount is how much less the wrong readings that the explanation
// without the flag needs (alt sets them aside, ex keeps them) weigh at the
// rate of wrong readings the game shows elsewhere (those ex sets aside,
// but for each side's last) than at the rate costGlitch assumes: a
// reading's cost is its rate's log-likelihood, scaled so that costGlitch
// is the base rate's.
func noiseDiscount(ex, alt gameExplanation) float64 {
	total, aside, extra := 0, 0, 0
	for side := range 2 {
		e, a := ex.sides[side], alt.sides[side]
		for x := range e.rs {
			if e.kept[x] && !a.kept[x] {
				extra++
			}
			if x == len(e.rs)-1 {
				continue
			}
			total++
			if !e.kept[x] {
				aside++
			}
		}
	}
	if extra == 0 || total == 0 {
		return 0
	}
	q := max(float64(aside)/float64(total), noiseFloor)
	if q <= noiseBase {
		return 0
	}
	per := costGlitch * (1 - math.Log(q)/math.Log(noiseBase))
	return float64(extra) * per
}

// doubt says why a possible flag is not beyond doubt.
func doubt(fits bool, after int, margin float64, corroborated, atZero bool) i18n.List {
	var why []any
	if after < 2 && !(corroborated && after >= 1) {
		if atZero {
			why = append(why, m("audit.doubt.few-after.zero", after))
		} else {
			why = append(why, m("audit.doubt.few-after", after))
		}
	}
	if !fits {
		why = append(why, m("audit.doubt.move-unknown"))
	}
	if margin < strongMargin {
		why = append(why, m("audit.doubt.close"))
	}
	if len(why) == 0 {
		why = append(why, m("audit.doubt.thin"))
	}
	return i18n.List{Sep: "; ", Items: why}
}

// ownFlagUnder reports whether side's readings, explained on a clock of
// mode m (one that adds the period to the player whose time ran out alone,
// or at the count), hold that player's own flag before the control in
// move mv of period p alone: the flag then fell whichever way the clock
// added the period.
func ownFlagUnder(rg *roundGame, sd clockd.Side, m clockMode, p, mv int) bool {
	e := decodeSide(&rg.sd[sd], hypothesis{tc: rg.ex.tc[sd], mode: m, emt: rg.sd[sd].emt})
	span, ok := earlyFlagSpan(e, p)
	return ok && span == moveSpan{mv, mv}
}

// countShown reports whether a side's readings show a counting clock: a
// period's time that came at the count with time left, plainly visible
// (a move apart, or more than a flag in the moves between could have
// left: the period and their increments), or that came at the count to a
// clock that had stood at 0:00 since its flag (a clock adding the period
// at the flag adds it then).
func countShown(se sideExplanation, tc clockd.TimeControl) bool {
	for j, rd := range se.rs {
		st := se.steps[j]
		if !se.kept[j] || st.kind != stepPeriod || st.from < 0 {
			continue
		}
		from := se.rs[st.from]
		p := se.after[j].p
		switch st.how {
		case afterRunOut:
			if se.after[st.from].frozen {
				return true
			}
		case byCount:
			gap := time.Duration(rd.k - from.k)
			if rd.o-from.o >= periodTime(tc, p)/2 && gap == 1 || rd.o > periodTime(tc, p)+gap*credit(tc, p)+tolRound {
				return true
			}
		}
	}
	return false
}

// hiddenFlag judges a period that a player's clock gained with the
// opponent's flag, on a clock that gives both players the period at the
// first flag, before that player had completed the period's moves. The
// period's time was given early: what the player had of the first period
// was the time left then, and a reading below the period's time before
// the moves were completed shows that time spent (the clock did not show
// the flag, as it had added the period already). Reported only on the
// evidence an accusation needs: two readings in a row below the period's
// time, the first dated by a plain reading before it.
func (a *Auditor) hiddenFlag(rg *roundGame, sd clockd.Side, j int, prev reading, pos *positions, result string) (Finding, bool) {
	ex := rg.ex
	se := ex.sides[sd]
	tc := ex.tc[sd]
	p := se.after[j].p // the period that came
	req := tc.Required(p - 1)
	T := periodTime(tc, p)
	inc := credit(tc, p) // each press's increment, after the period came
	who := sideMsg(sd)
	// The first reading at or after j, before the moves were completed,
	// that shows less than the period's time, and the one after it.
	last := reading{k: -1}
	// The reading before the period came counts as one above the limit
	// when it dates the move: the move before, clearly above 0:00, and
	// not a repeat of the one before it (the last reading sent again,
	// unless the move's %emt says the clock showed it). With the period
	// it held the first period's time left and the period's.
	if st := se.steps[j]; st.from >= 0 && prev.k == se.rs[j].k-1 && prev.o > tolRound && !relayRepeat(se.rs, st.from, tc, rg.sd[sd].emt) {
		last = reading{k: prev.k, o: prev.o + T + inc}
	}
	lastRepeat := false // last may be a repeat: the flag may have fallen in its move
	for x := j; x < len(se.rs); x++ {
		if !se.kept[x] {
			continue
		}
		r := se.rs[x]
		if r.k > req || se.after[x].p != p || x > j && se.steps[x].kind != stepUse {
			break
		}
		// Before its increment, the reading is what the move left of the
		// first period's time, plus the period's.
		if r.o-inc >= T+tolRound {
			last, lastRepeat = r, relayRepeat(se.rs, x, tc, rg.sd[sd].emt)
			continue
		}
		// Below the period's time: the first period's time ran out during
		// a move up to this one. Dated only by a plain reading before it
		// on the move before, and kept by the next reading.
		if last.k != r.k-1 || lastRepeat || last.o-inc < T+tolRound || r.o-inc > T-tolRound {
			return Finding{}, false // within a reading's rounding of the limit: the move is not known
		}
		// The move's %emt, where there is one, must have spent what was
		// left of the first period's time: a move of seconds did not run
		// out minutes, and the reading below the period's time then shows
		// a period shorter than the control's, not a flag.
		if r.emt != Unknown && r.emt+rg.sd[sd].emt.tol() < last.o-inc-T {
			return Finding{}, false
		}
		// (The low reading sent again by the relay keeps nothing: the
		// next reading is the first after it that is not such a repeat.)
		next := -1
		for y := x + 1; y < len(se.rs); y++ {
			if se.kept[y] && !(se.rs[y].o == r.o && relayRepeat(se.rs, y, tc, rg.sd[sd].emt)) {
				next = y
				break
			}
		}
		// The next reading keeps it: a plain move after it, before the
		// moves were completed and below the period's time too. After
		// them, a reading below the period's time is the period's own,
		// so a flag in the period's last move is kept only by the very
		// next move's reading following it plainly: with a reading set
		// aside between them, the low one may be a glitch that a later
		// reading merely continues.
		if next < 0 || se.steps[next].kind != stepUse {
			return Finding{}, false
		}
		nr := se.rs[next]
		if r.k < req && (nr.o-inc >= T || nr.k > req) || r.k == req && nr.k != r.k+1 {
			return Finding{}, false
		}
		if !rg.countSure() {
			return Finding{}, false // the period's time is the control's: where the clocks only suggest it, no accusation rests on it
		}
		mv := r.k
		// The period came with the opponent's flag: where that flag fell
		// before the opponent's control, it must stand on the evidence an
		// accusation needs, or the period may never have come early,
		// unless each explanation without it that comes as near has this
		// player's own flag in the same move: the flag fell before the
		// control either way.
		near := 0
		if hasEarlyFlag(ex.sides[sd.Other()]) {
			for _, alt := range withoutFlag(rg, sd.Other()) {
				if behind(ex, alt.ex, alt.cost) >= strongMargin {
					continue
				}
				if own, ok := earlyFlagSpan(alt.ex.sides[sd], p-1); !ok || own != (moveSpan{mv, mv}) {
					return Finding{}, false // without the opponent's flag, this player's time may not have run out then
				}
				near++
			}
		}
		if near > 0 {
			// Either way rests on this player's own flag in those
			// explanations, which must itself stand beyond doubt: no
			// explanation in which this player's time never ran out
			// before the control, shown or hidden, may come as near.
			var not forbidden
			not.earlyFlag[sd], not.hiddenFlag[sd] = true, true
			if alt := explainGameBut(&rg.sd, ex.tc, not, rg.prior); behind(ex, alt, alt.cost) < strongMargin {
				return Finding{}, false
			}
		}
		// The period came early only on a clock that gives both players
		// the period at the first flag: where a clock that adds it to the
		// player whose time ran out alone explains the readings nearly as
		// well, this player's clock may never have gained it early.
		for m, c := range ex.modeCost {
			if clockMode(m) != modeFlagBoth && c+rg.prior.penalty(clockMode(m))-ex.cost < strongMargin && !ownFlagUnder(rg, sd, clockMode(m), p-1, mv) {
				return Finding{}, false
			}
		}
		plyIdx := rg.sd[sd].plys[mv-1]
		var verdict any = a.verdictSentence(pos, plyIdx, sd, result)
		if near > 0 {
			verdict = i18n.List{Sep: " ", Items: []any{m("audit.hidden.either", sideMsg(sd.Other()), who, mv), verdict}}
		}
		msg := m("audit.flag-before-control.hidden",
			who, minutes(T), p, se.rs[j].k, who, req, hms(prev.o), prev.k, hms(prev.o), mv, hms(r.o), who, mv, mv-1, readingsAround(se, x), verdict)
		return finding(FlagBeforeControl, sd, mv, "6.3.1, 6.9", msg), true
	}
	return Finding{}, false
}
