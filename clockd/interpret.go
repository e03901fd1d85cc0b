package clockd

import (
	"fmt"
	"time"
)

// granularity is the coarsest display resolution the interpreter
// tolerates: a DGT 3000 reports whole seconds.
const granularity = time.Second

// istate is the interpreter's state; a value, so a reading can be analysed
// against a copy and committed only when it is trusted.
type istate struct {
	have      bool    // last holds a trusted reading
	last      Reading // last trusted reading
	started   bool
	running   bool
	turn      Face
	turnKnown bool         // turn is known (from the displays or an indicator)
	turnSure  bool         // and the displays vouch for it (turn.go)
	whiteSure bool         // white was taken from a turn the displays vouched for
	ind       [2]indicator // what the turn bits and the lever mean (turn.go)
	resolved  bool
	white     Face
	period    [2]int           // per face, 1-based: 1 + period additions seen
	presses   [2]int           // per face
	flagged   [2]bool          // per face: a flag was reported and its signs persist
	flagPer   [2]int           // per face: period of the reported flag
	allow     [2]time.Duration // per face: time the arbiter added beyond the control
	noClock   bool
	// joined: the clock was first read with the game under way (see
	// underWay): the presses made before were not seen, presses holds
	// only the fewest that give the times it showed then, and which face
	// ran then says nothing of White's.
	joined bool
}

// Interpreter turns clock readings into ClockEvents. It is a pure state
// machine: Feed is called with each reading in order. Nothing depends on
// Reading.At except the events' At; displayed times are compared only with
// each other and with the time control.
//
// Presses come from a change of turn (turn bits, else lever position, else
// which face's time falls). Two presses within one reading interval leave
// the turn unchanged; they are recovered (Inferred) when the idle face's
// time changed, or the running face's time rose (an increment or Bronstein
// credit). Three presses look like one unless the new runner's time rose;
// that is detected too. A jump of a face's time by about the next period's
// time is a PeriodAdded, whether the clock added it at a press or at a
// flag. A reading that cannot happen under the control is reported as
// Impossible and ignored, unless the next reading confirms it (then the
// clock really shows it and it becomes the new reference).
type Interpreter struct {
	tc      TimeControl
	cfg     WhiteFace
	st      istate
	suspect *Reading // an impossible reading awaiting confirmation
	inBad   bool     // an Impossible episode was reported
	gap     bool     // readings stopped for a while (Gap): the next may be far from the last
	battery bool     // low battery reported
}

// NewInterpreter returns an interpreter for a clock set to tc whose White
// face is given by white.
func NewInterpreter(tc TimeControl, white WhiteFace) *Interpreter {
	in := &Interpreter{tc: tc, cfg: white}
	in.st.period = [2]int{1, 1}
	switch white {
	case WhiteLeft:
		in.st.white, in.st.resolved = Left, true
	case WhiteRight:
		in.st.white, in.st.resolved = Right, true
	}
	return in
}

// WhiteFace returns the face showing White's time, once it is known.
func (in *Interpreter) WhiteFace() (Face, bool) { return in.st.white, in.st.resolved }

// Feed interprets one reading and returns what it shows happened since
// the previous one.
func (in *Interpreter) Feed(r Reading) []ClockEvent {
	var evs []ClockEvent
	if r.NoClock {
		if !in.st.noClock {
			in.st.noClock = true
			evs = append(evs, ClockEvent{Kind: Disconnected, At: r.At, Clock: timesOf(&in.st, in.st.last),
				Detail: "the device reports that no clock is connected"})
		}
		return evs
	}
	if in.st.noClock {
		in.st.noClock = false
		in.st.have = false // times may have changed while away: start afresh
		in.suspect = nil
		evs = append(evs, ClockEvent{Kind: Connected, At: r.At, Clock: timesOf(&in.st, r),
			Detail: "a clock is connected again; its times are taken as they are"})
	}
	if !in.st.have {
		st := in.st
		if why := in.absurd(&st, r); why != "" {
			return append(evs, in.impossible(r, why)...)
		}
		st.have, st.last = true, r
		evs = append(evs, in.begin(&st, r)...)
		in.st = st
		return evs
	}
	if r.BatteryLow != in.battery {
		in.battery = r.BatteryLow
		if r.BatteryLow {
			evs = append(evs, ClockEvent{Kind: BatteryLow, At: r.At, Clock: timesOf(&in.st, r),
				Detail: "the clock reports a low battery: replace it before it stops (6.11)"})
		}
	}
	st := in.st
	out, why := in.analyse(&st, r)
	if why != "" && in.suspect != nil {
		if st2, out2, ok := in.confirmed(r); ok {
			st, out, why = st2, out2, ""
		}
	}
	if in.gap {
		in.gap = false
		st, out, why = in.afterGap(st, r, out, why)
	}
	if why != "" {
		return append(evs, in.impossible(r, why)...)
	}
	in.suspect, in.inBad = nil, false
	in.st = st
	return append(evs, out...)
}

// confirmed reports whether r confirms the impossible reading held as the
// suspect: the clock really shows it (6.10: the display is conclusive), and
// it becomes the reference. It returns the state and events that follow.
// The limit is raised to the times shown with its usual room for presses
// merged into the next reading left above them: a limit raised to exactly
// what is shown would take the next press's increment for another
// impossible reading, and lose that press in confirming it, press after
// press.
func (in *Interpreter) confirmed(r Reading) (istate, []ClockEvent, bool) {
	sus := *in.suspect
	st := in.st
	in.allowFor(&st, sus, r)
	st.last = sus
	if t, ok := absolute(&st, sus, false); ok {
		st.turn, st.turnKnown = t, true
	}
	st.running = sus.Running && st.started
	out, why := in.analyse(&st, r)
	if why != "" {
		return st, nil, false
	}
	head := append([]ClockEvent{{Kind: Impossible, At: r.At, Clock: timesOf(&st, r),
		Detail: "the clock kept showing the unexpected times, so they are taken as the clock's real state from now on"}},
		in.running(&st, r, "the clock's times are taken as they are")...)
	return st, append(head, out...), true
}

// afterGap reads r, the first reading after a gap (see Gap), given what
// analysing it against the last reading gave (st, out, why).
func (in *Interpreter) afterGap(st istate, r Reading, out []ClockEvent, why string) (istate, []ClockEvent, string) {
	if why != "" {
		// More happened while the clock was not read than one interval
		// can show: the reading is the clock's state as it is, taken
		// afresh like a clock connected again.
		st = in.st
		in.allowFor(&st, r, r)
		if why = in.absurd(&st, r); why != "" {
			return st, out, why
		}
		prev := st.last
		st.last = r
		out = in.stopStart(&st, prev, r)
		out = append(append(out, in.begin(&st, r)...), in.flags(&st, r)...)
	}
	// Whose time runs comes first: it is what the reading says of the
	// turn as a whole, whatever presses it holds.
	return st, append(in.running(&st, r, "the clock is read again after a gap"), out...), ""
}

// Gap tells the interpreter that readings stopped for a while: the device
// relaying the clock was away, or arbiterd was. The next reading may show
// any number of presses since the last. When one interval cannot explain
// it, it is taken as the clock's state as it is, like a clock connected
// again: its presses cannot be counted, and it is no reading to distrust
// (the absence was reported already).
func (in *Interpreter) Gap() {
	if in.st.have {
		in.gap = true
	}
}

// allowFor raises the most each face may show to what a and b show, with
// the usual room for presses merged into the next reading left above them:
// a limit raised to exactly what is shown would take the next press's
// increment for an impossible reading.
func (in *Interpreter) allowFor(st *istate, a, b Reading) {
	room := in.tc.maxIncrement() * maxMerged
	for _, f := range [2]Face{Left, Right} {
		if need := max(a.Face(f).Time, b.Face(f).Time) + room - in.limit(st, f); need > 0 {
			st.allow[f] += need
		}
	}
}

// running reports whose time runs at r (Running), when the clock runs and
// it is known.
func (in *Interpreter) running(st *istate, r Reading, why string) []ClockEvent {
	if !st.started || !st.running || !st.turnKnown {
		return nil
	}
	s := in.sideOf(st, st.turn)
	return []ClockEvent{{Kind: Running, At: r.At, Side: s, Clock: timesOf(st, r), Period: st.period[st.turn],
		Detail: fmt.Sprintf("%s; %s's time runs", why, s)}}
}

// impossible records an untrusted reading as the suspect to confirm, and
// returns an Impossible event for the first of a run of them (the rest
// would repeat it twice a second).
func (in *Interpreter) impossible(r Reading, why string) []ClockEvent {
	cp := r
	in.suspect = &cp
	if in.inBad {
		return nil
	}
	in.inBad = true
	return []ClockEvent{{Kind: Impossible, At: r.At, Clock: timesOf(&in.st, r), Detail: why + "; the reading is not trusted"}}
}

// sideOf maps a face to a side (White's face before it is known: left).
func (in *Interpreter) sideOf(st *istate, f Face) Side {
	if f == st.white {
		return White
	}
	return Black
}

// whiteKnown reports whether White's face rests on more than a belief: it
// is set, or the displays vouched for the turn it was taken from, or for
// what an indicator means since (a mirrored belief was turned round with
// White's face, see mirrored).
func (in *Interpreter) whiteKnown(st *istate) bool {
	if in.cfg != WhiteAuto || st.whiteSure {
		return true
	}
	for _, ind := range st.ind {
		if ind.confirmed {
			return true
		}
	}
	return false
}

// timesOf maps a reading's faces to White and Black (before White's face
// is known, left is taken as White's).
func timesOf(st *istate, r Reading) Times {
	if st.white == Right {
		return Times{White: r.Right.Time, Black: r.Left.Time}
	}
	return Times{White: r.Left.Time, Black: r.Right.Time}
}

// limit is the most face f can show: every period's time, an increment
// for each press (and a few more that may be merged into the next
// reading), and what the arbiter added while the clock was stopped.
func (in *Interpreter) limit(st *istate, f Face) time.Duration {
	return in.tc.totalTime() + in.tc.maxIncrement()*time.Duration(st.presses[f]+maxMerged) + st.allow[f] + granularity
}

// absurd checks a reading against the control alone.
func (in *Interpreter) absurd(st *istate, r Reading) string {
	for _, f := range [2]Face{Left, Right} {
		t := r.Face(f).Time
		if t < 0 {
			return fmt.Sprintf("the %s face shows a negative time (%v)", f, t)
		}
		if !st.started && in.tc.maxIncrement() > 0 {
			// Before the clock is seen to start, the game may be under
			// way (see underWay): any number of presses may be behind
			// the times shown.
			continue
		}
		if lim := in.limit(st, f); t > lim {
			return fmt.Sprintf("the %s face shows %v, more than the control %s can give after %d presses (%v)",
				f, t, in.tc, st.presses[f], lim-granularity)
		}
	}
	return ""
}

// begin handles a reading with no trusted predecessor.
func (in *Interpreter) begin(st *istate, r Reading) []ClockEvent {
	// The clock may have been swapped while it was away: what its
	// indicators mean is a belief until the displays confirm it.
	st.unconfirm()
	st.turnKnown, st.turnSure = false, false
	t, ok := absolute(st, r, false)
	if ok {
		st.turn, st.turnKnown = t, true
	}
	if st.started {
		st.running = r.Running
		return nil
	}
	return in.start(st, r, ok)
}

// start begins the game at the first running reading whose turn is known.
func (in *Interpreter) start(st *istate, r Reading, turnKnown bool) []ClockEvent {
	if !r.Running || !turnKnown {
		return nil
	}
	st.started, st.running = true, true
	if in.underWay(r) {
		return in.join(st, r)
	}
	if st.resolved && in.cfg != WhiteAuto && !st.turnSure {
		// White's clock runs at the start (6.6) and White's face is set:
		// what each indicator shows now names White's face, whatever was
		// believed (the displays have not spoken yet).
		for k := range st.ind {
			if c, ok := claim(r, k); ok && !st.ind[k].confirmed {
				st.ind[k].m = asClaimed
				if c != st.white {
					st.ind[k].m = swapped
				}
			}
		}
		st.turn = st.white
	}
	detail := "the clock started"
	if !st.resolved {
		st.white, st.resolved, st.whiteSure = st.turn, true, st.turnSure
		detail = fmt.Sprintf("the clock started; the %s face runs first, so it is White's (6.6)", st.turn)
	} else if st.turn != st.white {
		detail = fmt.Sprintf("the clock started with the %s face running, but White's face is set to %s: check the clock's orientation (6.6)", st.turn, st.white)
	}
	return []ClockEvent{{Kind: Started, At: r.At, Side: White, Clock: timesOf(st, r), Period: 1, Detail: detail}}
}

// underWay reports whether r, the first running reading of a clock not
// seen to start, shows a game already under way rather than one starting.
// At the start both faces show the control's starting time (with the
// increment a Fischer clock gives before the first move, or without it)
// but for the one running down from it. Whichever face runs (the turn
// bits may be read the other way round), a reading with neither face at
// the starting time, or one above it, is of a game whose players have
// pressed already.
func (in *Interpreter) underWay(r Reading) bool {
	if len(in.tc.Periods) == 0 {
		return false
	}
	p := in.tc.Periods[0]
	top := p.Time
	if p.Mode == Fischer {
		top += p.Increment
	}
	atStart := func(t time.Duration) bool { return t == p.Time || t == top }
	above := func(t time.Duration) bool { return t > top+granularity }
	return above(r.Left.Time) || above(r.Right.Time) || (!atStart(r.Left.Time) && !atStart(r.Right.Time))
}

// join begins following a clock first read with the game under way
// (arbiterd started, or restarted, after the first moves). The presses
// made before were not seen: each face is taken to have made the fewest
// that give the time it shows (for the limit of what it can show), and
// the face that runs is whoever's turn it is, no sign of White's (6.6
// speaks of the start): White's face stays as set, or unknown.
func (in *Interpreter) join(st *istate, r Reading) []ClockEvent {
	st.joined = true
	for _, f := range [2]Face{Left, Right} {
		st.presses[f] = max(st.presses[f], in.fewestPresses(r.Face(f).Time))
	}
	return []ClockEvent{{Kind: Started, At: r.At, Side: in.sideOf(st, st.turn), Clock: timesOf(st, r), Period: 1, UnderWay: true, WhiteGuessed: !st.resolved,
		Detail: fmt.Sprintf("the clock was first read with the game under way (left %v, right %v, the %s face running): the presses made before were not seen", r.Left.Time, r.Right.Time, st.turn)}}
}

// fewestPresses is the fewest presses that can leave a face showing t:
// every period's time and an increment per press.
func (in *Interpreter) fewestPresses(t time.Duration) int {
	inc := in.tc.maxIncrement()
	over := t - in.tc.totalTime() - granularity
	if inc <= 0 || over <= 0 {
		return 0
	}
	return int((over + inc - 1) / inc)
}

// credit is the most a press can give face f in its current period
// (Fischer increment or Bronstein give-back), for jump recognition.
func (in *Interpreter) credit(st *istate, f Face) time.Duration {
	p := in.tc.period(st.period[f])
	if p.Mode == Delay {
		return 0
	}
	return p.Increment
}

// periodJump recognises a rise of face f's time by about the next
// period's time. presses is the fewest presses f made in the interval (0
// or 1, from the turn); the rise must be more than they can credit, at
// least half the period (the rest may have run since), and at most the
// period plus the credit of one more press (a merged one). It returns the
// period's time, or 0 when the rise is not a period addition.
func (in *Interpreter) periodJump(st *istate, f Face, rise time.Duration, presses int) time.Duration {
	q := st.period[f] + 1
	if q > len(in.tc.Periods) {
		return 0
	}
	pt := in.tc.Periods[q-1].Time
	inc := in.tc.maxIncrement()
	if rise > inc*time.Duration(presses)+granularity && rise > pt/2 && rise <= pt+inc*time.Duration(presses+1)+granularity {
		return pt
	}
	return 0
}

// analyse interprets r against st.last, updating st. A non-empty reason
// means r is not to be trusted.
func (in *Interpreter) analyse(st *istate, r Reading) ([]ClockEvent, string) {
	prev := st.last
	st.last = r
	if !st.started {
		if why := in.absurd(st, r); why != "" {
			return nil, why
		}
		t, ok, sure, evs := in.turnAt(st, prev, r)
		if ok {
			st.turn, st.turnKnown, st.turnSure = t, true, sure
		}
		return append(evs, in.start(st, r, ok)...), ""
	}
	if in.reset(st, prev, r) {
		// Everything the clock counted is gone: start afresh (a Started
		// follows when it runs again), White's face as it was.
		*st = istate{have: true, last: r, white: st.white, resolved: st.resolved, whiteSure: st.whiteSure,
			ind: st.ind, period: [2]int{1, 1}, noClock: st.noClock}
		return []ClockEvent{{Kind: Reset, At: r.At, Clock: timesOf(st, r), Period: 1,
			Detail: "the clock was reset: both faces show the control's starting times again"}}, ""
	}
	wasRunning := st.running
	evs := in.stopStart(st, prev, r)
	y, known, sure, conv := in.turnAt(st, prev, r)
	x := st.turn // after turnAt, which may have corrected it
	evs = append(evs, conv...)
	if !known {
		y = x
	} else if !st.turnKnown {
		x = y // the turn was not known before: no change of it is seen
	}
	rise := [2]time.Duration{r.Left.Time - prev.Left.Time, r.Right.Time - prev.Right.Time}
	if x == y && !wasRunning && !r.Running {
		set, why := in.setWhileStopped(st, r, rise)
		if why != "" {
			return nil, why
		}
		return append(append(evs, set...), in.flags(st, r)...), ""
	}
	if why := in.absurd(st, r); why != "" {
		return nil, why
	}
	n, added, why := in.countPresses(st, prev, r, x, y, rise)
	if why != "" {
		return nil, why
	}
	// Which additions came at a flag: those are flags of the period whose
	// time ran out, reported before the presses that followed them.
	atFlag := in.flagsAtJumps(st, prev, r, x, n, added)
	evs = append(evs, in.flagsAtAdditions(st, r, atFlag)...)
	evs = append(evs, in.pressesOf(st, prev, r, x, n, &added, atFlag)...)
	evs = append(evs, in.additionsAtFlags(st, r, added, atFlag)...)
	if known {
		st.turn, st.turnKnown, st.turnSure = y, true, sure
	}
	return append(evs, in.flags(st, r)...), ""
}

// stopStart reports the clock stopped (6.11) or running again.
func (in *Interpreter) stopStart(st *istate, prev, r Reading) []ClockEvent {
	var evs []ClockEvent
	if st.running && !r.Running {
		evs = append(evs, ClockEvent{Kind: Stopped, At: r.At, Side: in.sideOf(st, st.turn), Clock: timesOf(st, r),
			Period: st.period[st.turn], Detail: "the clock was stopped (6.11)"})
	}
	if !st.running && r.Running {
		evs = append(evs, ClockEvent{Kind: Resumed, At: r.At, Side: in.sideOf(st, st.turn), Clock: timesOf(st, prev),
			Period: st.period[st.turn], Detail: "the clock runs again"})
	}
	st.running = r.Running
	return evs
}

// setWhileStopped reads a clock stopped throughout the interval: a change
// of a face's time is the arbiter setting the clock.
func (in *Interpreter) setWhileStopped(st *istate, r Reading, rise [2]time.Duration) ([]ClockEvent, string) {
	var evs []ClockEvent
	// Stopped throughout: a change is the arbiter setting the clock.
	for _, f := range [2]Face{Left, Right} {
		if rise[f] > 0 {
			st.allow[f] += rise[f]
		}
	}
	if why := in.absurd(st, r); why != "" {
		return nil, why
	}
	for _, f := range [2]Face{Left, Right} {
		if rise[f] != 0 {
			// Before the displays have shown whose time runs, White's
			// face rests on the clock's indicators alone (6.6): which
			// player's time changed is then inferred, not seen.
			evs = append(evs, ClockEvent{Kind: Adjusted, At: r.At, Side: in.sideOf(st, f), Clock: timesOf(st, r),
				Period: st.period[f], Added: rise[f], Inferred: !in.whiteKnown(st),
				Detail: fmt.Sprintf("%s's time was changed by %v while the clock was stopped", in.sideOf(st, f), rise[f])})
		}
	}
	return evs, ""
}

// countPresses finds how many presses the interval holds, from x's turn
// before to y's after: the turn's parity fixes odd or even, the times add
// evidence. It takes the periods added out of each face's rise (added).
func (in *Interpreter) countPresses(st *istate, prev, r Reading, x, y Face, rise [2]time.Duration) (n int, added [2]time.Duration, why string) {
	n = 0
	if x != y {
		n = 1
	}
	for _, f := range [2]Face{Left, Right} {
		pressesF := (n + 1) / 2 // presses by x
		if f != x {
			pressesF = n / 2
		}
		if rise[f] > 0 {
			if pt := in.periodJump(st, f, rise[f], pressesF); pt > 0 {
				added[f] = pt
				rise[f] -= pt
			}
		}
	}
	// The fewest presses that explain each face's rise: one press credits
	// at most its increment (Fischer) or delay (Bronstein), give or take
	// the display's granularity.
	kx, okx := pressesFor(rise[x], in.credit(st, x))
	ky, oky := pressesFor(rise[x.Other()], in.credit(st, x.Other()))
	if !okx || !oky {
		f := x
		if !oky {
			f = x.Other()
		}
		return 0, added, fmt.Sprintf("%s's time rose by %v, which no press can give in %s mode", in.sideOf(st, f), rise[f], in.tc.period(st.period[f]).Mode)
	}
	if x == y {
		if rise[x.Other()] != 0 {
			ky = max(ky, 1) // the idle face's time moved: it ran, so it pressed
		}
		if xf, pf := r.Face(x), prev.Face(x); added[x] > 0 && xf.Time-added[x] > in.credit(st, x)+granularity && !(xf.Flag && !pf.Flag) && !(xf.FlagShown && !pf.FlagShown) {
			// The running face got the next period and kept its old time:
			// no flag (that would have taken the old time first), so it
			// pressed and got it from a counter, and the other pressed
			// back, both in the interval.
			kx = max(kx, 1)
		}
		if xf := r.Face(x); added[x.Other()] > 0 && added[x] == 0 && !xf.Flag && !xf.FlagShown && xf.Time > 0 {
			// The idle face got the next period while the running face did
			// not flag: no clock adds time to both sides without a flag,
			// so the idle side pressed (a counter's addition) in two
			// presses merged into the interval.
			ky = max(ky, 1)
		}
		n = 2 * max(kx, ky)
	} else {
		n = max(1, 2*kx-1)
		if ky > 0 {
			n = max(n, 2*ky+1)
		}
	}
	if n > maxMerged {
		return 0, added, fmt.Sprintf("the times rose by %v (%s) and %v (%s) between two readings: more than %d presses could give",
			rise[x], in.sideOf(st, x), rise[x.Other()], in.sideOf(st, x.Other()), maxMerged)
	}
	return n, added, ""
}

// flagsAtAdditions reports the flags of the periods added at a flag
// (atFlag), once per period.
func (in *Interpreter) flagsAtAdditions(st *istate, r Reading, atFlag [2]bool) []ClockEvent {
	var evs []ClockEvent
	for _, f := range [2]Face{Left, Right} {
		if atFlag[f] && !(st.flagged[f] && st.flagPer[f] == st.period[f]) {
			st.flagged[f], st.flagPer[f] = true, st.period[f]
			s := in.sideOf(st, f)
			evs = append(evs, ClockEvent{Kind: Flag, At: r.At, Side: s, Clock: timesOf(st, r), Period: st.period[f],
				Detail: fmt.Sprintf("%s's flag fell in period %d; the clock added the next period's time at the flag", s, st.period[f])})
		}
	}
	return evs
}

// pressesOf reports n presses, alternating from x, with the times each
// showed and a period a counter added at one (taken out of added).
func (in *Interpreter) pressesOf(st *istate, prev, r Reading, x Face, n int, added *[2]time.Duration, atFlag [2]bool) []ClockEvent {
	var evs []ClockEvent
	f := x
	for i := 0; i < n; i++ {
		s := in.sideOf(st, f)
		st.presses[f]++
		// The displayed times at this press: exact for a single press;
		// within a merged group, the later presses' credits are taken off
		// (an estimate: the time each face ran in between is unknown).
		clk := timesOf(st, r)
		laterF, laterO := (n-1-i)/2, (n-i)/2
		clk.set(s, max(0, r.Face(f).Time-time.Duration(laterF)*in.credit(st, f)))
		if i == 0 {
			// Before its own press the other face was idle: its time then
			// is the previous reading's (plus any period added to it).
			clk.set(in.sideOf(st, f.Other()), prev.Face(f.Other()).Time+addedIfNotPressing(*added, f.Other(), n))
		} else {
			clk.set(in.sideOf(st, f.Other()), max(0, r.Face(f.Other()).Time-time.Duration(laterO)*in.credit(st, f.Other())))
		}
		atPress := added[f] > 0 && i < 2 && !atFlag[f]
		if atPress {
			st.period[f]++
		}
		ev := ClockEvent{Kind: Press, At: r.At, Side: s, Clock: clk, Period: st.period[f], Inferred: n > 1}
		if n > 1 {
			ev.Detail = fmt.Sprintf("one of %d presses merged into one reading, recovered from the displayed times", n)
		}
		evs = append(evs, ev)
		if atPress {
			evs = append(evs, ClockEvent{Kind: PeriodAdded, At: r.At, Side: s, Clock: clk, Period: st.period[f], Added: added[f],
				Detail: fmt.Sprintf("the clock added period %d's %v to %s at a press", st.period[f], added[f], s)})
			added[f] = 0
		}
		f = f.Other()
	}
	return evs
}

// additionsAtFlags reports the periods added at a flag: the flagged side's,
// or both sides' when the clock adds the next period to both at the first
// flag.
func (in *Interpreter) additionsAtFlags(st *istate, r Reading, added [2]time.Duration, atFlag [2]bool) []ClockEvent {
	var evs []ClockEvent
	for _, f := range [2]Face{Left, Right} {
		if added[f] > 0 {
			st.period[f]++
			s := in.sideOf(st, f)
			why := "at its flag"
			if !atFlag[f] {
				why = "without a press or a flag of its own (the clock adds the next period to both sides at a flag)"
			}
			evs = append(evs, ClockEvent{Kind: PeriodAdded, At: r.At, Side: s, Clock: timesOf(st, r), Period: st.period[f], Added: added[f],
				Detail: fmt.Sprintf("the clock added period %d's %v to %s %s", st.period[f], added[f], s, why)})
		}
	}
	return evs
}

// flagsAtJumps decides, for each face whose time jumped by the next
// period's time (added), whether the jump came at that face's flag. x is
// the face that ran at the previous reading and n the presses in the
// interval, alternating from x. A clock adds time without a press only at
// a flag, so a jump of the face that ran, with no press of its own, is its
// flag; so is a jump the face shows with a newly lit flag indicator (one
// still lit from an earlier flag says nothing of this jump); and so is a
// jump at a press that leaves less than nothing of the old period (the
// time had run out before the press). A jump of the idle face without a
// flag indicator is the next period given to both sides at the other's
// flag; a jump at a press that leaves the old time intact is a clock
// counting moves (or presses) adding the period (6.3.2).
func (in *Interpreter) flagsAtJumps(st *istate, prev, r Reading, x Face, n int, added [2]time.Duration) (atFlag [2]bool) {
	for _, f := range [2]Face{Left, Right} {
		if added[f] == 0 {
			continue
		}
		pressed := (n + 1) / 2
		if f != x {
			pressed = n / 2
		}
		// An indicator still lit from an earlier flag says nothing of
		// this jump: only a newly lit one does.
		fr, pf := r.Face(f), prev.Face(f)
		left := fr.Time - added[f] - time.Duration(pressed)*in.credit(st, f)
		switch {
		case (fr.FlagShown && !pf.FlagShown) || (fr.Flag && !pf.Flag):
			atFlag[f] = true
		case pressed == 0:
			atFlag[f] = f == x
		default:
			atFlag[f] = left < -granularity
		}
	}
	return atFlag
}

// reset reports a clock set back to the start of the control mid-game:
// both faces show the control's starting times (with the increment a
// Fischer clock gives before the first move, or without it), at least one
// of them having risen to it by more than a press can credit, after
// presses were counted.
func (in *Interpreter) reset(st *istate, prev, r Reading) bool {
	if (st.presses[Left]+st.presses[Right] == 0 && !st.joined) || len(in.tc.Periods) == 0 {
		return false
	}
	p := in.tc.Periods[0]
	start := func(t time.Duration) bool {
		return t == p.Time || (p.Mode == Fischer && t == p.Time+p.Increment)
	}
	credit := in.tc.maxIncrement() + granularity
	rose := r.Left.Time-prev.Left.Time > credit || r.Right.Time-prev.Right.Time > credit
	for _, f := range [2]Face{Left, Right} {
		fr := r.Face(f)
		if fr.Flag || fr.FlagShown {
			return false // a reset clears the flags; this is a flag's addition
		}
		if d := fr.Time - prev.Face(f).Time; d > credit && in.periodJump(st, f, d, 1) > 0 {
			return false // the next period's time, which may equal the start's
		}
	}
	// Both faces go back to the start: a face already there that stays
	// is the arbiter setting the other one (an adjustment, not a reset).
	both := r.Left.Time != prev.Left.Time && r.Right.Time != prev.Right.Time
	return rose && both && start(r.Left.Time) && start(r.Right.Time) && r.Left.Time == r.Right.Time
}

// maxMerged is the most presses believed to fit between two readings.
const maxMerged = 6

// pressesFor returns the fewest presses that can raise a face's time by
// rise when one press credits at most credit; ok is false when no number
// can.
func pressesFor(rise, credit time.Duration) (n int, ok bool) {
	if rise <= 0 {
		return 0, true
	}
	if rise <= granularity && credit == 0 {
		return 0, false
	}
	if credit == 0 {
		return 0, false
	}
	n = int((rise - granularity + credit - 1) / credit)
	return max(n, 1), true
}

// addedIfNotPressing is the period time added to face f when f did not
// press in the interval (so it was added at a flag, before any press).
func addedIfNotPressing(added [2]time.Duration, f Face, n int) time.Duration {
	if n >= 2 {
		return 0
	}
	return added[f]
}

// flags reports each fall of a flag once: a flag bit, or a face showing
// zero while its clock has run. A flag that came with a jump of the time
// was reported by analyse; its indicator may stay on while the next
// period runs.
func (in *Interpreter) flags(st *istate, r Reading) []ClockEvent {
	var evs []ClockEvent
	for _, f := range [2]Face{Left, Right} {
		fr := r.Face(f)
		down := fr.Flag || fr.FlagShown || fr.Time <= 0
		if !down {
			st.flagged[f] = false
			continue
		}
		if st.flagged[f] && (st.flagPer[f] == st.period[f] || fr.Time > 0) {
			continue // this flag was reported, or an earlier period's is still shown
		}
		st.flagged[f], st.flagPer[f] = true, st.period[f]
		s := in.sideOf(st, f)
		detail := ""
		if fr.Time > 0 {
			detail = "; the clock shows the flag while it runs on"
		}
		evs = append(evs, ClockEvent{Kind: Flag, At: r.At, Side: s, Clock: timesOf(st, r), Period: st.period[f],
			Detail: fmt.Sprintf("%s's flag fell in period %d%s", s, st.period[f], detail)})
	}
	return evs
}
