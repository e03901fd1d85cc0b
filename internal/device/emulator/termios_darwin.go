package emulator

import "golang.org/x/sys/unix"

// macOS reads and sets the terminal mode with TIOCGETA and TIOCSETA, and
// keeps the line speed only in Ispeed and Ospeed (Cflag has no CBAUD
// field).
const (
	getTermios = unix.TIOCGETA
	setTermios = unix.TIOCSETA
	cflagBaud  = 0
	cflag9600  = 0
)
