// The board view: what the board shows of the game against the record —
// its latest snapshot and change, the plies held, whether what it shows
// is explained. What it decides from them is board.go's; when its waits
// end, schedule.go's.

package reconcile

import (
	"time"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/rules"
)

// boardView is what the board shows of the game: its latest snapshot and
// when it last changed, the plies it shows that are held, not yet
// accepted, and whether what it shows is explained. The board's latest
// reading (boardRead) outlives a game; the rest is set anew with it.
type boardView struct {
	boardFacts
	boardRead stamp // the latest board input
	// shown is the snapshot the board changed to at changed (nil: none
	// since the board was last read afresh); a snapshot equal to it
	// changes nothing.
	shown *rules.Snapshot
	// placed is the last snapshot that was not made from the one before by
	// lifting pieces only: while pieces are lifted (in a hand, or a taken
	// piece lifted before the capturing one lands) the game's position is
	// the one they were lifted from (see movedOnFrom).
	placed rules.Snapshot
}

// boardFacts is what the view says of the board to the other stages, which
// the Game hands them as a value: the latest snapshot, when it last
// changed, the plies held and whether what it shows is explained.
type boardFacts struct {
	snap        rules.Snapshot   // the last snapshot, in White-bottom frame
	changed     stamp            // when the board last changed, and by which input
	held        held             // several plies the board shows, not yet accepted
	unexplained unexplainedBoard // the board shows what no legal sequence explains
}

// held is several plies the board shows at once, not yet accepted.
type held struct {
	plies  []*chess.Move
	from   int // the ply they start from
	backTo int // ≥ 0: the held plies may instead be a take-back to this ply
	// kind: the held plies continue a recorded slide, or were found after
	// an absence (a resync search), or neither
	kind heldKind
	// replaces: the held plies replace a completed move the board shows
	// was another (see miscommitted), or merge two recorded moves of one
	// piece around a reply into one (see fitsMerge)
	replaces  replacement
	in        int  // the input that showed the position they reach (its changed.in)
	ambiguous bool // after an absence, several sequences explain the board equally well
	// tried: the board and record miscommitted last searched in vain; the
	// same board against the same record is not searched again.
	tried struct {
		done   bool
		snap   rules.Snapshot
		fen    string
		counts Moves
	}
}

// heldKind is where held plies come from.
type heldKind uint8

const (
	heldPlain heldKind = iota // the board, in step
	heldSlide                 // the board, continuing a recorded slide (see fewer)
	heldAway                  // a resync search after an absence
	// heldAwayInHand: after an absence, and they leave the other side to
	// move than the clock says, and the board is, but for one piece
	// lifted off it, a position the clock agrees with (see pieceInHand):
	// a move or a capture in the making, held until the board has shown
	// it for UnexplainedAfter.
	heldAwayInHand
)

// replacement is what held plies do to the completed moves of the record.
type replacement uint8

const (
	replacesNothing   replacement = iota // they follow the record (or its uncompleted plies)
	replacesCompleted                    // they replace a completed move the board shows was another
	mergesCompleted                      // two completed moves of one piece around a reply were one
)

// unexplainedBoard is a board that shows what no legal sequence from the
// record explains: whether it does, since which input, and whether the
// arbiter was told.
type unexplainedBoard struct {
	state unexplainedState
	since stamp
}

// unexplainedState is where an unexplained board stands.
type unexplainedState uint8

const (
	boardExplained           unexplainedState = iota // the board shows what the record explains
	boardUnexplained                                 // it shows what nothing explains, not yet reported
	boardUnexplainedReported                         // and the arbiter was told (or the press judged it)
)

// dumped takes a dump (s, in the board's own frame, the board facing
// orient) as the board read afresh, before it is shown: see Dump. It comes
// after the deadlines due by the dump's time were decided, so that what
// was laid on the image of before an absence and waits for the dump is not
// decided on that image at the dump's own input. first: the first dump
// since the board was disconnected. It reports whether the dump
// contradicts the image (see absence.contradicted).
func (v *boardView) dumped(first bool, orient rules.Orientation, s rules.Snapshot) bool {
	r := s
	if orient == rules.BlackBottom {
		r = r.Rotated()
	}
	if first {
		// The first dump since the board was disconnected: plies
		// held on what field updates showed before it were laid on
		// the image of before the absence, and go.
		v.held.plies, v.held.ambiguous = nil, false
		v.held.notAway()
	}
	return r.Squares != v.snap.Squares || r.Unknown != v.snap.Unknown
}

// warnUnexplained tells the arbiter that the board has shown, for
// UnexplainedAfter, something arbiterd cannot follow: not the start
// position yet, a second move by one side (7.5), or a position no legal
// sequence explains.
func (v *boardView) warnUnexplained(em *emitter, led record, start *chess.Position, maxPlies int, oriented bool, out *[]Event, at time.Duration) {
	if !oriented {
		em.anomaly(out, at, KindUnexplainedPosition, 0, true, "–",
			say(TextNotOriented,
				spanWord(limitOf(at, v.unexplained.since.at)), start.String()))
		return
	}
	if side, san, ok := twoMoves(led.rec, v.snap); ok {
		em.anomaly(out, at, KindTwoMoves, side, false, "7.5",
			say(TextTwoMovesBoard,
				sideWord(side), san, sideWord(side.Other()), sideWord(side), led.rec.FEN()))
		return
	}
	em.anomaly(out, at, KindUnexplainedPosition, 0, true, "–",
		say(TextUnexplained,
			spanWord(limitOf(at, v.unexplained.since.at)), maxPlies, led.rec.FEN()))
}

// reset sets the view anew for a new game from start: the board shows it,
// holds nothing and is explained. Its latest reading and change go on.
func (v *boardView) reset(start *chess.Position) {
	v.snap = rules.SnapshotOf(start)
	v.placed = v.snap
	v.shown = nil
	v.held = held{backTo: -1}
	v.unexplained = unexplainedBoard{}
}

// readAgain: the board is read again after it was disconnected; how long
// it has shown what it shows counts from now, not across the time it was
// not read.
func (v *boardView) readAgain(at time.Duration, inputs int) {
	v.shown = nil
	if v.unexplained.on() {
		v.unexplained.since = stamp{at, inputs}
	}
}

// boardWasRead records the board's latest reading.
func (v *boardView) boardWasRead(at time.Duration, inputs int) {
	v.boardRead.at, v.boardRead.in = at, inputs
}
