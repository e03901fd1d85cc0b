package atomicfile

import (
	"errors"
	"syscall"
)

// errSharingViolation is Windows' own error for a file held without the
// sharing asked for.
var errSharingViolation error = syscall.Errno(errorSharingViolation)

// held reports whether err is one of the Windows errors of a file another
// program holds.
func held(err error) bool {
	var errno syscall.Errno
	return errors.As(err, &errno) && heldCode(uint32(errno))
}
