package clockd

import (
	"strings"
	"time"
	"unicode/utf8"
)

// unit is the unit written after a number in FIDE-style text.
type unit int

const (
	unitNone unit = iota
	unitHours
	unitMinutes
	unitSeconds
)

// fideTerm is one '+'-separated part of a FIDE-style control.
type fideTerm struct {
	at     int // offset of the term's number
	amount int
	unit   unit
	moves  int // after '/', 0 if none
	perMv  bool
	mode   Mode
}

// parseFIDE reads text such as "90/40+30+30s" or "90'/40 + 30' + 30\"":
// terms separated by '+'; a term is TIME[unit][/MOVES]; TIME without a
// unit is in minutes; the last term, when it is in seconds (" or s) and is
// not the only term, is the increment of every period, Fischer unless the
// word "delay" or "bronstein" follows it.
func parseFIDE(s string) (TimeControl, error) {
	sc := &scanner{s: s, end: len(s)}
	var terms []fideTerm
	for {
		sc.spaces()
		t, err := sc.fideTerm()
		if err != nil {
			return TimeControl{}, err
		}
		terms = append(terms, t)
		sc.spaces()
		if sc.eof() {
			break
		}
		if sc.peek() != '+' {
			return TimeControl{}, sc.errf(sc.pos, "clockd.tc.fide.unexpected")
		}
		sc.pos++
	}
	var inc *fideTerm
	if last := terms[len(terms)-1]; len(terms) > 1 && last.unit == unitSeconds && last.moves == 0 {
		inc = &last
		terms = terms[:len(terms)-1]
	}
	if n := len(terms); inc != nil && terms[n-1].unit == unitSeconds && terms[n-1].moves == 0 && n > 1 {
		return TimeControl{}, sc.errf(terms[n-1].at, "clockd.tc.fide.increment.too")
	}
	var tc TimeControl
	for i, t := range terms {
		p, err := sc.fidePeriod(t, i == len(terms)-1)
		if err != nil {
			return TimeControl{}, err
		}
		tc.Periods = append(tc.Periods, p)
	}
	if inc != nil && inc.amount > 0 {
		if inc.amount > maxIncrement {
			return TimeControl{}, sc.errf(inc.at, "clockd.tc.fide.increment.big", maxIncrement)
		}
		for i := range tc.Periods {
			tc.Periods[i].Increment = time.Duration(inc.amount) * time.Second
			tc.Periods[i].Mode = inc.mode
		}
	}
	return tc, nil
}

// fidePeriod is the period a part of the control gives (last: the part
// that lasts to the end of the game).
func (sc *scanner) fidePeriod(t fideTerm, last bool) (Period, error) {
	if t.perMv || t.mode != Fischer {
		return Period{}, sc.errf(t.at, "clockd.tc.fide.increment")
	}
	d := time.Duration(t.amount) * t.unit.size()
	switch {
	case d <= 0:
		return Period{}, sc.errf(t.at, "clockd.tc.time.positive")
	case d > maxSeconds*time.Second:
		return Period{}, sc.errf(t.at, "clockd.tc.fide.time.large", maxSeconds/3600)
	case last && t.moves > 0:
		return Period{}, sc.errf(t.at, "clockd.tc.last-moves")
	case !last && t.moves == 0:
		return Period{}, sc.errf(t.at, "clockd.tc.fide.omit-moves")
	}
	return Period{Moves: t.moves, Time: d}, nil
}

// size is how long one of the unit is (minutes when none was written).
func (u unit) size() time.Duration {
	switch u {
	case unitHours:
		return time.Hour
	case unitSeconds:
		return time.Second
	}
	return time.Minute
}

func (sc *scanner) spaces() {
	for !sc.eof() && (sc.peek() == ' ' || sc.peek() == '\t') {
		sc.pos++
	}
}

// word reads a run of ASCII letters (lower-cased).
func (sc *scanner) word() (string, int) {
	start := sc.pos
	for !sc.eof() {
		c := sc.peek()
		if (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') {
			sc.pos++
			continue
		}
		break
	}
	return strings.ToLower(sc.s[start:sc.pos]), start
}

// quote reads one of the quote characters used as units.
func (sc *scanner) quote() unit {
	r, n := utf8.DecodeRuneInString(sc.s[sc.pos:])
	switch r {
	case '\'', '’', '′':
		sc.pos += n
		return unitMinutes
	case '"', '”', '″':
		sc.pos += n
		return unitSeconds
	}
	return unitNone
}

func (sc *scanner) unit() (unit, error) {
	sc.spaces()
	if u := sc.quote(); u != unitNone {
		return u, nil
	}
	w, at := sc.word()
	switch w {
	case "":
		return unitNone, nil
	case "h", "hr", "hrs", "hour", "hours":
		return unitHours, nil
	case "m", "min", "mins", "minute", "minutes":
		return unitMinutes, nil
	case "s", "sec", "secs", "second", "seconds":
		return unitSeconds, nil
	}
	sc.pos = at
	return unitNone, sc.errf(at, "clockd.tc.fide.unit", w)
}

func (sc *scanner) fideTerm() (fideTerm, error) {
	t := fideTerm{at: sc.pos}
	n, err := sc.number("clockd.tc.what.time", maxSeconds)
	if err != nil {
		return t, err
	}
	t.amount = n
	if t.unit, err = sc.unit(); err != nil {
		return t, err
	}
	sc.spaces()
	if sc.peek() == '/' {
		sc.pos++
		sc.spaces()
		if isDigit(sc.peek()) {
			at := sc.pos
			m, err := sc.number("clockd.tc.what.moves", maxMoves)
			if err != nil {
				return t, err
			}
			if m == 0 {
				return t, sc.errf(at, "clockd.tc.moves.positive")
			}
			t.moves = m
			sc.spaces()
			save := sc.pos
			if w, _ := sc.word(); w != "moves" && w != "move" && w != "mv" {
				sc.pos = save
			}
		} else if w, at := sc.word(); w == "move" || w == "mv" {
			t.perMv = true
		} else {
			return t, sc.errf(at, "clockd.tc.fide.slash")
		}
	}
	// Trailing words: "per move", "delay", "bronstein", "increment".
	for {
		sc.spaces()
		save := sc.pos
		w, at := sc.word()
		switch w {
		case "":
			return t, nil
		case "per":
			sc.spaces()
			if w2, at2 := sc.word(); w2 != "move" {
				return t, sc.errf(at2, "clockd.tc.fide.per")
			}
			t.perMv = true
		case "inc", "increment", "fischer":
			t.perMv = true
		case "delay", "d":
			t.perMv, t.mode = true, Delay
		case "bronstein", "b":
			t.perMv, t.mode = true, Bronstein
		default:
			sc.pos = save
			return t, sc.errf(at, "clockd.tc.fide.word", w)
		}
	}
}
