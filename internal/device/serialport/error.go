package serialport

import (
	"errors"
	"fmt"
)

// Sentinel errors; an *Error wraps one of them.
var (
	ErrNotFound     = errors.New("no such port (is the device plugged in?)")
	ErrBusy         = errors.New("port is in use by another program")
	ErrPermission   = errors.New("permission denied (is the user in the dialout group?)")
	ErrNotSerial    = errors.New("not a serial port")
	ErrBadMode      = errors.New("line settings not supported (baud rate, bits, timeout)")
	ErrDisconnected = errors.New("device disconnected")
	ErrClosed       = errors.New("port closed")
	ErrTimeout      = errors.New("read timed out")
)

// Error is an error on a named port.
type Error struct {
	Port  string // the path the caller gave
	Op    string // "open", "read", "write", "close"
	Err   error  // one of the sentinels above
	Cause error  // the underlying error, if any
}

func (e *Error) Error() string {
	s := fmt.Sprintf("serial port %s: %s: %v", e.Port, e.Op, e.Err)
	if IsNet(e.Port) {
		what := e.Err.Error()
		switch e.Err {
		case ErrNotFound:
			what = "nothing answers at this address (is the serial server or bridge switched on, and the address right?)"
		case ErrDisconnected:
			what = "the connection was lost"
		}
		s = fmt.Sprintf("network port %s: %s: %s", e.Port, e.Op, what)
	}
	if e.Cause != nil {
		s += " (" + e.Cause.Error() + ")"
	}
	return s
}

// Unwrap returns the sentinel and the underlying cause.
func (e *Error) Unwrap() []error {
	if e.Cause == nil {
		return []error{e.Err}
	}
	return []error{e.Err, e.Cause}
}

// Timeout reports whether the error is a read timeout.
func (e *Error) Timeout() bool { return errors.Is(e.Err, ErrTimeout) }
