package lineclock

import (
	"bufio"
	"errors"
	"io"
)

// Stats counts what a Decoder or Reader saw.
type Stats struct {
	Lines    int // lines framed (good and bad)
	Messages int // lines decoded
	Bad      int // lines rejected (checksum, syntax, too long, unknown type)
	Gaps     int // places where sequence numbers skipped: lines were lost
}

// Decoder frames and decodes a byte stream incrementally; bad lines are
// counted and skipped, never fatal.
type Decoder struct {
	buf   []byte
	stats Stats
	last  error
	seq   int // last sequence number seen, -1 none
}

// NewDecoder returns a decoder at the start of a stream.
func NewDecoder() *Decoder { return &Decoder{seq: -1} }

// Feed takes the bytes of one read and returns the messages completed by
// them.
func (d *Decoder) Feed(p []byte) []Message {
	d.buf = append(d.buf, p...)
	var out []Message
	for {
		adv, tok, _ := Split(d.buf, false)
		if adv == 0 {
			break
		}
		if m, ok := d.line(tok); ok {
			out = append(out, m)
		}
		d.buf = d.buf[adv:]
	}
	if len(d.buf) == 0 {
		d.buf = nil
	}
	return out
}

// Flush decodes an unterminated rest at the end of the stream.
func (d *Decoder) Flush() []Message {
	if len(d.buf) == 0 {
		return nil
	}
	tok := d.buf
	d.buf = nil
	if m, ok := d.line(tok); ok {
		return []Message{m}
	}
	return nil
}

func (d *Decoder) line(tok []byte) (Message, bool) {
	d.stats.Lines++
	m, err := Decode(tok)
	if err != nil {
		var le *LineError
		if errors.As(err, &le) {
			le.Line = d.stats.Lines
		}
		d.stats.Bad++
		d.last = err
		return nil, false
	}
	d.stats.Messages++
	if _, ok := m.(Hello); ok {
		d.seq = -1
		return m, true
	}
	s := seqOf(m)
	if d.seq >= 0 && s != (d.seq+1)%(MaxSeq+1) {
		d.stats.Gaps++
	}
	d.seq = s
	return m, true
}

// Stats returns the counts so far.
func (d *Decoder) Stats() Stats { return d.stats }

// LastError returns the error of the last rejected line, if any.
func (d *Decoder) LastError() error { return d.last }

// Pending returns the number of buffered bytes of an unfinished line.
func (d *Decoder) Pending() int { return len(d.buf) }

// Reader reads messages from an io.Reader (a serial port, a pty, a
// recording), skipping bad lines.
type Reader struct {
	sc  *bufio.Scanner
	dec *Decoder
}

// NewReader returns a Reader over r.
func NewReader(r io.Reader) *Reader {
	sc := bufio.NewScanner(r)
	sc.Split(Split)
	sc.Buffer(make([]byte, 0, 2*MaxLine), 4*MaxLine)
	return &Reader{sc: sc, dec: NewDecoder()}
}

// Next returns the next good message; at the end of the input it returns
// io.EOF, or the read error.
func (r *Reader) Next() (Message, error) {
	for r.sc.Scan() {
		if m, ok := r.dec.line(r.sc.Bytes()); ok {
			return m, nil
		}
	}
	if err := r.sc.Err(); err != nil {
		return nil, err
	}
	return nil, io.EOF
}

// Stats returns the counts so far.
func (r *Reader) Stats() Stats { return r.dec.Stats() }

// LastError returns the error of the last rejected line, if any.
func (r *Reader) LastError() error { return r.dec.LastError() }
