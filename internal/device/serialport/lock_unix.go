//go:build unix

package serialport

import (
	"errors"
	"os"
	"syscall"
)

// lockPort takes an advisory exclusive lock (flock) on the device node, so
// that a second arbiterd cannot read the same board: the exclusive mode the
// serial library sets (TIOCEXCL) does not stop a process running as root.
func lockPort(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOCTTY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, openError(path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, &Error{Port: path, Op: "open", Err: ErrBusy, Cause: errors.New("another process holds a lock on it")}
		}
		return nil, &Error{Port: path, Op: "open", Err: ErrNotSerial, Cause: err}
	}
	return f, nil
}

func unlockPort(f *os.File) {
	if f != nil {
		f.Close() // closing the descriptor releases the flock
	}
}
