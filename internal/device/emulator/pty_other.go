//go:build !linux && !darwin

package emulator

import (
	"fmt"
	"os"
	"runtime"
)

// OpenPTY fails with ErrNoPTY: this system has no pseudo-terminals the
// emulator can use (see OpenLine).
func OpenPTY() (master *os.File, slavePath string, err error) {
	return nil, "", fmt.Errorf("emulator: %w (%s)", ErrNoPTY, runtime.GOOS)
}

// hungUp is never true without ptys: Run only asks about pty masters.
func hungUp(*os.File) bool { return false }
