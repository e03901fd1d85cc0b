package dgt

import "errors"

// Stats counts what a Decoder saw.
type Stats struct {
	Bytes    int64 // bytes fed
	Frames   int64 // well-formed frames
	Messages int64 // frames decoded into a Message
	Unknown  int64 // well-formed frames with an unknown id (skipped)
	Corrupt  int64 // broken frames and frames with impossible contents (skipped)
	Noise    int64 // all-zero clock messages (skipped)
	Skipped  int64 // bytes outside any frame and bytes of broken frames
}

// Decoder decodes a byte stream from a board incrementally. It keeps a
// partial frame across calls to Feed, so the messages it returns depend
// only on the bytes, never on how they were split into reads. A Decoder is
// not safe for concurrent use.
type Decoder struct {
	buf   []byte
	stats Stats
	last  error
}

// NewDecoder returns a Decoder with an empty buffer.
func NewDecoder() *Decoder { return &Decoder{} }

// Feed decodes the bytes p (appended to any partial frame left from earlier
// calls) and returns the messages completed by them, in order. Garbage,
// broken frames, unknown ids and noise are counted in Stats and skipped.
func (d *Decoder) Feed(p []byte) []Message {
	var out []Message
	d.FeedFunc(p, func(m Message) { out = append(out, m) })
	return out
}

// FeedFunc is Feed calling fn for each message instead of collecting them.
func (d *Decoder) FeedFunc(p []byte, fn func(Message)) {
	d.stats.Bytes += int64(len(p))
	data := p
	if len(d.buf) > 0 {
		d.buf = append(d.buf, p...)
		data = d.buf
	}
	off := 0
	for off < len(data) {
		res, n := scan(data[off:], false)
		if res == scanMore {
			break
		}
		switch res {
		case scanGarbage:
			d.stats.Skipped += int64(n)
		case scanBroken:
			d.stats.Skipped += int64(n)
			d.stats.Corrupt++
			d.last = frameErr(data[off:off+n], n, ErrFraming, "broken frame, %d bytes skipped", n)
		case scanFrame:
			d.stats.Frames++
			m, err := Decode(data[off : off+n])
			switch {
			case err == nil:
				d.stats.Messages++
				fn(m)
			case errors.Is(err, ErrNoise):
				d.stats.Noise++
			case errors.Is(err, ErrUnknownID):
				d.stats.Unknown++
				d.last = err
			default:
				d.stats.Corrupt++
				d.last = err
			}
		}
		off += n
	}
	// Keep the partial frame in d.buf, never aliasing p (copy handles the
	// overlap when data is d.buf itself).
	d.buf = append(d.buf[:0], data[off:]...)
}

// Pending returns how many bytes of an incomplete frame the Decoder holds.
func (d *Decoder) Pending() int { return len(d.buf) }

// Stats returns the counters so far.
func (d *Decoder) Stats() Stats { return d.stats }

// LastError returns the most recent reason a frame was skipped (nil if none
// was): useful to tell an arbiter why a board looks garbled.
func (d *Decoder) LastError() error { return d.last }
