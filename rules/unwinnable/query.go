package unwinnable

import (
	"fmt"
	"strings"

	bb "github.com/arbiterd/arbiterd/rules/bitboard"
)

// Query is one question read from a query file: a position and the side
// asked about.
type Query struct {
	FEN  string
	Side bb.Color
	// Label is the labelled format's expectation (which sides can mate),
	// set only by ParseLabelled.
	Label [2]bool
	// Pos is the position of FEN, parsed.
	Pos bb.Position
}

// ParseQuery reads a query line "FEN [white|black]". Without a side the
// query is about the side NOT to move — after a flag fall, the player who
// moved last and whose clock still runs. Anything after a complete
// six-field FEN (such as a game id) is ignored.
func ParseQuery(line string) (Query, error) {
	fen, side := splitQuery(line)
	pos, err := bb.ParseFEN(fen)
	if err != nil {
		return Query{}, err
	}
	q := Query{FEN: fen, Side: pos.Side().Other(), Pos: pos}
	switch side {
	case "white":
		q.Side = bb.White
	case "black":
		q.Side = bb.Black
	}
	return q, nil
}

// ParseLabelled reads a line of the labelled format "XY FEN", where X is
// W or '-' (White can mate or not) and Y is B or '-' (Black).
func ParseLabelled(line string) (Query, error) {
	if len(line) < 4 || line[2] != ' ' || (line[0] != 'W' && line[0] != '-') || (line[1] != 'B' && line[1] != '-') {
		return Query{}, &LabelError{Line: line}
	}
	fen := strings.TrimSpace(line[3:])
	pos, err := bb.ParseFEN(fen)
	if err != nil {
		return Query{}, err
	}
	return Query{FEN: fen, Label: [2]bool{line[0] == 'W', line[1] == 'B'}, Pos: pos}, nil
}

// splitQuery returns the FEN of a query line (its first six fields, one
// space apart) and the side named by its last field ("white", "black" or
// ""), as strings.Fields and strings.Join would make them; a line of
// printable ASCII with its fields one space apart gives its FEN without
// allocating.
func splitQuery(line string) (fen, side string) {
	simple := len(line) > 0 && line[0] != ' ' && line[len(line)-1] != ' '
	for i := 0; simple && i < len(line); i++ {
		c := line[i]
		simple = c > ' ' && c < 0x7f || c == ' ' && line[i-1] != ' '
	}
	if !simple {
		f := strings.Fields(line)
		if n := len(f); n > 0 && (f[n-1] == "white" || f[n-1] == "black") {
			side, f = f[n-1], f[:n-1]
		}
		if len(f) > 6 {
			f = f[:6]
		}
		return strings.Join(f, " "), side
	}
	if i := strings.LastIndexByte(line, ' '); line[i+1:] == "white" || line[i+1:] == "black" {
		if i < 0 {
			return "", line
		}
		side, line = line[i+1:], line[:i]
	}
	end := 0
	for n := 0; n < 6; n++ {
		j := strings.IndexByte(line[end:], ' ')
		if j < 0 {
			return line, side
		}
		end += j
		if n < 5 {
			end++
		}
	}
	return line[:end], side
}

// LabelError reports a line of the labelled format without its label.
// SentenceCode and SentenceArgs give its sentence as a code and arguments,
// for a program to say it in its reader's language.
type LabelError struct{ Line string }

func (e *LabelError) Error() string { return fmt.Sprintf(LabelFormat, e.Line) }

// LabelCode is the code of LabelError's sentence; LabelFormat its English
// (a format of package fmt, its one argument the line).
const (
	LabelCode   = "rules.unwinnable.label"
	LabelFormat = "want a label (WB, W-, -B or --), a space and a FEN, got %q"
)

// SentenceCode is the error's code.
func (e *LabelError) SentenceCode() string { return LabelCode }

// SentenceArgs are the error's arguments: the line.
func (e *LabelError) SentenceArgs() []any { return []any{e.Line} }
