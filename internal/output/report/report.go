// Package report writes the incident report of a game for the arbiter: one
// screen with the moves completed per side against the control, every
// anomaly and the flag verdict, each with the article of the Laws it rests
// on. Like the PGN, it is a view of the event stream.
package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/arbiterd/arbiterd/internal/i18n/evtext"
	"github.com/arbiterd/arbiterd/internal/output/pgn"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// Report gathers what the arbiter needs from a game's events.
type Report struct {
	Board, White, Black string
	TimeControl         clockd.TimeControl
	// Printer writes the report in its language (nil: English), the
	// events' sentences (an anomaly's detail, a verdict's reason)
	// included: their texts, rendered (internal/i18n/evtext).
	Printer *i18n.Printer

	completed reconcile.Moves
	clock     clockd.Times
	plies     int
	lastAt    time.Duration
	incidents []reconcile.Event // anomalies, periods, flags, ends, retractions by take-back
	acks      []ack
}

// ack is an acknowledgement the capture recorded.
type ack struct {
	at            time.Duration
	seq           int
	kind, arbiter string
}

// Ack takes an acknowledgement the capture recorded (an ack marker): the
// alert of kind kind raised by the event of seq seq, acknowledged at time
// at by arbiter ("" when not known). The report lists it among the
// incidents at its time.
func (r *Report) Ack(at time.Duration, seq int, kind, arbiter string) {
	r.acks = append(r.acks, ack{at, seq, kind, arbiter})
}

// Add takes the next event of the stream.
func (r *Report) Add(e reconcile.Event) {
	r.lastAt = e.At
	switch e.Type {
	case reconcile.TypeComplete:
		r.completed = e.Moves
		r.clock = e.Clock
		r.plies = e.Ply
	case reconcile.TypePress:
		r.clock = e.Clock
	case reconcile.TypeAnomaly, reconcile.TypePeriod, reconcile.TypeFlag, reconcile.TypeEnd, reconcile.TypeAdjust, reconcile.TypePause, reconcile.TypeClaim, reconcile.TypeDecision:
		r.incidents = append(r.incidents, e)
		if e.Type == reconcile.TypeFlag {
			r.clock = e.Clock
		}
	case reconcile.TypeRetract:
		if e.Reason == reconcile.ReasonTakeback {
			r.incidents = append(r.incidents, e)
		}
	case reconcile.TypeSession:
		if e.State == reconcile.StateDisconnected || e.State == reconcile.StateResync {
			r.incidents = append(r.incidents, e)
		}
	}
}

func (r *Report) progress(p *i18n.Printer, s clockd.Side) string {
	n := r.completed.Of(s)
	if len(r.TimeControl.Periods) == 0 {
		return fmt.Sprintf("%d", n)
	}
	pd := r.TimeControl.PeriodOf(n)
	if req := r.TimeControl.Required(pd); req > 0 {
		return p.Sprintf("report.progress", n, req, pd)
	}
	return p.Sprintf("report.progress.last", n)
}

// Write renders the report.
func (r *Report) Write(w io.Writer) error {
	p := r.Printer
	if p == nil {
		p = i18n.English
	}
	var b strings.Builder
	title := p.Sprintf("report.board", r.Board)
	if r.White != "" || r.Black != "" {
		title += ": " + r.White + " – " + r.Black
	}
	fmt.Fprintf(&b, "%s\n%s\n", title, strings.Repeat("=", len([]rune(title))))
	tc := p.Sprintf("report.unknown")
	if len(r.TimeControl.Periods) > 0 {
		c := r.TimeControl.Class().String()
		tc = r.TimeControl.String() + " (" + p.Word("class."+c, c) + ")"
	}
	line := func(code string, args ...any) {
		b.WriteString(p.Sprintf(code, args...))
		b.WriteByte('\n')
	}
	line("report.time-control", tc)
	line("report.completed", r.progress(p, clockd.White), r.progress(p, clockd.Black))
	line("report.clocks", pgn.Clock(r.clock.White), pgn.Clock(r.clock.Black))
	line("report.record", r.plies, pgn.Clock(r.lastAt))
	b.WriteByte('\n')
	if len(r.incidents) == 0 {
		line("report.quiet")
	} else {
		line("report.incidents")
	}
	acks := r.acks
	for _, e := range r.incidents {
		for len(acks) > 0 && acks[0].at < e.At {
			writeAck(&b, p, acks[0])
			acks = acks[1:]
		}
		writeIncident(&b, p, e)
	}
	for _, a := range acks {
		writeAck(&b, p, a)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeIncident writes one incident: its capture time, its kind in
// capitals and what the arbiter needs to know of it.
func writeIncident(b *strings.Builder, p *i18n.Printer, e reconcile.Event) {
	head := func(label, code string, args ...any) {
		fmt.Fprintf(b, "%12s  %-8s %s\n", p.Sprintf("report.at", e.At.Seconds()), p.Sprintf("report.label."+label), p.Sprintf(code, args...))
	}
	sub := func(code string, args ...any) { fmt.Fprintf(b, "%14s %s\n", "", p.Sprintf(code, args...)) }
	text := func() { b.WriteString(indent(evtext.Sentence(p, e))); b.WriteByte('\n') }
	art := func(a string) string { return orDash(p, a) }
	switch e.Type {
	case reconcile.TypeAnomaly:
		side := "–"
		if !e.NoSide {
			side = sideWord(p, e.Side, "label")
		}
		head("anomaly", "report.anomaly", e.Kind, side, art(e.Article))
		text()
	case reconcile.TypePeriod:
		head("period", "report.period", sideWord(p, e.Side, "label"), e.Period, pgn.Clock(e.Added))
	case reconcile.TypeFlag:
		req := p.Sprintf("report.all-moves")
		if e.MovesRequired > 0 {
			req = fmt.Sprintf("%d", e.MovesRequired)
		}
		head("flag", "report.flag", sideWord(p, e.Side, "lower"), e.Period, e.MovesCompleted, req, p.Word(fmt.Sprintf("bool.%v", e.ControlReached), fmt.Sprint(e.ControlReached)))
		mate := p.Word("mate."+string(e.OpponentCanMate), string(e.OpponentCanMate))
		if len(e.MateLine) > 0 {
			mate += p.Sprintf("report.for-instance", strings.Join(e.MateLine, " "))
		}
		sub("report.can-mate", mate)
		sub("report.verdict", p.Word("verdict."+string(e.Verdict), strings.ToUpper(string(e.Verdict))), e.Article)
		text()
	case reconcile.TypeEnd:
		head("end", "report.end", e.Result, p.Word("event.end."+string(e.Reason), string(e.Reason)), art(e.Article))
	case reconcile.TypeAdjust:
		closes := ""
		if len(e.Closes) > 0 {
			closes = p.Sprintf("report.settles", fmt.Sprint(e.Closes))
		}
		head("adjust", "report.adjust", sideWord(p, e.Side, "lower"), reconcile.FormatChange(e.Delta),
			pgn.Clock(e.From), pgn.Clock(e.To), art(e.Article), closes)
		text()
	case reconcile.TypeClaim:
		head("claim", "report.claim", sideWord(p, e.Side, "lower"), art(e.Article), p.Word("mate."+string(e.OpponentCanMate), string(e.OpponentCanMate)),
			recordedBy(p, e.Arbiter))
		text()
	case reconcile.TypeDecision:
		head("decision", "report.decision", p.Word("decision."+e.Decision, strings.ToUpper(e.Decision)), sideWord(p, e.Side, "lower"), e.Claim, art(e.Article),
			recordedBy(p, e.Arbiter))
		text()
	case reconcile.TypePause:
		what := p.Sprintf("report.pause.stopped")
		if e.State == reconcile.StateRunning {
			what = p.Sprintf("report.pause.running")
		}
		head("pause", "report.pause", what, art(e.Article))
		text()
	case reconcile.TypeRetract:
		head("takeback", "report.takeback", e.Ply)
	case reconcile.TypeSession:
		head("session", "report.session", e.Port, p.Word("state."+string(e.State), string(e.State)))
	}
}

// sideWord names a side in the report: form "label" ("black" in English,
// "negras" in Spanish) or "lower" ("black", "las negras").
func sideWord(p *i18n.Printer, s clockd.Side, form string) string {
	return p.Word("side."+s.String()+"."+form, s.String())
}

// writeAck writes one acknowledgement among the incidents.
func writeAck(b *strings.Builder, p *i18n.Printer, a ack) {
	by := p.Sprintf("report.by-nobody")
	if a.arbiter != "" {
		by = p.Sprintf("report.by", a.arbiter)
	}
	fmt.Fprintf(b, "%12s  %-8s %s\n", p.Sprintf("report.at", a.at.Seconds()), p.Sprintf("report.label.ack"), p.Sprintf("report.ack", a.kind, a.seq, by))
}

// recordedBy names the arbiter who recorded a claim or decision, when known.
func recordedBy(p *i18n.Printer, arbiter string) string {
	if arbiter == "" {
		return ""
	}
	return p.Sprintf("report.recorded-by", arbiter)
}

func orDash(p *i18n.Printer, s string) string {
	if s == "" || s == "–" {
		return p.Sprintf("report.no-article")
	}
	return s
}

// indent wraps text at about 90 columns, indented under the time column.
func indent(s string) string {
	const pad = "              "
	var lines []string
	line := pad
	for _, word := range strings.Fields(s) {
		if len(line) > len(pad) && len(line)+1+len(word) > 96 {
			lines = append(lines, line)
			line = pad
		}
		if len(line) > len(pad) {
			line += " "
		}
		line += word
	}
	return strings.Join(append(lines, line), "\n")
}
