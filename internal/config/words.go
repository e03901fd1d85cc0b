package config

import (
	"fmt"
	"strings"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
)

// TimeControlWords says what a time control gives the players, in words:
// times in the notation are seconds, and a control written as people say
// it ("90+30" for 90 minutes and 30 seconds) means something else to the
// clock. The daemon prints it for every board at start.
//
//	40/5400+30:1800+30 → 90 minutes for 40 moves, then 30 minutes for the rest of the game; plus 30 seconds per move from move 1
func TimeControlWords(tc clockd.TimeControl) string {
	var parts []string
	for i, p := range tc.Periods {
		var s string
		switch {
		case p.Moves > 0:
			s = fmt.Sprintf("%s for %d moves", durationWords(p.Time), p.Moves)
		case i == 0:
			s = durationWords(p.Time) + " for the game"
		default:
			s = durationWords(p.Time) + " for the rest of the game"
		}
		if i > 0 {
			s = "then " + s
		}
		if p.Increment > 0 && (i == 0 || p.Increment != tc.Periods[i-1].Increment || p.Mode != tc.Periods[i-1].Mode) {
			inc := durationWords(p.Increment)
			switch p.Mode {
			case clockd.Delay:
				s += fmt.Sprintf(", with a delay of %s per move", inc)
			case clockd.Bronstein:
				s += fmt.Sprintf(", with up to %s given back per move (Bronstein)", inc)
			default:
				s += fmt.Sprintf(", plus %s per move", inc)
				if i == 0 {
					s += " from move 1"
				}
			}
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

// durationWords writes a period's time as a person reads it.
func durationWords(d time.Duration) string {
	plural := func(n int64, unit string) string {
		if n == 1 {
			return "1 " + unit
		}
		return fmt.Sprintf("%d %ss", n, unit)
	}
	switch {
	case d%time.Second != 0:
		return fmt.Sprintf("%g seconds", d.Seconds())
	case d < time.Minute:
		return plural(int64(d/time.Second), "second")
	case d%time.Minute != 0:
		return fmt.Sprintf("%s (%d min %d s)", plural(int64(d/time.Second), "second"), d/time.Minute, d%time.Minute/time.Second)
	case d >= 2*time.Hour && d%time.Hour == 0:
		return plural(int64(d/time.Hour), "hour")
	default:
		return plural(int64(d/time.Minute), "minute")
	}
}

// MinutesMeant reports a time control that looks written in minutes: a
// period of less than a minute, or one shorter than ten of its increments
// ("90+30", "15+10", "40/90+30:30+30"). It returns the control with those
// periods' times read as minutes, to suggest, and false when the control
// looks as meant.
func MinutesMeant(tc clockd.TimeControl) (clockd.TimeControl, bool) {
	out := clockd.TimeControl{Periods: append([]clockd.Period(nil), tc.Periods...)}
	suspect := false
	for i, p := range tc.Periods {
		if p.Time < time.Minute || (p.Increment > 0 && p.Time < 10*p.Increment) {
			suspect = true
			out.Periods[i].Time = p.Time * 60
		}
	}
	return out, suspect
}
