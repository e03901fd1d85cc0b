package audit

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
)

// ParseTimeControl reads a TimeControl tag: the notation of
// docs/timecontrol.md ("40/5400+30:1800+30") and the FIDE-style
// short forms ("90/40+30+30s") through clockd.ParseTimeControl, and, when
// those fail, the free text organisers write: "90 minutes for the first 40
// moves, followed by 30 minutes for the rest of the game with an increment
// of 30 seconds per move starting from move 1". Leading punctuation (the
// World Cup tags start with ": ") is ignored.
func ParseTimeControl(s string) (clockd.TimeControl, error) {
	t := strings.TrimLeft(strings.TrimSpace(s), ":;,.- \t")
	t = strings.TrimSpace(t)
	switch t {
	case "", "?", "-":
		return clockd.TimeControl{}, fmt.Errorf("no time control in %q", s)
	}
	tc, err := clockd.ParseTimeControl(t)
	if err == nil {
		return tc, nil
	}
	if p, perr := parseProse(t); perr == nil {
		return p, nil
	}
	return clockd.TimeControl{}, err
}

// parseProse reads a time control written as an English sentence.
func parseProse(s string) (clockd.TimeControl, error) {
	words := proseWords(strings.ToLower(s))
	var periods []prosePeriod
	pending := 0 // a move count written before its time ("40 moves in 90 minutes")
	inc := proseIncrement{secs: -1, from: 1, mode: clockd.Fischer}
	lastTime := -10 // word index of the last period time
	for i := 0; i < len(words); i++ {
		n, ok := atoi(words[i])
		if !ok {
			continue
		}
		// "120 min/40": the move count of the period just written.
		if i > 0 && words[i-1] == "per" && len(periods) > 0 && periods[len(periods)-1].moves == 0 && i-lastTime <= 3 &&
			(i+1 == len(words) || !isUnit(words[i+1]) || unitOf(words[i+1]) == "moves" || words[i+1] == "m") {
			periods[len(periods)-1].moves = n
			if i+1 < len(words) && (unitOf(words[i+1]) == "moves" || words[i+1] == "m") {
				i++ // "40m", "40 moves": m after a slash is moves
			}
			continue
		}
		// "move 61" (from move 61): where the increment starts.
		if i > 0 && (words[i-1] == "move" || words[i-1] == "moves") && i+1 < len(words) && !isUnit(words[i+1]) {
			inc.from = n
			continue
		}
		if i > 0 && words[i-1] == "move" && i+1 == len(words) {
			inc.from = n
			continue
		}
		if i+1 >= len(words) {
			return clockd.TimeControl{}, fmt.Errorf("%q: the number %d has no unit", s, n)
		}
		u := unitOf(words[i+1])
		switch u {
		case "":
			return clockd.TimeControl{}, fmt.Errorf("%q: the number %d has no unit", s, n)
		case "moves":
			if len(periods) > 0 && periods[len(periods)-1].moves == 0 && i-lastTime <= 6 {
				periods[len(periods)-1].moves = n
			} else {
				pending = n
			}
			i++
			continue
		}
		secs := n
		switch u {
		case "h":
			secs = n * 3600
		case "m":
			secs = n * 60
		}
		if isIncrement(words, i, u) {
			inc.secs = secs
			inc.mode = modeNear(words, i, inc.mode)
			i++
			continue
		}
		periods = append(periods, prosePeriod{moves: pending, secs: secs})
		pending, lastTime = 0, i
		i++
	}
	if len(periods) == 0 {
		return clockd.TimeControl{}, errors.New("no period time found")
	}
	return proseControl(s, periods, inc)
}

// prosePeriod is a period read from prose: its move count (0: the rest of
// the game) and its time in seconds.
type prosePeriod struct{ moves, secs int }

// proseIncrement is the increment read from prose: its seconds (-1: none),
// the move it starts from and its mode.
type proseIncrement struct {
	secs, from int
	mode       clockd.Mode
}

// modeNear is the increment's mode the words around word i name (delay or
// Bronstein); mode when they name none.
func modeNear(words []string, i int, mode clockd.Mode) clockd.Mode {
	for _, w := range words[max(0, i-4):min(len(words), i+6)] {
		switch w {
		case "delay":
			mode = clockd.Delay
		case "bronstein":
			mode = clockd.Bronstein
		}
	}
	return mode
}

// proseControl is the time control of the periods and the increment read
// from the prose s: each period but the last has a move count, and the
// increment starts at a period's first move.
func proseControl(s string, periods []prosePeriod, inc proseIncrement) (clockd.TimeControl, error) {
	var tc clockd.TimeControl
	start := 1
	for i, p := range periods {
		last := i == len(periods)-1
		if last && p.moves > 0 {
			return clockd.TimeControl{}, fmt.Errorf("%q: the last period has a move count; what follows it is not said", s)
		}
		if !last && p.moves == 0 {
			return clockd.TimeControl{}, fmt.Errorf("%q: period %d has no move count", s, i+1)
		}
		q := clockd.Period{Moves: p.moves, Time: time.Duration(p.secs) * time.Second}
		if inc.secs > 0 && start >= inc.from {
			q.Increment, q.Mode = time.Duration(inc.secs)*time.Second, inc.mode
		}
		if inc.secs > 0 && inc.from > start && (last || inc.from < start+p.moves) {
			return clockd.TimeControl{}, fmt.Errorf("%q: an increment from move %d starts inside a period", s, inc.from)
		}
		tc.Periods = append(tc.Periods, q)
		start += p.moves
	}
	if err := tc.Validate(); err != nil {
		return clockd.TimeControl{}, err
	}
	return tc, nil
}

// proseWords splits text into lower-case words and numbers; a number glued
// to a unit ("90min", "30s") is split, and so are quotes used as units.
func proseWords(s string) []string {
	var out []string
	cur := []byte{}
	kind := 0 // 1 letters, 2 digits
	flush := func() {
		if len(cur) > 0 {
			out = append(out, string(cur))
			cur = cur[:0]
		}
		kind = 0
	}
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r >= 'a' && r <= 'z':
			if kind == 2 {
				flush()
			}
			kind = 1
			cur = append(cur, byte(r))
		case r >= '0' && r <= '9':
			if kind == 1 {
				flush()
			}
			kind = 2
			cur = append(cur, byte(r))
		case (r == '\'' || r == '’' || r == '′') && i+1 < len(rs) && rs[i+1] == r:
			flush()
			out = append(out, "sec") // 30'' is seconds, as 30" is
			i++
		case r == '\'' || r == '’' || r == '′':
			flush()
			out = append(out, "min")
		case r == '"' || r == '”' || r == '″':
			flush()
			out = append(out, "sec")
		case r == '+':
			flush()
			out = append(out, "plus")
		case r == '/':
			flush()
			out = append(out, "per") // "120 min/40", "30 sec/move"
		default:
			flush()
		}
	}
	flush()
	return out
}

func atoi(w string) (int, bool) {
	if w == "" || len(w) > 6 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return 0, false
		}
		n = n*10 + int(w[i]-'0')
	}
	return n, true
}

func unitOf(w string) string {
	switch w {
	case "h", "hr", "hrs", "hour", "hours":
		return "h"
	case "m", "min", "mins", "minute", "minutes":
		return "m"
	case "s", "sec", "secs", "second", "seconds":
		return "s"
	case "move", "moves", "mv":
		return "moves"
	}
	return ""
}

func isUnit(w string) bool { return unitOf(w) != "" }

// isIncrement reports whether the time at word i is a per-move increment
// or delay rather than a period's time: seconds near "increment", "per
// move", "added", "bonus", "delay"; minutes or hours only when followed by
// "per move".
func isIncrement(words []string, i int, unit string) bool {
	if i+3 < len(words) && words[i+2] == "per" && unitOf(words[i+3]) == "moves" {
		return true
	}
	if unit != "s" {
		return false
	}
	for _, w := range words[max(0, i-3):min(len(words), i+5)] {
		switch w {
		case "increment", "inc", "incr", "added", "bonus", "delay", "bronstein", "fischer", "per", "plus":
			return true
		}
	}
	return false
}
