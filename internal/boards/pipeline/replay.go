package pipeline

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// SessionMarker is the comment the live daemon writes into a capture when
// a port's connection changes, so that replay reproduces the session
// events: "#session SECONDS PORT STATE". To a reader of capture v1 it is
// an ordinary comment (an arbiterd extension, see docs/capture.md).
const SessionMarker = "session "

// FormatSessionMarker returns the comment text (without '#') for a session
// change of port at time at.
func FormatSessionMarker(at time.Duration, port, state string) string {
	return SessionMarker + capture.FormatSeconds(at) + " " + port + " " + state
}

// ArbiterMarker is the comment the live daemon writes into a capture when
// the arbiter acts through arbiterd (a player's claim, the decision on it),
// so that replay reproduces it: "#arbiter SECONDS claim SIDE" and
// "#arbiter SECONDS decide CLAIM-SEQ DECISION" (docs/extensions.md).
const ArbiterMarker = "arbiter "

// FormatClaimMarker returns the comment text (without '#') for side's
// claim at time at.
func FormatClaimMarker(at time.Duration, side clockd.Side) string {
	return ArbiterMarker + capture.FormatSeconds(at) + " claim " + side.String()
}

// FormatDecisionMarker returns the comment text (without '#') for the
// arbiter's decision on the claim of seq claim.
func FormatDecisionMarker(at time.Duration, claim int, decision string) string {
	return fmt.Sprintf("%s%s decide %d %s", ArbiterMarker, capture.FormatSeconds(at), claim, decision)
}

// ParseArbiterMarker reads an arbiter marker's text (without '#').
func ParseArbiterMarker(text string) (time.Duration, reconcile.ArbiterAction, error) {
	var a reconcile.ArbiterAction
	f := strings.Fields(text)
	if len(f) < 3 || f[0] != strings.TrimSpace(ArbiterMarker) {
		return 0, a, fmt.Errorf("arbiter marker %q: want \"arbiter SECONDS ACTION ...\"", text)
	}
	at, err := capture.ParseSeconds(f[1])
	if err != nil {
		return 0, a, fmt.Errorf("arbiter marker: %w", err)
	}
	switch {
	case f[2] == "claim" && len(f) == 4 && (f[3] == "white" || f[3] == "black"):
		a.Kind, a.Side = reconcile.ActClaim, clockd.White
		if f[3] == "black" {
			a.Side = clockd.Black
		}
	case f[2] == "decide" && len(f) == 5:
		n, err := strconv.Atoi(f[3])
		if err != nil || n < 1 {
			return 0, a, fmt.Errorf("arbiter marker %q: claim %q is not an event's seq", text, f[3])
		}
		switch f[4] {
		case reconcile.DecisionAccepted, reconcile.DecisionRejected, reconcile.DecisionPostponed:
		default:
			return 0, a, fmt.Errorf("arbiter marker %q: decision %q is not accepted, rejected or postponed", text, f[4])
		}
		a.Kind, a.Claim, a.Decision = reconcile.ActDecide, n, f[4]
	default:
		return 0, a, fmt.Errorf("arbiter marker %q: want \"claim white|black\" or \"decide SEQ accepted|rejected|postponed\"", text)
	}
	return at, a, nil
}

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
	case capture.KindComment:
		text := strings.TrimSpace(rec.Text)
		if strings.HasPrefix(text, ArbiterMarker) {
			at, a, perr := ParseArbiterMarker(text)
			if perr != nil {
				err = perr
				break
			}
			evs, err = p.Arbiter(at, a)
			break
		}
		if !strings.HasPrefix(text, SessionMarker) {
			return nil
		}
		f := strings.Fields(text)
		if len(f) != 4 {
			err = fmt.Errorf("session marker %q: want \"session SECONDS PORT STATE\"", text)
			break
		}
		at, perr := capture.ParseSeconds(f[1])
		if perr != nil {
			err = fmt.Errorf("session marker: %w", perr)
			break
		}
		if p.ports[f[2]] == nil {
			err = fmt.Errorf("session marker names undeclared port %q", f[2])
			break
		}
		evs, err = p.Session(at, f[2], f[3])
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
		evs, err := p.Session(p.last, name, "end")
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
