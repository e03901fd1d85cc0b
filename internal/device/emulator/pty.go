package emulator

import "errors"

// ErrNoPTY is returned by OpenPTY where the system has no pseudo-terminals
// the emulator can use (Windows): there the emulator runs on an in-process
// line (OpenLine) instead.
var ErrNoPTY = errors.New("no pseudo-terminals on this system")
