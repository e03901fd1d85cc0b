package clockd

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// SyntaxError reports a malformed time control. Offset is the byte offset
// in Text of the offending character (len(Text) when the text ended too
// early).
type SyntaxError struct {
	Text   string
	Offset int
	Msg    string
	Why    Text // Msg as a code and its arguments
}

func (e *SyntaxError) Error() string {
	if e.Offset >= len(e.Text) {
		return fmt.Sprintf("clockd: time control %q: at end of text: %s", e.Text, e.Msg)
	}
	r, _ := utf8.DecodeRuneInString(e.Text[e.Offset:])
	return fmt.Sprintf("clockd: time control %q: at offset %d (%q): %s", e.Text, e.Offset, r, e.Msg)
}

// SentenceCode is the error's code (Text): where the mistake is, and
// what it is (Why).
func (e *SyntaxError) SentenceCode() string {
	if e.Offset >= len(e.Text) {
		return "clockd.tc.at-end"
	}
	return "clockd.tc.at"
}

// SentenceArgs are the error's arguments: the control, where, and Why.
func (e *SyntaxError) SentenceArgs() []any {
	if e.Offset >= len(e.Text) {
		return []any{e.Text, e.Why}
	}
	r, _ := utf8.DecodeRuneInString(e.Text[e.Offset:])
	return []any{e.Text, e.Offset, r, e.Why}
}

// Limits that keep parsed values far from overflow and from nonsense.
const (
	maxMoves     = 1000
	maxSeconds   = 100 * 3600 // a period's time
	maxIncrement = 3600       // an increment or delay
)

// ParseTimeControl parses the notation of docs/timecontrol.md: the
// PGN form "[MOVES/]SECONDS[MODE]" with periods separated by ':' and MODE
// "+N" (Fischer), "dN" (simple delay) or "bN" (Bronstein). It also accepts
// FIDE-style text written for people, where times are in minutes and the
// increment in seconds: "90/40+30+30s", "90'/40 + 30' + 30\"",
// "15 min + 10 s". The result prints back (String) in the canonical form.
//
// The last period must not have a move count, every other period must;
// every period needs a positive time. An error is a *SyntaxError pointing
// at the offending character.
func ParseTimeControl(s string) (TimeControl, error) {
	if isFIDEStyle(s) {
		return parseFIDE(s)
	}
	return parsePGN(s)
}

// isFIDEStyle reports whether the text uses units (quotes or unit words),
// which the PGN form never does.
func isFIDEStyle(s string) bool {
	word := -1
	for i, r := range s + " " {
		letter := (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		switch {
		case letter && word < 0:
			word = i
		case !letter && word >= 0:
			if isFIDEWord(strings.ToLower(s[word:i])) {
				return true
			}
			word = -1
		}
		if r == '\'' || r == '"' || r == '’' || r == '”' || r == '′' || r == '″' {
			return true
		}
	}
	return false
}

// isFIDEWord reports whether w (lower case) marks FIDE-style text.
func isFIDEWord(w string) bool {
	switch w {
	case "h", "hr", "hrs", "hour", "hours",
		"m", "min", "mins", "minute", "minutes",
		"s", "sec", "secs", "second", "seconds",
		"move", "moves", "mv", "per",
		"inc", "increment", "fischer", "delay", "bronstein":
		return true
	}
	return false
}

// scanner walks the text byte by byte; all syntax is ASCII, and anything
// else is reported where it stands.
type scanner struct {
	s   string
	pos int
	end int // scanning stops here (trailing spaces are not part of a PGN control)
}

// errf is the syntax error at offset at: the sentence of code with args.
func (sc *scanner) errf(at int, code string, args ...any) error {
	why := say(code, args...)
	return &SyntaxError{Text: sc.s, Offset: at, Msg: why.String(), Why: why}
}

func (sc *scanner) peek() byte {
	if sc.pos < sc.end {
		return sc.s[sc.pos]
	}
	return 0
}

func (sc *scanner) eof() bool { return sc.pos >= sc.end }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// number reads a non-negative decimal integer no larger than limit; what
// is the code of the quantity's name in errors (clockd.tc.what.*).
func (sc *scanner) number(what string, limit int) (int, error) {
	start := sc.pos
	if sc.eof() {
		return 0, sc.errf(start, "clockd.tc.number.end", say(what))
	}
	if !isDigit(sc.peek()) {
		return 0, sc.errf(start, "clockd.tc.number", say(what))
	}
	n := 0
	for !sc.eof() && isDigit(sc.peek()) {
		n = n*10 + int(sc.peek()-'0')
		if n > limit {
			return 0, sc.errf(start, "clockd.tc.number.large", say(what), limit)
		}
		sc.pos++
	}
	return n, nil
}

func parsePGN(s string) (TimeControl, error) {
	sc := &scanner{s: s, end: len(strings.TrimRight(s, " \t"))}
	sc.pos = len(s) - len(strings.TrimLeft(s, " \t"))
	switch strings.TrimSpace(s) {
	case "":
		return TimeControl{}, sc.errf(0, "clockd.tc.empty")
	case "?":
		return TimeControl{}, sc.errf(strings.IndexByte(s, '?'), "clockd.tc.unknown")
	case "-":
		return TimeControl{}, sc.errf(strings.IndexByte(s, '-'), "clockd.tc.none")
	}
	var tc TimeControl
	for {
		start := sc.pos
		p, err := sc.period()
		if err != nil {
			return TimeControl{}, err
		}
		tc.Periods = append(tc.Periods, p)
		if sc.eof() {
			if p.Moves > 0 {
				return TimeControl{}, sc.errf(start, "clockd.tc.last-moves.remove", fmt.Sprint(p.Moves, "/"))
			}
			return tc, nil
		}
		if sc.peek() != ':' {
			return TimeControl{}, sc.errf(sc.pos, "clockd.tc.pgn.unexpected")
		}
		if p.Moves == 0 {
			return TimeControl{}, sc.errf(start, "clockd.tc.pgn.omit-moves")
		}
		sc.pos++
		if sc.eof() {
			return TimeControl{}, sc.errf(sc.pos, "clockd.tc.pgn.after-colon")
		}
	}
}

// pgnModes are the letters that give a period's per-move time.
var pgnModes = map[byte]Mode{'+': Fischer, 'd': Delay, 'b': Bronstein}

// period reads one period of the PGN notation: [MOVES/]SECONDS, then
// optionally +N (Fischer), dN (delay) or bN (Bronstein).
func (sc *scanner) period() (Period, error) {
	start := sc.pos
	if sc.peek() == '*' {
		return Period{}, sc.errf(sc.pos, "clockd.tc.pgn.sandclock")
	}
	a, err := sc.number("clockd.tc.what.moves-or-secs", maxSeconds)
	if err != nil {
		return Period{}, err
	}
	var p Period
	secAt := start
	if sc.peek() == '/' {
		if a == 0 {
			return Period{}, sc.errf(start, "clockd.tc.moves.positive")
		}
		if a > maxMoves {
			return Period{}, sc.errf(start, "clockd.tc.moves.large", maxMoves)
		}
		p.Moves = a
		sc.pos++
		secAt = sc.pos
		a, err = sc.number("clockd.tc.what.period-secs", maxSeconds)
		if err != nil {
			return Period{}, err
		}
	}
	if a == 0 {
		return Period{}, sc.errf(secAt, "clockd.tc.time.positive")
	}
	p.Time = time.Duration(a) * time.Second
	if m, ok := pgnModes[sc.peek()]; ok {
		p.Mode = m
		sc.pos++
		n, err := sc.number("clockd.tc.what.increment", maxIncrement)
		if err != nil {
			return Period{}, err
		}
		p.Increment = time.Duration(n) * time.Second
		if n == 0 {
			p.Mode = Fischer
		}
	}
	return p, nil
}
