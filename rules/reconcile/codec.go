package reconcile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/arbiterd/arbiterd/clockd"
)

// The event codec: layouts says, for each event type, which fields it
// carries and in which order (docs/events.md); each field knows its JSON
// name, how to write it from an Event and how to read it back. Marshal
// (the venue, every output) and Unmarshal (the hall) both use it, so an
// event read back is written again byte for byte.

// ErrNotEvent is the error for a line that is not an event of the stream
// exactly as Marshal writes it.
var ErrNotEvent = errors.New("not an event of the stream")

// field is one member of an event's JSON object.
type field struct {
	name string
	// write writes the member, or nothing when it is optional and unset.
	write func(w *jsonWriter, e *Event)
	// read sets the member's part of e from its JSON value.
	read func(v json.RawMessage, e *Event) error
}

// layouts lists the fields of each event type after the four common ones,
// in the order docs/events.md gives them. A type not listed has none.
var layouts = map[Type][]field{
	TypeSession:  {fState, fPort},
	TypePosition: {fFEN, fOrientation},
	TypeMove:     {fPly, fSide, fSAN, fUCI, fFEN},
	TypeRetract:  {fPly, fReason, fSAN, fUCI},
	TypePress:    {fSide, fClock, fInferred},
	TypeComplete: {fPly, fSide, fBy, fMoves, fClock, fSAN},
	TypeAnomaly: {fKind, fSideOrNull, fArticle, fDetail, fText,
		fVerifiedPly, fMade, fUnverifiedPlies, fUnverifiedFEN},
	TypePeriod: {fSide, fPeriod, fAdded},
	TypeFlag: {fSide, fClock, fPeriod, fMovesCompleted, fMovesRequired, fControlReached,
		fOpponentCanMate, fMateLine, fVerdict, fArticle, fReason, fText},
	TypeEnd:      {fResult, fReason, fArticle},
	TypeAdjust:   {fSide, fFrom, fTo, fDelta, fClock, fArticle, fReason, fText, fSideUnsure, fCloses},
	TypeClaim:    {fSide, fFEN, fClock, fQuiet, fRecent, fOpponentCanMate, fMateLine, fArticle, fReason, fText, fArbiter},
	TypeDecision: {fSide, fClaim, fDecision, fArticle, fReason, fText, fArbiter},
	TypePause:    {fState, fBy, fClock, fArticle, fReason, fText},
}

// The fields. The helpers below them build the plain ones from the
// Event's member they stand for.
var (
	fState       = stringField("state", func(e *Event) *State { return &e.State })
	fPort        = stringField("port", func(e *Event) *string { return &e.Port })
	fFEN         = stringField("fen", func(e *Event) *string { return &e.FEN })
	fOrientation = stringField("orientation", func(e *Event) *string { return &e.Orientation })
	fPly         = intField("ply", func(e *Event) *int { return &e.Ply })
	fSAN         = stringField("san", func(e *Event) *string { return &e.SAN })
	fUCI         = stringField("uci", func(e *Event) *string { return &e.UCI })
	fReason      = stringField("reason", func(e *Event) *Reason { return &e.Reason })
	fBy          = stringField("by", func(e *Event) *By { return &e.By })
	fKind        = stringField("kind", func(e *Event) *Kind { return &e.Kind })
	fArticle     = stringField("article", func(e *Event) *string { return &e.Article })
	fDetail      = stringField("detail", func(e *Event) *string { return &e.Detail })
	fResult      = stringField("result", func(e *Event) *string { return &e.Result })
	fVerdict     = stringField("verdict", func(e *Event) *Verdict { return &e.Verdict })
	fDecision    = stringField("decision", func(e *Event) *string { return &e.Decision })
	fPeriod      = intField("period", func(e *Event) *int { return &e.Period })
	fQuiet       = intField("quiet_plies", func(e *Event) *int { return &e.Quiet })
	fClaim       = intField("claim", func(e *Event) *int { return &e.Claim })
	// fArbiter: the arbiter who recorded a claim or a decision, when known.
	fArbiter = field{"arbiter",
		func(w *jsonWriter, e *Event) { w.strSet("arbiter", e.Arbiter) },
		func(v json.RawMessage, e *Event) error { return json.Unmarshal(v, &e.Arbiter) }}

	fMovesCompleted = intField("moves_completed", func(e *Event) *int { return &e.MovesCompleted })
	fAdded          = secondsField("added", func(e *Event) *time.Duration { return &e.Added })
	fFrom           = secondsField("from", func(e *Event) *time.Duration { return &e.From })
	fTo             = secondsField("to", func(e *Event) *time.Duration { return &e.To })
	fDelta          = secondsField("delta", func(e *Event) *time.Duration { return &e.Delta })
	fInferred       = trueOnlyField("inferred", func(e *Event) *bool { return &e.Inferred })
	fSideUnsure     = trueOnlyField("side_unsure", func(e *Event) *bool { return &e.SideUnsure })
	fRecent         = field{"recent", func(w *jsonWriter, e *Event) { w.strs("recent", e.Recent) },
		func(v json.RawMessage, e *Event) error { return json.Unmarshal(v, &e.Recent) }}
	fControlReached = field{"control_reached", func(w *jsonWriter, e *Event) { w.boolean("control_reached", e.ControlReached) },
		func(v json.RawMessage, e *Event) error { return json.Unmarshal(v, &e.ControlReached) }}
	fOpponentCanMate = stringField("opponent_can_mate", func(e *Event) *Mate { return &e.OpponentCanMate })

	fSide = field{"side",
		func(w *jsonWriter, e *Event) { w.str("side", e.Side.String()) },
		readSide}
	// fSideOrNull is an anomaly's side, null when it concerns no side.
	fSideOrNull = field{"side",
		func(w *jsonWriter, e *Event) {
			if e.NoSide {
				w.null("side")
				return
			}
			w.str("side", e.Side.String())
		},
		func(v json.RawMessage, e *Event) error {
			if string(v) == "null" {
				e.NoSide = true
				return nil
			}
			return readSide(v, e)
		}}
	fClock = field{"clock",
		func(w *jsonWriter, e *Event) { w.clock("clock", e.Clock) },
		func(v json.RawMessage, e *Event) error {
			var c struct{ White, Black json.Number }
			if err := json.Unmarshal(v, &c); err != nil {
				return err
			}
			var err error
			if e.Clock.White, err = parseSeconds(c.White, 3); err != nil {
				return err
			}
			e.Clock.Black, err = parseSeconds(c.Black, 3)
			return err
		}}
	fMoves = field{"moves",
		func(w *jsonWriter, e *Event) { w.moves("moves", e.Moves) },
		func(v json.RawMessage, e *Event) error { return json.Unmarshal(v, &e.Moves) }}
	// fMovesRequired is a flag's required count, null when the period
	// covers all remaining moves or the control is unknown.
	fMovesRequired = field{"moves_required",
		func(w *jsonWriter, e *Event) {
			if e.MovesRequired > 0 {
				w.int("moves_required", e.MovesRequired)
				return
			}
			w.null("moves_required")
		},
		func(v json.RawMessage, e *Event) error {
			if string(v) == "null" {
				return nil
			}
			return json.Unmarshal(v, &e.MovesRequired)
		}}
	// fMateLine goes with a "yes" to the 6.9 question, and only then.
	fMateLine = field{"mate_line",
		func(w *jsonWriter, e *Event) {
			if e.OpponentCanMate == MateYes {
				w.strs("mate_line", e.MateLine)
			}
		},
		func(v json.RawMessage, e *Event) error { return json.Unmarshal(v, &e.MateLine) }}
	// fCloses: the alerts an adjustment settles, when there are any.
	fCloses = field{"closes",
		func(w *jsonWriter, e *Event) {
			if len(e.Closes) > 0 {
				w.ints("closes", e.Closes)
			}
		},
		func(v json.RawMessage, e *Event) error { return json.Unmarshal(v, &e.Closes) }}

	// What an unverified-moves anomaly rests on (the extension's fields),
	// written when a position could be built.
	fVerifiedPly = unverifiedField("verified_ply", func(w *jsonWriter, e *Event) { w.int("verified_ply", e.Ply) },
		func(v json.RawMessage, e *Event) error { return json.Unmarshal(v, &e.Ply) })
	fMade = unverifiedField("made", func(w *jsonWriter, e *Event) { w.int("made", e.Made) },
		func(v json.RawMessage, e *Event) error { return json.Unmarshal(v, &e.Made) })
	fUnverifiedPlies = unverifiedField("plies", func(w *jsonWriter, e *Event) {
		if len(e.Plies) > 0 {
			w.strs("plies", e.Plies)
		}
	}, func(v json.RawMessage, e *Event) error { return json.Unmarshal(v, &e.Plies) })
	fUnverifiedFEN = unverifiedField("fen", func(w *jsonWriter, e *Event) { w.str("fen", e.FEN) },
		func(v json.RawMessage, e *Event) error { return json.Unmarshal(v, &e.FEN) })
)

func stringField[T ~string](name string, at func(*Event) *T) field {
	return field{name,
		func(w *jsonWriter, e *Event) { w.str(name, string(*at(e))) },
		func(v json.RawMessage, e *Event) error {
			var s string
			err := json.Unmarshal(v, &s)
			*at(e) = T(s)
			return err
		}}
}

func intField(name string, at func(*Event) *int) field {
	return field{name,
		func(w *jsonWriter, e *Event) { w.int(name, *at(e)) },
		func(v json.RawMessage, e *Event) error { return json.Unmarshal(v, at(e)) }}
}

func secondsField(name string, at func(*Event) *time.Duration) field {
	return field{name,
		func(w *jsonWriter, e *Event) { w.seconds(name, *at(e)) },
		func(v json.RawMessage, e *Event) (err error) {
			*at(e), err = parseSeconds(json.Number(v), 3)
			return err
		}}
}

// trueOnlyField is a flag written only when it is set.
func trueOnlyField(name string, at func(*Event) *bool) field {
	return field{name,
		func(w *jsonWriter, e *Event) {
			w.trueOnly(name, *at(e))
		},
		func(v json.RawMessage, e *Event) error { return json.Unmarshal(v, at(e)) }}
}

// unverifiedField is written only on an unverified-moves anomaly that
// carries the position arbiterd follows the game from.
func unverifiedField(name string, write func(*jsonWriter, *Event), read func(json.RawMessage, *Event) error) field {
	return field{name,
		func(w *jsonWriter, e *Event) {
			if e.Kind == KindUnverified && e.FEN != "" {
				write(w, e)
			}
		}, read}
}

func readSide(v json.RawMessage, e *Event) error {
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return err
	}
	if s == "black" {
		e.Side = clockd.Black
	}
	return nil
}

// MarshalJSON implements json.Marshaler with Marshal.
func (e Event) MarshalJSON() ([]byte, error) { return Marshal(e), nil }

// Marshal returns the event as one JSON object (no trailing newline), with
// exactly the fields its type requires, in a stable order: the four every
// event has, then its type's layout.
func Marshal(e Event) []byte {
	w := jsonWriter{b: make([]byte, 0, 160)}
	w.b = append(w.b, '{')
	w.str("type", string(e.Type))
	w.str("board", e.Board)
	w.key("t")
	w.b = appendMicros(w.b, e.At)
	w.int("seq", e.Seq)
	for _, f := range layouts[e.Type] {
		f.write(&w, &e)
	}
	w.b = append(w.b, '}')
	return w.b
}

// Unmarshal reads one event line (no trailing newline) as Marshal writes
// it, every type included. The line must be exactly what Marshal gives for
// the event it reads, so that an event passed on (a venue's to the hall)
// never differs from the original by a byte; any other line is
// ErrNotEvent.
func Unmarshal(line []byte) (Event, error) {
	e, members, err := unmarshalCommon(line)
	if err != nil {
		return e, err
	}
	if e.At, err = parseSeconds(json.Number(members["t"]), 6); err != nil {
		return e, fmt.Errorf("%w: t: %v", ErrNotEvent, err)
	}
	for _, f := range layouts[e.Type] {
		v, ok := members[f.name]
		if !ok {
			continue
		}
		if err := f.read(v, &e); err != nil {
			return e, fmt.Errorf("%w: %s: %v", ErrNotEvent, f.name, err)
		}
	}
	if !bytes.Equal(Marshal(e), line) {
		return e, fmt.Errorf("%w: the line is not written as arbiterd writes events (type %q)", ErrNotEvent, e.Type)
	}
	return e, nil
}

// UnmarshalCommon reads only the type, board and sequence number of an
// event line, for a line of a type or with fields newer than this reader:
// it needs all three, the sequence number from 1.
func UnmarshalCommon(line []byte) (Event, error) {
	e, _, err := unmarshalCommon(line)
	if err == nil && (e.Type == "" || e.Board == "" || e.Seq < 1) {
		err = fmt.Errorf("%w: no type, board or sequence number", ErrNotEvent)
	}
	return e, err
}

// unmarshalCommon reads the line's members, and of them the type, board
// and sequence number.
func unmarshalCommon(line []byte) (Event, map[string]json.RawMessage, error) {
	var e Event
	var members map[string]json.RawMessage
	if err := json.Unmarshal(line, &members); err != nil {
		return e, nil, fmt.Errorf("%w: %v", ErrNotEvent, err)
	}
	for _, c := range []struct {
		name string
		to   any
	}{{"type", &e.Type}, {"board", &e.Board}, {"seq", &e.Seq}} {
		if v, ok := members[c.name]; ok {
			if err := json.Unmarshal(v, c.to); err != nil {
				return e, members, fmt.Errorf("%w: %s: %v", ErrNotEvent, c.name, err)
			}
		}
	}
	return e, members, nil
}

// parseSeconds reads a decimal number of seconds with at most digits
// decimals exactly (no floating point).
func parseSeconds(n json.Number, digits int) (time.Duration, error) {
	s := string(n)
	if s == "" {
		return 0, errors.New("missing")
	}
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, _ := strings.Cut(s, ".")
	if len(frac) > digits {
		return 0, fmt.Errorf("%q: more than %d decimals", n, digits)
	}
	frac += strings.Repeat("0", digits-len(frac))
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q: %v", n, err)
	}
	f, err := strconv.ParseInt(frac, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q: %v", n, err)
	}
	unit := time.Second
	for range digits {
		unit /= 10
	}
	d := time.Duration(w)*time.Second + time.Duration(f)*unit
	if neg {
		d = -d
	}
	return d, nil
}

// jsonWriter appends "key":value pairs to a JSON object under construction.
type jsonWriter struct {
	b     []byte
	count int
}

func (w *jsonWriter) key(k string) {
	if w.count > 0 {
		w.b = append(w.b, ',')
	}
	w.count++
	w.b = appendString(w.b, k)
	w.b = append(w.b, ':')
}

func (w *jsonWriter) str(k, v string) {
	w.key(k)
	w.b = appendString(w.b, v)
}

// strs writes a list of strings ([] when empty).
func (w *jsonWriter) strs(k string, l []string) { list(w, k, l, appendString) }

// list writes k: the items as a JSON array, each written by add.
func list[T any](w *jsonWriter, k string, items []T, add func([]byte, T) []byte) {
	w.key(k)
	w.b = append(w.b, '[')
	for i, v := range items {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.b = add(w.b, v)
	}
	w.b = append(w.b, ']')
}

func (w *jsonWriter) int(k string, v int) {
	w.key(k)
	w.b = strconv.AppendInt(w.b, int64(v), 10)
}

// ints writes a list of integers.
func (w *jsonWriter) ints(k string, l []int) {
	list(w, k, l, func(b []byte, v int) []byte { return strconv.AppendInt(b, int64(v), 10) })
}

func (w *jsonWriter) null(k string) {
	w.key(k)
	w.b = append(w.b, "null"...)
}

// strSet writes k: v when v is not empty, and nothing otherwise.
func (w *jsonWriter) strSet(k, v string) {
	if v != "" {
		w.str(k, v)
	}
}

// trueOnly writes k: true when v is set, and nothing otherwise.
func (w *jsonWriter) trueOnly(k string, v bool) {
	if v {
		w.key(k)
		w.b = append(w.b, "true"...)
	}
}

func (w *jsonWriter) seconds(k string, d time.Duration) {
	w.key(k)
	w.b = appendSeconds(w.b, d)
}

func (w *jsonWriter) moves(k string, m Moves) {
	w.key(k)
	w.b = append(w.b, `{"white":`...)
	w.b = strconv.AppendInt(w.b, int64(m.White), 10)
	w.b = append(w.b, `,"black":`...)
	w.b = strconv.AppendInt(w.b, int64(m.Black), 10)
	w.b = append(w.b, '}')
}

// boolean writes k: true or false.
func (w *jsonWriter) boolean(k string, v bool) {
	w.key(k)
	w.b = strconv.AppendBool(w.b, v)
}

func (w *jsonWriter) clock(k string, t clockd.Times) {
	w.key(k)
	w.b = append(w.b, `{"white":`...)
	w.b = appendSeconds(w.b, t.White)
	w.b = append(w.b, `,"black":`...)
	w.b = appendSeconds(w.b, t.Black)
	w.b = append(w.b, '}')
}

// appendMicros writes d as seconds with exactly six decimals (the `t` field).
func appendMicros(b []byte, d time.Duration) []byte {
	us := int64(d / time.Microsecond)
	if us < 0 {
		b = append(b, '-')
		us = -us
	}
	b = strconv.AppendInt(b, us/1e6, 10)
	b = append(b, '.')
	frac := strconv.FormatInt(us%1e6, 10)
	for i := len(frac); i < 6; i++ {
		b = append(b, '0')
	}
	return append(b, frac...)
}

// appendSeconds writes a clock value in seconds, to the millisecond, with
// at least one decimal ("5391.0", "2.5", "0.125").
func appendSeconds(b []byte, d time.Duration) []byte {
	ms := d.Milliseconds()
	if ms < 0 {
		b = append(b, '-')
		ms = -ms
	}
	b = strconv.AppendInt(b, ms/1000, 10)
	b = append(b, '.')
	frac := ms % 1000
	switch {
	case frac == 0:
		return append(b, '0')
	case frac%100 == 0:
		return strconv.AppendInt(b, frac/100, 10)
	case frac%10 == 0:
		if frac < 100 {
			b = append(b, '0')
		}
		return strconv.AppendInt(b, frac/10, 10)
	}
	if frac < 10 {
		b = append(b, '0', '0')
	} else if frac < 100 {
		b = append(b, '0')
	}
	return strconv.AppendInt(b, frac, 10)
}

const hexDigits = "0123456789abcdef"

// appendString writes s as a JSON string: quotes, backslashes and control
// characters escaped, valid UTF-8 kept as is, invalid bytes replaced.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\t':
				b = append(b, '\\', 't')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c < 0x20 || c == 0x7f:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, `\ufffd`...)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}
