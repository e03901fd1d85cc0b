package reconcile

import (
	"fmt"
	"strings"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules"
)

func limitOf(at, since time.Duration) time.Duration { return at - since }

// settle accepts the several plies the board has been showing.
func (g *Game) settle(out *[]Event, at time.Duration, pressed bool) {
	h := g.view.accept()
	moves, from := h.plies, h.from
	away, ambig := h.away(), h.ambiguous
	replaces := h.replaces
	if replaces != replacesNothing {
		if replaces == mergesCompleted {
			g.away.unlaid(g.led.remerge(&g.em, g.inputs, g.clock, out, at, from, moves))
		} else {
			g.away.unlaid(g.led.recommit(&g.em, g.inputs, g.clock, out, at, from, moves))
		}
		if n := len(g.led.boards); !sameBoard(g.led.boards[n-1], g.view.snap) {
			g.process(out, at) // the board has moved on meanwhile
		}
		return
	}
	if g.view.held.backTo >= 0 && !pressed {
		g.away.unlaid(g.led.retract(&g.em, out, at, g.view.held.backTo, nil, retractSeen)) // no press: a take-back
		return
	}
	for i := from; i < len(g.led.plies); i++ {
		if g.led.plies[i].completed() && !g.led.plies[i].unverified() {
			// a press has settled a ply the held explanation would
			// replace: it no longer stands; look at the board afresh
			g.process(out, at)
			return
		}
	}
	r := notRebuilt
	if away && (len(moves) > 2 || ambig || g.away.fromStart) {
		// Back from an absence the board settled several plies on: more
		// than two plies, or several ways to get there, are moves nobody
		// saw; they are reported, not completed. So are the plies of a
		// game under way when the board was first read.
		r = g.unverify(out, at, from, moves, ambig)
	} else {
		if away && g.away.unchecked {
			// The one or two plies the board settled on may leave the
			// other side to move than the clock says: the unverified
			// plies before them were laid with the wrong side to move
			// (see unverify).
			r = g.rebuildOnTheClocksTurn(out, at, from, moves)
		}
		if r == notRebuilt {
			if away {
				g.away.backInStep()
			}
			g.away.unlaid(g.led.replace(&g.em, g.inputs, out, at, from, moves)) // retracts nothing when the plies are added
		}
	}
	if r == rebuiltBehind {
		g.process(out, at)
		g.work.then(step{kind: stepLookAgain}) // after what the board decided
		return
	}
	g.lookAgain(out, at)
}

// lookAgain reconciles the board again when it has moved on from the
// record's last position meanwhile.
func (g *Game) lookAgain(out *[]Event, at time.Duration) {
	if n := len(g.led.boards); !sameBoard(g.led.boards[n-1], g.view.snap) {
		g.process(out, at)
	}
}

// finish ends the game.
func (g *Game) finish(out *[]Event, at time.Duration, result, reason, article string) {
	g.end = &gameEnd{result, reason}
	g.waiting.dropAll()
	g.flag.gameEnded()
	g.em.emit(out, at, Event{Type: TypeEnd, Result: result, Reason: Reason(reason), Article: article})
}

// penalty words the 7.5.5 consequence of side's latest illegal move.
func (c Config) penalty(rec *rules.Game, illegal [2]int, side clockd.Side) Text {
	n := illegal[side]
	opp := side.Other()
	if n <= 1 {
		mins, rule := 2*time.Minute, "7.5.5"
		if c.Class == clockd.Rapid || c.Class == clockd.Blitz {
			mins, rule = time.Minute, "7.5.5, A.3"
		}
		return say(TextPenaltyFirst,
			possWord(side), durationWords(mins), possWord(opp), rule)
	}
	ans, line := c.canMate(rec, opp)
	var mate Text
	switch ans {
	case MateYes:
		mate = say(TextPenaltyMateYes, sideWord(opp), strings.Join(line, " "), sideWord(side))
	case MateNo:
		mate = say(TextPenaltyMateNo, sideWord(opp))
	default:
		mate = say(TextPenaltyMateUnknown, sideWord(opp))
	}
	return say(TextPenaltyNth,
		possWord(side), nthWord(n), sideWord(side), sideWord(opp), mate)
}

// twoMoves reports whether the board shows the side that moved last having
// moved again (one legal move with the turn passed back to it).
func twoMoves(rec *rules.Game, board rules.Snapshot) (clockd.Side, string, bool) {
	pos := rec.Position()
	mover := sideOf(pos.Turn()).Other()
	f := strings.Fields(pos.String())
	if len(f) < 4 {
		return 0, "", false
	}
	if f[1] == "w" {
		f[1] = "b"
	} else {
		f[1] = "w"
	}
	f[3] = "-"
	alt, err := rules.NewGame(strings.Join(f, " "))
	if err != nil {
		return 0, "", false
	}
	r := rules.Reconstruct(alt, board, rules.Options{MaxPlies: 1})
	if r.Kind != rules.Forward || len(r.Moves) != 1 {
		return 0, "", false
	}
	if err := alt.Move(r.Moves[0]); err != nil {
		return 0, "", false
	}
	return mover, alt.SAN(1), true
}

// State summarises the game for dashboards and tests.
func (g *Game) State() Summary {
	s := Summary{
		Ply:       g.led.plyBase + g.led.rec.Ply(),
		FEN:       g.led.rec.FEN(),
		Completed: g.led.counts,
		Clock:     g.clock,
		Expected:  g.ref.Times(g.now),
		Period:    g.flag.hwPeriod,
		Illegal:   g.hand.illegal,
	}
	if g.end != nil {
		s.Result, s.EndReason = g.end.result, g.end.reason
	}
	switch {
	case !g.facing.known():
		s.Status = StatusWaiting
	case g.end != nil:
		s.Status = StatusEnded
	default:
		s.Status = StatusPlaying
	}
	if g.facing.known() {
		s.Orientation = g.facing.orientation().String()
	}
	for i, p := range g.led.plies {
		if !p.completed() {
			s.Uncompleted = append(s.Uncompleted, g.led.plyBase+i+1)
		}
	}
	for _, p := range g.waiting.presses {
		s.Pending = append(s.Pending, fmt.Sprintf("%s press at %s waits for its move", p.ev.Side, seconds(p.ev.At)))
	}
	for _, f := range g.flag.flags {
		s.Pending = append(s.Pending, fmt.Sprintf("%s flag at %s awaits its verdict", f.Side, seconds(f.At)))
	}
	if g.view.unexplained.on() {
		s.Pending = append(s.Pending, fmt.Sprintf("board unexplained since %s", seconds(g.view.unexplained.since.at)))
	}
	if g.atStart != nil {
		s.Pending = append(s.Pending, fmt.Sprintf("board shows the starting position since %s; the game's position is awaited", seconds(*g.atStart)))
	}
	return s
}

// GameStatus says where a game is: before its start was recognised,
// under way, or over.
type GameStatus string

// Game statuses (Summary.Status).
const (
	StatusWaiting GameStatus = "waiting" // the board has not shown the start
	StatusPlaying GameStatus = "playing"
	StatusEnded   GameStatus = "ended"
)

// Summary is the state of a Game.
type Summary struct {
	Ply         int          // plies in the record (made, completed or not)
	FEN         string       // position of the record
	Completed   Moves        // completed moves per side (6.2.1)
	Uncompleted []int        // plies made but not completed
	Clock       clockd.Times // last displayed clock values (conclusive, 6.10)
	Expected    clockd.Times // what a correct clock would show now: the reference clock driven by completed moves
	Period      [2]int       // period each side's clock is in, indexed by clockd.Side
	Illegal     [2]int       // completed illegal moves (7.5.5), indexed by clockd.Side
	Status      GameStatus   // waiting, playing or ended
	Orientation string       // "white-bottom", "black-bottom" or "" before the start is seen
	Result      string       // when ended
	EndReason   string
	Pending     []string // decisions waiting for a deadline, in words
}

func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", n, suffix)
}

// Nth words a count as the alerts do ("first" … "fourth", then "5th"),
// for views that reword them.
func Nth(n int) string { return periodName(n) }

func periodName(p int) string {
	switch p {
	case 1:
		return "first"
	case 2:
		return "second"
	case 3:
		return "third"
	case 4:
		return "fourth"
	}
	return ordinal(p)
}

// seconds writes an offset as "123.456 s".
func seconds(d time.Duration) string {
	return string(appendSeconds(nil, d)) + " s"
}

// hms writes a clock value as h:mm:ss.
func hms(d time.Duration) string {
	neg := d < 0
	if neg {
		d = -d
	}
	s := int64(d / time.Second)
	out := fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	if neg {
		out = "-" + out
	}
	return out
}
