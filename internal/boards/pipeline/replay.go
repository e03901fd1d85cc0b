package pipeline

import (
	"fmt"
	"io"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// FormatSessionMarker returns the text (without '#') of the session marker
// for port's state changing at time at: "session SECONDS PORT STATE". The
// capture reader reads such a line as a capture.KindSession record
// (docs/capture.md, markers); the daemon writes markers with
// capture.Writer.Marker, and tools and tests that write captures line by
// line use this.
func FormatSessionMarker(at time.Duration, port string, state reconcile.State) string {
	return capture.MarkerText(capture.Session(at, port, string(state)))
}

// FormatClaimMarker returns the text (without '#') of the arbiter marker for
// side's claim at time at: "arbiter SECONDS claim SIDE".
func FormatClaimMarker(at time.Duration, side clockd.Side) string {
	return capture.MarkerText(capture.Claim(at, side.String(), ""))
}

// FormatDecisionMarker returns the text (without '#') of the arbiter marker
// for the decision on the claim of seq claim: "arbiter SECONDS decide SEQ
// DECISION".
func FormatDecisionMarker(at time.Duration, claim int, decision string) string {
	return capture.MarkerText(capture.Decide(at, claim, decision, ""))
}

// arbiterAction is the arbiter's act an arbiter marker record carries.
func arbiterAction(rec capture.Record) (reconcile.ArbiterAction, error) {
	var a reconcile.ArbiterAction
	switch {
	case rec.Act == capture.ActClaim && (rec.Side == "white" || rec.Side == "black"):
		a.Kind, a.Side = reconcile.ActClaim, clockd.White
		if rec.Side == "black" {
			a.Side = clockd.Black
		}
	case rec.Act == capture.ActDecide && rec.Claim >= 1:
		switch rec.Decision {
		case reconcile.DecisionAccepted, reconcile.DecisionRejected, reconcile.DecisionPostponed:
		default:
			return a, fmt.Errorf("arbiter marker: decision %q is not accepted, rejected or postponed", rec.Decision)
		}
		a.Kind, a.Claim, a.Decision = reconcile.ActDecide, rec.Claim, rec.Decision
	default:
		return a, fmt.Errorf("arbiter marker %q: want \"claim white|black\" or \"decide SEQ accepted|rejected|postponed\"", capture.MarkerText(rec))
	}
	a.Arbiter = rec.Arbiter
	return a, nil
}

// Acks returns the acknowledgements the capture recorded so far (ack
// markers), in order.
func (p *Pipeline) Acks() []capture.Record { return p.acks }

// Arbiter feeds an arbiter's act at time at; it returns the events it
// caused (the slice is reused by the next call).
func (p *Pipeline) Arbiter(at time.Duration, a reconcile.ArbiterAction) ([]reconcile.Event, error) {
	p.events = p.events[:0]
	if p.game == nil {
		if err := p.start(); err != nil {
			return nil, err
		}
	}
	p.emit(p.game.Arbiter(at, a))
	return p.events, nil
}

// Record feeds one capture record. Events it causes go to fn.
func (p *Pipeline) Record(rec capture.Record, fn func(reconcile.Event) error) error {
	var evs []reconcile.Event
	var err error
	switch rec.Kind {
	case capture.KindPort:
		evs, err = p.Port(rec.Port, rec.Driver)
	case capture.KindMeta:
		err = p.Meta(rec.Key, rec.Value)
	case capture.KindSession:
		if p.ports[rec.Port] == nil {
			err = fmt.Errorf("session marker names undeclared port %q", rec.Port)
			break
		}
		evs, err = p.Session(rec.At, rec.Port, reconcile.State(rec.State))
	case capture.KindArbiter:
		if rec.Act == capture.ActAck {
			// An acknowledgement is the arbiter's record, not the game's:
			// kept for the incident report, no event.
			p.acks = append(p.acks, rec)
			break
		}
		a, aerr := arbiterAction(rec)
		if aerr != nil {
			err = aerr
			break
		}
		evs, err = p.Arbiter(rec.At, a)
	case capture.KindData:
		p.last = rec.At
		evs, err = p.Data(rec.At, rec.Port, rec.Dir, rec.Data)
	}
	if err != nil {
		return &capture.LineError{Line: rec.Line, Err: err}
	}
	for _, e := range evs {
		if err := fn(e); err != nil {
			return err
		}
	}
	return nil
}

// End closes the session: a "session end" event for every port, at the
// time of the last data.
func (p *Pipeline) End(fn func(reconcile.Event) error) error {
	for _, name := range p.order {
		evs, err := p.Session(p.last, name, reconcile.StateEnd)
		if err != nil {
			return err
		}
		for _, e := range evs {
			if err := fn(e); err != nil {
				return err
			}
		}
	}
	return nil
}

// Feed feeds every record cr has left to p (Record), in order; events go
// to fn. It does not end the session: replay ends it (Replay), recovery
// goes on with the game.
func (p *Pipeline) Feed(cr *capture.Reader, fn func(reconcile.Event) error) error {
	return cr.Each(func(rec capture.Record) error { return p.Record(rec, fn) })
}

// Replay reads a whole capture and calls fn for every event, in order. A bad
// capture stops it with a *capture.LineError naming the line. The pipeline
// is returned so callers can read the final state.
func Replay(r io.Reader, opts Options, fn func(reconcile.Event) error) (*Pipeline, error) {
	p := New(opts)
	if err := p.Feed(capture.NewReader(r), fn); err != nil {
		return p, err
	}
	return p, p.End(fn)
}
