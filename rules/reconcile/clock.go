// The clock as read: a clock first read with the game under way, whose
// faces (which one is White's) are learnt from the presses, and the
// reference clock set to the times it shows.

package reconcile

import (
	"time"

	"github.com/arbiterd/arbiterd/clockd"
)

// joined is a clock first read with the game under way
// (clockd.ClockEvent.UnderWay), when (at), and whether the board was
// checked for the starting position a scan lag later (see
// joinedAtTheStart). faces: whether White's face is known, a guess
// (clock-white auto) until the presses read after the join say which
// (fits and misfits: see learnFaces), or learnt to be turned round.
type joined struct {
	state         joinState
	at            time.Duration
	faces         clockFaces
	fits, misfits int
}

// guessedIf is facesGuessed when guessed, else facesSet.
func guessedIf(guessed bool) clockFaces {
	if guessed {
		return facesGuessed
	}
	return facesSet
}

// joinState is whether the clock was first read with the game under way,
// and if so whether the board was checked for the start since.
type joinState uint8

// clockFaces is what arbiterd knows of which face of the clock is White's.
type clockFaces uint8

// refTimes sets the reference clock to the times the clock shows.
func refTimes(ref *clockd.Clock, c clockd.Times, at time.Duration) {
	for _, s := range []clockd.Side{clockd.White, clockd.Black} {
		ref.SetTime(s, c.Of(s), at)
	}
}

// learnFaces learns which face of a clock joined under way is White's,
// when it is not set (facesGuessed): the side running mid-game says
// nothing of it. A press follows its own side's move: a press read while
// the last ply on the board is its side's and not completed fits the
// guess; one read while that ply is the other side's does not (a press
// read before the board shows its move finds the opponent's ply completed,
// and says nothing). The first presses after a join are the least sure
// (the last move before it may be pressed after the board showed the next
// one), so the guess is kept, or the clock's sides turned round (the press
// ev, the pending presses, the clock's word and its times with them), once
// one kind leads by two. Until then the presses' alerts are not raised
// (see pressWithoutMove and dueWarnMoveWithoutPress): they would name the wrong side. It
// returns ev as it is to be taken, and whether the clock's sides were
// turned round now: the caller turns round the pending presses, the
// clock's word and the reference clock's times with them.
func (j *joined) learnFaces(led record, ev clockd.ClockEvent) (clockd.ClockEvent, bool) {
	n := len(led.plies)
	if j.faces != facesGuessed || n == 0 || led.plies[n-1].completed() {
		return ev, false
	}
	if led.plies[n-1].side == ev.Side {
		j.fits++
	} else {
		j.misfits++
	}
	switch {
	case j.fits-j.misfits >= 2:
		j.faces = facesSet
	case j.misfits-j.fits >= 2:
		j.faces = facesMirrored
		return mirrored(ev), true
	}
	return ev, false
}

// mirrored is ev with the clock's sides turned round (see learnFaces).
func mirrored(ev clockd.ClockEvent) clockd.ClockEvent {
	switch ev.Kind {
	case clockd.Press, clockd.Flag, clockd.PeriodAdded, clockd.Adjusted, clockd.Running, clockd.Started:
		ev.Side = ev.Side.Other()
	}
	ev.Clock = clockd.Times{White: ev.Clock.Black, Black: ev.Clock.White}
	return ev
}

// checked: the board was checked for the starting position a scan lag
// after the join (see joinedAtTheStart).
func (j *joined) checked() { j.state = joinedChecked }
