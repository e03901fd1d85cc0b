package emulator

import (
	"io"
	"sync"
)

// OpenLine returns the two ends of a new in-process serial line: give
// device to Run, and the host reads and writes host as it would a serial
// port. It is the emulator's line where the system has no pseudo-terminals
// (Windows), and a line for many boards in one process (the load test).
//
// What one end writes waits in a buffer until the other end reads it, as
// in a UART's and the kernel's buffers, so neither end's write waits for
// the other's read (with net.Pipe it does, and two ends writing at once
// would wait for ever). The buffer has no bound: the host is expected to
// read, as arbiterd does. Closing either end closes the whole line, as
// pulling the cable does: reads return io.EOF once drained, writes
// io.ErrClosedPipe. The ends have no deadlines; close the line after Run
// to end its reader.
func OpenLine() (device, host *LineEnd) {
	a, b := newWire(), newWire()
	return &LineEnd{in: a, out: b}, &LineEnd{in: b, out: a}
}

// LineEnd is one end of an in-process serial line (OpenLine).
type LineEnd struct{ in, out *wire }

// Read reads what the other end wrote, waiting until there is something
// or the line is closed.
func (e *LineEnd) Read(p []byte) (int, error) { return e.in.read(p) }

// Write sends p to the other end; it never waits for a reader.
func (e *LineEnd) Write(p []byte) (int, error) { return e.out.write(p) }

// Close closes the whole line: both ends' reads end with io.EOF once
// drained, writes fail. Closing twice is harmless.
func (e *LineEnd) Close() error {
	e.in.close()
	e.out.close()
	return nil
}

// wire is one direction of a line.
type wire struct {
	mu     sync.Mutex
	cond   *sync.Cond
	buf    []byte
	closed bool
}

func newWire() *wire {
	w := &wire{}
	w.cond = sync.NewCond(&w.mu)
	return w
}

func (w *wire) write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return 0, io.ErrClosedPipe
	}
	w.buf = append(w.buf, p...)
	w.cond.Broadcast()
	return len(p), nil
}

func (w *wire) read(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(p) == 0 {
		return 0, nil
	}
	for len(w.buf) == 0 && !w.closed {
		w.cond.Wait()
	}
	if len(w.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, w.buf)
	w.buf = w.buf[n:]
	if len(w.buf) == 0 {
		w.buf = nil // let a burst's buffer go
	}
	return n, nil
}

func (w *wire) close() {
	w.mu.Lock()
	w.closed = true
	w.cond.Broadcast()
	w.mu.Unlock()
}
