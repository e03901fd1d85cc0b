package emulator

import "golang.org/x/sys/unix"

// Linux reads and sets the terminal mode with TCGETS and TCSETS, and keeps
// the line speed in Cflag's CBAUD bits as well as in Ispeed and Ospeed.
const (
	getTermios = unix.TCGETS
	setTermios = unix.TCSETS
	cflagBaud  = unix.CBAUD
	cflag9600  = unix.B9600
)
