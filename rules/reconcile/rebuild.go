// The board back from an absence: the deeper search for the moves made
// while it was not read, the plies laid as unverified, and the record
// rebuilt from a position no search reaches.

package reconcile

import (
	"time"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules"
)

// resyncFar handles a board that, back from an absence, has shown for
// ScanLag a position no sequence of up to MaxPlies moves reaches. A deeper
// search finds how many plies at least were made; the record is brought to
// the board's position by the shortest sequence, whose plies are reported
// as not verified. When nothing reaches it and the board has shown it for
// UnexplainedAfter, the record is rebuilt from the board's position itself.
//
// due is the time the deadline fell due: the wait for rebaseDue is over
// when due reaches it, even when the events are stamped earlier (the end
// of a capture decides every deadline at once; comparing the stamp, the
// deadline fell due again and again, a search each time).
func (g *Game) resyncFar(out *[]Event, at, due time.Duration) {
	g.away.searchFar()
	mark := g.away.mark()
	res := explain(g.led.record, g.view.snap, resyncPlies, g.waiting.retractable(g.led.record, mark),
		g.waiting.above(g.led.record, mark, g.away.resyncing()))
	switch res.Kind {
	case rules.Forward, rules.Correction, rules.Ambiguous:
		moves := res.Moves
		if res.Kind == rules.Ambiguous {
			moves = shortest(res.Candidates)
		}
		g.view.unexplained.clear()
		if g.unverify(out, at, res.From, moves, res.Kind == rules.Ambiguous) == rebuiltBehind {
			g.process(out, at)
		}
		return
	case rules.TakeBack:
		g.view.unexplained.clear()
		g.away.backInStep()
		g.away.unlaid(g.led.retract(&g.em, out, at, res.From, nil, retractSeen))
		return
	case rules.NoChange:
		g.view.unexplained.clear()
		if !g.away.unsure(g.led.plies) {
			g.away.backInStep()
		}
		return
	}
	if g.movedOnFrom(out, at) {
		return
	}
	// The plies the board showed before the absence and nobody completed
	// may never have been made (a piece seen on its way): the search tried
	// the sequences that replace them too, and the fewest plies made count
	// from below them.
	k := g.waiting.unpressedTail(g.led.record, g.away.mark())
	from, fewest := g.led.rec.Ply()-k, least(res, k)
	if max(at, due) < g.view.rebaseDue(g.cfg, g.waiting.pressFacts, g.away.awayFacts) {
		// Wait: a piece in a hand, or one knocked over, is no position
		// to rebuild the record from; one the board keeps showing is.
		g.away.waitFar(farPosition{in: g.view.changed.in, snap: g.view.snap, least: fewest, from: from, fen: g.led.rec.FEN(),
			placed: g.view.placed})
		return
	}
	g.away.noFar()
	if g.rebase(out, at, from, fewest, Text{Code: TextWhyUnreachable}) {
		g.view.unexplained.clear()
		return
	}
	// Nothing can be built from what the board shows (unknown codes, an
	// occupancy-only board, no legal position): presses made since the
	// absence are not judged on the stale record, and arbiterd tries
	// again when the board changes.
	g.away.lost(g.led.plyBase + g.led.rec.Ply())
	g.away.reportUnverified(&g.em, out, at, say(TextUnverifiedLost,
		g.led.plyBase+g.led.rec.Ply(), g.led.counts.White, g.led.counts.Black, resyncPlies, g.led.plyBase+g.led.rec.Ply()+1), Event{})
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

// movedOnFrom rebuilds the record from the far position the board showed
// before (see absence.far) when what it shows now is that position with one
// legal move made: a piece in the hand is put down on a square, never moved
// by a legal move, so that position was the game's. When the far position
// was shown with pieces lifted, the game's is the one they were lifted
// from (a capture under way, the taken piece lifted first: the capturing
// piece lands by what looks like a legal move from the position without
// it). The record is rebuilt from it with the mover to move, and the move
// is then followed as usual. Back from a long absence in quick play the
// board rarely stands still for UnexplainedAfter; without this, nothing was
// followed until it did.
func (g *Game) movedOnFrom(out *[]Event, at time.Duration) bool {
	far := g.away.far
	if far.in == 0 {
		return false
	}
	// the position the pieces were lifted from, when they were
	base := far.placed
	if base == g.view.snap || base.OccupancyOnly || base.Unknown != 0 {
		return false
	}
	t, ok := moverTo(g.view.snap, base, g.led.rec.Position())
	if !ok {
		return false
	}
	mark := g.away.mark()
	from, fewest, ok := fewestTo(g.led.record, far, base, g.waiting.retractable(g.led.record, mark),
		g.waiting.above(g.led.record, mark, g.away.resyncing()), g.waiting.unpressedTail(g.led.record, mark))
	if !ok {
		return false
	}
	// the presses made since the board showed far are those of the
	// move it then showed, not of the plies nobody saw
	if !g.rebuild(out, at, rebuild{snap: base, from: from, least: fewest, turn: t, keepIn: far.in,
		why: Text{Code: TextWhyThenMove}}) {
		return false
	}
	g.process(out, at)
	return true
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

// unverify brings the record to the board's position by moves that
// replace the plies after from, made while the board was not read: they
// are recorded, not completed, not counted, and reported. When the clock's
// turn has the record rebuilt instead, it says so as rebuildOnTheClocksTurn.
func (g *Game) unverify(out *[]Event, at time.Duration, from int, moves []*chess.Move, ambiguous bool) rebuildOutcome {
	g.resolveBefore(out, at)
	back := Text{Code: TextUnverifiedBack}
	if g.away.fromStart {
		back = Text{Code: TextUnverifiedFirst} // arbiterd started after the first moves
	}
	g.away.notFromStart() // the plies made before the board was first read are these
	if len(moves) > 0 {
		if r := g.rebuildOnTheClocksTurn(out, at, from, moves); r != notRebuilt {
			return r
		}
	}
	keepIn := 0
	if _, behind := reached(g.led.rec, g.view.snap, from, moves); behind {
		// the board shows a move made since the position the plies
		// reach: the presses since it showed that position are of it
		keepIn = g.view.held.in
	}
	firstLaid := g.away.unverifiedFrom == 0
	if from < g.led.rec.Ply() {
		g.away.unlaid(g.led.retract(&g.em, out, at, from, moves, retractSeen))
	}
	// A ply the board showed before the absence and nobody completed is not
	// verified either: the piece may have been on its way (the board
	// caught a slide half made), and what became of it was not seen. It
	// stays in the record, with the plies made meanwhile, unverified.
	kept := countTrailing(g.led.plies)
	verified := g.led.plyBase + g.led.rec.Ply() - kept
	l := g.led.layUnverified(at, kept, moves)
	if len(l.words) == 0 {
		return notRebuilt
	}
	seen := g.waiting.dropUnseen(g.away.mark(), keepIn)
	g.away.laidUnverified(l.n, seen, verified, len(l.words), firstLaid)
	g.away.reportLaid(&g.em, g.led.record, out, at, back, verified, l, ambiguous)
	return notRebuilt
}

// rebuildOnTheClocksTurn checks the side to move after moves (the shortest
// sequence from ply from to the board's position) against the clock's
// (clockTurn). When they differ the sequence cannot be the one played: more
// plies were made, by an odd number, and the record is rebuilt from the
// board instead (it reports whether it was, and rebuiltBehind when the
// board has moved on from the position rebuilt: the caller looks at it
// again). Without the clock's word the plies are laid unchecked, for a
// later press to contradict.
func (g *Game) rebuildOnTheClocksTurn(out *[]Event, at time.Duration, from int, moves []*chess.Move) rebuildOutcome {
	turn, ok := g.waiting.clockTurn(g.away.at, g.view.snap)
	reached, behind := reached(g.led.rec, g.view.snap, from, moves)
	if ok && behind {
		// The board has moved on from the position the moves reach
		// (held plies settled while it shows the next move): the
		// clock's word is about the board as it is, and its turn in the
		// position reached is that of the side whose move the board
		// then shows.
		mover, one := moverTo(g.view.snap, reached, g.led.rec.PositionAt(from))
		turn, ok = mover, one && mover.Other() == turn
	}
	if !ok {
		g.away.laidUnchecked()
		return notRebuilt
	}
	after := g.led.rec.PositionAt(from).Turn()
	if len(moves)%2 == 1 {
		after = after.Other()
	}
	if after == turn {
		return notRebuilt
	}
	back, least := from, len(moves)+1
	if v := g.away.unverifiedFrom - 1 - g.led.plyBase; g.away.unchecked && v >= 0 && v < back {
		// The unverified plies below were laid when the clock had not
		// said whose turn it was: the wrong side to move may be theirs,
		// and those laid after the first may count moves nobody made.
		// All that is sure is that the first sequence's plies were made,
		// and one more at least since.
		back, least = v, g.away.laid+1
	}
	pressed := sideOf(turn.Other())
	why := say(TextWhyPressed,
		sideWord(pressed), sideWord(pressed))
	if !behind {
		if g.rebase(out, at, back, least, why) {
			return rebuiltFromBoard
		}
		return notRebuilt
	}
	// rebuilt from the position reached, the move the board shows since
	// is then followed as usual, and the presses since the board showed
	// that position are of it, not of the plies nobody saw
	if !g.rebuild(out, at, rebuild{snap: reached, from: back, least: least, turn: turn, keepIn: g.view.held.in, why: why}) {
		return notRebuilt
	}
	g.view.unexplained.clear()
	return rebuiltBehind
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

// rebase rebuilds the record from the position the board shows, when no
// sequence of moves from the record reaches it or the clock says the one
// found has the wrong side to move: the side to move is the clock's
// (clockTurn), else the record's; the ply numbers go on from the fewest
// plies that can have been made.
//
// why says how the board's position stands to the record ("which no
// sequence of moves arbiterd can check reaches").
func (g *Game) rebase(out *[]Event, at time.Duration, from, least int, why Text) bool {
	turn := g.led.rec.PositionAt(from).Turn()
	if t, ok := g.waiting.clockTurn(g.away.at, g.view.snap); ok {
		turn = t
	}
	return g.rebuild(out, at, rebuild{snap: g.view.snap, from: from, least: least, why: why, turn: turn})
}

// rebuild rebuilds the record as b says (see rebase); it reports whether it
// could (not from an occupancy-only board, unknown codes, or a position
// that is not legal either side to move).
func (g *Game) rebuild(out *[]Event, at time.Duration, b rebuild) bool {
	s, from, least := b.snap, b.from, b.least
	if s.OccupancyOnly || s.Unknown != 0 {
		return false
	}
	old := g.led.rec.PositionAt(from)
	rec, turn := legalPlacement(s, old, b.turn)
	if rec == nil {
		return false
	}
	g.resolveBefore(out, at)
	first := g.away.fromStart // the board was first read with the game under way
	g.away.notFromStart()
	again := g.away.rebased && len(g.led.plies) == 0
	// Plies shown before the absence and never completed are not verified
	// (see unverify): they are among the plies made while the board was
	// not read.
	if k := countTrailing(g.led.plies[:from]); k > 0 {
		from -= k
		least += k
		old = g.led.rec.PositionAt(from)
	}
	if from < g.led.rec.Ply() {
		g.away.unlaid(g.led.retract(&g.em, out, at, from, nil, retractSeen)) // superseded by the board's position
	}
	verified := g.led.plyBase + from
	h := g.led.before.White + g.led.before.Black + from // half-moves before the position at from
	made, n := unseenPlies(h, least, sideOf(old.Turn()), turn, again)
	// the move number of the position, so that moves are named as on a scoresheet
	if r, err := rules.NewGame(placementFEN(s, old, turn, (h+made)/2+1)); err == nil {
		rec = r
	}
	g.led.followFrom(rec, verified+made)
	g.view.held.release()
	var seen [2]int
	if !again {
		seen = g.waiting.dropUnseen(g.away.mark(), b.keepIn)
	}
	g.away.rebuilt(n, seen, verified, !again)
	g.away.reportRebuilt(&g.em, g.led.record, out, at, first, b.why, verified, made, n)
	if st := rec.Status(); st.Over {
		// The board shows a game that has ended, by a move nobody saw: a
		// mate or a stalemate on the board ends it all the same.
		g.finish(out, at, st.Result, st.Reason, st.Article)
	}
	return true
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

// resolveBefore resolves the presses made before the board went away: they
// are judged on the record as it was then, before it is brought to the
// board's position. No plies are held then (the record is brought to the
// board's position only once what was held is settled, or when nothing
// is), so no press waits for them (see resolvePress) and each is judged at
// once.
func (g *Game) resolveBefore(out *[]Event, at time.Duration) {
	for len(g.waiting.presses) > 0 && g.away.before(g.waiting.presses[0].ev.At, g.waiting.presses[0].in) {
		pr := g.waiting.shift()
		g.judgePress(out, at, pr, g.waiting.judge(g.pressInput(at), pr))
		g.snapChecks(pr.ev.Side)
	}
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
