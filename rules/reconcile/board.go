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

// searchBounds is how many plies an explanation of the snapshot may add
// (depth) and how many of the record's it may replace (back).
//
// Between two scans of a connected board at most two plies are plausible
// (two quick moves in time trouble); longer sequences are searched only
// after the board was away (connect, resync, a dump that contradicted the
// image), or they would explain transient states by moves nobody made.
// Likewise only the last ply may be replaced (a slide that goes on, a
// change of mind before the press): replacing more lets a lifted piece be
// explained as an alternative history in which it was captured. After an
// absence the plies arbiterd could not verify stay replaceable until a
// verified move follows them: if they explained a piece in the hand, the
// board shows it when the piece lands.
func (a *absence) searchBounds(q *pressQueue, led *ledger, maxPlies int) (depth, back int) {
	depth, back = maxPlies, q.retractable(led, a)
	if !a.resyncing() {
		depth, back = min(depth, 2), min(q.trailing(led, a), 1)
	}
	return depth, back
}

// noteShown records that the board shows s at this time. A snapshot that
// repeats the last one (a keep-alive dump, a field reported again) shows
// nothing new: the board has shown its position since it last changed, and
// the waits that count from that change (held plies, a position to
// resynchronise to, a slide) are not restarted by it — with a dump each
// second they would never end.
func (v *boardView) noteShown(inputs int, at time.Duration, s rules.Snapshot) {
	if v.shown == nil || s != *v.shown {
		v.changed.at, v.changed.in, v.shown = at, inputs, &s
	}
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
	if start && (g.atStart || (!reaches(g.led.rec, g.view.snap) && farFromStart(g.led.boards, g.start, g.orient, o))) {
		if g.atStart {
			return true
		}
		g.atStart, g.resetAt = true, at
		g.view.held.plies, g.view.held.backTo, g.view.held.kind, g.view.held.ambiguous = nil, -1, heldPlain, false
		g.view.unexplained.clear()
		g.away.suspect, g.away.far = false, farPosition{}
		var turned any = ""
		if o != g.orient {
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
	if !g.atStart {
		return false
	}
	if !reaches(g.led.rec, g.view.snap) {
		// another board put in its place may stand the other way round
		other, alt := rules.BlackBottom, raw.Rotated()
		if g.orient == rules.BlackBottom {
			other, alt = rules.WhiteBottom, raw
		}
		kept := g.view.snap
		if g.view.snap = alt; reaches(g.led.rec, g.view.snap) {
			g.orient = other
		} else {
			g.view.snap = kept
		}
	}
	if reaches(g.led.rec, g.view.snap) || rules.Reconstruct(g.led.rec, g.view.snap, rules.Options{MaxPlies: 1}).Kind == rules.ResultSignal {
		// the game's position is on the board again (perhaps with a move
		// on), or a result is signalled: the game goes on from the record
		g.atStart = false
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

// backInStep ends an absence: the board's position is explained again.
func (a *absence) backInStep() {
	a.search, a.suspect, a.stale, a.rebased = inStep, false, false, false
	a.far = farPosition{}
	a.fromStart = false
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

// clockSpoke reports whether the clock has started, been pressed or said
// whose time runs.
func (q *pressQueue) clockSpoke(started bool) bool {
	return started || len(q.presses) > 0 || q.turn.seen()
}

// transient reports whether the board, back from an absence, is better
// explained as a move in the making than by moves (from ply from): the
// moves leave the other side to move than the clock says, and the board is,
// but for one piece lifted off it, a position the record reaches in at most
// two plies with the clock's side to move (pieceInHand). A capture is made
// by lifting the captured piece first: a dump read then shows a position
// that four plies explain (…Bxg1, a move and back, …Bc5) with the wrong
// side to move, and rebuilding the record from it derails the game.
func (v *boardView) transient(led *ledger, q *pressQueue, a *absence, from int, moves []*chess.Move) bool {
	turn, ok := q.clockTurn(a.at, v.snap)
	if !ok || v.snap.OccupancyOnly || v.snap.Unknown != 0 {
		return false
	}
	after := led.rec.PositionAt(from).Turn()
	if len(moves)%2 == 1 {
		after = after.Other()
	}
	return after != turn && pieceInHand(led.rec.Position(), v.snap, turn, 2)
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

// waitsForTheBoard reports whether a decision on what the board shows after
// lost updates (settling held plies, rebuilding the record) waits for the
// board to be read again, and until when at most: the clock spoke after
// the board's latest reading, so the board may have changed since without
// saying so (a capture whose updates were lost: the captured piece lifted,
// the capturing one not yet seen on its square, the press already made).
// The next dump shows it; the wait is bounded by twice ScanLag after the
// word, for a board that is not polled.
func (v *boardView) waitsForTheBoard(q *pressQueue, a *absence, scanLag time.Duration) (time.Duration, bool) {
	t := q.turn
	if a.search != unsettledLossy || !t.seen() || t.at <= v.boardRead.at {
		return 0, false
	}
	return t.at + 2*scanLag, true
}

// unsure reports whether the record ends in what arbiterd put there without
// verifying it (unverified plies, or a record rebuilt from the board), with
// no verified move after it yet: the absence is not over.
func (a *absence) unsure(plies []plyInfo) bool {
	n := len(plies)
	return (n > 0 && plies[n-1].unverified()) || (n == 0 && a.rebased)
}

// explain reconstructs s from the record. When the record ends in plies
// arbiterd could not verify, the explanation from the last verified
// position is preferred if it needs fewer plies from there: those plies may
// have explained a piece in the hand, and the record's own cost order
// would rather replace one of them by a longer sequence than all of them
// by the one move the board shows.
func (led *ledger) explain(q *pressQueue, a *absence, s rules.Snapshot, depth, back int) rules.Result {
	res := rules.Reconstruct(led.rec, s, rules.Options{MaxPlies: depth, Retractable: back})
	// The plies above the last verified position: those made while the
	// board was not read, and, back from an absence, those it showed
	// before and nobody completed (a piece seen on its way is no move).
	// The board's position is explained from below them when that takes
	// fewer plies.
	n := len(led.plies)
	u := 0
	for u < n {
		p := led.plies[n-1-u]
		if !p.unverified() && (!a.resyncing() || p.completed() || q.pressWaitsFor(led, a, n-1-u, true)) {
			break
		}
		u++
	}
	if u == 0 || res.Kind == rules.ResultSignal || res.Kind == rules.UnknownPieces {
		return res
	}
	base := n - u
	cost := 1 << 30 // of res, in plies from the verified position
	switch res.Kind {
	case rules.NoChange:
		cost = u
	case rules.Forward, rules.Ambiguous, rules.Correction:
		l := len(res.Moves)
		if res.Kind == rules.Ambiguous {
			l = len(shortest(res.Candidates))
		}
		if res.From >= base {
			cost = res.From - base + l
		}
	case rules.TakeBack:
		if res.From >= base {
			cost = res.From - base
		}
	}
	alt := led.rec.Clone()
	if alt.TakeBack(base) != nil {
		return res
	}
	r := rules.Reconstruct(alt, s, rules.Options{MaxPlies: depth})
	switch r.Kind {
	case rules.NoChange:
		if cost > 0 {
			return rules.Result{Kind: rules.TakeBack, From: base}
		}
	case rules.Forward, rules.Ambiguous:
		l := len(r.Moves)
		if r.Kind == rules.Ambiguous {
			l = len(shortest(r.Candidates))
		}
		if l < cost {
			r.From = base
			if r.Kind == rules.Forward {
				r.Kind = rules.Correction
			}
			return r
		}
	}
	return res
}

// retractable is how many plies at the end of the record a correction may
// replace after an absence: the trailing uncompleted ones and the
// unverified ones below them.
func (q *pressQueue) retractable(led *ledger, a *absence) int {
	n := q.trailing(led, a)
	for i := len(led.plies) - 1 - n; i >= 0 && led.plies[i].unverified(); i-- {
		n++
	}
	return n
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

// fewestTo is the record's ply the rebuild from base counts from and the
// fewest plies that can have been made to reach base (see least): those
// found when the board showed far, unless the record has changed since
// (then none is known), or base is the position the pieces of far were
// lifted from, which is searched now. ok is false when that search
// reaches base: it is no far position.
func (led *ledger) fewestTo(q *pressQueue, a *absence, far farPosition, base rules.Snapshot) (from, fewest int, ok bool) {
	if base != far.snap {
		res := led.explain(q, a, base, resyncPlies, q.retractable(led, a))
		if res.Kind != rules.Unexplained {
			return 0, 0, false
		}
		k := q.unpressedTail(led, a)
		return led.rec.Ply() - k, least(res, k), true
	}
	if far.fen != led.rec.FEN() || far.from > led.rec.Ply() {
		return led.rec.Ply(), 1, true // the record changed since: no count is known
	}
	return far.from, far.least, true
}

// rebaseDue returns when the record may be rebuilt from what the board
// shows, back from an absence, when not even the deeper search reaches it.
// That is final, and a piece held in a hand (or knocked over) shows the
// same, so the board must have shown the position for UnexplainedAfter
// and a press must have been made while it stood — a player pressing
// has finished the move — and the board not changed for ScanLag after
// that press. Without a press (a game without a clock) the position must
// stand for six times UnexplainedAfter.
func (v *boardView) rebaseDue(cfg Config, q *pressQueue, a *absence) time.Duration {
	stood := v.changed.at + cfg.UnexplainedAfter
	if until, ok := v.waitsForTheBoard(q, a, cfg.ScanLag); ok {
		stood = max(stood, until)
	}
	for _, p := range q.presses {
		if p.ev.At >= v.changed.at {
			return max(stood, p.ev.At+cfg.ScanLag)
		}
	}
	return v.changed.at + 6*cfg.UnexplainedAfter
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

// reportLaid raises the unverified-moves anomaly of plies laid after ply
// verified; back opens the text (how the board was read again).
func (a *absence) reportLaid(em *emitter, led *ledger, out *[]Event, at time.Duration, back Text, verified int, l laidPlies, ambiguous bool) {
	first := verified + 1
	how := say(TextUnverifiedOnly, strings.Join(l.words, " "))
	if ambiguous {
		how = say(TextUnverifiedSeveral, strings.Join(l.words, " "))
	}
	a.reportUnverified(em, out, at, say(TextUnverifiedLaid,
		back, len(l.words), verified, led.counts.White, led.counts.Black, how, first, first+len(l.words)-1, l.n[clockd.White], l.n[clockd.Black]),
		Event{Ply: verified, Made: len(l.sans), Plies: l.sans, FEN: led.rec.FEN()})
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

// followFrom makes rec the record, its first position numbered ply.
func (led *ledger) followFrom(h *held, rec *rules.Game, ply int) {
	led.rec = rec
	led.plies = nil
	led.boards = []rules.Snapshot{rules.SnapshotOf(rec.Position())}
	h.plies, h.backTo = nil, -1
	led.plyBase = ply
	led.before = movesBefore(rec.Position())
}

// reportRebuilt raises the unverified-moves anomaly of a rebuilt record:
// made plies nobody saw after ply verified, n of them each side's; first
// when the board was first read with the game under way.
func (a *absence) reportRebuilt(em *emitter, led *ledger, out *[]Event, at time.Duration, first bool, why Text, verified, made int, n [2]int) {
	fen := led.rec.FEN()
	back := Text{Code: TextUnverifiedBack}
	if first {
		back = Text{Code: TextUnverifiedFirst} // arbiterd started after the first moves
	}
	a.reportUnverified(em, out, at, say(TextUnverifiedRebuilt,
		back, made, verified, led.counts.White, led.counts.Black, why, n[clockd.White], n[clockd.Black], verified+1, fen, verified+1),
		Event{Ply: verified, Made: made, FEN: fen})
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

// clockTurn is the side to move by the clock in the position the board
// shows: the latest word of the clock (a press, or a reading taken as a
// whole) after the board went away, unless the board has changed since it
// was read then — the runner's own move may be the change, not yet
// pressed. A word from while the board was not read speaks of the position
// the board is first read with after it when that reading is a dump (the
// board read afresh), of the position before it when it is a field update
// (a change), and goes stale as the board changes (see Game.board).
func (q *pressQueue) clockTurn(awayAt time.Duration, board rules.Snapshot) (chess.Color, bool) {
	t := q.turn
	if !t.seen() || t.at <= awayAt || (t.board != wordUnread && t.snap != board) {
		return chess.White, false
	}
	if t.toMove == clockd.White {
		return chess.White, true
	}
	return chess.Black, true
}

// clockSays records the clock's word that side is to move, at at.
func (q *pressQueue) clockSays(a *absence, snap rules.Snapshot, side clockd.Side, at time.Duration) {
	w := clockWord{board: wordOnBoard, toMove: side, at: at, snap: snap}
	switch {
	case a.disconnected:
		w.board = wordUnread
	case a.undumped:
		w.board = wordUndumped
	}
	q.turn = w
}

// absorbPresses drops the presses that wait for a move made while the board
// was not read (they belong to the unverified plies, n of each side), and
// lets as many more of each side as its unverified plies still lack
// complete nothing without penalty: the clock is relayed by the board, so
// the presses made meanwhile may be read only after it is back. Presses
// read from input keepIn on (when not 0) are kept: they are of moves made
// after the position the record was rebuilt from, which that input showed
// (see movedOnFrom). Inputs, not stamps: a stalled host reads a burst at one
// stamp.
func (a *absence) absorbPresses(q *pressQueue, n [2]int, keepIn int) {
	kept := q.presses[:0]
	var seen [2]int
	for _, p := range q.presses {
		if !a.before(p.ev.At, p.in) && (keepIn == 0 || p.in < keepIn) {
			seen[p.ev.Side]++
			continue
		}
		kept = append(kept, p)
	}
	q.presses = kept
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

// hold keeps several plies the board shows until the board has shown them
// for ScanLag or a press needs them, because a piece in the hand can look
// like a short exchange nobody played.
func (v *boardView) hold(inputs int, at time.Duration, from int, moves []*chess.Move) {
	v.held.plies, v.held.from, v.held.backTo, v.held.replaces = moves, from, -1, replacesNothing
	v.held.in = v.changed.in
	switch v.held.kind {
	case heldSlide:
		v.held.kind = heldPlain
	case heldAwayInHand:
		v.held.kind = heldAway
	}
	if !v.unexplained.on() {
		v.unexplained.begin(stamp{at, inputs})
	}
}

// fewer looks for an explanation of the board that replaces the last,
// uncompleted ply and ends with fewer plies in the record than a forward
// sequence of n plies: a piece seen on its way (Qc7-c6, recorded) and then,
// in one scan, on its square and the opponent's reply is one move of the
// queen (Qc7-c5) and the reply, not two queen moves around a reply.
func (v *boardView) fewer(led *ledger, scanLag time.Duration, n int) (int, []*chess.Move, bool) {
	ply := led.rec.Ply()
	if ply == 0 || led.plies[ply-1].completed() {
		return 0, nil, false
	}
	alt := led.rec.Clone()
	if err := alt.TakeBack(ply - 1); err != nil {
		return 0, nil, false
	}
	r := rules.Reconstruct(alt, v.snap, rules.Options{MaxPlies: n})
	seq := r.Moves
	if r.Kind == rules.Ambiguous {
		seq = shortest(r.Candidates)
	}
	if (r.Kind != rules.Forward && r.Kind != rules.Ambiguous) || len(seq) == 0 || len(seq) > n {
		return 0, nil, false
	}
	// only a slide that went on: the same piece from the same square, the
	// recorded square strictly between it and the new one on a line
	if !v.slidOn(led, scanLag, ply-1, seq) {
		return 0, nil, false
	}
	return ply - 1, seq, true
}

// slidOn reports whether moves, replacing the plies after from, begin with
// the last recorded ply's piece going on along its line (a slide seen on
// its way), within ScanLag of the recorded square.
func (v *boardView) slidOn(led *ledger, scanLag time.Duration, from int, moves []*chess.Move) bool {
	ply := led.rec.Ply()
	if from != ply-1 || len(moves) == 0 {
		return false
	}
	last := led.rec.Moves()[ply-1]
	return v.changed.at-led.plies[ply-1].made.at <= scanLag &&
		moves[0].S1() == last.S1() && strictlyBetween(last.S1(), last.S2(), moves[0].S2())
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

// trailing is the number of plies after the last completed one.
// A ply its side has already pressed for (the press is waiting to be
// resolved) stays replaceable only while it is the last ply: a slide may
// still end after the press is read, but once the opponent has replied
// the pressed move is settled.
func (q *pressQueue) trailing(led *ledger, a *absence) int {
	n := 0
	for i := len(led.plies) - 1; i >= 0 && !led.plies[i].completed(); i-- {
		if i < len(led.plies)-1 && q.pressedFor(led, a, i) {
			break
		}
		n++
	}
	return n
}

// pressedFor reports whether a pending press of the ply's side came after
// the ply was made.
func (q *pressQueue) pressedFor(led *ledger, a *absence, i int) bool {
	return q.pressWaitsFor(led, a, i, false)
}

// unpressedTail is how many plies at the end of the record nobody
// completed or pressed for before the board went away: shown before the
// absence, they may never have been made (a piece seen on its way).
func (q *pressQueue) unpressedTail(led *ledger, a *absence) int {
	n := 0
	for i := len(led.plies) - 1; i >= 0 && !led.plies[i].completed() && !q.pressWaitsFor(led, a, i, true); i-- {
		n++
	}
	return n
}

// pressedBefore reports whether a press waiting to be resolved may
// complete ply i; beforeAway: only a press read before the board went away.
func (q *pressQueue) pressWaitsFor(led *ledger, a *absence, i int, beforeAway bool) bool {
	p := led.plies[i]
	for _, pr := range q.presses {
		if (!beforeAway || a.before(pr.ev.At, pr.in)) && pr.ev.Side == p.side && !pr.stamp().before(p.made) {
			return true
		}
	}
	return false
}

// apply adds moves made on the board to the record, provisionally.
func (led *ledger) apply(em *emitter, inputs int, out *[]Event, at time.Duration, moves []*chess.Move) {
	for _, m := range moves {
		side := sideOf(led.rec.Position().Turn())
		if err := led.rec.Move(m); err != nil {
			em.anomaly(out, at, KindUnexplainedPosition, side, false, "–",
				say(TextRecordFailed, m.String(), err))
			return
		}
		led.plies = append(led.plies, plyInfo{side: side, made: stamp{at, inputs}})
		led.boards = append(led.boards, rules.SnapshotOf(led.rec.Position()))
		p := led.rec.Ply()
		em.emit(out, at, Event{Type: TypeMove, Ply: led.plyBase + p, Side: side, SAN: led.rec.SAN(p), UCI: led.rec.UCI(p), FEN: led.rec.FEN()})
	}
}

// miscommitted looks for a completed move that the board shows was
// another: the press was read while the piece was on its way (a pawn
// that went on a square further, a castling pressed while only the rook
// had moved). One of the last two completed plies (the opponent may have
// replied and pressed meanwhile) is replaced by another move that vacates
// the same square and is not taken afterwards, the plies after it stay as
// they were, and one legal sequence from the position before it (with up
// to one more ply) reaches the board. It returns the ply's index and
// the sequence.
func (v *boardView) miscommitted(led *ledger, s rules.Snapshot) (int, []*chess.Move, bool, bool) {
	n := len(led.plies)
	if v.held.tried.done && s == v.held.tried.snap && led.rec.FEN() == v.held.tried.fen && led.counts == v.held.tried.counts {
		// Searched already for this board and this record: a piece held in
		// the hand is reported (and dumped) again and again.
		return 0, nil, false, false
	}
	last := n - 1 - countTrailing(led.plies)
	recorded := led.rec.Moves()
	for k := last; k >= 0 && k >= last-2; k-- {
		if !led.plies[k].completed() || led.plies[k].unverified() {
			return 0, nil, false, false
		}
		alt := led.rec.Clone()
		if alt.TakeBack(k) != nil {
			return 0, nil, false, false
		}
		r := rules.Reconstruct(alt, s, rules.Options{MaxPlies: min(n-k+1, 3)})
		if r.From != k {
			continue
		}
		seqs := r.Candidates // several orders may reach it: only one may fit
		if r.Kind == rules.Forward {
			seqs = [][]*chess.Move{r.Moves}
		} else if r.Kind != rules.Ambiguous {
			continue
		}
		var fit [][]*chess.Move
		merge := false
		for _, q := range seqs {
			switch {
			case k >= last-1 && fitsCorrection(q, recorded[k:n]):
				fit = append(fit, q)
			case fitsMerge(q, recorded[k:n]):
				fit, merge = append(fit, q), true
			}
		}
		if len(fit) == 1 {
			return k, fit[0], merge, true
		}
	}
	v.held.tried.done, v.held.tried.snap, v.held.tried.fen, v.held.tried.counts = true, s, led.rec.FEN(), led.counts
	return 0, nil, false, false
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

// remerge replaces plies k to k+2 — a piece's move, the reply, the piece
// moving on — by the piece's one move, the reply and the move the board
// shows now (see fitsMerge). The one move is completed as the piece's
// second move was (its press was the press of the whole move), the reply
// as it was, and the new move waits for its own press. The side's count
// is one less; the arbiter is told once.
func (led *ledger) remerge(em *emitter, a *absence, inputs int, clock clockd.Times, out *[]Event, at time.Duration, k int, moves []*chess.Move) {
	olds := append([]plyInfo(nil), led.plies[k:]...)
	was := led.moveText(k) + " and " + led.moveText(k+2)
	led.retract(em, a, out, at, k, moves, retractCorrecting)
	led.apply(em, inputs, out, at, moves)
	if len(led.plies) < k+3 {
		return
	}
	led.plies[k].made.at, led.plies[k].made.in = olds[2].made.at, olds[2].made.in
	led.plies[k+1].made.at, led.plies[k+1].made.in, led.plies[k+1].warned = olds[1].made.at, olds[1].made.in, olds[1].warned
	for i, o := range []plyInfo{olds[2], olds[1]} {
		switch {
		case o.pressed():
			led.complete(em, out, at, k+i, ByPress, clock)
			led.plies[k+i].press.at, led.plies[k+i].press.in = o.press.at, o.press.in
		case o.completed():
			led.complete(em, out, at, k+i, ByNextMove, clock)
		}
	}
	side := olds[0].side
	em.anomaly(out, at, KindMoveCorrected, side, false, "6.2.1",
		say(TextMoveCorrectedTwo,
			was, sideWord(side), led.moveText(k), led.moveText(k+2), possWord(side.Other()), possWord(side)))
}

// recommit replaces the completed ply k by the held sequence (the plies
// after it are the same moves), completes again what was completed, as it
// was, and tells the arbiter once.
func (led *ledger) recommit(em *emitter, a *absence, inputs int, clock clockd.Times, out *[]Event, at time.Duration, k int, moves []*chess.Move) {
	olds := append([]plyInfo(nil), led.plies[k:]...)
	was := led.moveText(k)
	led.retract(em, a, out, at, k, moves, retractCorrecting)
	led.apply(em, inputs, out, at, moves)
	for i, o := range olds {
		if k+i >= len(led.plies) {
			break
		}
		led.plies[k+i].made.at, led.plies[k+i].made.in, led.plies[k+i].warned = o.made.at, o.made.in, o.warned
		if o.completed() {
			by := ByNextMove
			if o.pressed() {
				by = ByPress
			}
			led.complete(em, out, at, k+i, by, clock)
		}
	}
	em.anomaly(out, at, KindMoveCorrected, olds[0].side, false, "6.2.1",
		say(TextMoveCorrected,
			was, sideWord(olds[0].side), led.moveText(k), possWord(olds[0].side)))
}

// retract takes the record back to ply from. replacement, when given, is
// retraction is how retract takes plies back.
type retraction uint8

const (
	retractSeen       retraction = iota // as the board shows: a take-back, a slide or a correction
	retractByArbiter                    // by the arbiter's action: a take-back (7.1)
	retractCorrecting                   // completed plies replaced by the moves the board shows were made instead
)

// the sequence that replaces the retracted plies (a slide or correction).
func (led *ledger) retract(em *emitter, a *absence, out *[]Event, at time.Duration, from int, replacement []*chess.Move, how retraction) {
	if from < 0 || from >= led.rec.Ply() {
		return
	}
	moves := led.rec.Moves()
	for p := led.rec.Ply(); p > from; p-- {
		info := led.plies[p-1]
		reason := ReasonCorrection
		switch {
		case info.unverified():
			// never announced as a move, never counted
			a.unverified[info.side]--
			if a.unverified == [2]int{} && !a.unverifiedOpen {
				a.unverifiedFrom, a.unchecked = 0, false // the count is verified again
			}
			continue
		case info.completed():
			reason = ReasonTakeback
			if how == retractCorrecting {
				reason = ReasonCorrection
			}
			led.counts.add(info.side, -1)
		case how == retractByArbiter:
			reason = ReasonTakeback
		case p == from+1 && len(replacement) > 0 && replacement[0].S1() == moves[p-1].S1():
			reason = ReasonSlide
		}
		em.emit(out, at, Event{Type: TypeRetract, Ply: led.plyBase + p, Reason: reason, SAN: led.rec.SAN(p), UCI: led.rec.UCI(p)})
	}
	if err := led.rec.TakeBack(from); err != nil {
		return
	}
	led.plies = led.plies[:from]
	led.boards = led.boards[:from+1]
}
