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
	"github.com/arbiterd/arbiterd/internal/output/pgn"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// Report gathers what the arbiter needs from a game's events.
type Report struct {
	Board, White, Black string
	TimeControl         clockd.TimeControl

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

func (r *Report) progress(s clockd.Side) string {
	n := r.completed.Of(s)
	if len(r.TimeControl.Periods) == 0 {
		return fmt.Sprintf("%d", n)
	}
	p := r.TimeControl.PeriodOf(n)
	if req := r.TimeControl.Required(p); req > 0 {
		return fmt.Sprintf("%d of %d (period %d)", n, req, p)
	}
	return fmt.Sprintf("%d (last period)", n)
}

// Write renders the report.
func (r *Report) Write(w io.Writer) error {
	var b strings.Builder
	title := "Board " + r.Board
	if r.White != "" || r.Black != "" {
		title += ": " + r.White + " – " + r.Black
	}
	fmt.Fprintf(&b, "%s\n%s\n", title, strings.Repeat("=", len([]rune(title))))
	tc := "unknown"
	if len(r.TimeControl.Periods) > 0 {
		tc = r.TimeControl.String() + " (" + r.TimeControl.Class().String() + ")"
	}
	fmt.Fprintf(&b, "Time control     %s\n", tc)
	fmt.Fprintf(&b, "Completed moves  White %s, Black %s   (6.2.1: moves completed, not presses)\n",
		r.progress(clockd.White), r.progress(clockd.Black))
	fmt.Fprintf(&b, "Clocks           White %s, Black %s   (as displayed, 6.10)\n", pgn.Clock(r.clock.White), pgn.Clock(r.clock.Black))
	fmt.Fprintf(&b, "Record           %d plies, %s of capture time\n\n", r.plies, pgn.Clock(r.lastAt))
	if len(r.incidents) == 0 {
		b.WriteString("No anomaly, no flag: nothing for the arbiter to check.\n")
	} else {
		b.WriteString("Incidents\n")
	}
	acks := r.acks
	for _, e := range r.incidents {
		for len(acks) > 0 && acks[0].at < e.At {
			writeAck(&b, acks[0])
			acks = acks[1:]
		}
		writeIncident(&b, e)
	}
	for _, a := range acks {
		writeAck(&b, a)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeIncident writes one incident: its capture time, its kind in
// capitals and what the arbiter needs to know of it.
func writeIncident(b *strings.Builder, e reconcile.Event) {
	at := fmt.Sprintf("%12s", fmt.Sprintf("%.3f s", e.At.Seconds()))
	switch e.Type {
	case reconcile.TypeAnomaly:
		side := "–"
		if !e.NoSide {
			side = e.Side.String()
		}
		fmt.Fprintf(b, "%s  %-8s %s [%s] (%s)\n%s\n", at, "ANOMALY", e.Kind, side, orDash(e.Article), indent(e.Detail))
	case reconcile.TypePeriod:
		fmt.Fprintf(b, "%s  %-8s %s: period %d begins, %s added\n", at, "PERIOD", e.Side, e.Period, pgn.Clock(e.Added))
	case reconcile.TypeFlag:
		req := "all remaining moves"
		if e.MovesRequired > 0 {
			req = fmt.Sprintf("%d", e.MovesRequired)
		}
		fmt.Fprintf(b, "%s  %-8s %s's flag, period %d: %d moves completed, %s required; control reached: %v\n",
			at, "FLAG", e.Side, e.Period, e.MovesCompleted, req, e.ControlReached)
		fmt.Fprintf(b, "%14s opponent can mate: %s", "", e.OpponentCanMate)
		if len(e.MateLine) > 0 {
			fmt.Fprintf(b, " (for instance %s)", strings.Join(e.MateLine, " "))
		}
		fmt.Fprintf(b, "\n%14s VERDICT: %s (%s)\n%s\n", "", strings.ToUpper(string(e.Verdict)), e.Article, indent(e.Reason))
	case reconcile.TypeEnd:
		fmt.Fprintf(b, "%s  %-8s %s, %s (%s)\n", at, "END", e.Result, e.Reason, orDash(e.Article))
	case reconcile.TypeAdjust:
		closes := ""
		if len(e.Closes) > 0 {
			closes = fmt.Sprintf("; settles the alert(s) of seq %v", e.Closes)
		}
		fmt.Fprintf(b, "%s  %-8s %s's clock %s, from %s to %s (%s)%s\n%s\n", at, "ADJUST", e.Side, reconcile.FormatChange(e.Delta),
			pgn.Clock(e.From), pgn.Clock(e.To), orDash(e.Article), closes, indent(e.Reason))
	case reconcile.TypeClaim:
		fmt.Fprintf(b, "%s  %-8s %s claims a draw (%s); opponent can mate: %s%s\n%s\n", at, "CLAIM", e.Side, orDash(e.Article), e.OpponentCanMate,
			recordedBy(e.Arbiter), indent(e.Reason))
	case reconcile.TypeDecision:
		fmt.Fprintf(b, "%s  %-8s %s on %s's claim (seq %d) (%s)%s\n%s\n", at, "DECISION", strings.ToUpper(e.Decision), e.Side, e.Claim, orDash(e.Article),
			recordedBy(e.Arbiter), indent(e.Reason))
	case reconcile.TypePause:
		what := "the arbiter stopped the clock"
		if e.State == reconcile.StateRunning {
			what = "the clock runs again"
		}
		fmt.Fprintf(b, "%s  %-8s %s (%s)\n%s\n", at, "PAUSE", what, orDash(e.Article), indent(e.Reason))
	case reconcile.TypeRetract:
		fmt.Fprintf(b, "%s  %-8s moves from ply %d taken back (7.1: restore times and the move count)\n", at, "TAKEBACK", e.Ply)
	case reconcile.TypeSession:
		fmt.Fprintf(b, "%s  %-8s port %s %s\n", at, "SESSION", e.Port, e.State)
	}
}

// writeAck writes one acknowledgement among the incidents.
func writeAck(b *strings.Builder, a ack) {
	by := "by an arbiter not named (no logins)"
	if a.arbiter != "" {
		by = "by " + a.arbiter
	}
	fmt.Fprintf(b, "%12s  %-8s the %s alert of seq %d acknowledged %s\n", fmt.Sprintf("%.3f s", a.at.Seconds()), "ACK", a.kind, a.seq, by)
}

// recordedBy names the arbiter who recorded a claim or decision, when known.
func recordedBy(arbiter string) string {
	if arbiter == "" {
		return ""
	}
	return "; recorded by " + arbiter
}

func orDash(s string) string {
	if s == "" || s == "–" {
		return "no article"
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
