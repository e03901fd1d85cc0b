//go:build linux || darwin

package emulator

import "golang.org/x/sys/unix"

// makeRaw turns off every input, output and line processing of the
// terminal and sets 9600 baud 8N1, like a DGT board's serial line.
func makeRaw(fd int) error {
	t, err := unix.IoctlGetTermios(fd, getTermios)
	if err != nil {
		return err
	}
	t.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON | unix.IXOFF
	t.Oflag &^= unix.OPOST
	t.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
	t.Cflag &^= unix.CSIZE | unix.PARENB | unix.CSTOPB | cflagBaud
	t.Cflag |= unix.CS8 | unix.CREAD | unix.CLOCAL | cflag9600
	t.Ispeed, t.Ospeed = unix.B9600, unix.B9600
	t.Cc[unix.VMIN] = 1
	t.Cc[unix.VTIME] = 0
	return unix.IoctlSetTermios(fd, setTermios, t)
}
