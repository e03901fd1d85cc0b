package clockd

import (
	"fmt"
	"time"
)

// Whose clock runs.
//
// A clock says whose time runs in up to three ways: its turn bits, its
// lever, and its displays (the running face counts down). Only the last
// cannot be misread. Devices disagree with their own documentation about
// the other two: the DGT 3000's turn bits name opposite faces in different
// revisions of its protocol header (docs/dgt.md). So the interpreter takes
// an indicator's claim as a name of a face only once the displays have
// shown what it means: a reading in which exactly one face counted down
// while the indicator stayed put tells which face the indicator names.
// That is learned per session, checked again whenever the clock comes back,
// and a change is announced (Convention).
//
// A change of an indicator between two readings is a press (an odd number
// of them) whatever the indicator means, so presses are seen at once even
// before anything is learned; which face pressed is the one that ran
// before, which the displays tell.

// meaning is what an indicator's claim is learned to mean.
type meaning int8

const (
	unlearned meaning = iota
	asClaimed         // the claim names the running face
	swapped           // the claim names the idle face
)

// indicator is what the interpreter knows about one of the clock's signs
// of whose time runs.
type indicator struct {
	m         meaning
	confirmed bool    // the displays agreed with m since the clock was last (re)connected
	against   int     // consecutive clean readings that contradict a confirmed m
	seen      [2]bool // the faces it has claimed: one never changing tells nothing
	stuck     bool    // it stood still while another indicator changed: it tells nothing
}

// live reports an indicator seen to claim both faces.
func (ind indicator) live() bool { return ind.seen[Left] && ind.seen[Right] }

// face returns the face the indicator names when it claims c.
func (ind indicator) face(c Face) Face {
	if ind.m == swapped {
		return c.Other()
	}
	return c
}

// The two indicators a Reading carries.
const (
	indBits  = 0 // LeftTurn / RightTurn
	indLever = 1 // LeverRightHigh
)

// claim returns the face indicator k of r names, if it names one.
func claim(r Reading, k int) (Face, bool) {
	if k == indBits {
		switch {
		case r.LeftTurn && !r.RightTurn:
			return Left, true
		case r.RightTurn && !r.LeftTurn:
			return Right, true
		}
		return Left, false
	}
	if !r.LeverKnown {
		return Left, false
	}
	if r.LeverRightHigh {
		return Right, true
	}
	return Left, true
}

// ranAlone returns the face that counted down from p to r while the other
// face's time stayed put, the clock running throughout. It is the
// displays' testimony of whose time ran.
func ranAlone(p, r Reading) (Face, bool) {
	return alone(p, r, func(d, other time.Duration) bool { return d < 0 && other == 0 })
}

// roseAlone returns the face whose time rose by more than the display's
// resolution from p to r while the other's did not rise, the clock
// running throughout.
func roseAlone(p, r Reading) (Face, bool) {
	return alone(p, r, func(d, other time.Duration) bool { return d > granularity && other <= 0 })
}

// alone returns the face whose change of time from p to r, against the
// other face's change, is what changed says, the clock running throughout.
func alone(p, r Reading, changed func(d, other time.Duration) bool) (Face, bool) {
	if !p.Running || !r.Running {
		return Left, false
	}
	dl, dr := r.Left.Time-p.Left.Time, r.Right.Time-p.Right.Time
	switch {
	case changed(dl, dr):
		return Left, true
	case changed(dr, dl):
		return Right, true
	}
	return Left, false
}

// learn weighs a clean reading (face f ran while indicator k claimed c
// throughout). It returns an event when a meaning the displays had
// confirmed changed.
func (in *Interpreter) learn(st *istate, k int, c, f Face, r Reading) []ClockEvent {
	want := asClaimed
	if c != f {
		want = swapped
	}
	ind := &st.ind[k]
	if !ind.live() {
		// Before it has been seen to change, an indicator may be stuck:
		// what the displays show makes a belief, never a confirmed
		// meaning.
		ind.m, ind.confirmed, ind.against = want, false, 0
		return nil
	}
	if ind.m == want || (ind.m == unlearned && want == asClaimed) {
		ind.m, ind.confirmed, ind.against = want, true, 0
		return nil
	}
	if !ind.confirmed {
		// A belief (the protocol's text, or what an earlier clock did)
		// the displays contradict: learn, and say nothing.
		ind.m, ind.confirmed, ind.against = want, true, 0
		return nil
	}
	// A confirmed meaning survives one contradiction: two presses merged
	// into one interval can look the same.
	ind.against++
	if ind.against < 2 {
		return nil
	}
	ind.m, ind.against = want, 0
	return []ClockEvent{{Kind: Convention, At: r.At, Clock: timesOf(st, r),
		Detail: fmt.Sprintf("the clock's %s changed meaning: the %s face runs while they say %s, the opposite of before (another clock, or its firmware); arbiterd follows the displays",
			indicatorName(k), f, c)}}
}

func indicatorName(k int) string {
	if k == indBits {
		return "turn bits"
	}
	return "lever bit"
}

// absolute returns the face r's indicators name: by what the displays
// confirmed one of them means (the turn bits first), or, unless
// confirmedOnly, by what they are believed to mean (what the device
// claims, until learned). When the beliefs disagree, the lever is
// believed: where it stands is physical, while the turn bits are what the
// protocol's revisions read differently.
func absolute(st *istate, r Reading, confirmedOnly bool) (Face, bool) {
	for k := range st.ind {
		if ind := st.ind[k]; ind.confirmed {
			if c, ok := claim(r, k); ok {
				return ind.face(c), true
			}
		}
	}
	if confirmedOnly {
		return Left, false
	}
	bc, bok := claim(r, indBits)
	lc, lok := claim(r, indLever)
	bok = bok && !st.ind[indBits].stuck
	lok = lok && !st.ind[indLever].stuck
	switch {
	case lok:
		return st.ind[indLever].face(lc), true
	case bok:
		return st.ind[indBits].face(bc), true
	}
	return Left, false
}

// turnAt decides whose time runs at r, given the previous reading p and
// the turn before it, after learning what r teaches about the indicators.
// known is false when nothing tells it; sure is true when the displays
// (now or through a confirmed indicator) tell it.
//
// When the displays show that the turn believed so far was the mirror of
// the truth (it came from an indicator read the wrong way round), the turn
// is corrected in st without a press; so is White's face when it was
// taken from that belief at the start (6.6).
func (in *Interpreter) turnAt(st *istate, p, r Reading) (y Face, known, sure bool, evs []ClockEvent) {
	c := in.indicatorChanges(st, p, r)
	// At a press the clock credits the presser's face (an increment, a
	// period): a face whose time rose while the other's did not is the
	// face that pressed, the one that ran before; the other runs now. It
	// is the displays' testimony too, and the one a simple delay leaves
	// when no time moves between presses.
	if g, ok := roseAlone(p, r); ok && c.flip {
		if st.turnKnown && st.turn != g && !st.turnSure && !st.ind[indBits].contradicted() && !st.ind[indLever].contradicted() {
			in.mirrored(st) // the belief was mirrored
		}
		for k := range st.ind {
			if c.valid[k] && c.changed[k] {
				evs = append(evs, in.learn(st, k, c.now[k], g.Other(), r)...)
			}
		}
	}
	// Across a change of the indicators the face that ran may have run
	// before the press or after it: only a reading without one testifies.
	f, alone := ranAlone(p, r)
	alone = alone && !c.flip
	if alone {
		evs = append(evs, in.ranBetween(st, r, c, f)...)
	}
	if y, ok := absolute(st, r, true); ok {
		return y, true, true, evs
	}
	if alone {
		return f, true, true, evs
	}
	if st.turnKnown && c.flipKnown {
		if c.flip {
			return st.turn.Other(), true, st.turnSure, evs
		}
		return st.turn, true, st.turnSure, evs
	}
	if y, ok := absolute(st, r, false); ok {
		return y, true, false, evs
	}
	return st.turn, st.turnKnown, st.turnSure, evs
}

// changes is what the turn indicators did between two readings: whether
// one changed (flip: a press), whether a press or its absence is known
// (flipKnown: no change means no press only from an indicator seen to
// change, a stuck one tells nothing), and whether none changed (steady);
// per indicator, whether it was valid in both readings, whether it
// changed, and what it claims now.
type changes struct {
	flip, flipKnown, steady bool
	valid, changed          [2]bool
	now                     [2]Face
}

// indicatorChanges compares the indicators of p and r, and marks stuck an
// indicator that stands still while another changes (a clock that does not
// report it): when the turn believed so far may have come from it, what
// the others believe decides now.
func (in *Interpreter) indicatorChanges(st *istate, p, r Reading) changes {
	var c changes
	for k := range st.ind {
		cp, okp := claim(p, k)
		cr, okr := claim(r, k)
		if okr {
			st.ind[k].seen[cr] = true
		}
		c.now[k] = cr
		c.valid[k], c.changed[k] = okp && okr, okp && okr && cp != cr
		if c.changed[k] {
			st.ind[k].stuck = false
		}
	}
	for k := range st.ind {
		if !c.valid[k] {
			continue
		}
		if c.changed[k] {
			c.flip, c.flipKnown, c.steady = true, true, false
			break
		}
		c.steady = true
		if st.ind[k].live() {
			c.flipKnown = true
		}
	}
	if !c.flip {
		return c
	}
	for o := range st.ind {
		if !c.valid[o] || c.changed[o] || st.ind[o].stuck {
			continue
		}
		st.ind[o].stuck = true
		if st.turnKnown && !st.turnSure {
			if b, ok := absolute(st, r, false); ok && b != st.turn.Other() {
				in.mirrored(st)
			}
		}
	}
	return c
}

// ranBetween learns from a reading in which face f alone ran and no
// indicator changed: the indicators that stood still claim f. When the
// face that ran is not the one believed to run, the belief was mirrored;
// at the start, with White's face set, that says the setting is wrong
// (White's clock runs at the start, 6.6).
func (in *Interpreter) ranBetween(st *istate, r Reading, c changes, f Face) []ClockEvent {
	var evs []ClockEvent
	for k := range st.ind {
		if c.valid[k] && !c.changed[k] {
			evs = append(evs, in.learn(st, k, c.now[k], f, r)...)
		}
	}
	if c.steady && st.turnKnown && st.turn != f && !st.ind[indBits].contradicted() && !st.ind[indLever].contradicted() {
		in.mirrored(st)
		if in.cfg != WhiteAuto && st.started && !st.joined && st.presses == [2]int{} && f != st.white {
			evs = append(evs, ClockEvent{Kind: Convention, At: r.At, Clock: timesOf(st, r),
				Detail: fmt.Sprintf("the clock started with the %s face running, but White's face is set to %s: check the clock's orientation and the board's clock-white setting (6.6)", f, st.white)})
		}
	}
	return evs
}

// mirrored turns the believed turn round, and White's face with it when
// it was taken from that belief at the start (6.6).
func (in *Interpreter) mirrored(st *istate) {
	st.turn = st.turn.Other()
	if !st.whiteSure && in.cfg == WhiteAuto && st.resolved {
		st.white = st.white.Other()
	}
}

// contradicted reports a confirmed meaning the latest clean reading went
// against (it may be two merged presses).
func (ind indicator) contradicted() bool { return ind.against > 0 }

// unconfirm makes what the indicators mean a belief to check again, as
// after the clock was away (it may be another clock now).
func (st *istate) unconfirm() {
	for k := range st.ind {
		st.ind[k].confirmed, st.ind[k].against = false, 0
	}
}
