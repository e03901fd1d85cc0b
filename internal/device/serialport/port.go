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
)

// Options configure a Port.
type Options struct {
	// Baud is the line speed; 0 means 9600 (the DGT line).
	Baud int
	// ReadTimeout, when positive, makes Read return ErrTimeout after that
	// long without a byte; 0 means Read waits until a byte arrives, the
	// port fails or the context ends.
	ReadTimeout time.Duration
	// DropPending discards what the device sent before the port was
	// opened. A port left open by a process that died, or a
	// pseudo-terminal, keeps bytes nobody read; read after the open they
	// pass for what the device reports now (a board's moves of minutes
	// ago, before the dump it is asked for). For a device the driver asks
	// for its whole state on start, as a DGT board, nothing is lost.
	DropPending bool
}

// Port is an open serial port. Read and Write may be called from different
// goroutines; Close may be called from any goroutine and unblocks Read.
type Port struct {
	path string
	opts Options
	sp   line
	lock *os.File // held with an exclusive flock while open (nil: none)

	mu     sync.Mutex
	closed bool
	cause  error // why the port was closed (context error), if any
	stop   func() bool
	done   chan struct{} // closed once the port and its lock are released
	cerr   error         // the result of closing
}

// line is what a Port reads and writes: a serial port of the serial
// library, or a network port's connection.
type line interface {
	Read([]byte) (int, error)
	Write([]byte) (int, error)
	Close() error
}

// Open opens the serial port at path (a device node or a symlink to one,
// such as /dev/serial/by-id/usb-…; on Windows a COM name such as COM3 or
// \\.\COM12) at 9600 baud 8N1, no flow control; or connects to the
// network port tcp://HOST:PORT, which carries a serial line over TCP. The
// port closes itself when ctx is done.
func Open(ctx context.Context, path string, opts Options) (*Port, error) {
	if opts.Baud < 0 {
		return nil, &Error{Port: path, Op: "open", Err: ErrBadMode, Cause: fmt.Errorf("baud rate %d", opts.Baud)}
	}
	if err := ctx.Err(); err != nil {
		return nil, &Error{Port: path, Op: "open", Err: ErrClosed, Cause: err}
	}
	if IsNet(path) {
		return openNet(ctx, path, opts)
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
	if opts.DropPending {
		// A port that cannot drop its buffer is still usable: the
		// driver's start asks for the device's state all the same.
		_ = sp.ResetInputBuffer()
	}
	p := &Port{path: path, opts: opts, sp: sp, lock: lock, done: make(chan struct{})}
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

// Read reads at least one byte. It never returns (0, nil): a timeout is
// ErrTimeout, a device that went away ErrDisconnected, a closed port (or a
// cancelled context) ErrClosed, each as an *Error naming the port.
func (p *Port) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	for {
		n, err := p.sp.Read(b)
		if n > 0 {
			return n, nil
		}
		if err == nil {
			if p.opts.ReadTimeout > 0 {
				return 0, &Error{Port: p.path, Op: "read", Err: ErrTimeout}
			}
			continue // no timeout was asked for: a spurious wake-up
		}
		return 0, p.ioError("read", err)
	}
}

// Write writes b.
func (p *Port) Write(b []byte) (int, error) {
	n, err := p.sp.Write(b)
	if err != nil {
		return n, p.ioError("write", err)
	}
	if n < len(b) {
		return n, p.ioError("write", errors.New("short write"))
	}
	return n, nil
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
