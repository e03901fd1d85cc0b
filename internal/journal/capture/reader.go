package capture

import (
	"bufio"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// Kind is the kind of a capture record.
type Kind int

const (
	KindPort    Kind = iota + 1 // #port NAME DRIVER
	KindMeta                    // #meta KEY=VALUE
	KindComment                 // any other line starting with '#'
	KindData                    // SECONDS PORT DIR HEX
	KindSession                 // #session SECONDS PORT STATE (arbiterd extension)
	KindArbiter                 // #arbiter SECONDS claim SIDE | decide SEQ DECISION (arbiterd extension)
)

var kindNames = [...]string{KindPort: "port", KindMeta: "meta", KindComment: "comment", KindData: "data",
	KindSession: "session", KindArbiter: "arbiter"}

func (k Kind) String() string {
	if k >= KindPort && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Record is one non-empty line of a capture after the header.
type Record struct {
	Line int // 1-based line number
	Kind Kind

	Port   string // KindPort, KindData: the port name
	Driver string // KindPort: the decoder name

	Key, Value string // KindMeta

	Text string // KindComment: the line without its '#'

	At   time.Duration // KindData, KindSession, KindArbiter: time since the capture started
	Dir  Dir           // KindData
	Data []byte        // KindData: the bytes (at least one)

	State string // KindSession: the port's session state, as written (Port names the port)

	Act      string // KindArbiter: ActClaim, ActDecide or ActAck
	Side     string // KindArbiter, ActClaim: "white" or "black"
	Claim    int    // KindArbiter, ActDecide: the seq of the claim decided on; ActAck: the seq of the event that raised the alert
	Decision string // KindArbiter, ActDecide: one of the Decisions
	Alert    string // KindArbiter, ActAck: the kind of the alert acknowledged
	Arbiter  string // KindArbiter: the arbiter who acted, when known ("" in captures written before arbiters logged in)
}

// MaxLine bounds the length of one capture line (a read or write of half a
// megabyte).
const MaxLine = 1 << 20

// Reader reads a capture record by record, strictly.
type Reader struct {
	sc    *bufio.Scanner
	line  int
	ports map[string]string
	meta  map[string]string
	last  time.Duration
	err   error
}

// NewReader returns a Reader for the capture in r.
func NewReader(r io.Reader) *Reader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), MaxLine)
	return &Reader{sc: sc, ports: map[string]string{}, meta: map[string]string{}}
}

// Next returns the next record, io.EOF after the last one, or an error
// (a *LineError naming the line for bad content; ErrNotCapture wrapped in
// a *LineError for line 1 when the input is not a capture). After an error
// every call returns the same error.
func (r *Reader) Next() (Record, error) {
	if r.err != nil {
		return Record{}, r.err
	}
	rec, err := r.next()
	if err != nil {
		r.err = err
	}
	return rec, err
}

func (r *Reader) fail(format string, args ...any) error {
	return &LineError{Line: r.line, Err: fmt.Errorf(format, args...)}
}

func (r *Reader) next() (Record, error) {
	for {
		if !r.sc.Scan() {
			err := r.sc.Err()
			if errors.Is(err, bufio.ErrTooLong) {
				return Record{}, &LineError{Line: r.line + 1, Err: fmt.Errorf("line longer than %d bytes", MaxLine)}
			}
			if err != nil {
				return Record{}, fmt.Errorf("capture: reading after line %d: %w", r.line, err)
			}
			if r.line == 0 {
				return Record{}, &LineError{Line: 1, Err: fmt.Errorf("%w: the input is empty", ErrNotCapture)}
			}
			return Record{}, io.EOF
		}
		r.line++
		text := strings.TrimSuffix(r.sc.Text(), "\r")
		if strings.IndexByte(text, '\r') >= 0 {
			return Record{}, r.fail("carriage return inside the line")
		}
		if r.line == 1 {
			if text != Header {
				return Record{}, &LineError{Line: 1, Err: fmt.Errorf("%w: the first line is %q, want %q", ErrNotCapture, clip(text), Header)}
			}
			continue
		}
		if text == "" {
			continue
		}
		if text[0] == '#' {
			return r.hashLine(text)
		}
		return r.dataLine(text)
	}
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

func (r *Reader) hashLine(text string) (Record, error) {
	word, rest, _ := strings.Cut(text, " ")
	switch word {
	case "#port":
		f := strings.Split(rest, " ")
		if len(f) != 2 {
			return Record{}, r.fail("#port wants exactly NAME DRIVER separated by single spaces, got %q", clip(rest))
		}
		name, driver := f[0], f[1]
		if !validName(name) {
			return Record{}, r.fail("#port: %q is not a port name (a short lower-case word)", clip(name))
		}
		if !validName(driver) {
			return Record{}, r.fail("#port %s: %q is not a driver name (a short lower-case word)", name, clip(driver))
		}
		if old, ok := r.ports[name]; ok && old != driver {
			return Record{}, r.fail("#port %s: declared again with driver %s (was %s)", name, driver, old)
		}
		r.ports[name] = driver
		return Record{Line: r.line, Kind: KindPort, Port: name, Driver: driver}, nil
	case "#meta":
		key, value, ok := strings.Cut(rest, "=")
		if !ok {
			return Record{}, r.fail("#meta wants KEY=VALUE, got %q", clip(rest))
		}
		if !validKey(key) {
			return Record{}, r.fail("#meta: %q is not a key (lower-case letters, digits and '-')", clip(key))
		}
		if err := checkMetaValue(key, value); err != nil {
			return Record{}, r.fail("%v", err)
		}
		r.meta[key] = value
		return Record{Line: r.line, Kind: KindMeta, Key: key, Value: value}, nil
	}
	rec, isMarker, err := parseMarker(text[1:])
	if err != nil {
		return Record{}, r.fail("%v", err)
	}
	if !isMarker {
		return Record{Line: r.line, Kind: KindComment, Text: text[1:]}, nil
	}
	if _, ok := r.ports[rec.Port]; rec.Kind == KindSession && !ok {
		return Record{}, r.fail("session marker names undeclared port %q", clip(rec.Port))
	}
	rec.Line = r.line
	return rec, nil
}

func (r *Reader) dataLine(text string) (Record, error) {
	f := strings.Split(text, " ")
	if len(f) != 4 {
		return Record{}, r.fail("data line wants SECONDS PORT DIR HEX separated by single spaces, got %d fields in %q", len(f), clip(text))
	}
	at, err := ParseSeconds(f[0])
	if err != nil {
		return Record{}, r.fail("%v", err)
	}
	if at < r.last {
		return Record{}, r.fail("time %s goes back before %s", f[0], FormatSeconds(r.last))
	}
	port := f[1]
	if _, ok := r.ports[port]; !ok {
		return Record{}, r.fail("port %q was not declared by a #port line before it", clip(port))
	}
	var dir Dir
	switch f[2] {
	case "r":
		dir = Read
	case "w":
		dir = Write
	default:
		return Record{}, r.fail("direction %q: want r or w", clip(f[2]))
	}
	h := f[3]
	if h == "" {
		return Record{}, r.fail("no bytes: a data line carries at least one byte")
	}
	if len(h)%2 != 0 {
		return Record{}, r.fail("hex %q has an odd number of digits", clip(h))
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return Record{}, r.fail("hex: character %d (%q) is not a lower-case hex digit", i+1, rune(c))
		}
	}
	data, _ := hex.DecodeString(h)
	r.last = at
	return Record{Line: r.line, Kind: KindData, Port: port, At: at, Dir: dir, Data: data}, nil
}

// Line returns the number of the line last read.
func (r *Reader) Line() int { return r.line }

// Driver returns the driver declared for port, if any so far.
func (r *Reader) Driver(port string) (string, bool) {
	d, ok := r.ports[port]
	return d, ok
}

// Ports returns the ports declared so far, name to driver.
func (r *Reader) Ports() map[string]string {
	out := make(map[string]string, len(r.ports))
	for k, v := range r.ports {
		out[k] = v
	}
	return out
}

// Meta returns the meta values in force after the records read so far (a
// later value of a key replaces the earlier one).
func (r *Reader) Meta() map[string]string {
	out := make(map[string]string, len(r.meta))
	for k, v := range r.meta {
		out[k] = v
	}
	return out
}

// Each reads the records left, in order, and calls fn for each: the one
// loop over a capture that its readers share (replay, the pipeline's
// replay and recovery, reopening a capture to append). It returns nil at
// the end of the capture, the capture's error (as Next), or the first
// error fn returns.
func (r *Reader) Each(fn func(Record) error) error {
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := fn(rec); err != nil {
			return err
		}
	}
}

// ReadAll reads every record of a capture.
func ReadAll(rd io.Reader) ([]Record, error) {
	var out []Record
	err := NewReader(rd).Each(func(rec Record) error {
		out = append(out, rec)
		return nil
	})
	return out, err
}
