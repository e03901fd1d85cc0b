package audit

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/i18n"
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

// Auditor audits games, a round at a time. It is not safe for concurrent
// use (it keeps one 6.9 analyzer and its tables).
type Auditor struct {
	opt Options
	an  *unwinnable.Analyzer
	tcs map[string]parsedTag
	// known holds the control each round was judged by, for its games in
	// a later batch.
	known map[string]candidate
	// Queries counts the 6.9 questions asked so far.
	Queries int
}

// New returns an Auditor.
func New(opt Options) *Auditor {
	return &Auditor{opt: opt, tcs: map[string]parsedTag{}, known: map[string]candidate{}}
}

// Game audits one game as a round of its own.
func (a *Auditor) Game(g *Game) *Report { return a.Round([]*Game{g})[0] }

// Round audits the games of one round of one event: they share a control,
// which is chosen once from all their clocks (a game gets one of its own
// only when its clocks fit another far better). The reports are in the
// games' order.
func (a *Auditor) Round(games []*Game) []*Report {
	key := ""
	if len(games) > 0 {
		key = roundKey(games[0])
	}
	return a.round(key, games)
}

// report writes a judged game's report.
func (a *Auditor) report(rg *roundGame) *Report {
	g := rg.g
	round, board := roundBoard(g)
	r := &Report{
		File: g.File, Line: g.Line, Event: g.Tag("Event"), Round: round, Board: board,
		White: g.Tag("White"), Black: g.Tag("Black"), Result: g.Tag("Result"), Plies: len(g.Plies),
		Periods: []PeriodAddition{}, Findings: []Finding{},
	}
	if r.Result == "" {
		r.Result = g.Result
	}
	for _, p := range g.Plies {
		if p.Clk == Unknown {
			r.MissingClocks++
		}
	}
	r.TimeControlSource, r.ControlMismatch = rg.source, rg.mismatch
	if rg.source != SourceFlag {
		r.TimeControlTag = g.Tag("TimeControl")
	}
	if len(rg.tc[0].Periods) > 0 {
		r.TimeControl = rg.tc[0].String()
		if b := rg.tc[1].String(); b != r.TimeControl {
			r.TimeControlBlack = b
		}
		r.Control = rg.tc[0].Required(1)
	}
	pos := &positions{g: g}
	for side := range rg.s {
		r.Chart[side] = readings(rg.s[side])
	}
	if len(rg.tc[0].Periods) > 0 && rg.hasClocks() {
		a.judge(rg, r, pos)
	}
	if f, ok := a.timeForfeit(g, rg.s, pos, r.Result); ok {
		r.Findings = append(r.Findings, f)
	}
	if rg.swapped {
		f := Finding{Kind: ClockData, Article: "6.5"}
		f.setMessage(m("audit.clock-data.swapped"))
		r.Findings = append(r.Findings, f)
	}
	slices.SortStableFunc(r.Findings, func(x, y Finding) int {
		return cmp.Or(cmp.Compare(x.Move, y.Move), cmp.Compare(x.Side, y.Side))
	})
	return r
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

func sideName(s clockd.Side) string {
	if s == clockd.Black {
		return "Black"
	}
	return "White"
}

// verdictSentence gives the 6.9 verdict for a flag of side in the
// position after ply plies, and compares it with the recorded result.
func (a *Auditor) verdictSentence(pos *positions, ply int, flagged clockd.Side, result string) i18n.Message {
	v, why := a.canMate(pos, ply, flagged.Other())
	opp := sideMsg(flagged.Other())
	want := "1/2-1/2"
	if v == unwinnable.Winnable {
		want = winner(flagged.Other())
	}
	agrees := m("audit.verdict.agrees")
	if result != want {
		agrees = m("audit.verdict.differs", result)
	}
	switch v {
	case unwinnable.Winnable:
		return m("audit.verdict.loss", i18n.Cap{Arg: opp}, sideMsg(flagged), want, agrees)
	case unwinnable.Unwinnable:
		return m("audit.verdict.draw", i18n.Cap{Arg: opp}, agrees)
	}
	return m("audit.verdict.unsettled", why, result)
}

func winner(s clockd.Side) string {
	if s == clockd.Black {
		return "0-1"
	}
	return "1-0"
}

// canMate asks the 6.9 analyzer whether side can still checkmate after
// ply plies.
// Its reason, when it cannot tell, is the analyzer's (in English), or what
// is wrong with the game's FEN tag or moves (in the reader's language).
func (a *Auditor) canMate(pos *positions, ply int, side clockd.Side) (unwinnable.Verdict, i18n.Message) {
	if a.opt.NoUnwinnable {
		return unwinnable.Undetermined, m("audit.no-analysis")
	}
	fen, err := pos.fenAt(ply)
	if err != nil {
		return unwinnable.Undetermined, m("audit.analyzer", err) // a FEN's error, in the reader's language
	}
	bp, err := bitboard.ParseFEN(fen)
	if err != nil {
		return unwinnable.Undetermined, m("audit.analyzer", err)
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
	return res.Verdict, m("audit.analyzer", res.Reason)
}

// timeForfeit checks a result decided on time against the 6.9 verdict on
// the final position.
func (a *Auditor) timeForfeit(g *Game, s [2][]sideMove, pos *positions, result string) (Finding, bool) {
	n := len(g.Plies)
	if n == 0 {
		return Finding{}, false
	}
	flagged, how, strong := whoFlagged(g, s, result)
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
	opp := sideMsg(flagged.Other())
	f := Finding{Kind: TimeForfeit, Side: flagged.String(), Move: len(s[flagged]), Article: "6.9"}
	switch {
	case v == unwinnable.Unwinnable && result == winner(flagged.Other()):
		f.setMessage(m("audit.time-forfeit.draw", how, result, opp))
	case v == unwinnable.Winnable && result == "1/2-1/2" && strong:
		f.setMessage(m("audit.time-forfeit.loss", how, opp, sideMsg(flagged), winner(flagged.Other())))
	case v == unwinnable.Undetermined && !a.opt.NoUnwinnable && result == winner(flagged.Other()) && strong:
		f.Kind = ClockData
		f.setMessage(m("audit.clock-data.forfeit", how, opp, why))
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
func whoFlagged(g *Game, s [2][]sideMove, result string) (flagged clockd.Side, how i18n.Message, strong bool) {
	term := strings.ToLower(g.Tag("Termination"))
	toMove := clockd.Side((len(g.Plies) + startSide(g)) % 2)
	flagged = clockd.Side(-1)
	for side := range s {
		sd := clockd.Side(side)
		ms := s[side]
		switch {
		case len(ms) > 0 && ms[len(ms)-1].clk == 0:
			flagged, how = sd, m("audit.forfeit.zero-last", sideMsg(sd))
		case isZeroClock(g.Tag(sideName(sd) + "Clock")):
			flagged, how = sd, m("audit.forfeit.clock-tag", sideName(sd)+"Clock", g.Tag(sideName(sd)+"Clock"))
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
		how = m("audit.forfeit.term", g.Tag("Termination"))
	} else if strong {
		how = m("audit.forfeit.and-term", how, g.Tag("Termination"))
	}
	if flagged < 0 && !strong {
		flagged, how = lostOnTime(term, toMove, s, result)
	}
	return flagged, how, strong
}

// lostOnTime is the loser of a decisive game who was to move with almost
// no time left (-1: there is none), when no tag says how the game ended.
func lostOnTime(term string, toMove clockd.Side, s [2][]sideMove, result string) (clockd.Side, i18n.Message) {
	loser := clockd.Side(-1)
	switch result {
	case "1-0":
		loser = clockd.Black
	case "0-1":
		loser = clockd.White
	}
	if loser < 0 || loser != toMove || term != "" && !strings.Contains(term, "unterminated") {
		return -1, i18n.Message{}
	}
	last := lastReading(s[loser])
	inc := time.Duration(0)
	if p := lastPeriodIncrement(s[loser]); p >= 0 {
		inc = p
	}
	if last == Unknown || last > max(10*time.Second, 2*inc) {
		return -1, i18n.Message{}
	}
	return loser, m("audit.forfeit.to-move", sideMsg(loser), hms(last))
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
			p.err = i18n.Errorf("audit.err.fen", err)
			return "", p.err
		}
		p.rg = rg
	}
	for p.rg.Ply() < ply && p.rg.Ply() < len(p.g.Plies) {
		pl := p.g.Plies[p.rg.Ply()]
		if err := p.rg.MoveSAN(strings.TrimRight(pl.SAN, "+#")); err != nil {
			if err2 := p.rg.MoveSAN(pl.SAN); err2 != nil {
				p.err = i18n.Errorf("audit.err.move", pl.SAN, pl.Line, err)
				return "", p.err
			}
		}
	}
	return p.rg.FEN(), nil
}

// lastReading is a side's last clock reading (Unknown: none).
func lastReading(ms []sideMove) time.Duration {
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].clk != Unknown {
			return ms[i].clk
		}
	}
	return Unknown
}
