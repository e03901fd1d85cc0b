package emulator

import (
	"fmt"
	"os"

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
	return os.NewFile(uintptr(fd), "/dev/ptmx"), path, nil
}

// makeRaw turns off every input, output and line processing of the
// terminal and sets 9600 baud 8N1, like a DGT board's serial line.
func makeRaw(fd int) error {
	t, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		return err
	}
	t.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON | unix.IXOFF
	t.Oflag &^= unix.OPOST
	t.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
	t.Cflag &^= unix.CSIZE | unix.PARENB | unix.CSTOPB | unix.CBAUD
	t.Cflag |= unix.CS8 | unix.CREAD | unix.CLOCAL | unix.B9600
	t.Ispeed, t.Ospeed = unix.B9600, unix.B9600
	t.Cc[unix.VMIN] = 1
	t.Cc[unix.VTIME] = 0
	return unix.IoctlSetTermios(fd, unix.TCSETS, t)
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
