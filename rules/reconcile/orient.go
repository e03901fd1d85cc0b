// The board before it shows the game: which way round it stands, and
// whether it shows a game already under way.

package reconcile

import (
	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/rules"
)

// orientDecision is what the board before the game was found to show:
// the game, the board oriented o (found), perhaps already under way
// (underWay, see gameUnderWay); and the board's first reading as it now
// stands.
type orientDecision struct {
	o               rules.Orientation
	found, underWay bool
	first           firstRead
}

// decideOrient looks for the game in s on a board not yet oriented (known:
// it was, and the game has ended: the next one's start is looked for): the
// start position either way round, or a game under way, searched once a
// reading and only once the clock has spoken (spoke; without a clock, a
// board that is not at the start is being set up). rec is the record and
// first the board's first reading so far. It changes nothing.
func decideOrient(s rules.Snapshot, start *chess.Position, known bool, first firstRead, spoke bool, rec *rules.Game, join joinState) orientDecision {
	d := orientDecision{first: first}
	d.o, d.found = rules.DetectOrientation(s, start)
	if d.found || known {
		return d
	}
	if d.first.state == notRead || d.first.snap != s {
		d.first = firstRead{snap: s, state: readNotSearched}
	}
	if d.first.state == readNotSearched && spoke {
		d.first.state = readAndSearched
		d.o, d.underWay = gameUnderWay(rec, join, s)
		d.found = d.underWay
	}
	return d
}

// resetKind is what a board showing the starting position in the middle of
// the game comes to (see decideReset).
type resetKind uint8

const (
	resetNone   resetKind = iota // no reset: the board is read as usual
	resetBegins                  // the board shows the starting position in the middle of the game
	resetGoesOn                  // still the start, or pieces being set up: nothing is judged
	resetEnds                    // the game's position (or a result signalled) is on the board again
)

// resetDecision is decideReset's: the kind, the board's orientation when a
// reset begins (o), and, when another board put in its place stands the
// other way round (turned), that orientation (other) and the snapshot
// turned with it (alt).
type resetDecision struct {
	kind      resetKind
	o, other  rules.Orientation
	turned    bool
	alt, snap rules.Snapshot
}

// decideReset decides a board that shows the starting position in the
// middle of the game (raw, in the board's own frame; snap, as the view has
// it), or one that did (atStart): it was reset, or another board was put
// in its place (the same way round or turned). That is not a take-back of
// the whole game — players take back one or two plies, and an arbiter
// reinstating an earlier position (7.5.1) does not go back to the start
// beyond the first moves — so the record is kept. Until the board shows a
// position that follows from the record again (the game's position set up
// again, perhaps with a move on), what it shows is not judged. It changes
// nothing.
func decideReset(rec *rules.Game, boards []rules.Snapshot, start *chess.Position, f facing, atStart bool, snap, raw rules.Snapshot) resetDecision {
	o, isStart := rules.DetectOrientation(raw, start)
	if isStart && (atStart || (!reaches(rec, snap) && farFromStart(boards, start, f.orientation(), o))) {
		if atStart {
			return resetDecision{kind: resetGoesOn}
		}
		return resetDecision{kind: resetBegins, o: o}
	}
	if !atStart {
		return resetDecision{kind: resetNone}
	}
	d := resetDecision{kind: resetGoesOn, snap: snap}
	if !reaches(rec, snap) {
		// another board put in its place may stand the other way round
		other, alt := rules.BlackBottom, raw.Rotated()
		if f == facingBlackBottom {
			other, alt = rules.WhiteBottom, raw
		}
		if reaches(rec, alt) {
			d.turned, d.other, d.alt, d.snap = true, other, alt, alt
		}
	}
	if reaches(rec, d.snap) || rules.Reconstruct(rec, d.snap, rules.Options{MaxPlies: 1}).Kind == rules.ResultSignal {
		// the game's position is on the board again (perhaps with a move
		// on), or a result is signalled: the game goes on from the record
		d.kind = resetEnds
	}
	return d // else pieces being set up, or a game arbiterd does not follow
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
