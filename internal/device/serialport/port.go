package serialport

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"syscall"
	"time"

	"go.bug.st/serial"

	"github.com/arbiterd/arbiterd/internal/journal/capture"
)

// Options configure a Port.
type Options struct {
	// Baud is the line speed; 0 means 9600 (the DGT line).
	Baud int
	// ReadTimeout, when positive, makes Read return ErrTimeout after that
	// long without a byte; 0 means Read waits until a byte arrives, the
	// port fails or the context ends.
	ReadTimeout time.Duration
	// Capture, if set, records every read and write under the name
	// CapturePort (declared by the caller), stamped by Now.
	Capture     *capture.Writer
	CapturePort string
	// Now gives the time since the capture started; required with Capture.
	Now func() time.Duration
}

// Port is an open serial port. Read and Write may be called from different
// goroutines; Close may be called from any goroutine and unblocks Read.
type Port struct {
	path   string
	opts   Options
	sp     serial.Port
	lock   *os.File // held with an exclusive flock while open
	opened time.Time

	mu     sync.Mutex
	closed bool
	cause  error // why the port was closed (context error), if any
	stop   func() bool
	done   chan struct{} // closed once the port and its lock are released
	cerr   error         // the result of closing
}

// Open opens the serial port at path (a device node or a symlink to one,
// such as /dev/serial/by-id/usb-…; on Windows a COM name such as COM3 or
// \\.\COM12) at 9600 baud 8N1, no flow control. The port closes itself
// when ctx is done.
func Open(ctx context.Context, path string, opts Options) (*Port, error) {
	if opts.Capture != nil && (opts.Now == nil || opts.CapturePort == "") {
		return nil, &Error{Port: path, Op: "open", Err: ErrCapture, Cause: errors.New("a capture needs Options.Now and Options.CapturePort")}
	}
	if opts.Baud < 0 {
		return nil, &Error{Port: path, Op: "open", Err: ErrBadMode, Cause: fmt.Errorf("baud rate %d", opts.Baud)}
	}
	if err := ctx.Err(); err != nil {
		return nil, &Error{Port: path, Op: "open", Err: ErrClosed, Cause: err}
	}
	if err := checkDevice(path); err != nil {
		return nil, err
	}
	lock, err := lockPort(path)
	if err != nil {
		return nil, err
	}
	baud := opts.Baud
	if baud == 0 {
		baud = 9600
	}
	sp, err := serial.Open(path, &serial.Mode{BaudRate: baud, DataBits: 8, Parity: serial.NoParity, StopBits: serial.OneStopBit})
	if err != nil {
		unlockPort(lock)
		return nil, openError(path, err)
	}
	to := serial.NoTimeout
	if opts.ReadTimeout > 0 {
		to = opts.ReadTimeout
	}
	if err := sp.SetReadTimeout(to); err != nil {
		sp.Close()
		unlockPort(lock)
		return nil, &Error{Port: path, Op: "open", Err: ErrBadMode, Cause: err}
	}
	p := &Port{path: path, opts: opts, sp: sp, lock: lock, done: make(chan struct{}), opened: time.Now()}
	p.stop = context.AfterFunc(ctx, func() { p.closeWith(ctx.Err()) })
	return p, nil
}

// openError translates an error of serial.Open.
func openError(path string, err error) *Error {
	e := &Error{Port: path, Op: "open", Cause: err}
	var pe *serial.PortError
	switch {
	case errors.As(err, &pe):
		switch pe.Code() {
		case serial.PortBusy:
			e.Err = ErrBusy
		case serial.PortNotFound:
			e.Err = ErrNotFound
		case serial.PermissionDenied:
			e.Err = ErrPermission
		case serial.InvalidSpeed, serial.InvalidDataBits, serial.InvalidParity, serial.InvalidStopBits, serial.InvalidTimeoutValue:
			e.Err = ErrBadMode
		default:
			e.Err = ErrNotSerial
		}
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENXIO), errors.Is(err, syscall.ENODEV):
		e.Err = ErrNotFound
	case errors.Is(err, fs.ErrPermission):
		e.Err = ErrPermission
	case errors.Is(err, syscall.EBUSY):
		e.Err = ErrBusy
	default:
		e.Err = systemOpenError(err)
	}
	return e
}

// Path returns the path the port was opened with.
func (p *Port) Path() string { return p.path }

// Read reads at least one byte, recording it in the capture before it
// returns. It never returns (0, nil): a timeout is ErrTimeout, a device
// that went away ErrDisconnected, a closed port (or a cancelled context)
// ErrClosed, each as an *Error naming the port.
func (p *Port) Read(b []byte) (int, error) {
	n, _, err := p.ReadStamped(b)
	return n, err
}

// ReadStamped is Read that also returns the time (Options.Now) the bytes
// were recorded with in the capture, so that what a driver derives from
// them carries exactly the capture's time and replay reproduces it. Without
// Options.Now the time is measured from Open.
func (p *Port) ReadStamped(b []byte) (int, time.Duration, error) {
	if len(b) == 0 {
		return 0, p.now(), nil
	}
	for {
		n, err := p.sp.Read(b)
		if n > 0 {
			at, cerr := p.record(p.now(), capture.Read, b[:n])
			return n, at, cerr
		}
		if err == nil {
			if p.opts.ReadTimeout > 0 {
				return 0, p.now(), &Error{Port: p.path, Op: "read", Err: ErrTimeout}
			}
			continue // no timeout was asked for: a spurious wake-up
		}
		return 0, p.now(), p.ioError("read", err)
	}
}

func (p *Port) now() time.Duration {
	if p.opts.Now != nil {
		return p.opts.Now()
	}
	return time.Since(p.opened)
}

// Write writes b and records the bytes written in the capture.
func (p *Port) Write(b []byte) (int, error) {
	n, err := p.sp.Write(b)
	if n > 0 {
		if _, cerr := p.record(p.now(), capture.Write, b[:n]); cerr != nil && err == nil {
			err = cerr
		}
	}
	if err != nil {
		if _, ok := err.(*Error); !ok {
			err = p.ioError("write", err)
		}
		return n, err
	}
	if n < len(b) {
		return n, p.ioError("write", errors.New("short write"))
	}
	return n, nil
}

// record writes b to the capture and returns the time it was recorded
// with (at, at the capture's precision).
func (p *Port) record(at time.Duration, dir capture.Dir, b []byte) (time.Duration, error) {
	if p.opts.Capture == nil {
		return at.Truncate(time.Microsecond), nil
	}
	rec, err := p.opts.Capture.Record(at, p.opts.CapturePort, dir, b)
	if err != nil {
		return rec, &Error{Port: p.path, Op: "capture", Err: ErrCapture, Cause: err}
	}
	return rec, nil
}

// ioError classifies a read or write failure: after Close it is ErrClosed;
// otherwise the device went away (a USB unplug shows as EIO, ENXIO or a
// port that reads as closed).
func (p *Port) ioError(op string, err error) *Error {
	p.mu.Lock()
	closed, cause := p.closed, p.cause
	p.mu.Unlock()
	if closed {
		<-p.done // report closed only once the port can be opened again
		if cause == nil {
			cause = err
		}
		return &Error{Port: p.path, Op: op, Err: ErrClosed, Cause: cause}
	}
	return &Error{Port: p.path, Op: op, Err: ErrDisconnected, Cause: err}
}

// Close closes the port; a pending Read returns ErrClosed. Close returns
// once the device is released. Closing twice is harmless.
func (p *Port) Close() error { return p.closeWith(nil) }

func (p *Port) closeWith(cause error) error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		<-p.done
		return nil
	}
	p.closed, p.cause = true, cause
	p.mu.Unlock()
	if p.stop != nil {
		p.stop()
	}
	err := p.sp.Close()
	unlockPort(p.lock)
	if err != nil {
		p.cerr = &Error{Port: p.path, Op: "close", Err: ErrClosed, Cause: err}
	}
	close(p.done)
	return p.cerr
}
