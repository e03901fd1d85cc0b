// When an input came (its time and its number among the inputs), and the
// small questions every stage asks of the state: whether a ply is
// completed, whether the board is explained, whether it is searched
// deeper after an absence. They change nothing; read this file once.

package reconcile

import (
	"time"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules"
)

// stamp is when an input came: its time, and its number among the inputs
// (Game.inputs). Inputs that carry the same time (several messages decoded
// from one read of a port) happened in the order they were fed, so that a
// press is paired with the board states that came before it in that
// order, not with the ones after it.
type stamp struct {
	at time.Duration
	in int
}

// before reports whether s came before o: by time, and by the order of
// input when the times are equal.
func (s stamp) before(o stamp) bool {
	return s.at < o.at || (s.at == o.at && s.in < o.in)
}

// stamp is when the press was reported.
func (p pendingPress) stamp() stamp { return stamp{p.ev.At, p.in} }

// completed reports whether nothing waits for the ply any more: it was
// completed, or it is unverified.
func (p plyInfo) completed() bool { return p.status != plyMade }

// pressed reports whether the ply was completed by its side's press.
func (p plyInfo) pressed() bool { return p.status == plyPressed }

// unverified reports whether the ply was made unseen (plyUnverified).
func (p plyInfo) unverified() bool { return p.status == plyUnverified }

// on reports whether the board shows what nothing explains.
func (u unexplainedBoard) on() bool { return u.state != boardExplained }

// reported reports whether the arbiter was told of it.
func (u unexplainedBoard) reported() bool { return u.state == boardUnexplainedReported }

// away reports whether the held plies were found after an absence.
func (h held) away() bool { return h.kind == heldAway || h.kind == heldAwayInHand }

// resyncing reports whether the board is searched to the full depth.
func (a awayFacts) resyncing() bool { return a.search != inStep }

// unsettled reports whether the board has been away since a.at and is not
// yet explained again.
func (a awayFacts) unsettled() bool { return a.search == unsettled || a.search == unsettledLossy }

// mark is the first stamp after the board went away: an input stamped
// before it was read before the absence (see before).
func (a awayFacts) mark() stamp { return stamp{a.at, a.in + 1} }

// unsure reports whether the record ends in what arbiterd put there without
// verifying it (unverified plies, or a record rebuilt from the board), with
// no verified move after it yet: the absence is not over.
func (a awayFacts) unsure(plies []plyInfo) bool {
	n := len(plies)
	return (n > 0 && plies[n-1].unverified()) || (n == 0 && a.rebased)
}

// seen reports whether the clock has given a word.
func (w clockWord) seen() bool { return w.board != wordNone }

// started reports whether the clock has started.
func (r roundState) started() bool { return r != roundNotStarted }

// Of returns the count of one side.
func (m Moves) Of(s clockd.Side) int {
	if s == clockd.Black {
		return m.Black
	}
	return m.White
}

// sideOf is the clock's side of a colour.
func sideOf(c chess.Color) clockd.Side {
	if c == chess.Black {
		return clockd.Black
	}
	return clockd.White
}

// sameBoard compares two snapshots (by occupancy when either senses only that).
func sameBoard(a, b rules.Snapshot) bool {
	if a.Unknown != 0 || b.Unknown != 0 {
		return false
	}
	occ := a.OccupancyOnly || b.OccupancyOnly
	for i := range a.Squares {
		if occ {
			if (a.Squares[i] == chess.NoPiece) != (b.Squares[i] == chess.NoPiece) {
				return false
			}
		} else if a.Squares[i] != b.Squares[i] {
			return false
		}
	}
	return true
}
