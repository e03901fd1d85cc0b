package broadcastsim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
)

// Mode is how a board's clock adds the next period.
type Mode int

const (
	// ModeAny in Options: the generator chooses.
	ModeAny Mode = iota
	// Counting adds the next period at the press that completes the
	// period's moves, as the clock counts them (presses, not moves). A
	// player whose time runs out before the count stands at 0:00 without
	// increments until the count.
	Counting
	// AtFlag adds the next period to a player when that player's time runs
	// out; the time goes on running and the press still earns the increment.
	AtFlag
	// AtFlagBoth adds the next period to both players at the first flag of
	// the period.
	AtFlagBoth
)

func (m Mode) String() string {
	switch m {
	case Counting:
		return "counting"
	case AtFlag:
		return "at-flag"
	case AtFlagBoth:
		return "at-flag-both"
	}
	return "any"
}

// Incident kinds. The names of the kinds the audit reports are the
// audit's; the others describe what happened on the board.
const (
	// FlagBeforeControl: a player's displayed time ran out during move
	// Move with Move-1 moves completed, fewer than the moves of all the
	// periods the clock had given so far (6.3.1).
	FlagBeforeControl = "flag-before-control"
	// FlagAfterControl: a flag after the period's moves were completed; the
	// clock added the next period (normal).
	FlagAfterControl = "flag-after-control"
	// FlagLastPeriod: a flag in the last period; the game ended on time.
	FlagLastPeriod = "flag-last-period"
	// PeriodEarly, PeriodLate: a counting clock added the period with the
	// player's completed moves fewer, or more, than the period's.
	PeriodEarly = "period-early"
	PeriodLate  = "period-late"
	// TimeAdded: an arbiter added time by hand; Move is the player's first
	// move whose reading shows it.
	TimeAdded = "time-added"
	// ExtraPress: the clock credited a press without a move (one extra
	// increment, one extra press counted) after the player's move Move.
	ExtraPress = "extra-press"
)

// Incident is something that happened to a clock.
type Incident struct {
	Kind     string
	Side     clockd.Side
	Move     int     // the side's move number
	Ply      int     // index into Game.Plies (the simulated plies)
	Seconds  float64 // flags: the overstep; time-added: the time; period shifts: moves off
	Injected bool    // deliberately injected (false: it arose from the play)
	// Hidden: a flag before the control that the display never showed: the
	// clock had given the next period before the player was entitled to it
	// (the opponent's flag on an at-flag-both clock, a counting clock's
	// early count), and the player used more than the time of the periods
	// the completed moves entitled them to.
	Hidden bool
	// Evidence, for flags before the control: whether the published
	// readings are sufficient evidence by the package's criterion; for
	// period shifts: whether the shift is visible. Why says what is
	// missing when it is not.
	Evidence bool
	Why      string
}

func (in Incident) String() string {
	ev := ""
	if in.Hidden {
		ev = " hidden"
	}
	if in.Kind == FlagBeforeControl || in.Kind == PeriodEarly || in.Kind == PeriodLate {
		if in.Evidence {
			ev += " (evident)"
		} else {
			ev += " (not evident: " + in.Why + ")"
		}
	}
	return fmt.Sprintf("%s %s %d [ply %d, %.1f s]%s", in.Kind, in.Side, in.Move, in.Ply, in.Seconds, ev)
}

// Addition is a period's time arriving on a player's clock.
type Addition struct {
	Side       clockd.Side
	Ply        int // the ply during which the clock added it
	Move       int // the side's first move whose reading shows it
	Period     int // the period that started, 1-based
	Completed  int // the side's completed moves when it came
	AtFlag     bool
	ByOpponent bool // an at-flag-both clock, at the opponent's flag
	AtPress    bool // a counting clock, at a press
	Off        int  // counting: completed moves minus the period's (0: on time)
}

// Ply is one half-move with its truth and what was published.
type Ply struct {
	SAN   string
	Side  clockd.Side
	Move  int
	Think float64 // seconds from the opponent's press to this press
	Clock float64 // the mover's true clock after the move (seconds)
	// Period is the mover's clock period after the move (1-based).
	Period int
	// Clk is the published [%clk] in whole seconds, -1 when absent; ClkOK
	// says it is undamaged (within a second of the true clock).
	Clk   float64
	ClkOK bool
	// EMT is the published [%emt], -1 when absent; EMTOK: within a second
	// of Think.
	EMT   float64
	EMTOK bool
}

// Game is one board of a round.
type Game struct {
	Board        int
	White, Black string
	Result       string
	Mode         Mode
	// Offset is a counting clock's press counter offset per side (a
	// miscount: +1 adds the period a press early, -1 a press late).
	Offset    [2]int
	Plies     []Ply // the published plies (a cut-off game has fewer than were played)
	Played    int   // plies played
	CutOff    bool
	Incidents []Incident
	Additions []Addition
	PGN       string
}

// Flags returns the game's flags before the control.
func (g *Game) Flags() []Incident {
	var out []Incident
	for _, in := range g.Incidents {
		if in.Kind == FlagBeforeControl {
			out = append(out, in)
		}
	}
	return out
}

// Round is one round of an event: its boards share a control.
type Round struct {
	Seed        uint64
	Event       string
	Number      int
	Control     clockd.TimeControl
	ControlText string // in the spec notation
	TagKind     string // "notation", "text", "absent", "wrong"
	Tag         string // the TimeControl tag written ("" when absent)
	Profile     string // the noise profile's name
	Noise       Noise
	Games       []*Game
	PGN         string
}

// Options steer Generate; the zero value chooses everything from the seed.
type Options struct {
	Control string // a control in the spec notation; "" chooses one of Controls
	Profile string // a noise profile (see Profiles); "" chooses one
	Mode    Mode   // every board's clock mode; ModeAny chooses
	Boards  int    // 0 chooses (1 to 14)
	// FlagRate is the chance that a game of a multi-period control gets a
	// flag before the control injected; 0 means the default (0.25), a
	// negative value none.
	FlagRate float64
}

// Controls are the controls a round is drawn from, with their weights and
// the clock modes events use with them.
var Controls = []struct {
	Text   string
	Weight int
	Modes  []Mode // weighted by repetition
}{
	{"40/5400+30:1800+30", 30, []Mode{AtFlagBoth, AtFlagBoth, AtFlag, Counting}},
	{"40/6000+30:20/3000+30:900+30", 12, []Mode{AtFlagBoth, AtFlag, Counting, Counting}},
	{"40/7200:1800+30", 14, []Mode{Counting, Counting, Counting, AtFlagBoth, AtFlag}},
	{"40/7200:20/3600:900+30", 10, []Mode{Counting, Counting, AtFlagBoth, AtFlag}},
	{"900+10", 9, []Mode{AtFlag}},
	{"600+5", 6, []Mode{AtFlag}},
	{"1500+10", 5, []Mode{AtFlag}},
	{"300+3", 8, []Mode{AtFlag}},
	{"180+2", 6, []Mode{AtFlag}},
}

func secs(d time.Duration) float64 { return d.Seconds() }

func uniform(rng *rand.Rand, a, b float64) float64 { return a + rng.Float64()*(b-a) }

// Generate makes a round from a seed.
func Generate(seed uint64, opt Options) (*Round, error) {
	rng := rand.New(rand.NewPCG(seed, 0x726f756e64))
	r := &Round{Seed: seed, Number: 1 + rng.IntN(13)}
	r.Event = fmt.Sprintf("Simulated Open %d", seed%9973)
	text := opt.Control
	var modes []Mode
	if text == "" {
		total := 0
		for _, c := range Controls {
			total += c.Weight
		}
		x := rng.IntN(total)
		for _, c := range Controls {
			if x < c.Weight {
				text, modes = c.Text, c.Modes
				break
			}
			x -= c.Weight
		}
	} else {
		for _, c := range Controls {
			if c.Text == text {
				modes = c.Modes
			}
		}
		if modes == nil {
			modes = []Mode{AtFlagBoth, AtFlag, Counting}
		}
	}
	tc, err := clockd.ParseTimeControl(text)
	if err != nil {
		return nil, err
	}
	r.Control, r.ControlText = tc, tc.String()
	r.Profile = opt.Profile
	if r.Profile == "" {
		r.Profile = pickProfile(rng)
	}
	nz, ok := profile(r.Profile, rng)
	if !ok {
		return nil, fmt.Errorf("no noise profile %q", r.Profile)
	}
	r.Noise = nz
	r.TagKind, r.Tag = pickTag(rng, tc)
	boards := opt.Boards
	if boards == 0 {
		boards = 4 + rng.IntN(11)
		if rng.IntN(8) == 0 {
			boards = 1 + rng.IntN(3)
		}
	}
	eventMode := opt.Mode
	if eventMode == ModeAny {
		eventMode = modes[rng.IntN(len(modes))]
	}
	flagRate := opt.FlagRate
	if flagRate == 0 {
		flagRate = 0.25
	}
	for b := 1; b <= boards; b++ {
		mode := eventMode
		if opt.Mode == ModeAny && len(tc.Periods) > 1 && rng.IntN(12) == 0 {
			mode = []Mode{Counting, AtFlag, AtFlagBoth}[rng.IntN(3)]
		}
		g := r.simulate(rng, b, mode, flagRate)
		r.Games = append(r.Games, g)
	}
	r.publish(rng)
	for _, g := range r.Games {
		r.judgeEvidence(g)
	}
	r.write(rng)
	return r, nil
}

// sideState is one side of the clock.
type sideState struct {
	r        float64 // time on the display (seconds, exact)
	c        int     // the clock's period, 0-based
	presses  int     // presses counted
	done     int     // moves completed
	standing bool    // a counting clock at 0:00 waiting for the count
	off      int     // press counter offset
	// lawFlag is the period (1-based, by completed moves) in which the
	// player's time ran out before its moves were completed; 0: none.
	lawFlag int
}

// owed is the time of the periods the clock has given a side before its
// completed moves entitle it to them.
func owed(tc clockd.TimeControl, me *sideState) float64 {
	o := 0.0
	for j := 1; j <= me.c; j++ {
		if me.done < tc.Required(j) {
			o += secs(tc.Periods[j].Time)
		}
	}
	return o
}

// flagPlan is an injected flag before the control.
type flagPlan struct {
	on       bool
	side     clockd.Side
	from, to int // the moves it may fall in (the first move it can)
	period   int // the clock period it must fall in (0-based)
	overstep float64
	done     bool
}

func (r *Round) simulate(rng *rand.Rand, board int, mode Mode, flagRate float64) *Game {
	tc := r.Control
	ps := tc.Periods
	last := len(ps) - 1
	cls := tc.Class()
	g := &Game{Board: board, Mode: mode}
	g.White = fmt.Sprintf("Player %c%d", 'A'+rune(board%26), 2*board-1)
	g.Black = fmt.Sprintf("Player %c%d", 'A'+rune((board+7)%26), 2*board)
	ln := poolLine(rng.IntN(poolSize))

	// the game's length in each side's moves
	var moves int
	switch x := rng.Float64(); {
	case x < 0.12:
		moves = 20 + rng.IntN(11)
	case x < 0.70:
		moves = 30 + rng.IntN(31)
	case x < 0.95:
		moves = 60 + rng.IntN(31)
	default:
		moves = 90 + rng.IntN(31)
	}
	end := 2*moves - rng.IntN(2)
	if end > len(ln.sans) {
		end = len(ln.sans)
	}

	var st [2]sideState
	for s := range st {
		st[s].r = secs(ps[0].Time + ps[0].Increment)
	}
	if mode == Counting && last > 0 && rng.Float64() < 0.12 {
		s := rng.IntN(2)
		st[s].off = []int{1, 1, 1, 1, -1, -1, -1, -1, 2, -2}[rng.IntN(10)]
		g.Offset[s] = st[s].off
	}
	pl := [2]*player{newPlayer(rng, cls), newPlayer(rng, cls)}

	// the injections
	var fp flagPlan
	if last > 0 && flagRate > 0 && rng.Float64() < flagRate {
		fp.on = true
		fp.side = clockd.Side(rng.IntN(2))
		fp.period = 0
		if last > 1 && rng.IntN(4) == 0 {
			fp.period = 1
		}
		lo := tc.Required(fp.period) + 1 // first move of the period
		hi := tc.Required(fp.period + 1)
		if fp.period == 0 {
			lo = 12
		}
		switch x := rng.Float64(); {
		case x < 0.5:
			fp.from = hi - rng.IntN(5)
		case x < 0.8:
			fp.from = hi - 5 - rng.IntN(10)
		default:
			fp.from = lo + rng.IntN(max(1, hi-lo-14))
		}
		fp.from = max(fp.from, lo)
		fp.to = hi
		switch x := rng.Float64(); {
		case x < 0.3:
			fp.overstep = uniform(rng, 0.1, 5)
		case x < 0.7:
			fp.overstep = uniform(rng, 5, 120)
		case x < 0.9:
			fp.overstep = uniform(rng, 120, 900)
		default:
			fp.overstep = uniform(rng, 900, max(900, min(2400, 0.9*secs(ps[fp.period+1].Time))))
		}
		if rng.IntN(2) == 0 || fp.overstep > 600 {
			// a player who drifted into time trouble
			p := pl[fp.side]
			p.slowFrom, p.slowTo = fp.from-8-rng.IntN(14), fp.from
			p.slowFactor = uniform(rng, 1.5, 3)
		}
	}
	added := 120.0
	if cls != clockd.Standard {
		added = 60
	}
	taPly, taSide := -1, clockd.White
	if rng.Float64() < 0.06 && end > 16 {
		taPly = 8 + rng.IntN(end-12)
		taSide = clockd.Side(taPly % 2).Other()
		if rng.IntN(5) == 0 {
			taSide = taSide.Other()
		}
	}
	epSide, epMove := clockd.White, -1
	if rng.Float64() < 0.06 {
		epSide, epMove = clockd.Side(rng.IntN(2)), 3+rng.IntN(min(55, max(1, end/2-3)))
	}

	inc := func(s *sideState) float64 { return secs(ps[s.c].Increment) }
	addAt := func(s clockd.Side, ply int, a Addition) {
		a.Side, a.Ply = s, ply
		a.Move = st[s].done + 1 // during the side's own move: that move
		g.Additions = append(g.Additions, a)
	}
	press := func(s clockd.Side, ply int) {
		me := &st[s]
		me.presses++
		if mode == Counting && me.c < last && me.presses+me.off == tc.Required(me.c+1) {
			need := tc.Required(me.c + 1)
			me.c++
			me.r += secs(ps[me.c].Time) + inc(me)
			me.standing = false
			a := Addition{Period: me.c + 1, Completed: me.done, AtPress: true, Off: me.done - need}
			a.Side, a.Ply, a.Move = s, ply, me.done
			g.Additions = append(g.Additions, a)
			if me.done != need {
				kind := PeriodEarly
				if me.done > need {
					kind = PeriodLate
				}
				g.Incidents = append(g.Incidents, Incident{Kind: kind, Side: s, Move: me.done, Ply: ply,
					Seconds: float64(me.done - need), Injected: true})
			}
			return
		}
		if !me.standing {
			me.r += inc(me)
		}
	}

	flaggedBefore := false
	// nobody thinks longer than this on one move, flag or no flag
	const maxThink = 45 * 60
	for i := 0; i < end; i++ {
		s := clockd.Side(i % 2)
		me, op := &st[s], &st[s.Other()]
		k := me.done + 1
		t := pl[s].think(rng, k, me, tc, cls)
		injected := false
		if fp.on && !fp.done && s == fp.side && k >= fp.from && k <= fp.to && me.c == fp.period &&
			!me.standing && me.done < tc.Required(me.c+1) && me.r+fp.overstep <= maxThink {
			t = me.r + fp.overstep
			fp.done, injected = true, true
		}
		start := me.r
		ended := false
		law := tc.PeriodOf(me.done)
		if ow := owed(tc, me); !me.standing && ow > 0 && me.lawFlag != law && t > me.r-ow {
			// the time the player was entitled to ran out during this move
			// although the display did not
			me.lawFlag = law
			g.Incidents = append(g.Incidents, Incident{Kind: FlagBeforeControl, Side: s, Move: k, Ply: i,
				Seconds: t - (me.r - ow), Injected: injected, Hidden: true})
		}
		if !me.standing {
			used := t
			first := true
			for used >= me.r {
				used -= me.r
				in := Incident{Side: s, Move: k, Ply: i, Injected: injected}
				if first {
					in.Seconds = t - start
				} else {
					in.Seconds = used
				}
				first = false
				switch {
				case me.c == last:
					in.Kind = FlagLastPeriod
				case me.done < tc.Required(me.c+1):
					in.Kind = FlagBeforeControl
					if me.lawFlag == law {
						in.Kind = "" // the player's entitled time had run out already
					}
					me.lawFlag = law
				default:
					in.Kind = FlagAfterControl
				}
				if in.Kind != "" {
					g.Incidents = append(g.Incidents, in)
				}
				if me.c == last {
					me.r, ended = 0, true
					break
				}
				if in.Kind != FlagAfterControl && !flaggedBefore {
					flaggedBefore = true
					// nobody claims: the game goes on a while
					further := 3 + rng.IntN(48)
					if rng.IntN(4) == 0 {
						further = rng.IntN(3)
					}
					end = min(end, i+1+2*further+rng.IntN(2), len(ln.sans))
				}
				if mode == Counting {
					me.r, me.standing, used = 0, true, 0
					break
				}
				me.c++
				me.r = secs(ps[me.c].Time)
				addAt(s, i, Addition{Period: me.c + 1, Completed: me.done, AtFlag: true})
				if mode == AtFlagBoth && op.c == me.c-1 && !op.standing {
					op.c++
					op.r += secs(ps[op.c].Time)
					a := Addition{Period: op.c + 1, Completed: op.done, ByOpponent: true}
					a.Side, a.Ply, a.Move = s.Other(), i, op.done+1
					g.Additions = append(g.Additions, a)
				}
			}
			if !ended && !me.standing {
				me.r -= used
			}
		}
		if ended {
			// the flag fell in the last period: the arbiter ends the
			// game; the move may have been made and pressed at 0:00
			if rng.IntN(2) == 0 {
				g.Plies = append(g.Plies, Ply{SAN: ln.sans[i], Side: s, Move: k, Think: t, Clock: 0, Period: me.c + 1})
			}
			g.Result = "1-0"
			if s == clockd.White {
				g.Result = "0-1"
			}
			break
		}
		me.done++
		press(s, i)
		if s == epSide && k == epMove && !me.standing {
			press(s, i)
			g.Incidents = append(g.Incidents, Incident{Kind: ExtraPress, Side: s, Move: k, Ply: i, Seconds: inc(me), Injected: true})
		}
		g.Plies = append(g.Plies, Ply{SAN: ln.sans[i], Side: s, Move: k, Think: t, Clock: me.r, Period: me.c + 1})
		if i == taPly && !st[taSide].standing {
			st[taSide].r += added
			ply := i + 1
			if taSide == s {
				ply = i + 2
			}
			g.Incidents = append(g.Incidents, Incident{Kind: TimeAdded, Side: taSide, Move: st[taSide].done + 1,
				Ply: ply, Seconds: added, Injected: true})
		}
	}
	g.Played = len(g.Plies)
	if g.Result == "" {
		switch {
		case g.Played == len(ln.sans) && ln.outcome != "":
			g.Result = ln.outcome
		default:
			g.Result = []string{"1-0", "1-0", "0-1", "1/2-1/2", "1/2-1/2"}[rng.IntN(5)]
		}
	}
	// incidents past the last ply played never showed
	kept := g.Incidents[:0]
	for _, in := range g.Incidents {
		if in.Ply < g.Played || in.Kind == FlagLastPeriod {
			kept = append(kept, in)
		}
	}
	g.Incidents = kept
	return g
}

// player thinks.
type player struct {
	speed              float64
	book               int
	slowFrom, slowTo   int
	slowFactor         float64
	cls                clockd.Class
	lastPeriodFlagRate float64
}

func newPlayer(rng *rand.Rand, cls clockd.Class) *player {
	p := &player{speed: uniform(rng, 0.7, 1.3), cls: cls}
	switch cls {
	case clockd.Standard:
		p.book = 6 + rng.IntN(11)
		p.lastPeriodFlagRate = 0.01
	case clockd.Rapid:
		p.book = 4 + rng.IntN(7)
		p.lastPeriodFlagRate = 0.03
	default:
		p.book = 3 + rng.IntN(6)
		p.lastPeriodFlagRate = 0.05
	}
	return p
}

// think returns how long move k takes.
func (p *player) think(rng *rand.Rand, k int, me *sideState, tc clockd.TimeControl, cls clockd.Class) float64 {
	ps := tc.Periods
	last := len(ps) - 1
	inc := secs(ps[me.c].Increment)
	if me.standing {
		// flagged on a counting clock, nobody claims: play goes on
		return uniform(rng, 2, 40)
	}
	law := tc.PeriodOf(me.done) - 1
	var togo int
	if law < last {
		togo = tc.Required(law+1) - me.done
	} else {
		togo = max(10, 35-(me.done-tc.Required(last))/2)
	}
	pending := 0.0
	for j := me.c + 1; j <= law; j++ {
		pending += secs(ps[j].Time)
	}
	budget := me.r + pending + float64(togo)*inc
	var t float64
	var lo, hi, perMove, low float64
	switch cls {
	case clockd.Standard:
		lo, hi, perMove, low = 1, 15, 25, 120
	case clockd.Rapid:
		lo, hi, perMove, low = 0.5, 8, 8, 30
	default:
		lo, hi, perMove, low = 0.3, 3, 2.5, 8
	}
	switch {
	case k <= p.book:
		t = uniform(rng, lo, hi*2/3)
		if cls == clockd.Standard && rng.IntN(15) == 0 {
			t = uniform(rng, 30, 300)
		}
	case (me.r+pending)/float64(togo) < perMove || (inc > 0 && me.r+pending < low):
		// time trouble: quick moves, the increment used up
		t = uniform(rng, lo, hi)
		if inc > 0 && rng.IntN(5) < 3 {
			t = inc * uniform(rng, 0.4, 1.15)
		}
	default:
		avg := budget / float64(togo+3)
		t = avg * math.Exp(rng.NormFloat64()*0.85-0.36) * p.speed
		if cls == clockd.Standard {
			switch x := rng.Float64(); {
			case x < 0.015 && budget > 3600:
				t = uniform(rng, 25, 45) * 60
			case x < 0.07:
				t = uniform(rng, 0.5, 20) * 60
			}
		}
		if k >= p.slowFrom && k < p.slowTo {
			t *= p.slowFactor
		}
		t = max(t, lo)
	}
	// a move takes a moment however fast; a player keeps back enough for
	// the moves still due before the control (the increments help), and
	// risks a flag only where it is harmless (after the control on a clock
	// that adds the next period) or, rarely, in the last period
	floor := 0.5
	if cls == clockd.Blitz {
		floor = 0.3
	}
	reserve := max(1, float64(togo-1)*(minMove(cls)-inc)+1)
	harmless := me.c < last && me.done >= tc.Required(me.c+1)
	switch {
	case harmless:
		t = min(t, me.r+pending-min(2, me.r/3))
	case me.c == last && me.r < 4*perMove && rng.Float64() < p.lastPeriodFlagRate*3:
		t = me.r + uniform(rng, 0.1, 3)
	case me.r-reserve >= floor:
		t = min(t, me.r-reserve)
	default:
		// short of time for the moves due: as fast as a hand goes
		t = min(t, max(me.r*0.3, uniform(rng, 1, 2.5)))
	}
	return max(t, floor*uniform(rng, 1, 1.6))
}

// minMove is the least a player in time trouble spends on a move.
func minMove(cls clockd.Class) float64 {
	switch cls {
	case clockd.Standard:
		return 3
	case clockd.Rapid:
		return 1.5
	}
	return 0.8
}
