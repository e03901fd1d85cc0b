package pipeline

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/arbiterd/arbiterd/internal/capture"
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

// Replay reads a whole capture and calls fn for every event, in order. A bad
// capture stops it with a *capture.LineError naming the line. The pipeline
// is returned so callers can read the final state.
func Replay(r io.Reader, opts Options, fn func(reconcile.Event) error) (*Pipeline, error) {
	p := New(opts)
	cr := capture.NewReader(r)
	for {
		rec, err := cr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return p, err
		}
		if err := p.Record(rec, fn); err != nil {
			return p, err
		}
	}
	return p, p.End(fn)
}
