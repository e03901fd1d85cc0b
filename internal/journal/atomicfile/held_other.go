//go:build !windows

package atomicfile

import (
	"errors"
	"strconv"
)

// windowsError is a Windows error code on a system that has other codes:
// what Holder gives, so that a hold reads as it does on Windows.
type windowsError uint32

func (e windowsError) Error() string {
	if e == errorSharingViolation {
		return "The process cannot access the file because it is being used by another process."
	}
	return "Windows error " + strconv.FormatUint(uint64(e), 10)
}

var errSharingViolation error = windowsError(errorSharingViolation)

// held reports whether err is a Windows error code of a file another
// program holds. Other systems let a file another program has open be
// replaced, so only Holder's errors are.
func held(err error) bool {
	var we windowsError
	return errors.As(err, &we) && heldCode(uint32(we))
}
