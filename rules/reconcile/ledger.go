package reconcile

import (
	"fmt"
	"time"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules"
)

// ledger is the game's record: the moves on it, what arbiterd knows of
// each ply (when it was made, whether and how it was completed), the
// board after each ply, and the moves each side has completed. The
// methods here only read and write the ledger.
type ledger struct{ record }

// record is what the ledger holds, as the Game hands it to a stage to
// read: a value, whose methods only read it. A stage that would change the
// record hands back what it decided instead.
type record struct {
	rec     *rules.Game
	plies   []plyInfo
	boards  []rules.Snapshot // the placement after each ply (index 0: the start)
	counts  Moves
	plyBase int   // ply number of the record's start (non-zero once the record was rebuilt from the board)
	before  Moves // moves each side made before the record's start (for move numbers in words)
}

// completedAtTheFlag counts side's unpressed moves that a next move of
// side, reported within boardReportLag after the flag at flagAt, would
// complete if it was made before the flag; i is the first of them and
// next the move that would complete it.
func (led record) completedAtTheFlag(side clockd.Side, flagAt time.Duration) (k, i, next int, ok bool) {
	for a, p := range led.plies {
		if p.side != side || p.completed() || p.unverified() {
			continue
		}
		if b := led.nextOwn(a); b >= 0 && led.plies[b].made.at > flagAt && led.plies[b].made.at <= flagAt+boardReportLag {
			if k == 0 {
				i, next = a, b
			}
			k++
		}
	}
	return k, i, next, k > 0
}

// atTheFlag is completedAtTheFlag's answer, the plies in words.
func (led record) atTheFlag(side clockd.Side, flagAt time.Duration) atTheFlag {
	k, i, next, ok := led.completedAtTheFlag(side, flagAt)
	if !ok {
		return atTheFlag{}
	}
	return atTheFlag{k: k, first: led.moveText(i), next: led.moveText(next)}
}

// countAtFlag is the flagged side's count of completed moves when flag f
// fell: a press read after the flag's reading (the same reading time or
// later) completed its move after the flag, whenever arbiterd came to
// resolve it (6.3.1: the moves completed in the period).
func (led record) countAtFlag(f fallen) int {
	n := led.counts.Of(f.Side)
	for _, p := range led.plies {
		if p.side == f.Side && p.pressedAfter(f) {
			n--
		}
	}
	return n
}

// layUnverified marks the last kept plies of the record completed but
// unverified and appends moves the same way (up to the first that is not
// legal).
func (led *ledger) layUnverified(at time.Duration, kept int, moves []*chess.Move) laidPlies {
	var l laidPlies
	note := func(i int) {
		led.plies[i].status = plyUnverified
		side := led.plies[i].side
		w := led.moveText(i)
		if len(l.words) > 0 && side == clockd.Black {
			w = led.rec.SAN(i + 1) // "5.e4 e5", not "5.e4 5...e5"
		}
		l.words = append(l.words, w)
		l.sans = append(l.sans, led.rec.SAN(i+1))
		l.n[side]++
	}
	for i := len(led.plies) - kept; i < len(led.plies); i++ {
		note(i)
	}
	for _, m := range moves {
		side := sideOf(led.rec.Position().Turn())
		if err := led.rec.Move(m); err != nil {
			break // Reconstruct found it legal; a failure leaves a shorter record
		}
		led.plies = append(led.plies, plyInfo{side: side, made: stamp{at: at}})
		led.boards = append(led.boards, rules.SnapshotOf(led.rec.Position()))
		note(len(led.plies) - 1)
	}
	return l
}

// moveText is "23.Nf3" or "23...Nf6" for ply index i.
func (led record) moveText(i int) string {
	p := led.plies[i]
	n := led.before.White + 1
	if p.side == clockd.Black {
		n = led.before.Black + 1
	}
	for j := 0; j < i; j++ {
		if led.plies[j].side == p.side {
			n++
		}
	}
	if p.side == clockd.Black {
		return fmt.Sprintf("%d...%s", n, led.rec.SAN(i+1))
	}
	return fmt.Sprintf("%d.%s", n, led.rec.SAN(i+1))
}

// movesSince is the completed moves made at since or later, in words; a
// ply made unseen is no move.
func (led record) movesSince(since time.Duration) []string {
	var moves []string
	for i, p := range led.plies {
		if p.completed() && !p.unverified() && p.made.at >= since {
			moves = append(moves, led.moveText(i))
		}
	}
	return moves
}

// nextOwn returns the index of the next ply after ply i made by the same
// side, or -1.
func (led record) nextOwn(i int) int {
	for j := i + 1; j < len(led.plies); j++ {
		if led.plies[j].side == led.plies[i].side {
			return j
		}
	}
	return -1
}

// restoreFEN is the position after the last completed ply: the one the
// arbiter restores after an illegal move (7.5.1).
func (led record) restoreFEN() string {
	n := 0
	for i, p := range led.plies {
		if p.completed() {
			n = i + 1
		}
	}
	return led.rec.PositionAt(n).String()
}

// when words the moment of a press as an arbiter reads it: after which
// move, with the times the clock showed.
func (led record) when(ev clockd.ClockEvent) Text {
	last := -1
	for i, p := range led.plies {
		if p.completed() && !p.unverified() {
			last = i
		}
	}
	at := Text{Code: TextWhenBeforeFirst}
	if last >= 0 {
		at = say(TextWhenAfter, led.moveText(last))
	}
	return say(TextWhen, at, hms(ev.Clock.White), hms(ev.Clock.Black))
}

// plyInfo is what the Game knows about one ply of its record.
type plyInfo struct {
	side   clockd.Side
	made   stamp // the input that made it
	status plyStatus
	press  stamp // the press that completed it (when pressed)
	warned bool  // move-without-press already reported
}

// plyStatus is where a ply of the record stands (6.2.1).
type plyStatus uint8

const (
	plyMade       plyStatus = iota // on the board, not completed
	plyPressed                     // completed by its side's press
	plyByNextMove                  // completed by its side's next move
	plyByGameEnd                   // completed by ending the game
	// plyUnverified: made while the board was not read, and arbiterd could
	// not verify it. It stands in the record so that the record reaches
	// the board's position, but it is never completed, never counted and
	// never announced as a move; nothing waits for it.
	plyUnverified
)

// followFrom makes rec the record, its first position numbered ply.
func (led *ledger) followFrom(rec *rules.Game, ply int) {
	led.rec = rec
	led.plies = nil
	led.boards = []rules.Snapshot{rules.SnapshotOf(rec.Position())}
	led.plyBase = ply
	led.before = movesBefore(rec.Position())
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

// replace retracts the plies after from, if any, and applies moves in
// their place: the board shows the record with its last plies replaced (a
// slide that went on, a change of mind before the press), or with plies
// added.
func (led *ledger) replace(em *emitter, inputs int, out *[]Event, at time.Duration, from int, moves []*chess.Move) (unseen []clockd.Side) {
	unseen = led.retract(em, out, at, from, moves, retractSeen)
	led.apply(em, inputs, out, at, moves)
	return unseen
}

// remerge replaces plies k to k+2 — a piece's move, the reply, the piece
// moving on — by the piece's one move, the reply and the move the board
// shows now (see fitsMerge). The one move is completed as the piece's
// second move was (its press was the press of the whole move), the reply
// as it was, and the new move waits for its own press. The side's count
// is one less; the arbiter is told once.
func (led *ledger) remerge(em *emitter, inputs int, clock clockd.Times, out *[]Event, at time.Duration, k int, moves []*chess.Move) (unseen []clockd.Side) {
	olds := append([]plyInfo(nil), led.plies[k:]...)
	was := led.moveText(k) + " and " + led.moveText(k+2)
	unseen = led.retract(em, out, at, k, moves, retractCorrecting)
	led.apply(em, inputs, out, at, moves)
	if len(led.plies) < k+3 {
		return unseen
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
	return unseen
}

// recommit replaces the completed ply k by the held sequence (the plies
// after it are the same moves), completes again what was completed, as it
// was, and tells the arbiter once.
func (led *ledger) recommit(em *emitter, inputs int, clock clockd.Times, out *[]Event, at time.Duration, k int, moves []*chess.Move) (unseen []clockd.Side) {
	olds := append([]plyInfo(nil), led.plies[k:]...)
	was := led.moveText(k)
	unseen = led.retract(em, out, at, k, moves, retractCorrecting)
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
	return unseen
}

// retract takes the record back to ply from. replacement, when given, is
// the sequence that replaces the retracted plies (a slide or correction).
// It returns the sides of the unverified plies it took off, the latest
// first (see absence.unlaid).
func (led *ledger) retract(em *emitter, out *[]Event, at time.Duration, from int, replacement []*chess.Move, how retraction) (unseen []clockd.Side) {
	if from < 0 || from >= led.rec.Ply() {
		return nil
	}
	moves := led.rec.Moves()
	for p := led.rec.Ply(); p > from; p-- {
		info := led.plies[p-1]
		reason := ReasonCorrection
		switch {
		case info.unverified():
			// never announced as a move, never counted
			unseen = append(unseen, info.side)
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
		return unseen
	}
	led.plies = led.plies[:from]
	led.boards = led.boards[:from+1]
	return unseen
}

// completedByNextMove completes, before a flag of side at flagAt is
// judged, each of side's unpressed moves that side's next move, made
// before the flag fell, completed (6.2.1): they count for the control.
func (led *ledger) completedByNextMove(em *emitter, clock clockd.Times, out *[]Event, at time.Duration, side clockd.Side, flagAt time.Duration) {
	for i, p := range led.plies {
		if p.side != side || p.completed() || p.unverified() {
			continue
		}
		if j := led.nextOwn(i); j >= 0 && led.plies[j].made.at <= flagAt {
			led.complete(em, out, at, i, ByNextMove, clock)
		}
	}
}

// pressedAfter reports whether the ply was completed by a press read after
// flag f's reading (the same reading time or later).
func (p plyInfo) pressedAfter(f fallen) bool {
	return p.pressed() && !p.unverified() && !p.press.before(stamp{f.At, f.in})
}

// completedBy is the status a completion by gives.
func completedBy(by By) plyStatus {
	switch by {
	case ByPress:
		return plyPressed
	case ByGameEnd:
		return plyByGameEnd
	}
	return plyByNextMove
}

// joinedAtTheStart warns, once, when the clock was first read with the game
// under way (times that are not the control's starting ones) while the
// board, a scan lag later, shows the game at its start with no move made:
// most often a clock set to another control than the event's, which would
// count the periods wrong; else a game whose first moves arbiterd missed
// with every piece back on its square.
func (led *ledger) joinedAtTheStart(em *emitter, a awayFacts, clock clockd.Times, tc clockd.TimeControl, followed bool, out *[]Event, at time.Duration) {
	if !followed || a.fromStart || led.plyBase != 0 || led.rec.Ply() != 0 || len(led.plies) != 0 {
		return
	}
	em.anomaly(out, at, KindClockReading, 0, true, "6.10", say(TextReadingFirst,
		hms(clock.White), hms(clock.Black), tc.String()))
}

// pressed completes ply chosen by the press pr (by the game's end when it
// ends the game) and those among cands before it by their side's next move
// (6.2.1), and reports whether the game is over.
func (led *ledger) pressed(em *emitter, out *[]Event, at time.Duration, pr pendingPress, cands []int, chosen int, clock clockd.Times) (over bool) {
	for _, i := range cands {
		if i < chosen {
			led.complete(em, out, at, i, ByNextMove, clock)
		}
	}
	if chosen == len(led.plies)-1 && led.rec.Status().Over {
		led.complete(em, out, at, chosen, ByGameEnd, pr.ev.Clock)
		return true
	}
	led.complete(em, out, at, chosen, ByPress, pr.ev.Clock)
	led.plies[chosen].press.at, led.plies[chosen].press.in = pr.ev.At, pr.in
	return false
}

// complete marks ply index i completed (6.2.1).
func (led *ledger) complete(em *emitter, out *[]Event, at time.Duration, i int, by By, clock clockd.Times) {
	p := &led.plies[i]
	if p.completed() {
		return
	}
	p.status = completedBy(by)
	led.counts.add(p.side, 1)
	em.emit(out, at, Event{Type: TypeComplete, Ply: led.plyBase + i + 1, Side: p.side, By: by, Moves: led.counts, Clock: clock, SAN: led.rec.SAN(i + 1)})
}

func (m *Moves) add(s clockd.Side, n int) {
	if s == clockd.Black {
		m.Black += n
	} else {
		m.White += n
	}
}

// reset starts the record of a new game: rec, from a position before which
// each side completed base moves.
func (led *ledger) reset(rec *rules.Game, base Moves) {
	led.rec = rec
	led.plies = nil
	led.boards = []rules.Snapshot{rules.SnapshotOf(rec.Position())}
	led.counts = base
	led.before, led.plyBase = base, 0
}

// warned: the move-without-press of ply i was reported.
func (led *ledger) warned(i int) { led.plies[i].warned = true }

// misnamed: the presses of the uncompleted plies were read under the other
// side's name (the clock's sides turned round, see learnFaces): not
// pressing them is no move-without-press.
func (led *ledger) misnamed() {
	for i := range led.plies {
		led.plies[i].warned = led.plies[i].warned || !led.plies[i].completed()
	}
}

// retraction is how retract takes plies back.
type retraction uint8

const (
	retractSeen       retraction = iota // as the board shows: a take-back, a slide or a correction
	retractByArbiter                    // by the arbiter's action: a take-back (7.1)
	retractCorrecting                   // completed plies replaced by the moves the board shows were made instead
)
