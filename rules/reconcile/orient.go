// The board before it shows the game: which way round it stands, and
// whether it shows a game already under way.

package reconcile

import (
	"time"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/rules"
)

// orientTo looks for the game on a board not yet oriented (or after the
// game ended, for the next one): the start position either way round, or a
// game under way (see gameUnderWay). It reports whether s is to be followed as
// a position of the game now (false: waiting for the start, or the start
// itself, which the orientation event reports).
func (g *Game) orientTo(out *[]Event, at time.Duration, s rules.Snapshot) bool {
	o, ok := rules.DetectOrientation(s, g.start)
	underWay := false
	if !ok && !g.facing.known() {
		if g.first.state == notRead || g.first.snap != s {
			g.first.snap, g.first.state = s, readNotSearched
		}
		if g.first.state == readNotSearched && g.waiting.clockSpoke(g.round.started()) {
			// searched once, and only once the clock runs: without one,
			// a board that is not at the start is being set up
			g.first.state = readAndSearched
			o, underWay = gameUnderWay(g.led.rec, g.join.state, s)
			ok = underWay
		}
	}
	if !ok {
		if !g.facing.known() && !g.view.unexplained.on() {
			// pieces being set up; said once if it lasts (see advance)
			g.view.unexplained.begin(stamp{at, g.inputs})
		}
		return false
	}
	g.view.unexplained.clear()
	if g.end != nil {
		rec, err := rules.NewGame(g.cfg.StartFEN)
		if err != nil { // New checked the FEN; keep the old record
			return false
		}
		g.reset(rec)
	}
	g.facing = facingOf(o)
	g.em.emit(out, at, Event{Type: TypePosition, FEN: g.start.String(), Orientation: o.String()})
	if !underWay {
		// Presses read before the board showed the game were made
		// when arbiterd could not see what was on it: not judged.
		g.waiting.dropAll()
		return false
	}
	// The board is first read with the game under way (arbiterd
	// started, or restarted, after the first moves): the moves made
	// before are those of an absence from the start, searched to the
	// full depth, held until they settle, and reported as unverified
	// when more than a quick pair; the presses read meanwhile wait.
	g.away.fromTheStart()
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
		g.view.letGo()
		g.away.nothingFar()
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
		if reaches(g.led.rec, alt) {
			g.view.turned(alt)
			g.facing = facingOf(other)
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

// joinMargin is how many ranks further from home, summed over the pawns
// and kings, the board turned round must put them for joinedAt to take an
// orientation: a game a dozen plies in stands some seventy ranks apart from
// its mirror, a king and pawn ending a few.
const joinMargin = 12
