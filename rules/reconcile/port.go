package reconcile

import "strings"

// IsClockPort reports whether a session port name is that of a separate
// clock (one whose name starts with "clock", as in the capture's
// "clock" and "clock2"): a clock going away or coming back says nothing
// about the board.
func IsClockPort(port string) bool { return strings.HasPrefix(port, "clock") }
