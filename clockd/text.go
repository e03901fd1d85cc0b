package clockd

import "fmt"

// Text is a sentence of clockd's as a code and its arguments, so that a
// program may say it in its reader's language (SentenceCode and
// SentenceArgs are what it reads). An argument is an int, a string or a
// rune shown as it is (a time control, a unit as written), or a nested
// Text. String is the English, the sentence clockd's errors write.
type Text struct {
	Code string
	Args []any
}

// String is t in English ("" for a code clockd does not know).
func (t Text) String() string {
	f, ok := englishFormats[t.Code]
	if !ok {
		return ""
	}
	a := make([]any, len(t.Args))
	for i, x := range t.Args {
		if s, ok := x.(Text); ok {
			x = s.String()
		}
		a[i] = x
	}
	return fmt.Sprintf(f, a...)
}

// SentenceCode is t's code.
func (t Text) SentenceCode() string { return t.Code }

// SentenceArgs are t's arguments.
func (t Text) SentenceArgs() []any { return t.Args }

// EnglishFormat is the English format of code (a format of package fmt,
// its arguments the Text's), and whether clockd has the code.
func EnglishFormat(code string) (string, bool) {
	f, ok := englishFormats[code]
	return f, ok
}

// TextCodes lists the codes of clockd's sentences.
func TextCodes() []string {
	out := make([]string, 0, len(englishFormats))
	for c := range englishFormats {
		out = append(out, c)
	}
	return out
}

func say(code string, args ...any) Text { return Text{Code: code, Args: args} }

// englishFormats are the English of clockd's sentences: a time control's
// syntax errors (SyntaxError) and the words they name, and a white face
// that is none (FaceError).
var englishFormats = map[string]string{
	"clockd.tc.at":                 "clockd: time control %q: at offset %d (%q): %s",
	"clockd.tc.at-end":             "clockd: time control %q: at end of text: %s",
	"clockd.tc.number.end":         "expected %s (a number), found end of text",
	"clockd.tc.number":             "expected %s (a number)",
	"clockd.tc.number.large":       "%s is too large (at most %d)",
	"clockd.tc.what.moves-or-secs": "a move count or seconds",
	"clockd.tc.what.period-secs":   "the period's seconds",
	"clockd.tc.what.increment":     "the increment or delay in seconds",
	"clockd.tc.what.time":          "a time",
	"clockd.tc.what.moves":         "a move count",
	"clockd.tc.empty":              "empty time control",
	"clockd.tc.unknown":            "the time control is unknown (\"?\")",
	"clockd.tc.none":               "no time control (\"-\") cannot be timed",
	"clockd.tc.last-moves.remove":  "the last period lasts to the end of the game and takes no move count (remove %q)",
	"clockd.tc.last-moves":         "the last period lasts to the end of the game and takes no move count",
	"clockd.tc.pgn.unexpected":     "unexpected character; expected ':' between periods, or '+N', 'dN', 'bN' after the seconds",
	"clockd.tc.pgn.omit-moves":     "only the last period may omit the move count (write MOVES/SECONDS)",
	"clockd.tc.pgn.after-colon":    "expected a period after ':'",
	"clockd.tc.pgn.sandclock":      "sandclock periods (\"*SECONDS\") are not supported",
	"clockd.tc.moves.positive":     "a period's move count must be positive",
	"clockd.tc.moves.large":        "move count is too large (at most %d)",
	"clockd.tc.time.positive":      "a period needs a positive time",
	"clockd.tc.fide.unexpected":    "unexpected character; expected '+' between the parts of the control",
	"clockd.tc.fide.increment.too": "only the last part may be a per-move increment or delay; this one is too",
	"clockd.tc.fide.increment":     "only the last part may be a per-move increment or delay",
	"clockd.tc.fide.increment.big": "the increment is too large (at most %d seconds)",
	"clockd.tc.fide.time.large":    "a period's time is too large (at most %d hours)",
	"clockd.tc.fide.omit-moves":    "only the last period may omit the move count (write TIME/MOVES)",
	"clockd.tc.fide.unit":          "unknown unit %q (use ' or min for minutes, \" or s for seconds, h for hours)",
	"clockd.tc.fide.slash":         "expected a move count or \"move\" after '/'",
	"clockd.tc.fide.per":           "expected \"move\" after \"per\"",
	"clockd.tc.fide.word":          "unexpected word %q",
	"clockd.face":                  "clockd: white face %q: want left, right or auto",
}
