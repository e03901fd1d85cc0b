package reconcile

import (
	"strconv"
	"time"
)

// The scheduler: what the Game waits for, and when each part's deadline
// falls due, from the values it is handed. It changes nothing; the loop
// (loop.go, nextDeadline) asks each part, takes the earliest deadline,
// applies its decision and asks again.

// deadlineKind is what falls due at a deadline. Deadlines due at the
// same time are taken in the order of the kinds.
type deadlineKind int

const (
	dueSettleHeld           deadlineKind = iota // the held plies are settled
	dueJudgePress                               // the first waiting press is judged
	dueCompleteByNextMove                       // a ply is completed by its side's next move
	dueWarnMoveWithoutPress                     // a ply answered without a press is reported
	dueCompleteByGameEnd                        // the game-ending ply is completed and the game ends
	dueWarnUnexplained                          // an unexplained board is reported
	dueSearchFar                                // a position back from an absence is searched again
	dueJudgeFlags                               // the flags are judged
	dueJudgeStop                                // the first stop of the clock is judged
	dueCheckPeriod                              // a period the clock added is checked against the count
	dueDefaultTime                              // the default time has passed
	dueCheckJoin                                // a clock joined under way is checked against the board
	dueNothing                                  // no deadline is pending
)

var deadlineNames = [...]string{"settle-held", "judge-press", "complete-by-next-move", "warn-move-without-press", "complete-by-game-end", "warn-unexplained", "search-far", "judge-flags", "judge-stop", "check-period", "default-time", "check-join", "nothing"}

func (k deadlineKind) String() string {
	if k < 0 || int(k) >= len(deadlineNames) {
		return "deadlineKind(" + strconv.Itoa(int(k)) + ")"
	}
	return deadlineNames[k]
}

// noDeadline is later than any deadline: advancing to it decides
// everything pending (the end of a session, a result signalled).
const noDeadline = time.Duration(1 << 62)

// plyDeadlines gives consider the deadlines of the uncompleted plies: a
// ply completed by its side's next move, or reported made without a press
// once the opponent has replied (6.2.1).
func (q *pressQueue) plyDeadlines(led record, away stamp, lag time.Duration, inputs int, consider func(d time.Duration, k deadlineKind, i int)) {
	for i, p := range led.plies {
		if p.completed() {
			continue
		}
		own, opp := -1, -1
		for j := i + 1; j < len(led.plies); j++ {
			if led.plies[j].side == p.side {
				if own < 0 {
					own = j
				}
			} else if opp < 0 {
				opp = j
			}
		}
		switch {
		case own >= 0 && q.pressesRead(p.side):
			// several presses of the side wait: they complete its
			// moves in order (see resolvePress)
		case own >= 0 && q.pressedFor(led, away, i):
			// a press of the side made after the ply waits (the
			// board away, or back and not settled): it completes the
			// ply when presses are judged again, not the next move
		case own >= 0:
			consider(led.plies[own].made.at+lag, dueCompleteByNextMove, i)
		case opp >= 0 && !p.warned && !q.pendingUpTo(p.side, inputs) && !led.plies[opp].unverified() && !couldNotPress(led.plies, i):
			consider(led.plies[opp].made.at+lag, dueWarnMoveWithoutPress, i)
		}
	}
}

// couldNotPress reports whether ply i was made while its side could not
// press: the opponent had made the ply before it without pressing (its
// move-without-press was reported) and has not pressed since, so the
// opponent's clock was still running. That the ply stays unpressed is the
// consequence of the forgotten press already reported, not a second one;
// the ply is completed by its side's next move all the same (6.2.1).
func couldNotPress(plies []plyInfo, i int) bool {
	if i == 0 {
		return false
	}
	prev := plies[i-1]
	return prev.side != plies[i].side && prev.warned && !prev.pressed()
}

// due is when the first waiting press is judged, if one waits: ScanLag
// after it. When it would be an illegal move but the board is still
// changing (a piece in the hand, a move going on), it is judged once the
// board has stood still for ScanLag, or UnexplainedAfter after the press.
// No press is judged while the board is away, or while, back from an
// absence, it shows a position not yet settled (plies held from the
// absence, or what nothing explains): presses wait for it as they wait for
// the board to be back, so that they are judged on what it settles on.
func (q *pressQueue) due(v boardFacts, a awayFacts, cfg Config) (time.Duration, bool) {
	settling := (v.held.plies != nil && v.held.away()) || (a.suspect && v.unexplained.on())
	if len(q.presses) == 0 || a.disconnected || settling {
		return 0, false
	}
	at, lag := q.presses[0].ev.At, cfg.ScanLag
	due := at + lag
	if q.wait {
		due = max(due, min(v.changed.at+lag, at+cfg.UnexplainedAfter))
	}
	return due, true
}

// heldDue is when the held plies are settled: once the board has shown
// them for ScanLag; after an absence not before the board is read again
// in full, and a piece that may be in the hand not before
// UnexplainedAfter.
func (v *boardView) heldDue(cfg Config, q pressFacts, a awayFacts) time.Duration {
	due := v.changed.at + cfg.ScanLag
	if until, ok := v.waitsForTheBoard(q, a, cfg.ScanLag); ok && v.held.away() {
		due = max(due, until)
	}
	if v.held.kind == heldAwayInHand {
		due = max(due, v.changed.at+cfg.UnexplainedAfter)
	}
	if v.held.away() && a.undumped && a.starting {
		// the plies were laid on the image of before the absence by
		// field updates the board sent while answering the driver's
		// start-up, whose dump replaces that image: it is waited for as
		// long as the board read after the clock's word (see
		// waitsForTheBoard). Settled before it, they are a stale
		// image's moves, and presses would complete them.
		due = max(due, v.changed.at+2*cfg.ScanLag)
	}
	return due
}

// stopDue is when the first stop of the clock is judged: ScanLag after
// it, or UnexplainedAfter while pieces are being moved (the kings put on
// the centre squares to signal a result, after the clock was stopped).
func (v *boardView) stopDue(cfg Config, at time.Duration) time.Duration {
	if v.unexplained.on() && v.held.plies == nil {
		return max(at+cfg.ScanLag, at+cfg.UnexplainedAfter)
	}
	return at + cfg.ScanLag
}

// rebaseDue returns when the record may be rebuilt from what the board
// shows, back from an absence, when not even the deeper search reaches it.
// That is final, and a piece held in a hand (or knocked over) shows the
// same, so the board must have shown the position for UnexplainedAfter
// and a press must have been made while it stood — a player pressing
// has finished the move — and the board not changed for ScanLag after
// that press. Without a press (a game without a clock) the position must
// stand for six times UnexplainedAfter.
func (v *boardView) rebaseDue(cfg Config, q pressFacts, a awayFacts) time.Duration {
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

// waitsForTheBoard reports whether a decision on what the board shows after
// lost updates (settling held plies, rebuilding the record) waits for the
// board to be read again, and until when at most: the clock spoke after
// the board's latest reading, so the board may have changed since without
// saying so (a capture whose updates were lost: the captured piece lifted,
// the capturing one not yet seen on its square, the press already made).
// The next dump shows it; the wait is bounded by twice ScanLag after the
// word, for a board that is not polled.
func (v *boardView) waitsForTheBoard(q pressFacts, a awayFacts, scanLag time.Duration) (time.Duration, bool) {
	t := q.turn
	if a.search != unsettledLossy || !t.seen() || t.at <= v.boardRead.at {
		return 0, false
	}
	return t.at + 2*scanLag, true
}

// defaultDue is when the default time passes (6.7.1), if it is checked
// and not yet done.
func (r roundState) defaultDue(defaultTime, startedAt time.Duration, ended bool) (time.Duration, bool) {
	if defaultTime <= 0 || r != roundStarted || ended {
		return 0, false
	}
	return startedAt + defaultTime, true
}
