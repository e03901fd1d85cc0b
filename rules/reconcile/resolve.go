package reconcile

import (
	"fmt"
	"strings"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules"
)

func limitOf(at, since time.Duration) time.Duration { return at - since }

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
