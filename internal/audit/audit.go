package audit

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules"
	"github.com/arbiterd/arbiterd/rules/bitboard"
	"github.com/arbiterd/arbiterd/rules/unwinnable"
)

// Options tune an audit.
type Options struct {
	// TimeControl, when set, is the control every game is judged by (the
	// --timecontrol option); the clocks are still checked against it.
	TimeControl *clockd.TimeControl
	// NoUnwinnable skips the 6.9 analysis: verdicts then say so. For
	// measuring the audit itself.
	NoUnwinnable bool
	// NodeBudget is the 6.9 analyzer's node budget (0: its full mode's
	// default, an arbiter's ruling).
	NodeBudget int64
}

// Auditor audits games one at a time. It is not safe for concurrent use
// (it keeps one 6.9 analyzer and its tables).
type Auditor struct {
	opt Options
	an  *unwinnable.Analyzer
	tcs map[string]parsedTag
	// Queries counts the 6.9 questions asked so far.
	Queries int
}

// New returns an Auditor.
func New(opt Options) *Auditor { return &Auditor{opt: opt, tcs: map[string]parsedTag{}} }

// Game audits one game.
func (a *Auditor) Game(g *Game) *Report {
	round, board := roundBoard(g)
	r := &Report{
		File: g.File, Line: g.Line, Event: g.Tag("Event"), Round: round, Board: board,
		White: g.Tag("White"), Black: g.Tag("Black"), Result: g.Tag("Result"), Plies: len(g.Plies),
		Periods: []PeriodAddition{}, Findings: []Finding{},
	}
	if r.Result == "" {
		r.Result = g.Result
	}
	s := split(g)
	for _, p := range g.Plies {
		if p.Clk == Unknown {
			r.MissingClocks++
		}
	}
	j := chooseControl(g, s, a.opt.TimeControl, a.tcs)
	r.TimeControlSource, r.ControlMismatch = j.source, j.mismatch
	if j.source != SourceFlag {
		r.TimeControlTag = j.tagText
	}
	if len(j.tc[0].Periods) > 0 {
		r.TimeControl = j.tc[0].String()
		if b := j.tc[1].String(); b != r.TimeControl {
			r.TimeControlBlack = b
		}
		r.Control = j.tc[0].Required(1)
	}
	pos := &positions{g: g}
	reps := replayBoth(s, j.tc)
	counting := countsMoves(reps) // the clocks show a clock that counts moves
	for side := range reps {
		r.Chart[side] = reps[side].points
	}
	for side := range reps {
		rep := &reps[side]
		r.Findings = append(r.Findings, rep.findings...)
		for _, f := range rep.byEMT {
			if opponentClean(s, j.tc, clockd.Side(side), f.Move) {
				r.Findings = append(r.Findings, f)
			}
		}
		for _, ad := range rep.adds {
			r.Periods = append(r.Periods, PeriodAddition{Side: ad.side.String(), Period: ad.period, Move: ad.move,
				Seconds: int(ad.time / time.Second), AtFlag: ad.atFlag, WithFlag: ad.withFlag, After: ad.completed})
			if f, ok := a.judgeAddition(ad, counting, s[side], pos, r.Result); ok {
				r.Findings = append(r.Findings, f)
			}
		}
	}
	if f, ok := a.timeForfeit(g, s, reps, pos, r.Result); ok {
		r.Findings = append(r.Findings, f)
	}
	slices.SortStableFunc(r.Findings, func(x, y Finding) int {
		return cmp.Or(cmp.Compare(x.Move, y.Move), cmp.Compare(x.Side, y.Side))
	})
	return r
}

// replayBoth replays each side's clock. A clock that gives both players
// the period at the first flag is replayed again knowing where each side's
// time ran out.
func replayBoth(s [2][]sideMove, tc [2]clockd.TimeControl) [2]sideReplay {
	var reps [2]sideReplay
	for side := range reps {
		reps[side] = replaySide(clockd.Side(side), s[side], tc[side], nil)
	}
	var flags [2][]int
	for side := range reps {
		for _, ad := range reps[side].adds {
			if ad.atFlag && ad.move >= 1 && ad.move <= len(s[side]) {
				flags[side] = append(flags[side], s[side][ad.move-1].ply)
			}
		}
	}
	if len(flags[0])+len(flags[1]) > 0 {
		for side := range reps {
			reps[side] = replaySide(clockd.Side(side), s[side], tc[side], flags[1-side])
		}
	}
	return reps
}

// countsMoves reports whether the clocks show a clock that counts moves: a
// period added, without a flag, when its side completed the moves
// required.
func countsMoves(reps [2]sideReplay) bool {
	for _, rep := range reps {
		for _, ad := range rep.adds {
			if !ad.atFlag && !ad.withFlag && ad.completed == ad.required {
				return true
			}
		}
	}
	return false
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

func sideName(s clockd.Side) string {
	if s == clockd.Black {
		return "Black"
	}
	return "White"
}

// judgeAddition turns a period addition into a finding when it came
// before the control (at a flag: flag-before-control; with time left:
// period-early) or, on a clock shown to count moves, after it.
func (a *Auditor) judgeAddition(ad addition, counting bool, ms []sideMove, pos *positions, result string) (Finding, bool) {
	who := sideName(ad.side)
	f := Finding{Side: ad.side.String(), Move: ad.move}
	added := fmt.Sprintf("%s's %s of period %d", who, minutes(ad.time), ad.period)
	req := ad.required
	if ad.atFlag {
		switch {
		case ad.completed >= req:
			return f, false // the flag fell after the control: the clock adds the period then
		case ad.completed < 0 && ad.from-1 >= req:
			return f, false
		case ad.completed < 0 && ad.move-1 >= req:
			f.Kind, f.Article = ClockData, "6.10"
			f.Detail = fmt.Sprintf("%s appeared between moves %d and %d, when %s's time had run out; the clocks of the moves between are missing, so whether %s had completed the %d moves the period requires cannot be told. Check the scoresheets.", added, ad.from, ad.move, who, who, req)
			return f, true
		}
		f.Kind, f.Article = FlagBeforeControl, "6.3.1, 6.9"
		done := ad.completed
		when := fmt.Sprintf("during move %d, with %d of the %d moves the period requires completed", ad.move, done, req)
		plyIdx := ms[len(ms)-1].ply + 1
		if done < 0 {
			when = fmt.Sprintf("between moves %d and %d (clocks missing), with at most %d of the %d moves the period requires completed", ad.from, ad.move, ad.move-1, req)
			done = ad.move - 1
		}
		if done < len(ms) {
			plyIdx = ms[done].ply // the position before the move in progress
		}
		f.Detail = fmt.Sprintf("%s appeared after move %d: %s's time had run out %s, so the flag fell before the control (6.3.1). %s",
			added, ad.move, who, when, a.verdictSentence(pos, plyIdx, ad.side, result))
		return f, true
	}
	switch {
	case ad.withFlag:
		return f, false // given with the opponent's flag, which is judged on its own
	case ad.completed >= 0 && ad.completed < req || ad.completed < 0 && ad.move < req:
		f.Kind, f.Article = PeriodEarly, "6.10"
		f.Detail = fmt.Sprintf("%s was added after move %d with %s's time not run out, before the %d moves the period requires: a clock counting presses added it early (an extra press, or set wrong). The arbiter corrects the clock (6.10); the player still had to complete %d moves in the first period's time.", added, ad.move, who, req, req)
		return f, true
	case counting && (ad.completed > req || ad.completed < 0 && ad.from > req):
		f.Kind, f.Article = PeriodLate, "6.10"
		f.Detail = fmt.Sprintf("%s was added after move %d with time left, not at move %d as this game's other clock did: a clock counting presses added it late (a missed press). The arbiter corrects the clock (6.10).", added, ad.move, req)
		return f, true
	}
	return f, false
}

// verdictSentence gives the 6.9 verdict for a flag of side in the
// position after ply plies, and compares it with the recorded result.
func (a *Auditor) verdictSentence(pos *positions, ply int, flagged clockd.Side, result string) string {
	v, why := a.canMate(pos, ply, flagged.Other())
	opp := sideName(flagged.Other())
	var want, s string
	switch v {
	case unwinnable.Winnable:
		want = winner(flagged.Other())
		s = fmt.Sprintf("%s could still checkmate (6.9): the verdict is a loss for %s, %s.", opp, sideName(flagged), want)
	case unwinnable.Unwinnable:
		want = "1/2-1/2"
		s = fmt.Sprintf("%s could not checkmate by any series of legal moves (6.9): the verdict is a draw.", opp)
	default:
		return fmt.Sprintf("The 6.9 verdict could not be settled (%s); the recorded result is %s.", why, result)
	}
	if result == want {
		return s + " The recorded result agrees."
	}
	return s + fmt.Sprintf(" The recorded result %s differs: nobody claimed the flag (6.8) and play went on.", result)
}

func winner(s clockd.Side) string {
	if s == clockd.Black {
		return "0-1"
	}
	return "1-0"
}

// canMate asks the 6.9 analyzer whether side can still checkmate after
// ply plies.
func (a *Auditor) canMate(pos *positions, ply int, side clockd.Side) (unwinnable.Verdict, string) {
	if a.opt.NoUnwinnable {
		return unwinnable.Undetermined, "the 6.9 analysis was switched off"
	}
	fen, err := pos.fenAt(ply)
	if err != nil {
		return unwinnable.Undetermined, err.Error()
	}
	bp, err := bitboard.ParseFEN(fen)
	if err != nil {
		return unwinnable.Undetermined, err.Error()
	}
	if a.an == nil {
		a.an = unwinnable.NewAnalyzer(unwinnable.Options{Mode: unwinnable.Full, NodeBudget: a.opt.NodeBudget})
	}
	c := bitboard.White
	if side == clockd.Black {
		c = bitboard.Black
	}
	a.Queries++
	res := a.an.Analyze(&bp, c)
	return res.Verdict, res.Reason
}

// timeForfeit checks a result decided on time against the 6.9 verdict on
// the final position.
func (a *Auditor) timeForfeit(g *Game, s [2][]sideMove, reps [2]sideReplay, pos *positions, result string) (Finding, bool) {
	n := len(g.Plies)
	if n == 0 {
		return Finding{}, false
	}
	flagged, how, strong := whoFlagged(g, s, reps, result)
	if flagged < 0 {
		return Finding{}, false
	}
	if a.opt.NoUnwinnable {
		return Finding{}, false
	}
	final := n
	if _, err := pos.fenAt(final); err == nil && pos.rg.Ply() == n {
		if st := pos.rg.Status(); st.Over && st.Reason == "checkmate" {
			return Finding{}, false
		}
	}
	v, why := a.canMate(pos, final, flagged.Other())
	opp := sideName(flagged.Other())
	f := Finding{Kind: TimeForfeit, Side: flagged.String(), Move: len(s[flagged]), Article: "6.9"}
	switch {
	case v == unwinnable.Unwinnable && result == winner(flagged.Other()):
		f.Detail = fmt.Sprintf("The game was decided on time (%s) and scored %s, but %s could not checkmate by any series of legal moves (6.9): the result should be a draw.", how, result, opp)
	case v == unwinnable.Winnable && result == "1/2-1/2" && strong:
		f.Detail = fmt.Sprintf("The game was decided on time (%s) and scored a draw, but %s could still checkmate (6.9): %s lost, %s.", how, opp, sideName(flagged), winner(flagged.Other()))
	case v == unwinnable.Undetermined && !a.opt.NoUnwinnable && result == winner(flagged.Other()) && strong:
		f.Kind = ClockData
		f.Detail = fmt.Sprintf("The game was decided on time (%s); whether %s could still checkmate was not settled (%s).", how, opp, why)
	default:
		return Finding{}, false
	}
	return f, true
}

// whoFlagged says whose flag decided the game (-1: nobody's) and how the
// record shows it: a clock at 0:00 after the last move, a clock tag at
// zero, or the Termination tag (strong: it says the game ended on time).
// With no tag saying how the game ended, a decisive game whose loser was
// to move with almost no time left was most likely lost on time.
func whoFlagged(g *Game, s [2][]sideMove, reps [2]sideReplay, result string) (flagged clockd.Side, how string, strong bool) {
	term := strings.ToLower(g.Tag("Termination"))
	toMove := clockd.Side((len(g.Plies) + startSide(g)) % 2)
	flagged, how = clockd.Side(-1), ""
	for side := range reps {
		sd := clockd.Side(side)
		switch {
		case reps[side].flagEnd:
			flagged, how = sd, fmt.Sprintf("%s's clock read 0:00 after the last move", sideName(sd))
		case isZeroClock(g.Tag(sideName(sd) + "Clock")):
			flagged, how = sd, fmt.Sprintf("the %sClock tag reads %s", sideName(sd), g.Tag(sideName(sd)+"Clock"))
		}
	}
	strong = strings.Contains(term, "time")
	if strong && flagged < 0 {
		switch result {
		case "1-0":
			flagged = clockd.Black
		case "0-1":
			flagged = clockd.White
		default:
			flagged = toMove
		}
		how = fmt.Sprintf("the Termination tag says %q", g.Tag("Termination"))
	} else if strong {
		how += fmt.Sprintf(", and the Termination tag says %q", g.Tag("Termination"))
	}
	if flagged < 0 && !strong {
		flagged, how = lostOnTime(term, toMove, s, reps, result)
	}
	return flagged, how, strong
}

// lostOnTime is the loser of a decisive game who was to move with almost
// no time left (-1: there is none), when no tag says how the game ended.
func lostOnTime(term string, toMove clockd.Side, s [2][]sideMove, reps [2]sideReplay, result string) (clockd.Side, string) {
	loser := clockd.Side(-1)
	switch result {
	case "1-0":
		loser = clockd.Black
	case "0-1":
		loser = clockd.White
	}
	if loser < 0 || loser != toMove || term != "" && !strings.Contains(term, "unterminated") {
		return -1, ""
	}
	rep := reps[loser]
	inc := time.Duration(0)
	if p := lastPeriodIncrement(s[loser]); p >= 0 {
		inc = p
	}
	if rep.last == Unknown || rep.last > max(10*time.Second, 2*inc) {
		return -1, ""
	}
	return loser, fmt.Sprintf("no tag says how it ended, but %s was to move with %s left", sideName(loser), hms(rep.last))
}

func lastPeriodIncrement(ms []sideMove) time.Duration {
	if len(ms) < 3 {
		return -1
	}
	a, b := ms[len(ms)-3], ms[len(ms)-2]
	if a.clk == Unknown || b.clk == Unknown || b.emt == Unknown {
		return -1
	}
	return max(0, b.clk-a.clk+b.emt)
}

func isZeroClock(v string) bool {
	if v == "" {
		return false
	}
	d, ok := parseClock(strings.TrimSpace(v))
	return ok && d == 0
}

func startSide(g *Game) int {
	if f := strings.Fields(g.Tag("FEN")); len(f) >= 2 && f[1] == "b" {
		return 1
	}
	return 0
}

// positions replays a game's moves on demand, for the 6.9 analyzer.
type positions struct {
	g   *Game
	rg  *rules.Game
	err error
}

// fenAt returns the position after ply plies.
func (p *positions) fenAt(ply int) (string, error) {
	if p.err != nil {
		return "", p.err
	}
	if p.rg == nil || p.rg.Ply() > ply {
		start := ""
		if p.g.Tag("FEN") != "" {
			start = p.g.Tag("FEN")
		}
		rg, err := rules.NewGame(start)
		if err != nil {
			p.err = fmt.Errorf("the FEN tag: %v", err)
			return "", p.err
		}
		p.rg = rg
	}
	for p.rg.Ply() < ply && p.rg.Ply() < len(p.g.Plies) {
		pl := p.g.Plies[p.rg.Ply()]
		if err := p.rg.MoveSAN(strings.TrimRight(pl.SAN, "+#")); err != nil {
			if err2 := p.rg.MoveSAN(pl.SAN); err2 != nil {
				p.err = fmt.Errorf("move %q at line %d cannot be played: %v", pl.SAN, pl.Line, err)
				return "", p.err
			}
		}
	}
	return p.rg.FEN(), nil
}
