//go:build !windows

package serialport

import (
	"errors"
	"io/fs"
	"os"
)

// checkDevice tells a missing port, a forbidden one and a path that is no
// device apart before the serial library tries to open it.
func checkDevice(path string) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &Error{Port: path, Op: "open", Err: ErrNotFound}
	case errors.Is(err, fs.ErrPermission):
		return &Error{Port: path, Op: "open", Err: ErrPermission, Cause: err}
	case err != nil:
		return &Error{Port: path, Op: "open", Err: ErrNotFound, Cause: err}
	case fi.Mode()&fs.ModeCharDevice == 0:
		return &Error{Port: path, Op: "open", Err: ErrNotSerial, Cause: errors.New("not a character device")}
	}
	return nil
}

// systemOpenError classifies an opening failure the serial library left
// unclassified.
func systemOpenError(error) error { return ErrNotSerial }
