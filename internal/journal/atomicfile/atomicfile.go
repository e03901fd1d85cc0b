// Package atomicfile replaces a file's contents in one step that survives
// a crash: the views written beside a capture (the events file, the PGN)
// and the broadcast round folders use it.
//
// On Windows a file another program has open (a broadcast tool reading
// the PGN, an antivirus scanner, an editor) cannot be replaced until that
// program lets go, unless it opened the file sharing deletion, which few
// do. Write therefore tries the replacement again for a bounded time
// (Replacer.Patience); a file still held after that is an error that
// wraps ErrHeld, which callers keep pending and try again later. What
// Windows does to such a file can be played on any system with Holder,
// so that the code around it is tested everywhere.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// ErrHeld is wrapped by the error of a replacement that failed because
// another program holds the file open (Windows: a sharing violation, a
// lock violation, or access denied, which is also what a read-only file
// gives).
var ErrHeld = errors.New("another program holds the file open (or it is read-only)")

// FS is what replacing a file needs of the file system. OS is the
// system's own; Holder plays Windows' file sharing on any system.
type FS interface {
	Rename(oldpath, newpath string) error
	OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error)
}

// OS is the operating system's file system.
var OS FS = osFS{}

type osFS struct{}

func (osFS) Rename(oldpath, newpath string) error { return os.Rename(oldpath, newpath) }
func (osFS) OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(name, flag, perm)
}

// DefaultPatience is how long Write keeps trying to replace a file that
// another program holds: long enough for a scanner or a tool that reads
// the file and closes it, short enough not to hold up its caller.
const DefaultPatience = 500 * time.Millisecond

// Replacer replaces files. The zero value is Write's: the OS's file
// system and DefaultPatience.
type Replacer struct {
	FS FS // nil: OS
	// Patience is how long a replacement another program blocks is tried
	// again (0: DefaultPatience; negative: once only).
	Patience time.Duration
}

// Write replaces path's contents with data (Replacer.Write with the
// defaults).
func Write(path string, data []byte, perm fs.FileMode) error {
	return Replacer{}.Write(path, data, perm)
}

// Held reports whether err is a replacement or an opening that another
// program's hold on the file refused.
func Held(err error) bool { return errors.Is(err, ErrHeld) || held(err) }

// Write replaces path's contents with data: the data goes to a temporary
// file of a name of its own in path's directory, which is synced, given
// perm and renamed over path; then the directory is synced so that the
// rename survives a crash too. A reader sees the old file or the new one,
// never half of one, and two writers never share a temporary file. A
// rename that another program's hold on path refuses is tried again, 5 ms
// after the first try and twice as long after each, until r.Patience has
// passed; it then fails with an error wrapping ErrHeld and the system's.
// On an error before the rename path is unchanged and the temporary file
// is removed; an error syncing the directory comes after path was
// replaced (the new contents are there, but may not survive a crash).
func (r Replacer) Write(path string, data []byte, perm fs.FileMode) (err error) {
	fsys := r.FS
	if fsys == nil {
		fsys = OS
	}
	patience := r.Patience
	if patience == 0 {
		patience = DefaultPatience
	}
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
	start, wait := time.Now(), 5*time.Millisecond
	for {
		err := fsys.Rename(tmp.Name(), path)
		if err == nil {
			break
		}
		if !Held(err) {
			return err
		}
		left := patience - time.Since(start)
		if left <= 0 {
			return &HeldError{Path: path, Tried: time.Since(start), Err: err}
		}
		time.Sleep(min(wait, left))
		wait *= 2
	}
	if err := syncDir(dir); err != nil {
		return fmt.Errorf("syncing %s: %w", dir, err)
	}
	return nil
}

// HeldError is a replacement that another program's hold on the file
// refused for as long as it was tried.
type HeldError struct {
	Path  string        // the file that could not be replaced
	Tried time.Duration // how long it was tried
	Err   error         // the system's error
}

func (e *HeldError) Error() string {
	s := fmt.Sprintf("%s could not be replaced: %v", e.Path, ErrHeld)
	if e.Tried > 0 {
		s += fmt.Sprintf(", still after %s of trying", e.Tried.Round(time.Millisecond))
	}
	var le *os.LinkError
	if errors.As(e.Err, &le) {
		return s + " (" + le.Err.Error() + ")"
	}
	return s + " (" + e.Err.Error() + ")"
}

// Unwrap gives ErrHeld and the system's error.
func (e *HeldError) Unwrap() []error { return []error{ErrHeld, e.Err} }
