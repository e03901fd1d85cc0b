//go:build linux || darwin

package emulator

import (
	"fmt"
	"os"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// OpenPTY opens a pseudo-terminal for the emulator: the master is the
// device end (give it to Run), slavePath is what a host opens as its serial
// port. The terminal is put in raw mode so every byte passes untouched (a
// host opening it with go.bug.st/serial sets its own mode as well). The
// master is non-blocking underneath, so it honours deadlines and Run can
// stop its reader; close it when done. Until a host opens slavePath, reads
// on the master fail with EIO, which Run treats as "no host yet".
func OpenPTY() (master *os.File, slavePath string, err error) {
	m, s, err := pty.Open()
	if err != nil {
		return nil, "", fmt.Errorf("emulator: open pty: %w", err)
	}
	defer s.Close()
	path := s.Name()
	if err := makeRaw(int(s.Fd())); err != nil {
		m.Close()
		return nil, "", fmt.Errorf("emulator: raw mode on %s: %w", path, err)
	}
	// pty.Open leaves the master in blocking mode; a non-blocking duplicate
	// is pollable, so deadlines work on it.
	fd, err := unix.Dup(int(m.Fd()))
	m.Close()
	if err != nil {
		return nil, "", fmt.Errorf("emulator: dup pty master: %w", err)
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return nil, "", fmt.Errorf("emulator: pty master non-blocking: %w", err)
	}
	unix.CloseOnExec(fd)
	f := os.NewFile(uintptr(fd), "/dev/ptmx")
	// Where the system's poller cannot wait on a pty master, deadlines do
	// not work and Run could not stop its reader: no usable pty.
	if err := f.SetReadDeadline(time.Time{}); err != nil {
		f.Close()
		return nil, "", fmt.Errorf("emulator: pty master without deadlines: %w (%w)", ErrNoPTY, err)
	}
	return f, path, nil
}

// hungUp says whether f is a pty master whose slave nobody has open (poll
// reports POLLHUP); writing to it would only fill a buffer no one reads.
func hungUp(f *os.File) bool {
	sc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	hup := false
	_ = sc.Control(func(fd uintptr) {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLOUT}}
		if n, err := unix.Poll(fds, 0); err == nil && n > 0 {
			hup = fds[0].Revents&unix.POLLHUP != 0
		}
	})
	return hup
}
