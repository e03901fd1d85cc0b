package drivertest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"
)

// Step is one exchange of recorded traffic: the driver is expected to write
// Write (skipped when nil), then the device answers Read (nothing when
// nil).
type Step struct {
	Write []byte
	Read  []byte
}

// ErrUnexpectedWrite is returned by Playback.Write for a write the
// recording does not expect.
var ErrUnexpectedWrite = errors.New("drivertest: unexpected write")

// Playback is an io.ReadWriteCloser that plays a device from a recording.
// Reads block until the recording has bytes to give (after the writes that
// precede them), or until Close. A write that differs from the next
// expected one fails: Write returns an error wrapping ErrUnexpectedWrite,
// Err reports it, and Fail (if set, e.g. t.Errorf) is called.
type Playback struct {
	Steps []Step
	// Fail, if set, is called once with a description of the first
	// mismatch.
	Fail func(format string, args ...any)
	// ReadChunk, if positive, caps the bytes one Read returns, to exercise
	// split reads.
	ReadChunk int

	mu      sync.Mutex
	cond    *sync.Cond
	step    int    // index of the next step whose Write is expected
	pending []byte // bytes to hand to Read
	partial []byte // bytes of the current expected write received so far
	err     error
	closed  bool
	started bool
}

func (p *Playback) init() {
	if p.cond == nil {
		p.cond = sync.NewCond(&p.mu)
	}
	if !p.started {
		p.started = true
		p.advance()
	}
}

// advance releases the Read bytes of steps that expect no write.
func (p *Playback) advance() {
	for p.step < len(p.Steps) && p.Steps[p.step].Write == nil {
		p.pending = append(p.pending, p.Steps[p.step].Read...)
		p.step++
	}
	p.cond.Broadcast()
}

// Write checks b against the recording. A recorded write may arrive split
// over several calls.
func (p *Playback) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.init()
	if p.err != nil {
		return 0, p.err
	}
	if p.closed {
		return 0, io.ErrClosedPipe
	}
	for i := 0; i < len(b); {
		if p.step >= len(p.Steps) {
			return i, p.failLocked("write %x after the end of the recording", b[i:])
		}
		want := p.Steps[p.step].Write
		rest := want[len(p.partial):]
		n := min(len(rest), len(b)-i)
		if !bytes.Equal(rest[:n], b[i:i+n]) {
			return i, p.failLocked("step %d: wrote %x, recording expects %x", p.step, b[i:i+n], rest[:n])
		}
		p.partial = append(p.partial, b[i:i+n]...)
		i += n
		if len(p.partial) == len(want) {
			p.partial = p.partial[:0]
			p.pending = append(p.pending, p.Steps[p.step].Read...)
			p.step++
			p.advance()
		}
	}
	return len(b), nil
}

func (p *Playback) failLocked(format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	p.err = fmt.Errorf("%w: %s", ErrUnexpectedWrite, msg)
	if p.Fail != nil {
		p.Fail("drivertest: %s", msg)
	}
	p.cond.Broadcast()
	return p.err
}

// Read returns recorded device bytes, blocking until some are due. After
// Close, or when the recording is over and nothing is pending, it returns
// io.EOF once the recording is exhausted and closed.
func (p *Playback) Read(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.init()
	for len(p.pending) == 0 {
		if p.closed || p.err != nil {
			return 0, io.EOF
		}
		p.cond.Wait()
	}
	n := len(b)
	if p.ReadChunk > 0 && n > p.ReadChunk {
		n = p.ReadChunk
	}
	n = copy(b[:n], p.pending)
	p.pending = p.pending[n:]
	return n, nil
}

// Close ends the playback; pending and future Reads return io.EOF.
func (p *Playback) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.init()
	p.closed = true
	p.cond.Broadcast()
	return nil
}

// Done reports whether every recorded write happened and every recorded
// byte was read.
func (p *Playback) Done() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.init()
	return p.step == len(p.Steps) && len(p.pending) == 0
}

// Err returns the first mismatch, if any.
func (p *Playback) Err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}
