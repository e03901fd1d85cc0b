// Package atomicfile replaces a file's contents in one step that survives
// a crash: the views written beside a capture (the events file, the PGN)
// and the broadcast round folders use it.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Write replaces path's contents with data: the data goes to a temporary
// file of a name of its own in path's directory, which is synced, given
// perm and renamed over path; then the directory is synced so that the
// rename survives a crash too. A reader sees the old file or the new one,
// never half of one, and two writers never share a temporary file. On an
// error before the rename path is unchanged and the temporary file is
// removed; an error syncing the directory comes after path was replaced
// (the new contents are there, but may not survive a crash).
func Write(path string, data []byte, perm fs.FileMode) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.Remove(tmp.Name())
		}
	}()
	_, werr := tmp.Write(data)
	serr := tmp.Sync()
	cerr := tmp.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), perm); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	if err := syncDir(dir); err != nil {
		return fmt.Errorf("syncing %s: %w", dir, err)
	}
	return nil
}
