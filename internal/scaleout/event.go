package scaleout

import (
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// ErrNotEvent is the error for a message that is not an event of the
// stream (docs/events.md) exactly as arbiterd writes it.
var ErrNotEvent = reconcile.ErrNotEvent

// ParseEvent reads one event line as arbiterd writes it, every type
// included, into the event the venue's hub was given: the venue's codec
// (reconcile.Unmarshal) reads it, so the hall never shows an event that
// differs from the venue's by a byte.
func ParseEvent(line []byte) (reconcile.Event, error) {
	return reconcile.Unmarshal(line)
}

// parseLoose reads an event line as ParseEvent does, but takes a line that
// ParseEvent would not write back byte for byte (an event type or field
// newer than this hall: a venue upgraded before the hall) as long as it is
// a JSON object with a type, a board and a sequence number: the hall keeps
// the line as it came and shows what it understands of it. Every type this
// hall's rules/reconcile writes is read in full by ParseEvent
// (TestParseEventEveryType).
func parseLoose(line []byte) (reconcile.Event, error) {
	e, err := ParseEvent(line)
	if err == nil {
		return e, nil
	}
	head, herr := reconcile.UnmarshalCommon(line)
	if herr != nil {
		return e, err
	}
	e.Type, e.Board, e.Seq = head.Type, head.Board, head.Seq
	return e, nil
}
