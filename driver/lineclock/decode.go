package lineclock

import (
	"bytes"
	"errors"
	"fmt"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
)

// Sentinel errors a *LineError wraps, to branch on.
var (
	ErrChecksum = errors.New("checksum mismatch")
	ErrSyntax   = errors.New("malformed line")
	ErrTooLong  = errors.New("line too long")
	ErrUnknown  = errors.New("unknown line type")
)

// LineError says what is wrong with a line and where. Line is the 1-based
// line number within the stream (0 when Decode was called alone); Column
// is the 1-based byte column of the offending character.
type LineError struct {
	Line   int
	Column int
	Text   string // the line, or its start when very long
	Msg    string
	Err    error // ErrChecksum, ErrSyntax, ErrTooLong or ErrUnknown
}

func (e *LineError) Error() string {
	where := fmt.Sprintf("column %d", e.Column)
	if e.Line > 0 {
		where = fmt.Sprintf("line %d, %s", e.Line, where)
	}
	return fmt.Sprintf("lineclock: %s: %s: %s (%q)", where, e.Err, e.Msg, e.Text)
}

func (e *LineError) Unwrap() error { return e.Err }

// Split is a bufio.SplitFunc returning one line at a time without its LF
// (and without a CR before it). A run of more than MaxLine bytes without
// LF is returned as a token of its own (which Decode rejects as too long)
// so the reader never stalls; at EOF an unterminated rest is returned too.
func Split(data []byte, atEOF bool) (advance int, token []byte, err error) {
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		if i > MaxLine+1 {
			return MaxLine + 2, data[:MaxLine+2], nil
		}
		return i + 1, bytes.TrimSuffix(data[:i], []byte{'\r'}), nil
	}
	if len(data) > MaxLine+1 {
		return MaxLine + 2, data[:MaxLine+2], nil
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}

// checksum is the XOR of the bytes of body.
func checksum(body []byte) byte {
	var c byte
	for _, b := range body {
		c ^= b
	}
	return c
}

// parser walks a line's fields, remembering columns for errors.
type parser struct {
	line []byte
	pos  int // next byte
}

func (p *parser) errf(col int, err error, format string, args ...any) error {
	text := p.line
	if len(text) > 40 {
		text = text[:40]
	}
	return &LineError{Column: col + 1, Text: string(text), Msg: fmt.Sprintf(format, args...), Err: err}
}

// field returns the next space-separated field and its 0-based column.
func (p *parser) field(what string) ([]byte, int, error) {
	if p.pos >= len(p.line) {
		return nil, p.pos, p.errf(p.pos, ErrSyntax, "missing %s", what)
	}
	if p.pos > 0 {
		if p.line[p.pos] != ' ' {
			return nil, p.pos, p.errf(p.pos, ErrSyntax, "expected a space before %s", what)
		}
		p.pos++
	}
	start := p.pos
	for p.pos < len(p.line) && p.line[p.pos] != ' ' {
		p.pos++
	}
	if p.pos == start {
		return nil, start, p.errf(start, ErrSyntax, "empty %s (fields are separated by exactly one space)", what)
	}
	return p.line[start:p.pos], start, nil
}

func (p *parser) end() error {
	if p.pos < len(p.line) {
		return p.errf(p.pos, ErrSyntax, "unexpected text after the last field")
	}
	return nil
}

// number reads a decimal field without sign or leading zeros, at most max.
func (p *parser) number(what string, max int64) (int64, error) {
	f, col, err := p.field(what)
	if err != nil {
		return 0, err
	}
	if len(f) > 1 && f[0] == '0' {
		return 0, p.errf(col, ErrSyntax, "%s has a leading zero", what)
	}
	var n int64
	for i, c := range f {
		if c < '0' || c > '9' {
			return 0, p.errf(col+i, ErrSyntax, "%s must be decimal digits", what)
		}
		n = n*10 + int64(c-'0')
		if n > max {
			return 0, p.errf(col, ErrSyntax, "%s is larger than %d", what, max)
		}
	}
	return n, nil
}

func (p *parser) millis(what string) (time.Duration, error) {
	n, err := p.number(what, int64(MaxTime/time.Millisecond))
	return time.Duration(n) * time.Millisecond, err
}

func (p *parser) face() (clockd.Face, error) {
	f, col, err := p.field("face")
	if err != nil {
		return 0, err
	}
	switch string(f) {
	case "L":
		return clockd.Left, nil
	case "R":
		return clockd.Right, nil
	}
	return 0, p.errf(col, ErrSyntax, "face must be L or R")
}

// word reads a name field: 1–32 letters, digits, '-', '_', '.'.
// maxWord is the longest a model or serial may be (docs/lineclock.md).
const maxWord = 32

func (p *parser) word(what string) (string, error) {
	f, col, err := p.field(what)
	if err != nil {
		return "", err
	}
	if len(f) > maxWord {
		return "", p.errf(col+maxWord, ErrSyntax, "%s is %d characters long; at most %d are allowed", what, len(f), maxWord)
	}
	for i, c := range f {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return "", p.errf(col+i, ErrSyntax, "%s may hold only letters, digits, '-', '_' and '.'", what)
		}
	}
	return string(f), nil
}

// flags reads "-" or a set of distinct letters from allowed.
func (p *parser) flags(what, allowed string) (string, error) {
	f, col, err := p.field(what)
	if err != nil {
		return "", err
	}
	if string(f) == "-" {
		return "", nil
	}
	seen := ""
	for i, c := range f {
		if bytes.IndexByte([]byte(allowed), c) < 0 {
			return "", p.errf(col+i, ErrSyntax, "%s: %q is not one of %q (or '-' for none)", what, c, allowed)
		}
		if bytes.IndexByte([]byte(seen), c) >= 0 {
			return "", p.errf(col+i, ErrSyntax, "%s: %q appears twice", what, c)
		}
		seen += string(c)
	}
	return seen, nil
}

func has(set string, c byte) bool { return bytes.IndexByte([]byte(set), c) >= 0 }

// Decode checks one line (without its terminator) and parses it.
func Decode(line []byte) (Message, error) {
	p := &parser{line: line}
	if len(line) > MaxLine {
		return nil, p.errf(MaxLine, ErrTooLong, "a line holds at most %d bytes", MaxLine)
	}
	star := bytes.LastIndexByte(line, '*')
	if star < 0 {
		return nil, p.errf(len(line), ErrSyntax, "missing checksum (*HH at the end of the line)")
	}
	if len(line)-star != 3 {
		return nil, p.errf(star, ErrSyntax, "the checksum is '*' and exactly two hex digits at the end of the line")
	}
	want, ok := hex2(line[star+1], line[star+2])
	if !ok {
		return nil, p.errf(star+1, ErrSyntax, "the checksum must be two upper-case hex digits")
	}
	body := line[:star]
	for i, c := range body {
		if c < 0x20 || c > 0x7e {
			return nil, p.errf(i, ErrSyntax, "byte 0x%02x is not printable ASCII", c)
		}
	}
	if got := checksum(body); got != want {
		return nil, p.errf(star+1, ErrChecksum, "the line's checksum is %02X, its body's is %02X", want, got)
	}
	p.line = body
	kw, col, err := p.field("line type")
	if err != nil {
		return nil, err
	}
	var m Message
	switch string(kw) {
	case "HELLO":
		m, err = p.hello()
	case "STATUS":
		m, err = p.status()
	case "PRESS":
		var pr Press
		if pr.Seq, pr.Face, pr.Left, pr.Right, err = p.event(); err == nil {
			m = pr
		}
	case "FLAG":
		var fl Flag
		if fl.Seq, fl.Face, fl.Left, fl.Right, err = p.event(); err == nil {
			m = fl
		}
	default:
		return nil, p.errf(col, ErrUnknown, "unknown line type %q (HELLO, STATUS, PRESS or FLAG)", kw)
	}
	if err != nil {
		return nil, err
	}
	if err := p.end(); err != nil {
		return nil, err
	}
	return m, nil
}

func hex2(a, b byte) (byte, bool) {
	h := func(c byte) (byte, bool) {
		switch {
		case c >= '0' && c <= '9':
			return c - '0', true
		case c >= 'A' && c <= 'F':
			return c - 'A' + 10, true
		}
		return 0, false
	}
	x, ok1 := h(a)
	y, ok2 := h(b)
	return x<<4 | y, ok1 && ok2
}

func (p *parser) hello() (Message, error) {
	f, col, err := p.field("protocol name")
	if err != nil {
		return nil, err
	}
	if string(f) != "lineclock" {
		return nil, p.errf(col, ErrSyntax, "protocol name must be \"lineclock\"")
	}
	var h Hello
	v, err := p.number("protocol version", 99)
	if err != nil {
		return nil, err
	}
	h.Version = int(v)
	if h.Model, err = p.word("model"); err != nil {
		return nil, err
	}
	if h.Serial, err = p.word("serial number"); err != nil {
		return nil, err
	}
	return h, nil
}

func (p *parser) seq() (int, error) {
	n, err := p.number("sequence number", MaxSeq)
	return int(n), err
}

func (p *parser) status() (Message, error) {
	var s Status
	var err error
	if s.Seq, err = p.seq(); err != nil {
		return nil, err
	}
	if s.Left, err = p.millis("left time"); err != nil {
		return nil, err
	}
	if s.Right, err = p.millis("right time"); err != nil {
		return nil, err
	}
	f, col, err := p.field("turn")
	if err != nil {
		return nil, err
	}
	switch string(f) {
	case "L":
		s.Turn = TurnLeft
	case "R":
		s.Turn = TurnRight
	case "-":
		s.Turn = TurnNone
	default:
		return nil, p.errf(col, ErrSyntax, "turn must be L, R or -")
	}
	if f, col, err = p.field("run state"); err != nil {
		return nil, err
	}
	switch string(f) {
	case "R":
		s.Running = true
	case "S":
	default:
		return nil, p.errf(col, ErrSyntax, "run state must be R (running) or S (stopped)")
	}
	for _, ff := range []*FaceFlags{&s.LeftFlags, &s.RightFlags} {
		set, err := p.flags("face flags", "FSI")
		if err != nil {
			return nil, err
		}
		*ff = FaceFlags{Fallen: has(set, 'F'), Shown: has(set, 'S'), PerMove: has(set, 'I')}
	}
	dev, err := p.flags("device flags", "B")
	if err != nil {
		return nil, err
	}
	s.BatteryLow = has(dev, 'B')
	if s.Running && s.Turn == TurnNone {
		return nil, p.errf(len(p.line)-1, ErrSyntax, "a running clock must say whose turn it is")
	}
	return s, nil
}

func (p *parser) event() (seq int, f clockd.Face, l, r time.Duration, err error) {
	if seq, err = p.seq(); err != nil {
		return
	}
	if f, err = p.face(); err != nil {
		return
	}
	if l, err = p.millis("left time"); err != nil {
		return
	}
	r, err = p.millis("right time")
	return
}
