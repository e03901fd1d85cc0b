// Board snapshots against the record: which moves the board shows, and
// the plausibility rules that keep transient states from becoming moves.

package reconcile

import (
	"strings"
	"time"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules"
)

// process reconciles the latest snapshot with the record, and again as
// long as a rebuild of the record leaves the board moved on from the
// position rebuilt (see rebuildOnTheClocksTurn).
func (g *Game) process(out *[]Event, at time.Duration) {
	for g.processOnce(out, at) == rebuiltBehind {
	}
}

// processOnce reconciles the latest snapshot with the record once; it
// reports rebuiltBehind when the board is to be looked at again.
func (g *Game) processOnce(out *[]Event, at time.Duration) rebuildOutcome {
	s := g.view.snap
	depth, back := g.away.searchBounds(&g.waiting, &g.led, g.cfg.MaxPlies)
	res := g.led.explain(&g.waiting, &g.away, s, depth, back)
	resync := g.away.resyncing()
	if g.view.held.plies != nil && (res.Kind == rules.Unexplained || res.Kind == rules.UnknownPieces) {
		// a transient (a piece in the hand) on top of the plies being held
		return notRebuilt
	}
	g.view.noteShown(g.inputs, at, s)
	g.view.held.plies = nil
	g.view.held.notAway()
	g.view.held.ambiguous = false
	switch res.Kind {
	case rules.NoChange:
		g.view.unexplained.clear()
		if !g.away.unsure(g.led.plies) {
			g.away.backInStep()
		}
	case rules.Forward, rules.Ambiguous:
		g.view.unexplained.clear()
		return g.forward(out, at, s, res, resync)
	case rules.Correction:
		g.correct(out, at, res, resync)
	case rules.TakeBack:
		g.view.unexplained.clear()
		g.away.backInStep()
		g.led.retract(&g.em, &g.away, out, at, res.From, nil, retractSeen)
	case rules.ResultSignal:
		g.view.unexplained.clear()
		g.away.backInStep()
		g.flag.stops = nil // the players stopped the clock to signal the result
		// everything pending is decided first, then the game ends
		g.work.then(step{kind: stepDeadlines, limit: noDeadline})
		g.work.then(step{kind: stepSignalledEnd, signal: res.Signal})
	default: // Unexplained, UnknownPieces
		g.notExplained(at, s, res, resync)
	}
	return notRebuilt
}

// lifted counts the pieces s has lifted off p, or is -1 when anything else
// changed (a piece put down, unknown codes, a board of another kind).
func lifted(p, s rules.Snapshot) int {
	if p.Unknown != s.Unknown || p.OccupancyOnly != s.OccupancyOnly {
		return -1
	}
	n := 0
	for sq, pc := range p.Squares {
		switch s.Squares[sq] {
		case pc:
		case chess.NoPiece:
			n++
		default:
			return -1
		}
	}
	return n
}

// lifting reports whether the board shows pieces lifted off the last
// position in which a piece was put down (see Game.placed): a piece in a
// hand, or a taken piece lifted before the capturing one lands — no
// position of the game.
func lifting(board, placed rules.Snapshot) bool { return board != placed }

// correct takes a board that shows the record with its last plies
// replaced: one replaced ply is retracted and the new one applied at once;
// a longer replacement is held (after an absence it may explain a piece in
// the hand; on a connected board, a slide that goes on).
func (g *Game) correct(out *[]Event, at time.Duration, res rules.Result, resync bool) {
	if len(res.Moves) >= 2 {
		g.view.hold(g.inputs, at, res.From, res.Moves)
		if resync {
			g.view.held.kind = awayInHand(g.view.transient(&g.led, &g.waiting, &g.away, res.From, res.Moves))
		} else {
			g.view.held.slideOn(g.view.slidOn(&g.led, g.cfg.ScanLag, res.From, res.Moves))
		}
		return
	}
	g.view.unexplained.clear()
	if resync {
		g.away.backInStep()
	}
	g.led.retract(&g.em, &g.away, out, at, res.From, res.Moves, retractSeen)
	g.led.apply(&g.em, g.inputs, out, at, res.Moves)
}

// forward takes a board that shows the record's position with plies added
// (or, ambiguous, several sequences that reach it): one ply is applied at
// once, several are held until the board has shown them for ScanLag (a
// piece in the hand can look like a sequence of exchanges), as a possible
// take-back when they lead back to an earlier position, or as a slide that
// goes on.
func (g *Game) forward(out *[]Event, at time.Duration, s rules.Snapshot, res rules.Result, resync bool) rebuildOutcome {
	moves := res.Moves
	if res.Kind == rules.Ambiguous {
		moves = shortest(res.Candidates)
	}
	if resync && (len(moves) >= 2 || g.away.fromStart || g.away.undumped) {
		// Back from an absence, the board is several plies on (or the
		// board is first read with the game under way, any ply on). A
		// piece in the hand can look like a sequence of exchanges,
		// so the explanation is held until the board has shown it
		// for ScanLag; then it is applied, or reported as moves that
		// cannot be verified (see settle).
		g.view.hold(g.inputs, at, res.From, moves)
		g.view.held.ambiguous = res.Kind == rules.Ambiguous
		g.view.held.kind = awayInHand(g.view.transient(&g.led, &g.waiting, &g.away, res.From, moves))
		return notRebuilt
	}
	if resync {
		if g.away.unchecked {
			if r := g.rebuildOnTheClocksTurn(out, at, res.From, moves); r != notRebuilt {
				return r // the plies laid unchecked had the wrong side to move
			}
		}
		g.away.backInStep()
	}
	if j, ok := g.led.earlierPosition(s); ok && len(moves) >= 2 {
		// The board is back at an earlier position of the game: a
		// take-back (7.1), or several quick moves that happen to lead
		// back to it. Held; presses around it mean play goes on.
		g.view.hold(g.inputs, at, res.From, moves)
		g.view.held.backTo = j
		return notRebuilt
	}
	if len(moves) >= 2 {
		from := res.From
		slide := false
		if res.From == g.led.rec.Ply() && g.waiting.trailing(&g.led, &g.away) >= 1 {
			if f, alt, ok := g.view.fewer(&g.led, g.cfg.ScanLag, len(moves)); ok {
				from, moves, slide = f, alt, true
			}
		}
		g.view.hold(g.inputs, at, from, moves)
		g.view.held.slideOn(slide)
		return notRebuilt
	}
	if res.From < g.led.rec.Ply() {
		g.led.retract(&g.em, &g.away, out, at, res.From, moves, retractSeen)
	}
	g.led.apply(&g.em, g.inputs, out, at, moves)
	return notRebuilt
}

// notExplained takes a board that no short sequence of legal moves
// explains: a completed move the board shows was another (held, see
// miscommitted), a position far on after an absence (suspect, see
// resyncFar), or a piece in the hand; the board is unexplained from now
// until it shows something that follows from the record.
func (g *Game) notExplained(at time.Duration, s rules.Snapshot, res rules.Result, resync bool) {
	if res.Kind == rules.Unexplained && !resync {
		if k, moves, merge, ok := g.view.miscommitted(&g.led, s); ok {
			// Held until the board has shown it for ScanLag: a piece
			// in the hand must not rewrite a completed move.
			g.view.hold(g.inputs, at, k, moves)
			g.view.held.replaces = replacesCompleted
			if merge {
				g.view.held.replaces = mergesCompleted
			}
			return
		}
	}
	if resync && g.away.unsettled() && res.Kind == rules.Unexplained && !g.away.suspect {
		// Back from an absence, the board shows a position that no
		// short sequence reaches. A piece in a hand looks like that
		// too, for a moment; once the board has shown it for ScanLag
		// arbiterd resynchronises to it (see resyncFar).
		g.away.suspect = true
	}
	if !g.view.unexplained.on() {
		g.view.unexplained.begin(stamp{at, g.inputs})
	}
}

// boardReset handles a board that shows the starting position in the
// middle of the game: it was reset, or another board was put in its place
// (the same way round or turned). That is not a take-back of the whole
// game — players take back one or two plies, and an arbiter reinstating an
// earlier position (7.5.1) does not go back to the start beyond the first
// moves — so the record is kept, its completed moves stay completed, and
// the arbiter is told once. Until the board shows a position that follows
// from the record again (the game's position set up again, perhaps with a
// move on), what it shows is not judged and presses are not judged. It
// reports whether the snapshot was taken care of (raw is in the board's
// own frame).
func (g *Game) boardReset(out *[]Event, at time.Duration, raw rules.Snapshot) bool {
	o, start := rules.DetectOrientation(raw, g.start)
	if start && (g.atStart != nil || (!reaches(g.led.rec, g.view.snap) && farFromStart(g.led.boards, g.start, g.facing.orientation(), o))) {
		if g.atStart != nil {
			return true
		}
		g.atStart = &at
		g.view.held.plies, g.view.held.backTo, g.view.held.kind, g.view.held.ambiguous = nil, -1, heldPlain, false
		g.view.unexplained.clear()
		g.away.suspect, g.away.far = false, farPosition{}
		var turned any = ""
		if o != g.facing.orientation() {
			turned = Text{Code: TextBoardResetTurned}
		}
		n := g.led.plyBase + g.led.rec.Ply()
		after := say(TextBoardResetPly, n)
		if k := len(g.led.plies); k > 0 && !g.led.plies[k-1].unverified() {
			after = say(TextBoardResetPlyMove, n, g.led.moveText(k-1))
		}
		g.em.anomaly(out, at, KindBoardReset, 0, true, "–", say(TextBoardReset,
			turned, after, g.led.counts.White, g.led.counts.Black, n, g.led.rec.FEN(), hms(g.clock.White), hms(g.clock.Black)))
		return true
	}
	if g.atStart == nil {
		return false
	}
	if !reaches(g.led.rec, g.view.snap) {
		// another board put in its place may stand the other way round
		other, alt := rules.BlackBottom, raw.Rotated()
		if g.facing == facingBlackBottom {
			other, alt = rules.WhiteBottom, raw
		}
		kept := g.view.snap
		if g.view.snap = alt; reaches(g.led.rec, g.view.snap) {
			g.facing = facingOf(other)
		} else {
			g.view.snap = kept
		}
	}
	if reaches(g.led.rec, g.view.snap) || rules.Reconstruct(g.led.rec, g.view.snap, rules.Options{MaxPlies: 1}).Kind == rules.ResultSignal {
		// the game's position is on the board again (perhaps with a move
		// on), or a result is signalled: the game goes on from the record
		g.atStart = nil
		return false
	}
	return true // pieces being set up, or a game arbiterd does not follow
}

// reaches reports whether the board's position is the record's, or one
// or two plies on from it (the starting placement recurs in a game whose
// knights went out and back).
func reaches(rec *rules.Game, board rules.Snapshot) bool {
	r := rules.Reconstruct(rec, board, rules.Options{MaxPlies: 2})
	return r.Kind == rules.NoChange || r.Kind == rules.Forward || (r.Kind == rules.Ambiguous && r.From == rec.Ply())
}

// farFromStart reports whether a board showing the starting position
// (oriented o) is more than a take-back of one or two plies from the
// record: turned round, or the record's last occurrence of the starting
// placement more than two plies back.
func farFromStart(boards []rules.Snapshot, start *chess.Position, orient, o rules.Orientation) bool {
	if o != orient {
		return true
	}
	want := rules.SnapshotOf(start)
	for j := len(boards) - 1; j >= 0; j-- {
		if sameBoard(boards[j], want) {
			return len(boards)-1-j > 2
		}
	}
	return true
}

// gameUnderWay reports whether the board, not yet oriented, shows the game under
// way: a position the moves of an absence from the start (up to
// resyncPlies) reach with the board one way round and not the other. That
// is the orientation; a game further on is not recognised (the start
// position, or the game's start-fen, is awaited). orientTo asks it once a
// reading, once the clock has spoken (clockSpoke).
func gameUnderWay(rec *rules.Game, joined joinState, s rules.Snapshot) (rules.Orientation, bool) {
	if s.OccupancyOnly || s.Unknown != 0 || rec.Ply() != 0 {
		return rules.WhiteBottom, false
	}
	var found []rules.Orientation
	for _, o := range []rules.Orientation{rules.WhiteBottom, rules.BlackBottom} {
		r := s
		if o == rules.BlackBottom {
			r = s.Rotated()
		}
		switch rules.Reconstruct(rec, r, rules.Options{MaxPlies: resyncPlies}).Kind {
		case rules.Forward, rules.Ambiguous:
			found = append(found, o)
		}
	}
	if len(found) == 0 && joined != notJoined {
		return joinedAt(s)
	}
	if len(found) != 1 {
		return rules.WhiteBottom, false
	}
	return found[0], true
}

// joinedAt is the orientation of a board first read further into the game
// than the search from the start reaches, when the clock was first read
// with the game under way too (a board being set up stands by a clock at
// its starting times): the position must be one a game can have, and the
// pawns and kings must say clearly which way round the board is. Pawns
// start on their own side of the board and only ever move away from it,
// kings stay near it until the endgame: turned round, every pawn and king
// is as far from home as it is near it now. Positions with so little on
// them that both ways look alike are not followed (the start position, or
// the game's start-fen, is awaited, as before).
func joinedAt(s rules.Snapshot) (rules.Orientation, bool) {
	if !gameMaterial(s) {
		return rules.WhiteBottom, false
	}
	// away is how far from home the pawns and kings stand, summed in
	// ranks, the board as it is; turned round, each stands at its
	// distance's complement (5 for a pawn, 7 for a king).
	away, most := 0, 0
	for sq, pc := range s.Squares {
		rank := sq / 8 // 0 = the first rank
		switch pc {
		case chess.WhitePawn:
			away, most = away+rank-1, most+5
		case chess.BlackPawn:
			away, most = away+6-rank, most+5
		case chess.WhiteKing:
			away, most = away+rank, most+7
		case chess.BlackKing:
			away, most = away+7-rank, most+7
		}
	}
	// clearly: the other way round, the pieces would stand at least
	// joinMargin ranks further from home in all
	switch turned := most - away; {
	case turned-away >= joinMargin:
		return rules.WhiteBottom, true
	case away-turned >= joinMargin:
		return rules.BlackBottom, true
	}
	return rules.WhiteBottom, false
}

// joinMargin is how many ranks further from home, summed over the pawns
// and kings, the board turned round must put them for joinedAt to take an
// orientation: a game a dozen plies in stands some seventy ranks apart from
// its mirror, a king and pawn ending a few.
const joinMargin = 12

// gameMaterial reports whether the pieces of s are ones a game from the
// starting position can have: a legal position with either side to move
// (one king each, no pawn on the first or last rank: rules checks), at
// most eight pawns a side, and no more pieces of a kind than promotions of
// the missing pawns can give.
func gameMaterial(s rules.Snapshot) bool {
	if s.OccupancyOnly || s.Unknown != 0 {
		return false
	}
	legal := false
	for _, t := range []chess.Color{chess.White, chess.Black} {
		if _, err := rules.NewGame(s.FEN(t, "-", 1)); err == nil {
			legal = true
		}
	}
	var n [16]int
	for _, pc := range s.Squares {
		n[pc]++
	}
	for _, c := range []chess.Color{chess.White, chess.Black} {
		of := func(t chess.PieceType) int { return n[chess.NewPiece(t, c)] }
		pawns := of(chess.Pawn)
		extra := max(0, of(chess.Queen)-1) + max(0, of(chess.Rook)-2) + max(0, of(chess.Bishop)-2) + max(0, of(chess.Knight)-2)
		if pawns > 8 || extra > 8-pawns {
			return false
		}
	}
	return legal
}

// pieceInHand reports whether s is a position that depth plies or fewer
// from p reach with turn to move, with one piece lifted off it.
func pieceInHand(p *chess.Position, s rules.Snapshot, turn chess.Color, depth int) bool {
	if p.Turn() == turn && lifted(rules.SnapshotOf(p), s) == 1 {
		return true
	}
	if depth == 0 {
		return false
	}
	for _, m := range p.ValidMoves() {
		if pieceInHand(p.Update(m), s, turn, depth-1) {
			return true
		}
	}
	return false
}

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
	g.away.suspect = false
	res := g.led.explain(&g.waiting, &g.away, g.view.snap, resyncPlies, g.waiting.retractable(&g.led, &g.away))
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
		g.led.retract(&g.em, &g.away, out, at, res.From, nil, retractSeen)
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
	k := g.waiting.unpressedTail(&g.led, &g.away)
	from, fewest := g.led.rec.Ply()-k, least(res, k)
	if max(at, due) < g.view.rebaseDue(g.cfg, &g.waiting, &g.away) {
		// Wait: a piece in a hand, or one knocked over, is no position
		// to rebuild the record from; one the board keeps showing is.
		g.away.suspect = true
		g.away.far = farPosition{in: g.view.changed.in, snap: g.view.snap, least: fewest, from: from, fen: g.led.rec.FEN(),
			placed: g.view.placed}
		return
	}
	g.away.far = farPosition{}
	if g.rebase(out, at, from, fewest, Text{Code: TextWhyUnreachable}) {
		g.view.unexplained.clear()
		return
	}
	// Nothing can be built from what the board shows (unknown codes, an
	// occupancy-only board, no legal position): presses made since the
	// absence are not judged on the stale record, and arbiterd tries
	// again when the board changes.
	g.away.stale = true
	if g.away.unverifiedFrom == 0 {
		g.away.unverifiedFrom = g.led.plyBase + g.led.rec.Ply() + 1
	}
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
	from, fewest, ok := g.led.fewestTo(&g.waiting, &g.away, far, base)
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
	g.away.fromStart = false // the plies made before the board was first read are these
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
		g.led.retract(&g.em, &g.away, out, at, from, moves, retractSeen)
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
	g.away.unverified[clockd.White] += l.n[clockd.White]
	g.away.unverified[clockd.Black] += l.n[clockd.Black]
	if g.away.unverifiedFrom == 0 {
		g.away.unverifiedFrom = verified + 1
	}
	if firstLaid {
		g.away.laid = len(l.words)
	}
	g.away.absorbPresses(&g.waiting, l.n, keepIn)
	// the absence ends with the first verified move after these plies
	g.away.suspect, g.away.stale = false, false
	g.away.reportLaid(&g.em, &g.led, out, at, back, verified, l, ambiguous)
	return notRebuilt
}

// laidPlies are plies laid in the record unverified: how many were each
// side's, their text as on a scoresheet ("5.e4 e5") and their SAN.
type laidPlies struct {
	n           [2]int
	words, sans []string
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
		g.away.unchecked = true
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
	g.away.fromStart = false
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
		g.led.retract(&g.em, &g.away, out, at, from, nil, retractSeen) // superseded by the board's position
	}
	verified := g.led.plyBase + from
	h := g.led.before.White + g.led.before.Black + from // half-moves before the position at from
	made, n := unseenPlies(h, least, sideOf(old.Turn()), turn, again)
	// the move number of the position, so that moves are named as on a scoresheet
	if r, err := rules.NewGame(placementFEN(s, old, turn, (h+made)/2+1)); err == nil {
		rec = r
	}
	g.led.followFrom(&g.view.held, rec, verified+made)
	g.away.unverified[clockd.White] += n[clockd.White]
	g.away.unverified[clockd.Black] += n[clockd.Black]
	g.away.unverifiedOpen = true
	if g.away.unverifiedFrom == 0 {
		g.away.unverifiedFrom = verified + 1
	}
	if !again {
		g.away.absorbPresses(&g.waiting, n, b.keepIn)
	}
	g.away.suspect, g.away.stale, g.away.rebased = false, false, true
	g.away.reportRebuilt(&g.em, &g.led, out, at, first, b.why, verified, made, n)
	if st := rec.Status(); st.Over {
		// The board shows a game that has ended, by a move nobody saw: a
		// mate or a stalemate on the board ends it all the same.
		g.finish(out, at, st.Result, st.Reason, st.Article)
	}
	return true
}

// legalPlacement is the game from the pieces of s (castling and en passant
// rights as far as old allows them) with turn to move, or the other side
// if that position is not legal; nil when neither is.
func legalPlacement(s rules.Snapshot, old *chess.Position, turn chess.Color) (*rules.Game, chess.Color) {
	for _, t := range []chess.Color{turn, turn.Other()} {
		if r, err := rules.NewGame(placementFEN(s, old, t, 1)); err == nil {
			return r, t
		}
	}
	return nil, turn
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
		pr := g.waiting.presses[0]
		g.waiting.presses = g.waiting.presses[1:]
		g.judgePress(out, at, pr)
		g.flag.snapChecks(&g.waiting, g.led.counts, pr.ev.Side)
	}
}

// placementFEN writes the FEN of the placement s with turn to move. Castling
// rights are those of the record's position old whose king and rook still
// stand on their squares; no en passant; move number moveNo.
func placementFEN(s rules.Snapshot, old *chess.Position, turn chess.Color, moveNo int) string {
	rights := old.CastleRights().String()
	at := func(sq chess.Square, p chess.Piece) bool { return s.Squares[sq] == p }
	var castling []byte
	for _, r := range []struct {
		ch         byte
		king, rook chess.Square
		k, rk      chess.Piece
	}{
		{'K', chess.E1, chess.H1, chess.WhiteKing, chess.WhiteRook},
		{'Q', chess.E1, chess.A1, chess.WhiteKing, chess.WhiteRook},
		{'k', chess.E8, chess.H8, chess.BlackKing, chess.BlackRook},
		{'q', chess.E8, chess.A8, chess.BlackKing, chess.BlackRook},
	} {
		if strings.IndexByte(rights, r.ch) >= 0 && at(r.king, r.k) && at(r.rook, r.rk) {
			castling = append(castling, r.ch)
		}
	}
	return s.FEN(turn, string(castling), moveNo)
}

// strictlyBetween reports whether mid lies on the line from a to b,
// strictly between them.
func strictlyBetween(a, mid, b chess.Square) bool {
	af, ar := int(a)%8, int(a)/8
	bf, br := int(b)%8, int(b)/8
	df, dr := oneIf(bf > af)-oneIf(bf < af), oneIf(br > ar)-oneIf(br < ar)
	if (df == 0 && dr == 0) || !(af == bf || ar == br || af-bf == ar-br || af-bf == br-ar) {
		return false
	}
	for f, r := af+df, ar+dr; f != bf || r != br; f, r = f+df, r+dr {
		if chess.Square(r*8+f) == mid {
			return true
		}
	}
	return false
}

// oneIf is 1 when b holds, else 0.
func oneIf(b bool) int {
	if b {
		return 1
	}
	return 0
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

func shortest(c [][]*chess.Move) []*chess.Move {
	var best []*chess.Move
	for i, m := range c {
		if i == 0 || len(m) < len(best) {
			best = m
		}
	}
	return best
}

// fitsMerge reports whether sequence q replaces the recorded plies old —
// a piece moved, the opponent's reply, the same piece moved on along the
// same line — by that piece's one move, the reply, and the move the board
// shows now. A board sends the squares one scan found changed one after
// the other, so a slide's last square can arrive after a quick reply's;
// the side then seems to move again, and the board contradicts the record
// only when it really moves again.
func fitsMerge(q, old []*chess.Move) bool {
	if len(old) != 3 || len(q) != 3 {
		return false
	}
	a, b, c := old[0].S1(), old[0].S2(), old[2].S2()
	if old[2].S1() != b || q[0].S1() != a || q[0].S2() != c || q[0].Promo() != old[2].Promo() || !strictlyBetween(a, b, c) {
		return false
	}
	return q[1].String() == old[1].String()
}

// fitsCorrection reports whether sequence q can replace the recorded plies
// old: its first move is another move that vacates the square the first
// recorded one left (the piece went on) and whose piece is not taken
// afterwards (that is how a piece in the hand looks), and the plies after
// it are the recorded ones.
func fitsCorrection(q, old []*chess.Move) bool {
	if len(q) < len(old) || len(old) == 0 {
		return false
	}
	m := q[0]
	if m.String() == old[0].String() || !vacates(m, old[0].S1()) {
		return false
	}
	if takenLater(q) {
		return false
	}
	for i := 1; i < len(old); i++ {
		if q[i].String() != old[i].String() {
			return false
		}
	}
	return true
}

// countTrailing counts the uncompleted plies at the end of the record.
func countTrailing(plies []plyInfo) int {
	n := 0
	for i := len(plies) - 1; i >= 0 && !plies[i].completed(); i-- {
		n++
	}
	return n
}

// vacates reports whether move m leaves square sq empty: its piece's
// square, or a castling rook's.
func vacates(m *chess.Move, sq chess.Square) bool {
	if m.S1() == sq {
		return true
	}
	switch {
	case m.HasTag(chess.KingSideCastle):
		return sq == chess.H1 || sq == chess.H8
	case m.HasTag(chess.QueenSideCastle):
		return sq == chess.A1 || sq == chess.A8
	}
	return false
}

// retract takes the record back to ply from. replacement, when given, is
// retraction is how retract takes plies back.
type retraction uint8

const (
	retractSeen       retraction = iota // as the board shows: a take-back, a slide or a correction
	retractByArbiter                    // by the arbiter's action: a take-back (7.1)
	retractCorrecting                   // completed plies replaced by the moves the board shows were made instead
)
