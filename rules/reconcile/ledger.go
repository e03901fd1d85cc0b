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
type ledger struct {
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
func (led *ledger) completedAtTheFlag(side clockd.Side, flagAt time.Duration) (k, i, next int, ok bool) {
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

// couldNotPress reports whether ply i was made while its side could not
// press: the opponent had made the ply before it without pressing (its
// move-without-press was reported) and has not pressed since, so the
// opponent's clock was still running. That the ply stays unpressed is the
// consequence of the forgotten press already reported, not a second one;
// the ply is completed by its side's next move all the same (6.2.1).
func (led *ledger) couldNotPress(i int) bool {
	if i == 0 {
		return false
	}
	prev := led.plies[i-1]
	return prev.side != led.plies[i].side && prev.warned && !prev.pressed()
}

// countAtFlag is the flagged side's count of completed moves when flag f
// fell: a press read after the flag's reading (the same reading time or
// later) completed its move after the flag, whenever arbiterd came to
// resolve it (6.3.1: the moves completed in the period).
func (led *ledger) countAtFlag(f fallen) int {
	n := led.counts.Of(f.Side)
	for _, p := range led.plies {
		if p.side == f.Side && p.pressedAfter(f) {
			n--
		}
	}
	return n
}

// earlierPosition finds the most recent earlier position of the record
// that s shows.
func (led *ledger) earlierPosition(s rules.Snapshot) (int, bool) {
	for j := len(led.boards) - 2; j >= 0; j-- {
		if sameBoard(led.boards[j], s) {
			return j, true
		}
	}
	return 0, false
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

// legalBoard reports whether s is a legal position with one side or the
// other to move.
func (led *ledger) legalBoard(s rules.Snapshot) bool {
	if s.OccupancyOnly || s.Unknown != 0 {
		return false
	}
	r, _ := legalPlacement(s, led.rec.Position(), chess.White)
	return r != nil
}

// moveText is "23.Nf3" or "23...Nf6" for ply index i.
func (led *ledger) moveText(i int) string {
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

// nextOwn returns the index of the next ply after ply i made by the same
// side, or -1.
func (led *ledger) nextOwn(i int) int {
	for j := i + 1; j < len(led.plies); j++ {
		if led.plies[j].side == led.plies[i].side {
			return j
		}
	}
	return -1
}

// restoreFEN is the position after the last completed ply: the one the
// arbiter restores after an illegal move (7.5.1).
func (led *ledger) restoreFEN() string {
	n := 0
	for i, p := range led.plies {
		if p.completed() {
			n = i + 1
		}
	}
	return led.rec.PositionAt(n).String()
}

// uncompleted lists the side's plies not completed yet.
func (led *ledger) uncompleted(side clockd.Side) []int {
	var cands []int
	for i, p := range led.plies {
		if !p.completed() && p.side == side {
			cands = append(cands, i)
		}
	}
	return cands
}

// when words the moment of a press as an arbiter reads it: after which
// move, with the times the clock showed.
func (led *ledger) when(ev clockd.ClockEvent) Text {
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
