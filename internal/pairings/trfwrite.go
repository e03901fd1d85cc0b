package pairings

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"
)

// GameResult is the result of one pair of a round, to be written to a TRF:
// the players by starting rank, White first.
type GameResult struct {
	White, Black int    // starting ranks
	Result       string // "1-0", "0-1" or "1/2-1/2"
}

// WriteResults returns a copy of the file the tournament was read from
// with round n's results set: for each result, both players' result
// columns of the round and their points (81–84), the points going up or
// down by the difference the result makes. Every other byte is as it was.
// A pair not in results keeps its columns as they are.
func (t *Tournament) WriteResults(n int, results []GameResult) ([]byte, error) {
	if n < 1 || n > t.Rounds {
		return nil, fmt.Errorf("pairings: %w: round %d (the file has rounds 1 to %d)", ErrNoRound, n, t.Rounds)
	}
	type edit struct {
		p      *TRFPlayer
		result byte
	}
	var edits []edit
	for _, g := range results {
		w, b := t.byRank[g.White], t.byRank[g.Black]
		if w == nil || b == nil {
			return nil, fmt.Errorf("pairings: round %d: no player %d or %d in the file", n, g.White, g.Black)
		}
		we, be := w.entry(n), b.entry(n)
		if we.Opponent != b.StartRank || be.Opponent != w.StartRank || we.Colour != 'w' || be.Colour != 'b' {
			return nil, fmt.Errorf("pairings: round %d: %d (White) – %d (Black) is not a pair of the file", n, g.White, g.Black)
		}
		var wr, br byte
		switch g.Result {
		case "1-0":
			wr, br = '1', '0'
		case "0-1":
			wr, br = '0', '1'
		case "1/2-1/2":
			wr, br = '=', '='
		default:
			return nil, fmt.Errorf("pairings: round %d: result %q of %d – %d is none of 1-0, 0-1, 1/2-1/2", n, g.Result, g.White, g.Black)
		}
		edits = append(edits, edit{w, wr}, edit{b, br})
	}
	slices.SortFunc(edits, func(a, b edit) int { return a.p.start - b.p.start })
	var out bytes.Buffer
	out.Grow(len(t.data) + 64)
	last := 0
	for _, e := range edits {
		line := slices.Clone(t.data[e.p.start:e.p.end])
		entry := e.p.entry(n)
		old := entry.Result
		var err error
		if line, err = t.setColumn(line, entry.Column+7, string(e.result)); err != nil {
			return nil, fmt.Errorf("pairings: line %d: %w", e.p.Line, err)
		}
		if d := points(e.result) - points(old); d != 0 {
			pts := strconv.FormatFloat(e.p.Points+d, 'f', 1, 64)
			if len(pts) > 4 {
				return nil, fmt.Errorf("pairings: line %d: %s points do not fit columns 81-84", e.p.Line, pts)
			}
			if line, err = t.setColumn(line, 81, fmt.Sprintf("%4s", pts)); err != nil {
				return nil, fmt.Errorf("pairings: line %d: %w", e.p.Line, err)
			}
		}
		out.Write(t.data[last:e.p.start])
		out.Write(line)
		last = e.p.end
	}
	out.Write(t.data[last:])
	return out.Bytes(), nil
}

// setColumn writes s (ASCII) over a line's columns from col on, padding
// the line with spaces when it stops before them. The columns replaced
// must hold ASCII characters.
func (t *Tournament) setColumn(line []byte, col int, s string) ([]byte, error) {
	// The byte offset of column col: a byte per column in Windows-1252,
	// a character per column in UTF-8.
	off, c := 0, 1
	for c < col && off < len(line) {
		size := 1
		if t.utf8 {
			_, size = utf8.DecodeRune(line[off:])
		}
		off += size
		c++
	}
	for c < col {
		line = append(line, ' ')
		off++
		c++
	}
	for i := 0; i < len(s); i++ {
		switch {
		case off+i >= len(line):
			line = append(line, s[i])
		case line[off+i] >= 0x80:
			return nil, fmt.Errorf("column %d holds a character that is no result or points", col+i)
		default:
			line[off+i] = s[i]
		}
	}
	return line, nil
}
