// The board's absences: what arbiterd knows of a board that went away
// and of the plies made while it was, and the search after it.

package reconcile

import (
	"strings"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules"
)

// absence is what arbiterd knows of a board that went away (unplugged,
// powered off, changes lost) and of the plies made while it was. What the
// other stages read of it is its awayFacts, which the Game hands them as a
// value.
type absence struct {
	awayFacts
	warned bool // the unverified-moves anomaly of this absence was raised
	// unverifiedOpen is set when the count of unverified plies is only a lower
	// bound because no sequence reached the board's position (the record
	// was rebuilt from the board).
	unverifiedOpen bool
	// far: back from an absence, the position not even the deeper search
	// reaches (see farPosition).
	far farPosition
	// laid is how many plies the first of the unchecked ones numbered from
	// the last verified position: the fewest that can have been made up to
	// the position they reached.
	laid int
}

// awayFacts is what the absence says of the board to the other stages:
// whether it is away or searched deeper, when it went away, the plies made
// unseen and the presses that belong to them. Its methods only read it.
type awayFacts struct {
	disconnected bool // the board is disconnected: presses wait for it
	// search: whether the board's position is searched to the full
	// depth until it is explained again, and whether the board has been
	// away since at and is not yet explained (unsettled)
	search searchState
	at     time.Duration // when the board went away (or was last believed)
	in     int           // the last input read before it (see before)
	// unverified counts, by side, the plies made while the board was not read
	// that arbiterd could not verify (at least that many: the shortest
	// sequence that reaches the board's position, or more when none was
	// found); unverifiedFrom is the first of them (0: none). The counts of
	// completed moves do not include them, so a flag gets no verdict on a
	// count that may be short.
	unverified     [2]int
	unverifiedFrom int
	// absorb[side]: presses of side that belong to its unverified plies
	// and may still be read (the clock, relayed by the board, is read
	// after the board is back): they complete nothing and are no presses
	// without a move.
	absorb  [2]int
	suspect bool // back from an absence, the board shows what nothing explains
	// stale: back from an absence, the board shows a position arbiterd
	// can neither reach nor start from; presses since the absence are not
	// judged. It is independent of suspect: the board can change again
	// to what nothing explains while stale, and both hold.
	stale   bool
	rebased bool // the record was rebuilt from the board in this absence
	// unchecked: unverified plies were laid when the clock had not shown
	// whose turn it was in the board's position; a side to move the clock
	// shows later may contradict them (see unverify).
	unchecked bool
	// undumped: the board has not been read whole (a dump) since it was
	// disconnected. Until it is, a field update is laid on the image of
	// before the absence, which may be stale: what it explains is held
	// for the dump, not accepted at once (see forward). (Since the
	// disconnection, not since the reconnection: the board's first dump
	// may be read before the session says it is connected.)
	undumped bool
	// starting: the board was disconnected and the session has not said
	// it is connected again: a board read meanwhile is answering the
	// driver's start-up, whose dump is on its way (see heldDue).
	starting bool
	// fromStart: the board was first read with the game under way: every
	// ply made before was made unseen, one or two included (see gameUnderWay).
	fromStart bool
}

// searchState is how far the board is from being explained again after
// it was away.
type searchState uint8

const (
	inStep    searchState = iota // the board's position follows from the record
	resyncing                    // back (connected, resync): searched to the full depth until explained
	unsettled                    // and away since absence.at, not yet explained again
	// unsettledLossy: unsettled, and the absence is lost field updates —
	// a dump contradicted the image while the board was connected. Until
	// the board is back in step, what it shows is known only as of its
	// latest reading: a press after that reading may complete a move the
	// board has not shown yet (the updates of a capture lost, the next
	// dump a second away), so nothing is settled or rebuilt on the
	// clock's word until the board has been read after it (see
	// waitsForTheBoard).
	unsettledLossy
)

// farPosition is a position the board showed back from an absence that not
// even the deeper search reaches from the record. Rebuilding the record from
// it is final, and a piece held in the hand looks the same, so the board
// must show it for UnexplainedAfter first — or show it with one legal move
// made (see movedOnFrom). A new snapshot is searched again at once.
type farPosition struct {
	in   int            // the input that showed it (its changed.in; 0: none)
	snap rules.Snapshot // the position
	// the fewest plies that can have been made to reach it (see least),
	// from the record's position below its trailing plies (from), while
	// the record is at position fen
	least, from int
	fen         string
	// placed: the position the pieces of snap were lifted from (see
	// boardView.placed), snap itself when none was
	placed rules.Snapshot
}

// backInStep ends an absence: the board's position is explained again.
func (a *absence) backInStep() {
	a.search, a.suspect, a.stale, a.rebased = inStep, false, false, false
	a.far = farPosition{}
	a.fromStart = false
}

// reportLaid raises the unverified-moves anomaly of plies laid after ply
// verified; back opens the text (how the board was read again).
func (a *absence) reportLaid(em *emitter, led record, out *[]Event, at time.Duration, back Text, verified int, l laidPlies, ambiguous bool) {
	first := verified + 1
	how := say(TextUnverifiedOnly, strings.Join(l.words, " "))
	if ambiguous {
		how = say(TextUnverifiedSeveral, strings.Join(l.words, " "))
	}
	a.reportUnverified(em, out, at, say(TextUnverifiedLaid,
		back, len(l.words), verified, led.counts.White, led.counts.Black, how, first, first+len(l.words)-1, l.n[clockd.White], l.n[clockd.Black]),
		Event{Ply: verified, Made: len(l.sans), Plies: l.sans, FEN: led.rec.FEN()})
}

// reportRebuilt raises the unverified-moves anomaly of a rebuilt record:
// made plies nobody saw after ply verified, n of them each side's; first
// when the board was first read with the game under way.
func (a *absence) reportRebuilt(em *emitter, led record, out *[]Event, at time.Duration, first bool, why Text, verified, made int, n [2]int) {
	fen := led.rec.FEN()
	back := Text{Code: TextUnverifiedBack}
	if first {
		back = Text{Code: TextUnverifiedFirst} // arbiterd started after the first moves
	}
	a.reportUnverified(em, out, at, say(TextUnverifiedRebuilt,
		back, made, verified, led.counts.White, led.counts.Black, why, n[clockd.White], n[clockd.Black], verified+1, fen, verified+1),
		Event{Ply: verified, Made: made, FEN: fen})
}

// absorbPresses lets as many more presses of each side as its unverified
// plies (n of each side) still lack complete nothing without penalty, once
// those that waited for them were dropped (seen, see
// pressQueue.dropUnseen): the clock is relayed by the board, so the
// presses made meanwhile may be read only after it is back. The presses
// read from the input that showed the position the record was rebuilt
// from are kept: they are of moves made after it (see movedOnFrom).
// Inputs, not stamps: a stalled host reads a burst at one stamp.
func (a *absence) absorbPresses(n, seen [2]int) {
	for s := range a.absorb {
		a.absorb[s] = max(0, n[s]-seen[s])
	}
}

// reportUnverified raises the unverified-moves anomaly, once per absence.
// where: the plies the anomaly names, for a reader of the stream that
// follows the board (the LiveChess feed): from the last verified ply,
// made of them, by plies (their SAN) or not known, to the position fen
// (empty: nothing could be built from what the board shows).
func (a *absence) reportUnverified(em *emitter, out *[]Event, at time.Duration, detail Text, where Event) {
	if a.warned {
		return
	}
	a.warned = true
	em.emit(out, at, Event{Type: TypeAnomaly, Kind: KindUnverified, NoSide: true, Article: "6.10", Text: detail,
		Ply: where.Ply, Made: where.Made, Plies: where.Plies, FEN: where.FEN})
}

// resync: the board is back, and searched to the full depth until its
// position is explained.
func (a *absence) resync() {
	if a.search == inStep {
		a.search = resyncing
	}
}

// before reports whether the input in, stamped at, was read before the
// board went away. Stamps alone cannot say when they are equal: a
// disconnection is stamped at the last record read before it, which may be
// a press (a killed daemon's journal), so an input stamped a.at is before
// the absence when it is no later than a.in.
func (a awayFacts) before(at time.Duration, in int) bool {
	return stamp{at, in}.before(a.mark())
}

// endAbsorbing ends the absence's presses once a press is read live.
func (a *absence) endAbsorbing(pr pendingPress) {
	if !pr.ev.Inferred {
		a.absorb[pr.ev.Side] = 0
	}
}

// absorbed: a press of side's unverified plies was read (see absorbs).
func (a *absence) absorbed(side clockd.Side) { a.absorb[side]-- }

// suspectBoard: back from an absence, the board shows a position that no
// short sequence reaches (see resyncFar).
func (a *absence) suspectBoard() { a.suspect = true }

// nothingFar: the board shows no position to resynchronise to (it shows
// the starting position in the middle of the game).
func (a *absence) nothingFar() { a.suspect, a.far = false, farPosition{} }

// searchFar: the position the board showed back from the absence is
// searched deeper now (see resyncFar); it is suspect again only if the
// search says so.
func (a *absence) searchFar() { a.suspect = false }

// waitFar: the board shows far, a position not even the deeper search
// reaches; the record is rebuilt from it once it has stood (see rebaseDue).
func (a *absence) waitFar(far farPosition) { a.suspect, a.far = true, far }

// noFar: the far position is no longer waited for.
func (a *absence) noFar() { a.far = farPosition{} }

// lost: nothing can be built from what the board shows; presses made
// since the absence are not judged (stale), and the plies after ply last
// are unverified.
func (a *absence) lost(last int) {
	a.stale = true
	if a.unverifiedFrom == 0 {
		a.unverifiedFrom = last + 1
	}
}

// notFromStart: the plies made before the board was first read with the
// game under way have been laid (or the record rebuilt).
func (a *absence) notFromStart() { a.fromStart = false }

// laidUnchecked: plies were laid while the clock had not said whose turn
// it was (see rebuildOnTheClocksTurn).
func (a *absence) laidUnchecked() { a.unchecked = true }

// laidUnverified counts the plies laid unverified after ply verified (n of
// each side, count in all; first: the first laid in this absence) and the
// presses that belong to them (seen, see absorbPresses). The absence ends
// with the first verified move after them.
func (a *absence) laidUnverified(n, seen [2]int, verified, count int, first bool) {
	a.unverified[clockd.White] += n[clockd.White]
	a.unverified[clockd.Black] += n[clockd.Black]
	if a.unverifiedFrom == 0 {
		a.unverifiedFrom = verified + 1
	}
	if first {
		a.laid = count
	}
	a.absorbPresses(n, seen)
	a.suspect, a.stale = false, false
}

// rebuilt counts the plies made unseen before the record was rebuilt from
// the board after ply verified (n of each side, a lower bound) and, with
// absorb, the presses that belong to them (seen, see absorbPresses).
func (a *absence) rebuilt(n, seen [2]int, verified int, absorb bool) {
	a.unverified[clockd.White] += n[clockd.White]
	a.unverified[clockd.Black] += n[clockd.Black]
	a.unverifiedOpen = true
	if a.unverifiedFrom == 0 {
		a.unverifiedFrom = verified + 1
	}
	if absorb {
		a.absorbPresses(n, seen)
	}
	a.suspect, a.stale, a.rebased = false, false, true
}

// away: the board is away from at, the input in the last read before it;
// its position is searched to the full depth until it is explained again.
func (a *absence) away(at time.Duration, in int) {
	a.search, a.at, a.in, a.warned, a.unchecked = unsettled, at, in, false, false
}

// fromTheStart: the board is first read with the game under way; the
// moves made before are those of an absence from the start (see orientTo).
func (a *absence) fromTheStart() {
	a.away(0, 0)
	a.fromStart = true
}

// connected: the session says the board is connected again.
func (a *absence) connected() { a.starting = false }

// disconnect: the board was disconnected at at, after input in. Presses
// wait for it to be back. What it shows when it is read again may be
// several plies on, and it may be read before the session says it is
// connected (a restarted daemon's board answers first).
func (a *absence) disconnect(at time.Duration, in int) {
	a.disconnected = true
	a.undumped, a.starting = true, true
	if !a.unsettled() {
		a.away(at, in)
	}
}

// reconnected: the board is read again after it was disconnected.
func (a *absence) reconnected() { a.disconnected = false }

// dumpRead: the board is read whole (a dump). It reports whether it had not
// been since it was disconnected.
func (a *absence) dumpRead() (first bool) {
	first = a.undumped
	a.undumped = false
	return first
}

// contradicted: a dump contradicted the image of the board (first: the
// first dump since the board was disconnected; last: the board's latest
// reading before it). Changes were lost, and the board is searched as back
// from an absence.
func (a *absence) contradicted(first bool, last stamp) {
	a.resync()
	lossy := a.search == unsettledLossy || !a.disconnected
	if !a.unsettled() {
		a.search, a.warned, a.unchecked = unsettled, false, false
		if !first {
			// the image was last known right at the previous input
			a.at, a.in = last.at, last.in
		}
		// else the absence is the disconnection's, whatever field
		// updates laid on the image of before it seemed to say:
		// what was read since, presses included, was read after
		// it
	}
	if lossy {
		a.search = unsettledLossy
	}
}

// unlaid: unverified plies of these sides were taken off the record, the
// latest first; once none is left, unless the count was open, the count is
// verified again.
func (a *absence) unlaid(sides []clockd.Side) {
	for _, s := range sides {
		a.unverified[s]--
		if a.unverified == [2]int{} && !a.unverifiedOpen {
			a.unverifiedFrom, a.unchecked = 0, false // the count is verified again
		}
	}
}
