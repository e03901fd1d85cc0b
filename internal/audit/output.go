package audit

import (
	"bufio"
	"encoding/json"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/arbiterd/arbiterd/internal/output/broadcast"
)

// JSONSink writes one JSON object per game per line (docs/audit.md): the
// kinds as they are, each finding's detail in the printer's language.
type JSONSink struct {
	w    *bufio.Writer
	p    *i18n.Printer
	errs func(error)
}

// NewJSONSink writes reports to w, the sentences in p's language (nil:
// English), and hands errors to errs.
func NewJSONSink(w io.Writer, p *i18n.Printer, errs func(error)) *JSONSink {
	return &JSONSink{w: bufio.NewWriter(w), p: p, errs: errs}
}

// Report writes one line.
func (s *JSONSink) Report(r *Report) error {
	if s.p != nil && s.p.Lang() != "en" && len(r.Findings) > 0 {
		c := *r
		c.Findings = make([]Finding, len(r.Findings))
		for i, f := range r.Findings {
			f.Detail = f.Text(s.p)
			c.Findings[i] = f
		}
		r = &c
	}
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
	p      *i18n.Printer
	errs   func(error)
	order  []string
	rounds map[string][]*Report
	n      int
}

// NewTableSink prints tables to w in p's language (nil: English) and
// hands errors to errs.
func NewTableSink(w io.Writer, p *i18n.Printer, errs func(error)) *TableSink {
	if p == nil {
		p = i18n.English
	}
	return &TableSink{w: w, p: p, errs: errs, rounds: map[string][]*Report{}}
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
		writeRound(bw, s.p, round, games)
	}
	s.order, s.rounds, s.n = nil, map[string][]*Report{}, 0
	return bw.Flush()
}

func writeRound(w *bufio.Writer, p *i18n.Printer, round string, games []*Report) {
	if round == "" {
		round = "?"
	}
	title := p.Sprintf("audit.round", round)
	if ev := games[0].Event; ev != "" {
		title = ev + " — " + title
	}
	w.WriteString(p.Sprintf("audit.round.games", title, len(games)))
	w.WriteByte('\n')
	var cols []string
	for _, c := range []string{"board", "white", "black", "result", "control", "periods", "findings"} {
		cols = append(cols, p.Sprintf("audit.col."+c))
	}
	rows := [][]string{cols}
	for _, r := range games {
		rows = append(rows, []string{r.Board, clipRunes(r.White, 24), clipRunes(r.Black, 24), r.Result, controlCell(p, r), periodsCell(p, r), findingsCell(p, r)})
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
			w.WriteString("  ")
			if f.OfGame() {
				w.WriteString(p.Sprintf("audit.table.finding.game", orDash(r.Board), kindWord(f.Kind), f.Article, f.Text(p)))
			} else {
				w.WriteString(p.Sprintf("audit.table.finding", orDash(r.Board), sideWord(f.Side, true), f.Move, kindWord(f.Kind), f.Article, f.Text(p)))
			}
			w.WriteByte('\n')
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
func controlCell(p *i18n.Printer, r *Report) string {
	c := r.TimeControl
	if c == "" {
		c = "?"
	}
	if r.TimeControlBlack != "" {
		c += " / " + r.TimeControlBlack
	}
	switch r.TimeControlSource {
	case SourceClocks:
		if r.ControlMismatch {
			return p.Sprintf("audit.control.clocks-tag", c)
		}
		return p.Sprintf("audit.control.clocks", c)
	case SourceFlag:
		if r.ControlMismatch {
			return p.Sprintf("audit.control.not-clocks", c)
		}
	}
	return c
}

// periodsCell says where each period was added: "W41 B42".
func periodsCell(pr *i18n.Printer, r *Report) string {
	if len(r.Periods) == 0 {
		return "-"
	}
	var parts []string
	for _, p := range r.Periods {
		s := pr.Text(sideInitial(p.Side)) + strconv.Itoa(p.Move)
		if p.Period > 2 {
			s += "(p" + strconv.Itoa(p.Period) + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

func findingsCell(p *i18n.Printer, r *Report) string {
	if len(r.Findings) == 0 {
		return "-"
	}
	var parts []string
	for _, f := range r.Findings {
		s := p.Text(kindWord(f.Kind))
		if f.Side != "" {
			s += " " + p.Text(sideInitial(f.Side)) + strconv.Itoa(f.Move)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}
