package capture

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Markers are arbiterd's capture records of what the live daemon knew that
// the bytes do not show (docs/capture.md, markers): a port's session
// changing (KindSession) and the arbiter's acts (KindArbiter). On disk they
// are lines starting with '#', so a reader that only knows capture v1 takes
// them for comments; this package reads them as records of their own
// kinds, so that no reader of records parses comments.

// The arbiter's acts (Record.Act) and decisions (Record.Decision).
const (
	ActClaim  = "claim"
	ActDecide = "decide"
	ActAck    = "ack"

	DecisionAccepted  = "accepted"
	DecisionRejected  = "rejected"
	DecisionPostponed = "postponed"
)

// Session returns the marker record of port's session state changing to
// state at time at. Like Claim and Decide, it is the record exactly as a
// Reader reads its line back (the time cut to the capture's microseconds),
// so the live daemon feeds its pipeline what replay will.
func Session(at time.Duration, port, state string) Record {
	return Record{Kind: KindSession, At: stamp(at), Port: port, State: state}
}

// Claim returns the marker record of side's ("white" or "black") claim at
// time at, recorded by arbiter ("" when not known).
func Claim(at time.Duration, side, arbiter string) Record {
	return Record{Kind: KindArbiter, At: stamp(at), Act: ActClaim, Side: side, Arbiter: arbiter}
}

// Decide returns the marker record of arbiter's decision on the claim
// whose event has seq claim.
func Decide(at time.Duration, claim int, decision, arbiter string) Record {
	return Record{Kind: KindArbiter, At: stamp(at), Act: ActDecide, Claim: claim, Decision: decision, Arbiter: arbiter}
}

// Ack returns the marker record of arbiter's acknowledgement of the alert
// of kind alert that the event of seq seq raised (seq 0: an alert raised
// before the game's first event).
func Ack(at time.Duration, seq int, alert, arbiter string) Record {
	return Record{Kind: KindArbiter, At: stamp(at), Act: ActAck, Claim: seq, Alert: alert, Arbiter: arbiter}
}

// stamp is a time as a capture line holds it (FormatSeconds).
func stamp(at time.Duration) time.Duration {
	return max(at, 0).Truncate(time.Microsecond)
}

// MarkerText returns a marker record's line without its '#':
// "session SECONDS PORT STATE", "arbiter SECONDS claim SIDE",
// "arbiter SECONDS decide SEQ DECISION" or "arbiter SECONDS ack SEQ KIND",
// an arbiter's act followed by " by NAME" when its arbiter is known. It is
// "" for other records.
func MarkerText(rec Record) string {
	var text string
	switch {
	case rec.Kind == KindSession:
		return "session " + FormatSeconds(rec.At) + " " + rec.Port + " " + rec.State
	case rec.Kind == KindArbiter && rec.Act == ActClaim:
		text = "arbiter " + FormatSeconds(rec.At) + " claim " + rec.Side
	case rec.Kind == KindArbiter && rec.Act == ActDecide:
		text = fmt.Sprintf("arbiter %s decide %d %s", FormatSeconds(rec.At), rec.Claim, rec.Decision)
	case rec.Kind == KindArbiter && rec.Act == ActAck:
		text = fmt.Sprintf("arbiter %s ack %d %s", FormatSeconds(rec.At), rec.Claim, EscapeName(rec.Alert))
	default:
		return ""
	}
	if rec.Arbiter != "" {
		text += " by " + EscapeName(rec.Arbiter)
	}
	return text
}

// EscapeName returns a name as one field of a marker: every '%', space,
// other white space and control character as %XX (its UTF-8 bytes in
// hexadecimal), the rest as it is. "Anna Nováková" is "Anna%20Nováková".
func EscapeName(name string) string {
	var b strings.Builder
	for _, r := range name {
		if r == '%' || r == utf8.RuneError || unicode.IsSpace(r) || unicode.IsControl(r) {
			var buf [utf8.UTFMax]byte
			for _, c := range buf[:utf8.EncodeRune(buf[:], r)] {
				fmt.Fprintf(&b, "%%%02X", c)
			}
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// unescapeName reverses EscapeName.
func unescapeName(field string) (string, error) {
	var b []byte
	for i := 0; i < len(field); i++ {
		if field[i] != '%' {
			b = append(b, field[i])
			continue
		}
		if i+2 >= len(field) {
			return "", fmt.Errorf("%q: a %% not followed by two hexadecimal digits", field)
		}
		n, err := strconv.ParseUint(field[i+1:i+3], 16, 8)
		if err != nil {
			return "", fmt.Errorf("%q: a %% not followed by two hexadecimal digits", field)
		}
		b = append(b, byte(n))
		i += 2
	}
	if !utf8.Valid(b) {
		return "", fmt.Errorf("%q is not UTF-8", field)
	}
	return string(b), nil
}

// parseMarker reads a comment's text (without '#') as a marker: ok is false
// for an ordinary comment. A marker is known by its first word after any
// spaces, "session" or "arbiter" followed by a space, and its fields are
// separated by spaces; a marker that does not follow its form is an error.
// (The form of the markers capture files have always had: old captures
// read as they did.)
func parseMarker(text string) (rec Record, ok bool, err error) {
	text = strings.TrimSpace(text)
	switch {
	case strings.HasPrefix(text, "session "):
		f := strings.Fields(text)
		if len(f) != 4 {
			return rec, true, fmt.Errorf("session marker %q: want \"session SECONDS PORT STATE\"", clip(text))
		}
		at, err := ParseSeconds(f[1])
		if err != nil {
			return rec, true, fmt.Errorf("session marker: %w", err)
		}
		return Session(at, f[2], f[3]), true, nil
	case strings.HasPrefix(text, "arbiter "):
		rec, err := parseArbiter(text)
		return rec, true, err
	}
	return rec, false, nil
}

const arbiterForms = `"claim white|black", "decide SEQ accepted|rejected|postponed" or "ack SEQ KIND", each with an optional "by NAME"`

func parseArbiter(text string) (Record, error) {
	f := strings.Fields(text)
	if len(f) < 3 {
		return Record{}, fmt.Errorf("arbiter marker %q: want \"arbiter SECONDS ACTION ...\"", clip(text))
	}
	at, err := ParseSeconds(f[1])
	if err != nil {
		return Record{}, fmt.Errorf("arbiter marker: %w", err)
	}
	// The arbiter's name, when the act has one: its last two fields.
	var by string
	if n := len(f); n >= 5 && f[n-2] == "by" {
		if by, err = unescapeName(f[n-1]); err != nil || by == "" {
			return Record{}, fmt.Errorf("arbiter marker %q: the arbiter's name %v", clip(text), orEmpty(err))
		}
		f = f[:n-2]
	}
	switch {
	case f[2] == ActClaim && len(f) == 4 && (f[3] == "white" || f[3] == "black"):
		return Claim(at, f[3], by), nil
	case f[2] == ActDecide && len(f) == 5:
		n, err := strconv.Atoi(f[3])
		if err != nil || n < 1 {
			return Record{}, fmt.Errorf("arbiter marker %q: claim %q is not an event's seq", clip(text), f[3])
		}
		switch f[4] {
		case DecisionAccepted, DecisionRejected, DecisionPostponed:
		default:
			return Record{}, fmt.Errorf("arbiter marker %q: decision %q is not accepted, rejected or postponed", clip(text), f[4])
		}
		return Decide(at, n, f[4], by), nil
	case f[2] == ActAck && len(f) == 5:
		n, err := strconv.Atoi(f[3])
		if err != nil || n < 0 {
			return Record{}, fmt.Errorf("arbiter marker %q: %q is not the seq of the event that raised the alert", clip(text), f[3])
		}
		kind, err := unescapeName(f[4])
		if err != nil {
			return Record{}, fmt.Errorf("arbiter marker %q: the alert's kind %v", clip(text), err)
		}
		return Ack(at, n, kind, by), nil
	}
	return Record{}, fmt.Errorf("arbiter marker %q: want %s", clip(text), arbiterForms)
}

func orEmpty(err error) string {
	if err != nil {
		return err.Error()
	}
	return "is empty"
}

// Marker writes a marker record (Session, Claim, Decide, Ack) as its line.
// A session marker's port must be declared; its time is written as given
// (a marker does not move the data lines' clock).
func (w *Writer) Marker(rec Record) error {
	text := MarkerText(rec)
	if text == "" {
		return fmt.Errorf("capture: a %s record is not a marker", rec.Kind)
	}
	if back, ok, err := parseMarker(text); !ok || err != nil {
		return fmt.Errorf("capture: marker %q does not read back: %v", text, err)
	} else if back.Arbiter != rec.Arbiter || back.Alert != rec.Alert {
		return fmt.Errorf("capture: marker %q does not read back its names", text)
	}
	if strings.ContainsAny(text, "\r\n") || len(strings.Fields(text)) != len(strings.Split(text, " ")) {
		return fmt.Errorf("capture: marker %q has a line break or an empty field", text)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, ok := w.ports[rec.Port]; rec.Kind == KindSession && !ok {
		return fmt.Errorf("capture: session marker for undeclared port %q", rec.Port)
	}
	return w.line("#" + text)
}
