package loadtest

import (
	"io"
	"sync"
)

// line is one direction of an in-process serial line: what one end writes
// waits in a buffer until the other end reads it, as in a UART's and the
// kernel's buffers, so neither end's write waits for the other's read
// (net.Pipe's does, and two ends writing at once would wait for ever).
type line struct {
	mu     sync.Mutex
	cond   *sync.Cond
	buf    []byte
	closed bool
}

func newLine() *line {
	l := &line{}
	l.cond = sync.NewCond(&l.mu)
	return l
}

func (l *line) write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return 0, io.ErrClosedPipe
	}
	l.buf = append(l.buf, p...)
	l.cond.Broadcast()
	return len(p), nil
}

func (l *line) read(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for len(l.buf) == 0 && !l.closed {
		l.cond.Wait()
	}
	if len(l.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, l.buf)
	l.buf = l.buf[n:]
	if len(l.buf) == 0 {
		l.buf = nil // let a burst's buffer go
	}
	return n, nil
}

func (l *line) close() {
	l.mu.Lock()
	l.closed = true
	l.cond.Broadcast()
	l.mu.Unlock()
}

// end is one end of a serial line: it reads what the other end wrote.
type end struct{ in, out *line }

func (e end) Read(p []byte) (int, error)  { return e.in.read(p) }
func (e end) Write(p []byte) (int, error) { return e.out.write(p) }

// Close closes the whole line: both ends' reads end with io.EOF once
// drained, writes fail.
func (e end) Close() error {
	e.in.close()
	e.out.close()
	return nil
}

// serialLine returns the two ends of a new line: the device's and the host's.
func serialLine() (device, host end) {
	a, b := newLine(), newLine()
	return end{in: a, out: b}, end{in: b, out: a}
}
