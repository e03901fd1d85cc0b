//go:build !windows

package atomicfile

import (
	"errors"
	"os"
	"syscall"
)

// syncDir syncs a directory, so that a rename in it is on disk. A file
// system that cannot sync a directory (EINVAL) has nothing more to do.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, syscall.EINVAL) {
		return nil
	}
	return err
}
