package audit

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/arbiterd/arbiterd/internal/output/broadcast"
)

// JSONSink writes one JSON object per game per line (docs/audit.md).
type JSONSink struct {
	w    *bufio.Writer
	errs func(error)
}

// NewJSONSink writes reports to w and hands errors to errs.
func NewJSONSink(w io.Writer, errs func(error)) *JSONSink {
	return &JSONSink{w: bufio.NewWriter(w), errs: errs}
}

// Report writes one line.
func (s *JSONSink) Report(r *Report) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	s.w.Write(b)
	return s.w.WriteByte('\n')
}

// Error passes an error on.
func (s *JSONSink) Error(err error) { s.errs(err) }

// Flush writes what is buffered.
func (s *JSONSink) Flush() error { return s.w.Flush() }

// maxBuffered is how many table rows TableSink keeps to group games by
// round before it prints what it has.
const maxBuffered = 5000

// TableSink prints a table per round: one line per game with the board,
// players, result, control, where each player's period was added and the
// findings, then each finding's sentence. Games are grouped by round in
// the order rounds first appear; past maxBuffered games the groups so far
// are printed, so memory stays bounded on huge inputs.
type TableSink struct {
	w      io.Writer
	errs   func(error)
	order  []string
	rounds map[string][]*Report
	n      int
}

// NewTableSink prints tables to w and hands errors to errs.
func NewTableSink(w io.Writer, errs func(error)) *TableSink {
	return &TableSink{w: w, errs: errs, rounds: map[string][]*Report{}}
}

// Report buffers one game.
func (s *TableSink) Report(r *Report) error {
	// Only what the table prints is kept.
	lite := *r
	lite.Chart = [2][]Point{}
	if _, ok := s.rounds[r.Round]; !ok {
		s.order = append(s.order, r.Round)
	}
	s.rounds[r.Round] = append(s.rounds[r.Round], &lite)
	s.n++
	if s.n >= maxBuffered {
		return s.Flush()
	}
	return nil
}

// Error passes an error on.
func (s *TableSink) Error(err error) { s.errs(err) }

// Flush prints the buffered rounds.
func (s *TableSink) Flush() error {
	bw := bufio.NewWriter(s.w)
	for _, round := range s.order {
		games := s.rounds[round]
		sort.SliceStable(games, func(i, j int) bool { return broadcast.LessBoard(games[i].Board, games[j].Board) })
		writeRound(bw, round, games)
	}
	s.order, s.rounds, s.n = nil, map[string][]*Report{}, 0
	return bw.Flush()
}

func writeRound(w *bufio.Writer, round string, games []*Report) {
	title := "Round " + round
	if round == "" || round == "?" {
		title = "Round ?"
	}
	if ev := games[0].Event; ev != "" {
		title = ev + " — " + title
	}
	fmt.Fprintf(w, "%s (%d games)\n", title, len(games))
	cols := []string{"board", "white", "black", "result", "control", "periods", "findings"}
	rows := [][]string{cols}
	for _, r := range games {
		rows = append(rows, []string{r.Board, clipRunes(r.White, 24), clipRunes(r.Black, 24), r.Result, controlCell(r), periodsCell(r), findingsCell(r)})
	}
	widths := make([]int, len(cols))
	for _, row := range rows {
		for i, c := range row {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	for _, row := range rows {
		var b strings.Builder
		for i, c := range row {
			b.WriteString(c)
			if i < len(row)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c)+2))
			}
		}
		w.WriteString(strings.TrimRight(b.String(), " "))
		w.WriteByte('\n')
	}
	any := false
	for _, r := range games {
		for _, f := range r.Findings {
			if !any {
				w.WriteByte('\n')
				any = true
			}
			side := f.Side
			if side == "" {
				side = "game"
			}
			fmt.Fprintf(w, "  board %s, %s move %d — %s (%s): %s\n", orDash(r.Board), side, f.Move, f.Kind, f.Article, f.Detail)
		}
	}
	w.WriteByte('\n')
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// controlCell is the control, marked "(clocks)" when inferred and "≠ tag"
// when the tag said otherwise.
func controlCell(r *Report) string {
	c := r.TimeControl
	if c == "" {
		c = "?"
	}
	if r.TimeControlBlack != "" {
		c += " / " + r.TimeControlBlack
	}
	switch r.TimeControlSource {
	case SourceClocks:
		c += " (clocks"
		if r.ControlMismatch {
			c += ", ≠ tag"
		}
		c += ")"
	case SourceFlag:
		if r.ControlMismatch {
			c += " (≠ clocks)"
		}
	}
	return c
}

// periodsCell says where each period was added: "W41 B42".
func periodsCell(r *Report) string {
	if len(r.Periods) == 0 {
		return "-"
	}
	var parts []string
	for _, p := range r.Periods {
		s := strings.ToUpper(p.Side[:1]) + strconv.Itoa(p.Move)
		if p.Period > 2 {
			s += "(p" + strconv.Itoa(p.Period) + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

func findingsCell(r *Report) string {
	if len(r.Findings) == 0 {
		return "-"
	}
	var parts []string
	for _, f := range r.Findings {
		s := f.Kind
		if f.Side != "" {
			s += " " + strings.ToUpper(f.Side[:1]) + strconv.Itoa(f.Move)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}
