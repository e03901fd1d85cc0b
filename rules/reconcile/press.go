// The press stage: what a waiting press comes to (decidePress, which
// changes nothing, and judge, which takes it on the press queue and hands
// the rest back for the Game to apply, see Game.judgePress). The press is
// the commit point (6.2.1): it completes the move of its side the board
// showed at the press, or it is a press without a move (7.5.3), an illegal
// move (7.5.1), a press back that gives the turn back, or a press of moves
// made while the board was not read. In the order a press goes through
// it: recorded (pressed), taken off the queue when due and judged
// (judgeFirst, judge, on the pressInput the Game hands it), and the ply it
// completes chosen (pressedPly). After them, what the press queue says of
// the record's last plies for the board stage to read (ofRecord).

package reconcile

import (
	"strconv"
	"time"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules"
)

// pendingPress is a press waiting for the move it completes.
type pendingPress struct {
	ev clockd.ClockEvent
	in int // the input that reported it (see Game.inputs)
}

// pressQueue is the presses that wait for the moves they complete (the press
// is the commit point, 6.2.1), and what the latest presses expect.
type pressQueue struct {
	pressFacts
	// back: the latest press was the opponent's press without a move; the
	// press back of the side it names, with no move of its own, is
	// expected.
	back backExpected
	wait bool // the first pending press waits for the board to stand still (see resolvePress)
}

// pressFacts is what the press queue says to the other stages, which the
// Game hands them as a value: the presses waiting, and the clock's latest
// word on the side to move. Its methods only read it.
type pressFacts struct {
	presses []pendingPress
	// turn is the clock's latest word on the side to move (see clockTurn).
	turn clockWord
}

// backExpected names the side whose press back is expected, if any.
type backExpected uint8

const (
	noBackExpected backExpected = iota
	whiteBackExpected
	blackBackExpected
)

// clockWord is what the clock last said about the side to move: toMove,
// at at, when the board showed snap (see board: whether it had been read
// since it was last away). A press hands the move to the other side; a
// reading taken as a whole (clockd.Running) names the runner.
type clockWord struct {
	board  wordBoard // wordNone: the clock has said nothing
	toMove clockd.Side
	at     time.Duration
	snap   rules.Snapshot
}

// wordBoard is what the board showed when the clock gave its word.
type wordBoard uint8

const (
	wordNone wordBoard = iota // no word yet
	// wordUnread: given while the board was not read (disconnected):
	// snap is not known yet (see Game.board).
	wordUnread
	wordOnBoard // given about snap, the board as it was read
	// wordUndumped: given after the board was back and before it was
	// read whole (field updates laid on the image of before the
	// absence): it is about the position the board's first dump shows.
	wordUndumped
)

// pressed records a press read (ev, by input in): the clock hands the
// move to the other side, and, unless the game has ended, the press waits
// to be judged.
func (q *pressQueue) pressed(a awayFacts, snap rules.Snapshot, ev clockd.ClockEvent, in int, ended bool) {
	q.clockSays(a, snap, ev.Side.Other(), ev.At)
	if !ended {
		q.presses = append(q.presses, pendingPress{ev: ev, in: in})
	}
}

// clockSays records the clock's word that side is to move, at at.
func (q *pressQueue) clockSays(a awayFacts, snap rules.Snapshot, side clockd.Side, at time.Duration) {
	w := clockWord{board: wordOnBoard, toMove: side, at: at, snap: snap}
	switch {
	case a.disconnected:
		w.board = wordUnread
	case a.undumped:
		w.board = wordUndumped
	}
	q.turn = w
}

// takeFirst takes the first waiting press off the queue, to be judged once
// its wait is over.
func (q *pressQueue) takeFirst() pendingPress {
	pr := q.shift()
	q.wait = false
	return pr
}

// judgeFirst takes the first waiting press off the queue, its wait over
// (takeFirst), and judges it (judge).
func (q *pressQueue) judgeFirst(in pressInput) (pendingPress, pressVerdict) {
	pr := q.takeFirst()
	return pr, q.judge(in, pr)
}

// shift takes the first waiting press off the queue.
func (q *pressQueue) shift() pendingPress {
	pr := q.presses[0]
	q.presses = q.presses[1:]
	return pr
}

// pressVerdict is what the press stage found a press to come to, for
// the orchestrator to apply (see judgePress): the decision, the
// uncompleted plies of the press's side (cands), and, for a press that
// completes a ply, the ply it completes (ply, else -1).
type pressVerdict struct {
	decision pressDecision
	cands    []int
	ply      int
}

// judge decides what the press pr comes to (decidePress) and takes it on
// the press queue, which is the press stage's own: whatever it comes to,
// the press back was this one or is no more, and a press that waits for
// the board goes back to the head of the queue. The rest it hands back.
func (q *pressQueue) judge(in pressInput, pr pendingPress) pressVerdict {
	d, cands := q.decidePress(in, pr)
	if d != pressNotJudged {
		q.back = noBackExpected // whatever it comes to, the press back was this or is no more
	}
	vd := pressVerdict{decision: d, cands: cands, ply: -1}
	switch d {
	case pressWaitsForBoard:
		q.presses = append([]pendingPress{pr}, q.presses...)
		q.wait = true
	case pressCompletesPly:
		vd.ply = q.pressedPly(in.led, pr, cands)
	}
	return vd
}

// pressDecision is what a press comes to when it is judged.
type pressDecision uint8

const (
	pressNotJudged     pressDecision = iota // see pressIgnored
	pressGivesTurnBack                      // the turn given back after the opponent's press without a move: no offence
	pressAfterHeld                          // the plies the board showed around it are accepted first, and it is judged again
	pressWaitsForBoard                      // the board is still changing: judged again once it stands still
	pressIllegalMove                        // it completes a position no legal move explains (7.5.1)
	pressOfAbsence                          // a press of a move made while the board was not read (see absorbs)
	pressNoMove                             // no move of its side to complete (7.5.3)
	pressCompletesPly                       // it completes a ply of its side (6.2.1)
)

var pressDecisionNames = [...]string{"not-judged", "gives-turn-back", "after-held", "waits-for-board",
	"illegal-move", "of-absence", "no-move", "completes-ply"}

func (d pressDecision) String() string {
	if int(d) >= len(pressDecisionNames) {
		return "pressDecision(" + strconv.Itoa(int(d)) + ")"
	}
	return pressDecisionNames[d]
}

// pressInput is what the press stage reads besides the press queue, each
// value read by the Game from the part it belongs to: the board as the
// view has it, the record, what the absence says of the board, the
// settings, the time, whether the game has ended and since when the board
// shows the starting position in the middle of the game (nil: it does not).
type pressInput struct {
	board   boardFacts
	led     record
	away    awayFacts
	cfg     Config
	at      time.Duration
	ended   bool
	atStart *time.Duration
}

// decidePress decides, at in.at, what the press pr comes to on the record,
// the board and the absence as they stand, with the uncompleted plies of
// its side (cands). It changes nothing.
func (q *pressQueue) decidePress(in pressInput, pr pendingPress) (d pressDecision, cands []int) {
	ev := pr.ev
	if pressIgnored(in.away, in.ended, in.atStart, pr) {
		return pressNotJudged, nil
	}
	side := ev.Side
	v, led, cfg, at := in.board, in.led, in.cfg, in.at
	cands = uncompleted(led.plies, side)
	if len(cands) == 0 && q.back == backOf(side) && !placedBy(v.snap, led.boards[len(led.boards)-1], side) {
		// The opponent pressed without a move, which started this side's
		// clock; pressing back gives the turn back and is no offence.
		return pressGivesTurnBack, cands
	}
	if v.held.first(pr, cands, v.changed) {
		// the plies the board showed around the press (or reported up to
		// two scans after it, or that replace the move the press would
		// complete: the board's latest word on it) are accepted first; a
		// correction of a completed move waits for its own deadline
		return pressAfterHeld, cands
	}
	if v.unexplained.on() && v.held.plies == nil && placedBy(v.snap, led.boards[len(led.boards)-1], side) && (len(cands) == 0 || v.unexplained.since.before(pr.stamp())) {
		// The board showed at the press, and still shows, a position
		// nothing explains, in which the pressing side has put a piece
		// where the record has none: its move is illegal. A piece merely
		// missing (in a hand, or captured while the opponent moves), the
		// opponent's piece in the hand, or a transient that began after
		// the press, is not the presser's move.
		if !q.wait && at < v.changed.at+cfg.ScanLag && at < ev.At+cfg.UnexplainedAfter {
			// The board is still changing: the same press is judged once
			// it stands still (the piece may be going on to where a
			// correction of the record explains it).
			return pressWaitsForBoard, cands
		}
		return pressIllegalMove, cands
	}
	if absorbs(in.away, pr, len(cands) > 0) {
		return pressOfAbsence, cands
	}
	if len(cands) == 0 {
		return pressNoMove, cands
	}
	return pressCompletesPly, cands
}

// pressIgnored reports whether a press is not judged at all: made while
// the board shows the starting position instead of the game (players
// trying the clock, or pressing a reset clock), after the game ended, or
// once the board had gone away while arbiterd cannot follow the position
// it came back with (it completes nothing arbiterd can check, and it is no
// illegal move either; presses from before the absence are judged on what
// the board showed then).
func pressIgnored(a awayFacts, ended bool, atStart *time.Duration, pr pendingPress) bool {
	ev := pr.ev
	return (atStart != nil && ev.At >= *atStart) || ended || (a.stale && !pr.stamp().before(a.mark()))
}

// uncompleted lists the side's plies not completed yet.
func uncompleted(plies []plyInfo, side clockd.Side) []int {
	var cands []int
	for i, p := range plies {
		if !p.completed() && p.side == side {
			cands = append(cands, i)
		}
	}
	return cands
}

// placedBy reports whether the board shows a piece of side's colour on a
// square where the record's position does not have that piece.
func placedBy(board, rec rules.Snapshot, side clockd.Side) bool {
	want := chess.White
	if side == clockd.Black {
		want = chess.Black
	}
	for i, p := range board.Squares {
		if p != chess.NoPiece && p.Color() == want && rec.Squares[i] != p {
			return true
		}
	}
	return board.Unknown != 0
}

// first reports whether the held plies are to be settled before the
// press is judged: the board showed them around the press, or reported
// them up to two scans after it, or they replace the move the press would
// complete with one whose piece is not then taken (a piece in the hand
// looks like that).
func (h *held) first(pr pendingPress, cands []int, changed stamp) bool {
	if h.plies == nil || h.replaces != replacesNothing {
		return false
	}
	ev := pr.ev
	return len(cands) == 0 || changed.before(pr.stamp()) ||
		(!ev.Inferred && changed.at <= ev.At+boardReportLag) || h.kind == heldSlide ||
		(h.from <= cands[len(cands)-1] && !takenLater(h.plies)) // replaces
}

// takenLater reports whether a later move of seq lands where its first
// move's piece went.
func takenLater(seq []*chess.Move) bool {
	for _, m := range seq[1:] {
		if m.S2() == seq[0].S2() {
			return true
		}
	}
	return false
}

// absorbs reports whether the press is that of a move made while the
// board was not read (read in the merged reading after the board came
// back, or with no move to complete): it completes nothing arbiterd
// verified, and it is not a press without a move.
func absorbs(a awayFacts, pr pendingPress, hasMove bool) bool {
	ev, side := pr.ev, pr.ev.Side
	return a.absorb[side] > 0 && (!hasMove || (ev.Inferred && !pr.stamp().before(a.mark())))
}

// pressedPly is the ply of pr's side that its press completes, among
// cands (that side's uncompleted plies, at least one); those of that side
// before it are completed by the next move (6.2.1).
func (q *pressQueue) pressedPly(led record, pr pendingPress, cands []int) int {
	// The press completes the latest of side's moves made before it. When
	// more presses of side wait after it (the clock was read late because
	// the board that relays it was away, or one reading showed several
	// presses), they were made in that order: each later one is for a later
	// move, so this one leaves the latest moves to them.
	ev := pr.ev
	chosen := -1
	var before []int
	for _, i := range cands {
		// The board reports a move a scan or two after it is made, so a
		// press can be read before the move it completes: a move of the
		// presser's reported that soon after the press was made before it
		// (once the turn has passed the presser does not move again).
		// (Not for a press recovered from a merged reading: its time is
		// the reading's, later than the press.)
		if led.plies[i].made.before(pr.stamp()) || (!ev.Inferred && led.plies[i].made.at <= ev.At+boardReportLag && !repliedAfter(led.plies, q.presses, pr, i)) {
			before = append(before, i)
		}
	}
	if k := len(before) - 1 - q.laterPresses(pr); k >= 0 {
		chosen = before[k]
	} else if len(before) > 0 {
		chosen = before[0]
	}
	if chosen < 0 {
		chosen = cands[0]
	}
	return chosen
}

// repliedAfter reports whether the opponent of pr's side pressed the clock
// after pr and before ply i was made (by the order of the input): the turn
// had passed and come back, so ply i cannot be the move pr completed,
// however close its time (a daemon that read a second of the line at once
// stamps it all alike). A reply alone is not enough: a board reports a
// scan's changed squares one after the other, so the end of a slide can be
// read after the reply to it.
func repliedAfter(plies []plyInfo, waiting []pendingPress, pr pendingPress, i int) bool {
	mi, opp := plies[i].made.in, pr.ev.Side.Other()
	for _, q := range waiting {
		if q.ev.Side == opp && q.in > pr.in && q.in < mi {
			return true
		}
	}
	for j := i - 1; j >= 0; j-- {
		p := plies[j]
		if p.side == opp && p.pressed() && p.press.in > pr.in && p.press.in < mi {
			return true
		}
	}
	return false
}

// laterPresses counts the presses of pr's side that wait after pr: the
// clock was read late (the board, which relays it, was away), or one
// reading showed several presses, and the side pressed again before pr was
// resolved.
func (q pressFacts) laterPresses(pr pendingPress) int {
	n := 0
	for _, p := range q.presses {
		if p.ev.Side == pr.ev.Side && p.in > pr.in {
			n++
		}
	}
	return n
}

// clockSpoke reports whether the clock has started, been pressed or said
// whose time runs.
func (q *pressQueue) clockSpoke(started bool) bool {
	return started || len(q.presses) > 0 || q.turn.seen()
}

// clockTurn is the side to move by the clock in the position the board
// shows: the latest word of the clock (a press, or a reading taken as a
// whole) after the board went away, unless the board has changed since it
// was read then — the runner's own move may be the change, not yet
// pressed. A word from while the board was not read speaks of the position
// the board is first read with after it when that reading is a dump (the
// board read afresh), of the position before it when it is a field update
// (a change), and goes stale as the board changes (see Game.board).
func (q pressFacts) clockTurn(awayAt time.Duration, board rules.Snapshot) (chess.Color, bool) {
	t := q.turn
	if !t.seen() || t.at <= awayAt || (t.board != wordUnread && t.snap != board) {
		return chess.White, false
	}
	if t.toMove == clockd.White {
		return chess.White, true
	}
	return chess.Black, true
}

// ofRecord is what the press queue says of the record's last plies and of
// the side to move, for the board stage to read the board showing snap
// (see recordPlies), the board away as a says.
func (q pressFacts) ofRecord(led record, a awayFacts, snap rules.Snapshot) recordPlies {
	r := recordPlies{trailing: q.trailing(led, a.mark()), retractable: q.retractable(led, a.mark()),
		above: q.above(led, a.mark(), a.resyncing())}
	r.turn, r.turnKnown = q.clockTurn(a.at, snap)
	return r
}

// retractable is how many plies at the end of the record a correction may
// replace after an absence: the trailing uncompleted ones and the
// unverified ones below them.
func (q pressFacts) retractable(led record, away stamp) int {
	n := q.trailing(led, away)
	for i := len(led.plies) - 1 - n; i >= 0 && led.plies[i].unverified(); i-- {
		n++
	}
	return n
}

// above is how many plies are above the last verified position: those
// made while the board was not read, and, back from an absence (resync),
// those it showed before and nobody completed or pressed for before it
// went away (a piece seen on its way is no move).
func (q pressFacts) above(led record, away stamp, resync bool) int {
	n := len(led.plies)
	u := 0
	for u < n {
		p := led.plies[n-1-u]
		if !p.unverified() && (!resync || p.completed() || q.pressWaitsFor(led, away, n-1-u, true)) {
			break
		}
		u++
	}
	return u
}

// trailing is the number of plies after the last completed one.
// A ply its side has already pressed for (the press is waiting to be
// resolved) stays replaceable only while it is the last ply: a slide may
// still end after the press is read, but once the opponent has replied
// the pressed move is settled.
func (q pressFacts) trailing(led record, away stamp) int {
	n := 0
	for i := len(led.plies) - 1; i >= 0 && !led.plies[i].completed(); i-- {
		if i < len(led.plies)-1 && q.pressedFor(led, away, i) {
			break
		}
		n++
	}
	return n
}

// pressedFor reports whether a pending press of the ply's side came after
// the ply was made.
func (q pressFacts) pressedFor(led record, away stamp, i int) bool {
	return q.pressWaitsFor(led, away, i, false)
}

// unpressedTail is how many plies at the end of the record nobody
// completed or pressed for before the board went away: shown before the
// absence, they may never have been made (a piece seen on its way).
func (q pressFacts) unpressedTail(led record, away stamp) int {
	n := 0
	for i := len(led.plies) - 1; i >= 0 && !led.plies[i].completed() && !q.pressWaitsFor(led, away, i, true); i-- {
		n++
	}
	return n
}

// pressedBefore reports whether a press waiting to be resolved may
// complete ply i; beforeAway: only a press read before the board went away.
func (q pressFacts) pressWaitsFor(led record, away stamp, i int, beforeAway bool) bool {
	p := led.plies[i]
	for _, pr := range q.presses {
		if (!beforeAway || pr.stamp().before(away)) && pr.ev.Side == p.side && !pr.stamp().before(p.made) {
			return true
		}
	}
	return false
}

// backOf is the press back expected of side s.
func backOf(s clockd.Side) backExpected {
	if s == clockd.Black {
		return blackBackExpected
	}
	return whiteBackExpected
}

// pendingUpTo reports whether a press of side s reported by input in
// or before it is still waiting. A period check waits for the presses up
// to the addition it checks, and no later ones: in a scramble the side's
// next press may complete another move before the check is due, and that
// move is not the one the clock added the period at.
func (q pressFacts) pendingUpTo(s clockd.Side, in int) bool {
	for _, p := range q.presses {
		if p.ev.Side == s && p.in <= in {
			return true
		}
	}
	return false
}

// firstIn is the input of side s's first waiting press, or the largest
// int when none waits: a press of s by input in or before it waits when
// firstIn(s) <= in (see pendingUpTo).
func (q pressFacts) firstIn(s clockd.Side) int {
	first := int(^uint(0) >> 1)
	for _, p := range q.presses {
		if p.ev.Side == s {
			first = min(first, p.in)
		}
	}
	return first
}

// pressesRead reports whether several presses of side wait: they complete
// its moves in the order made (see resolvePress), not by next move.
func (q pressFacts) pressesRead(side clockd.Side) bool {
	for _, p := range q.presses {
		if p.ev.Side == side && q.laterPresses(p) > 0 {
			return true
		}
	}
	return false
}

// dropUnseen drops the presses read since the board went away (a), but
// those read from input keepIn on (when not 0), and counts them by side:
// they are of the plies made while the board was not read (see
// absence.absorbPresses).
func (q *pressQueue) dropUnseen(away stamp, keepIn int) (seen [2]int) {
	kept := q.presses[:0]
	for _, p := range q.presses {
		if !p.stamp().before(away) && (keepIn == 0 || p.in < keepIn) {
			seen[p.ev.Side]++
			continue
		}
		kept = append(kept, p)
	}
	q.presses = kept
	return seen
}

// dropAll drops every waiting press: they are not judged (the game has
// ended, or they were read before the board showed the game).
func (q *pressQueue) dropAll() { q.presses = nil }

// tieWord ties the clock's word, given while the board was not read, to
// snap, the board as it is read again.
func (q *pressQueue) tieWord(snap rules.Snapshot) { q.turn.snap, q.turn.board = snap, wordOnBoard }

// wordOnDump: the clock's word, given before the board was read whole, is
// about what the dump being read shows (see wordAbout).
func (q *pressQueue) wordOnDump() { q.turn.board = wordOnBoard }

// wordAbout makes the clock's word about snap, the board as shown.
func (q *pressQueue) wordAbout(snap rules.Snapshot) { q.turn.snap = snap }

// expectBack: the press back of side s, with no move of its own, is
// expected (the opponent pressed without a move).
func (q *pressQueue) expectBack(s clockd.Side) { q.back = backOf(s) }

// mirror turns round the clock's sides of the pending presses and of the
// clock's word (see learnFaces).
func (q *pressQueue) mirror() {
	for i := range q.presses {
		q.presses[i].ev = mirrored(q.presses[i].ev)
	}
	q.turn.toMove = q.turn.toMove.Other()
}
