package audit

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"strconv"
	"strings"

	"github.com/arbiterd/arbiterd/internal/i18n"
)

// esc is the message of code with args in p's language, escaped for HTML.
func esc(p *i18n.Printer, code string, args ...any) string {
	return html.EscapeString(p.Sprintf(code, args...))
}

// HTMLSink writes a self-contained HTML report: per game its line of the
// table, its findings, and a clock chart drawn as inline SVG (each side's
// time left after each move, the first period's control and every period
// addition marked). No script, no external asset; a Content-Security-Policy
// forbids loading any. Games are written as they come, so memory stays
// bounded; Close writes the end of the page.
type HTMLSink struct {
	w     *bufio.Writer
	p     *i18n.Printer
	errs  func(error)
	n     int
	round string
	fail  []string
}

// NewHTMLSink starts the report on w in p's language (nil: English);
// title heads the page.
func NewHTMLSink(w io.Writer, title string, p *i18n.Printer, errs func(error)) *HTMLSink {
	if p == nil {
		p = i18n.English
	}
	s := &HTMLSink{w: bufio.NewWriter(w), p: p, errs: errs, round: "\x00"}
	fmt.Fprintf(s.w, `<!DOCTYPE html>
<html lang="%s"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%s</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222;max-width:980px}
h1{font-size:1.4em} h2{font-size:1.15em;margin-top:2em;border-bottom:1px solid #ccc}
section.game{margin:1.2em 0;padding:.6em .8em;border:1px solid #ddd;border-radius:6px}
section.game.flagged{border-color:#c33}
.head{font-weight:600} .meta{color:#555;font-size:.92em}
ul.findings{margin:.4em 0;padding-left:1.2em} li.finding{margin:.2em 0}
.kind{font-family:monospace;font-weight:600} .clock-data .kind{color:#777} .incident .kind{color:#b00} .doubt .kind{color:#a60}
svg.chart{width:100%%;height:auto;max-width:760px;display:block;margin-top:.4em}
svg .white{stroke:#2a62b0} svg .black{stroke:#222} svg .grid{stroke:#e4e4e4}
svg text{font:11px system-ui,sans-serif;fill:#555}
.legend span{display:inline-block;width:1.4em;height:.25em;vertical-align:middle;margin:0 .3em 0 1em}
.errors{color:#b00}
</style></head><body>
<h1>%s</h1>
<p class="legend">%s<span style="background:#2a62b0"></span>%s<span style="background:#222"></span>%s<span style="background:#999;height:.1em"></span>%s &nbsp; ● %s &nbsp; ▲ %s</p>
`, p.Lang(), html.EscapeString(title), html.EscapeString(title),
		// The legend is the catalog's text, written as it is.
		p.Sprintf("audit.html.legend"), p.Capital(m("side.white")), p.Capital(m("side.black")),
		p.Sprintf("audit.html.the-control"), p.Sprintf("audit.html.period-added"), p.Sprintf("audit.html.a-finding"))
	return s
}

// Report writes one game.
func (s *HTMLSink) Report(r *Report) error {
	if r.Round != s.round {
		s.round = r.Round
		fmt.Fprintf(s.w, "<h2>%s</h2>\n", html.EscapeString(s.p.Sprintf("audit.round", orQ(r.Round))))
	}
	s.n++
	class := "game"
	for _, f := range r.Findings {
		if f.Kind != ClockData {
			class += " flagged"
			break
		}
	}
	fmt.Fprintf(s.w, "<section class=\"%s\" id=\"g%d\">\n<div class=\"head\">%s &nbsp; %s</div>\n", class, s.n,
		html.EscapeString(s.p.Sprintf("audit.html.board", orQ(r.Board), orQ(r.White), orQ(r.Black))), html.EscapeString(r.Result))
	fmt.Fprintf(s.w, "<div class=\"meta\">%s</div>\n",
		html.EscapeString(s.p.Sprintf("audit.html.meta", controlCell(s.p, r), periodsCell(s.p, r), r.Plies, r.MissingClocks, r.File, r.Line)))
	if len(r.Findings) > 0 {
		s.w.WriteString("<ul class=\"findings\">\n")
		for _, f := range r.Findings {
			cl := "incident"
			switch f.Kind {
			case ClockData:
				cl = "clock-data"
			case PossibleFlag:
				cl = "doubt"
			}
			where := s.p.Sprintf("audit.html.finding", sideWord(f.Side, false), f.Move)
			if f.OfGame() {
				where = s.p.Text(m("audit.html.finding.game"))
			}
			fmt.Fprintf(s.w, "<li class=\"finding %s\"><span class=\"kind\">%s</span> %s (%s): %s</li>\n", cl,
				html.EscapeString(s.p.Text(kindWord(f.Kind))), html.EscapeString(where),
				html.EscapeString(f.Article), html.EscapeString(f.Text(s.p)))
		}
		s.w.WriteString("</ul>\n")
	}
	writeChart(s.w, s.p, r)
	s.w.WriteString("</section>\n")
	return nil
}

// Error records an error for the end of the page and passes it on.
func (s *HTMLSink) Error(err error) {
	if len(s.fail) < 1000 {
		s.fail = append(s.fail, err.Error())
	}
	s.errs(err)
}

// Close ends the page and flushes it.
func (s *HTMLSink) Close() error {
	if s.n == 0 {
		fmt.Fprintf(s.w, "<p>%s</p>\n", esc(s.p, "audit.html.no-games"))
	}
	if len(s.fail) > 0 {
		fmt.Fprintf(s.w, "<h2>%s</h2>\n<ul class=\"errors\">\n", esc(s.p, "audit.html.input-errors"))
		for _, e := range s.fail {
			fmt.Fprintf(s.w, "<li>%s</li>\n", html.EscapeString(e))
		}
		s.w.WriteString("</ul>\n")
	}
	s.w.WriteString("</body></html>\n")
	return s.w.Flush()
}

func orQ(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

// Chart geometry.
const (
	chartW, chartH = 760, 240
	padL, padR     = 52, 12
	padT, padB     = 14, 28
)

// writeChart draws the clocks of one game.
func writeChart(w *bufio.Writer, p *i18n.Printer, r *Report) {
	c := newChart(r)
	fmt.Fprintf(w, "<svg class=\"chart\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"%s\">\n", chartW, chartH, esc(p, "audit.html.chart"))
	c.writeGrid(w, p, r.Control)
	c.writeClocks(w, r.Chart)
	c.writePeriods(w, p, r)
	c.writeFindings(w, p, r.Findings)
	w.WriteString("</svg>\n")
}

// chart is the scale of a game's chart: the moves and the seconds its axes
// reach.
type chart struct {
	maxMove int
	maxSec  float64
}

func newChart(r *Report) chart {
	c := chart{maxMove: 1, maxSec: 60.0}
	for _, pts := range r.Chart {
		for _, p := range pts {
			c.maxMove = max(c.maxMove, p.Move)
			c.maxSec = max(c.maxSec, p.Seconds)
		}
	}
	if r.Control > 0 {
		c.maxMove = max(c.maxMove, r.Control+2)
	}
	return c
}

func (c chart) x(move float64) float64 { return padL + move/float64(c.maxMove)*(chartW-padL-padR) }
func (c chart) y(sec float64) float64  { return padT + (1-sec/c.maxSec)*(chartH-padT-padB) }

// writeGrid draws the axes' lines and labels (time every step, moves every
// ten) and the move of the control.
func (c chart) writeGrid(w *bufio.Writer, p *i18n.Printer, control int) {
	step := niceStep(c.maxSec)
	for t := 0.0; t <= c.maxSec; t += step {
		fmt.Fprintf(w, "<line class=\"grid\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			padL, chartW-padR, c.y(t), c.y(t), padL-4, c.y(t)+4, html.EscapeString(hmShort(t)))
	}
	for m := 0; m <= c.maxMove; m += moveStep(c.maxMove) {
		fmt.Fprintf(w, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>\n", c.x(float64(m)), chartH-8, m)
	}
	if control > 0 {
		fmt.Fprintf(w, "<line class=\"control\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#999\" stroke-dasharray=\"4 3\"><title>%s</title></line>\n",
			c.x(float64(control)), c.x(float64(control)), padT, chartH-padB, esc(p, "audit.html.control-at", control))
	}
}

// writeClocks draws each side's readings as a line.
func (c chart) writeClocks(w *bufio.Writer, readings [2][]Point) {
	for side, pts := range readings {
		if len(pts) == 0 {
			continue
		}
		var b strings.Builder
		for i, p := range pts {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(strconv.FormatFloat(c.x(float64(p.Move)), 'f', 1, 64))
			b.WriteByte(',')
			b.WriteString(strconv.FormatFloat(c.y(p.Seconds), 'f', 1, 64))
		}
		name := []string{"white", "black"}[side]
		fmt.Fprintf(w, "<polyline class=\"%s\" fill=\"none\" stroke-width=\"1.6\" points=\"%s\"/>\n", name, b.String())
	}
}

// writePeriods marks each period added on its side's line.
func (c chart) writePeriods(w *bufio.Writer, pr *i18n.Printer, r *Report) {
	for _, p := range r.Periods {
		side := 0
		if p.Side == "black" {
			side = 1
		}
		sec := 0.0
		for _, q := range r.Chart[side] {
			if q.Move == p.Move {
				sec = q.Seconds
			}
		}
		how := m("audit.html.time-left")
		if p.AtFlag {
			how = m("audit.html.ran-out")
		}
		fmt.Fprintf(w, "<circle class=\"period %s\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"><title>%s</title></circle>\n",
			p.Side, c.x(float64(p.Move)), c.y(sec), []string{"#2a62b0", "#222"}[side],
			pr.Sprintf("audit.html.period", sideWord(p.Side, false), p.Period, hmShort(float64(p.Seconds)), p.Move, how))
	}
}

// writeFindings marks the move of each finding above the chart.
func (c chart) writeFindings(w *bufio.Writer, p *i18n.Printer, findings []Finding) {
	for _, f := range findings {
		if f.Move <= 0 {
			continue
		}
		cx := c.x(float64(f.Move))
		color := "#c00"
		switch f.Kind {
		case ClockData:
			color = "#999"
		case PossibleFlag:
			color = "#c80"
		}
		fmt.Fprintf(w, "<path class=\"finding-mark\" d=\"M%.1f %d l-5 9 h10 z\" fill=\"%s\"><title>%s</title></path>\n",
			cx, padT-10, color, html.EscapeString(p.Sprintf("audit.html.mark", kindWord(f.Kind), sideWord(f.Side, false), f.Move)))
	}
}

func niceStep(maxSec float64) float64 {
	for _, s := range []float64{30, 60, 120, 300, 600, 900, 1800, 3600} {
		if maxSec/s <= 6 {
			return s
		}
	}
	return 7200
}

func moveStep(maxMove int) int {
	switch {
	case maxMove <= 30:
		return 5
	case maxMove <= 120:
		return 10
	}
	return 20
}

// hmShort formats seconds as H:MM or M:SS for axis labels.
func hmShort(sec float64) string {
	s := int64(sec + 0.5)
	if s >= 3600 {
		return itoa(s/3600) + ":" + two(s/60%60)
	}
	return itoa(s/60) + ":" + two(s%60)
}
