// The board back from an absence: the deeper search for the moves made
// while it was not read, the plies laid as unverified, and the record
// rebuilt from a position no search reaches.

package reconcile

import (
	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules"
)

// farKind is what a board back from an absence that no short sequence
// explained comes to, searched deeper (see decideFar).
type farKind uint8

const (
	farLay      farKind = iota // a sequence reaches it: its plies are laid unverified (see unverify)
	farTakeBack                // it is an earlier position of the record
	farNoChange                // it is the record's position
	farNone                    // nothing reaches it (see movedOn, rebaseDue, rebase)
)

// decideFar decides what the deeper search's result res comes to, and the
// plies a sequence that reaches the board lays. It changes nothing.
func decideFar(res rules.Result) (farKind, []*chess.Move) {
	switch res.Kind {
	case rules.Forward, rules.Correction:
		return farLay, res.Moves
	case rules.Ambiguous:
		return farLay, shortest(res.Candidates)
	case rules.TakeBack:
		return farTakeBack, nil
	case rules.NoChange:
		return farNoChange, nil
	}
	return farNone, nil
}

// movedOn decides whether the record is rebuilt from the far position the
// board showed before (far) because what it shows now (snap) is that
// position with one legal move made: a piece in the hand is put down on a
// square, never moved by a legal move, so that position was the game's.
// When the far position was shown with pieces lifted, the game's is the one
// they were lifted from (a capture under way, the taken piece lifted first:
// the capturing piece lands by what looks like a legal move from the
// position without it). The record is rebuilt from it with the mover to
// move, and the move is then followed as usual; the presses made since the
// board showed far are those of that move, not of the plies nobody saw.
// Back from a long absence in quick play the board rarely stands still for
// UnexplainedAfter; without this, nothing was followed until it did. back,
// above and tail are the press queue's answers (see fewestTo). It changes
// nothing.
func movedOn(led record, far farPosition, snap rules.Snapshot, back, above, tail int) (rebuild, bool) {
	if far.in == 0 {
		return rebuild{}, false
	}
	// the position the pieces were lifted from, when they were
	base := far.placed
	if base == snap || base.OccupancyOnly || base.Unknown != 0 {
		return rebuild{}, false
	}
	t, ok := moverTo(snap, base, led.rec.Position())
	if !ok {
		return rebuild{}, false
	}
	from, fewest, ok := fewestTo(led, far, base, back, above, tail)
	if !ok {
		return rebuild{}, false
	}
	return rebuild{snap: base, from: from, least: fewest, turn: t, keepIn: far.in, why: Text{Code: TextWhyThenMove}}, true
}

// planLay decides how plies laid unverified after ply from (moves, the
// board showing snap) are reported: the words the report opens with (the
// board back, or first read with the game under way), the input from
// which presses are of the move the board shows since the position the
// plies reach (keepIn: heldIn, the input that showed it; 0 when it shows
// that position), and whether they are the first laid in this absence. It
// changes nothing.
func planLay(rec *rules.Game, a awayFacts, snap rules.Snapshot, heldIn, from int, moves []*chess.Move) (back Text, keepIn int, first bool) {
	back = Text{Code: TextUnverifiedBack}
	if a.fromStart {
		back = Text{Code: TextUnverifiedFirst} // arbiterd started after the first moves
	}
	if _, behind := reached(rec, snap, from, moves); behind {
		// the board shows a move made since the position the plies
		// reach: the presses since it showed that position are of it
		keepIn = heldIn
	}
	return back, keepIn, a.unverifiedFrom == 0
}

// turnKind is what the clock's side to move says of plies laid back from an
// absence (see checkTurn).
type turnKind uint8

const (
	turnUnknown turnKind = iota // the clock has not said: the plies are laid unchecked
	turnAgrees                  // the side to move after them is the clock's
	turnRebase                  // it is not: the record is rebuilt from the board's position
	turnRebuild                 // nor, and the board has moved on from the position they reach: rebuilt from that one
)

// checkTurn checks the side to move after moves (the shortest sequence from
// ply from to the board's position, snap) against the clock's (turn, when
// ok; see clockTurn). When they differ the sequence cannot be the one
// played: more plies were made, by an odd number, and the record is rebuilt
// from the board instead (b: from which ply, at least how many plies made,
// why; for turnRebuild, from which position, with whom to move, and the
// presses of the move the board shows since, from heldIn). laid is the
// absence's count of the first unchecked plies (see absence.laid). It
// changes nothing.
func checkTurn(rec *rules.Game, plyBase int, a awayFacts, laid int, turn chess.Color, ok bool, snap rules.Snapshot, heldIn, from int, moves []*chess.Move) (turnKind, rebuild) {
	reached, behind := reached(rec, snap, from, moves)
	if ok && behind {
		// The board has moved on from the position the moves reach
		// (held plies settled while it shows the next move): the
		// clock's word is about the board as it is, and its turn in the
		// position reached is that of the side whose move the board
		// then shows.
		mover, one := moverTo(snap, reached, rec.PositionAt(from))
		turn, ok = mover, one && mover.Other() == turn
	}
	if !ok {
		return turnUnknown, rebuild{}
	}
	after := rec.PositionAt(from).Turn()
	if len(moves)%2 == 1 {
		after = after.Other()
	}
	if after == turn {
		return turnAgrees, rebuild{}
	}
	back, least := from, len(moves)+1
	if v := a.unverifiedFrom - 1 - plyBase; a.unchecked && v >= 0 && v < back {
		// The unverified plies below were laid when the clock had not
		// said whose turn it was: the wrong side to move may be theirs,
		// and those laid after the first may count moves nobody made.
		// All that is sure is that the first sequence's plies were made,
		// and one more at least since.
		back, least = v, laid+1
	}
	pressed := sideOf(turn.Other())
	why := say(TextWhyPressed,
		sideWord(pressed), sideWord(pressed))
	if !behind {
		return turnRebase, rebuild{from: back, least: least, why: why}
	}
	// rebuilt from the position reached, the move the board shows since
	// is then followed as usual, and the presses since the board showed
	// that position are of it, not of the plies nobody saw
	return turnRebuild, rebuild{snap: reached, from: back, least: least, turn: turn, keepIn: heldIn, why: why}
}

// rebuildable reports whether the record rec can be rebuilt as b says: not
// from an occupancy-only board, unknown codes, or a position that is not
// legal either side to move.
func rebuildable(rec *rules.Game, b rebuild) bool {
	if b.snap.OccupancyOnly || b.snap.Unknown != 0 {
		return false
	}
	r, _ := legalPlacement(b.snap, rec.PositionAt(b.from), b.turn)
	return r != nil
}

// rebuildPlan is how the record is rebuilt (see planRebuild): the record
// from the board's position (rec), the ply the plies it replaces start
// from (from), the last verified ply, how many plies were made unseen and
// whose, whether the board was first read with the game under way (first),
// and whether the record was rebuilt already in this absence with no
// verified move since (again).
type rebuildPlan struct {
	rec                  *rules.Game
	from, verified, made int
	n                    [2]int
	first, again         bool
}

// planRebuild plans the rebuild b (rebuildable) of the record led, the
// absence as a says. Plies shown before the absence and never completed
// are not verified (see unverify): they are among the plies made while the
// board was not read. The record's position takes the move number of the
// plies made, so that moves are named as on a scoresheet. It changes
// nothing.
func planRebuild(led record, a awayFacts, b rebuild) rebuildPlan {
	s, from, least := b.snap, b.from, b.least
	old := led.rec.PositionAt(from)
	rec, turn := legalPlacement(s, old, b.turn)
	p := rebuildPlan{first: a.fromStart, again: a.rebased && len(led.plies) == 0}
	if k := countTrailing(led.plies[:from]); k > 0 {
		from -= k
		least += k
		old = led.rec.PositionAt(from)
	}
	p.from, p.verified = from, led.plyBase+from
	h := led.before.White + led.before.Black + from // half-moves before the position at from
	p.made, p.n = unseenPlies(h, least, sideOf(old.Turn()), turn, p.again)
	if r, err := rules.NewGame(placementFEN(s, old, turn, (h+p.made)/2+1)); err == nil {
		rec = r
	}
	p.rec = rec
	return p
}

// least is the fewest plies that can have been made to reach a position the
// deeper search did not reach (res), counted from the record's position k
// plies back (below the trailing plies the search could replace): one more
// than it searched, or fewer when its node budget stopped it before
// (rules.Result.Least). The search tried the sequences from there too, so
// none of up to resyncPlies plies reaches the position from there when it
// was complete; when its budget stopped it at cost c, none of fewer than
// c-k plies is known not to. (The k plies themselves may never have been
// made: counting them too would number the plies after the rebuild too
// high.)
func least(res rules.Result, k int) int {
	if res.Kind != rules.Unexplained || res.Least <= 0 {
		return 1
	}
	if res.Exhausted {
		return max(1, min(res.Least, resyncPlies+1)-k)
	}
	return min(res.Least, resyncPlies+1)
}

// fewestTo is the record's ply the rebuild from base counts from and the
// fewest plies that can have been made to reach base (see least): those
// found when the board showed far, unless the record has changed since
// (then none is known), or base is the position the pieces of far were
// lifted from, which is searched now (back, above and tail: the press
// queue's retractable, above and unpressedTail). ok is false when that
// search reaches base: it is no far position.
func fewestTo(led record, far farPosition, base rules.Snapshot, back, above, tail int) (from, fewest int, ok bool) {
	if base != far.snap {
		res := explain(led, base, resyncPlies, back, above)
		if res.Kind != rules.Unexplained {
			return 0, 0, false
		}
		k := tail
		return led.rec.Ply() - k, least(res, k), true
	}
	if far.fen != led.rec.FEN() || far.from > led.rec.Ply() {
		return led.rec.Ply(), 1, true // the record changed since: no count is known
	}
	return far.from, far.least, true
}

// reached is the position moves reach from ply from, and whether the board
// shows another (it has moved on since).
func reached(rec *rules.Game, board rules.Snapshot, from int, moves []*chess.Move) (rules.Snapshot, bool) {
	p := rec.PositionAt(from)
	for _, m := range moves {
		p = p.Update(m)
	}
	s := rules.SnapshotOf(p)
	return s, !sameBoard(s, board)
}

// moverTo is the side whose one legal move leads from the pieces of s
// (castling and en passant rights as far as old allows them) to the
// board's position; ok is false when no single move of either side does.
func moverTo(board, s rules.Snapshot, old *chess.Position) (chess.Color, bool) {
	for _, t := range []chess.Color{chess.White, chess.Black} {
		r, err := rules.NewGame(placementFEN(s, old, t, 1))
		if err != nil {
			continue
		}
		res := rules.Reconstruct(r, board, rules.Options{MaxPlies: 1})
		if res.Kind == rules.Forward && len(res.Moves) == 1 {
			return t, true
		}
	}
	return chess.White, false
}

// unseenPlies is how many plies were made while the board was not read
// and how many of them were each side's, h half-moves into the game, first
// to move after the last verified position and turn to move in the one
// the board shows: at least least, and one more when the side to move
// requires it. A record rebuilt again in the same absence, with no
// verified move since, was rebuilt from a board in the middle of a change:
// it is replaced, numbered the same (none made).
func unseenPlies(h, least int, first clockd.Side, turn chess.Color, again bool) (made int, n [2]int) {
	made = least
	if (h+made)%2 != oneIf(turn == chess.Black) {
		made++
	}
	if again {
		made = 0
	}
	side := first
	for i := 0; i < made; i++ {
		n[side]++
		side = side.Other()
	}
	return made, n
}

// oneIf is 1 when b holds, else 0.
func oneIf(b bool) int {
	if b {
		return 1
	}
	return 0
}

// laidPlies are plies laid in the record unverified: how many were each
// side's, their text as on a scoresheet ("5.e4 e5") and their SAN.
type laidPlies struct {
	n           [2]int
	words, sans []string
}

// rebuildOutcome is whether the record was rebuilt from the board, and
// whether the board has moved on from the position it was rebuilt from.
type rebuildOutcome uint8

const (
	notRebuilt       rebuildOutcome = iota
	rebuiltFromBoard                // rebuilt from the position the board shows
	rebuiltBehind                   // rebuilt from one the board has moved on from: look again
)

// rebuild is how the record is rebuilt (see Game.rebuild): from the
// position snap, the plies after from replaced by at least least plies
// nobody saw, why saying how snap stands to the record; turn is the side to
// move in snap (the other if that position is not legal); presses read from
// input keepIn on (when not 0: the input that showed snap) are of the moves
// after snap, not of those plies.
type rebuild struct {
	snap   rules.Snapshot
	from   int
	least  int
	why    Text
	turn   chess.Color
	keepIn int
}
