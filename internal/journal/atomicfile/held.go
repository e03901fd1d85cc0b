package atomicfile

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// The Windows error codes of a file another program holds: what
// replacing, removing or opening it gives while the other program has it
// open without sharing that access.
const (
	errorAccessDenied     = 5    // ERROR_ACCESS_DENIED: open without FILE_SHARE_DELETE (a rename over it), or read-only
	errorSharingViolation = 32   // ERROR_SHARING_VIOLATION: open without the sharing asked for
	errorLockViolation    = 33   // ERROR_LOCK_VIOLATION: a byte range of it is locked
	errorUserMappedFile   = 1224 // ERROR_USER_MAPPED_FILE: mapped into another program's memory
)

// heldCode reports whether a Windows error code is another program's
// hold on a file.
func heldCode(code uint32) bool {
	switch code {
	case errorAccessDenied, errorSharingViolation, errorLockViolation, errorUserMappedFile:
		return true
	}
	return false
}

// Holder is a file system (FS) in which files can be held as Windows lets
// another program hold them: a program that opened a file sharing reading
// only (no FILE_SHARE_DELETE, no FILE_SHARE_WRITE), as many readers do.
// While a file is held it cannot be replaced (a rename over it fails) nor
// opened for writing; reading it is not Holder's business. The error is
// the one Windows gives (ERROR_SHARING_VIOLATION on Windows, the same
// code on other systems), so the same classification runs on every
// system. The rest is the OS's file system. Tests put it under the daemon
// and the broadcast folder.
type Holder struct {
	mu   sync.Mutex
	held map[string]int
}

// Hold holds the file at path until release is called (several holds of
// one file are released one by one).
func (h *Holder) Hold(path string) (release func()) {
	key := holdKey(path)
	h.mu.Lock()
	if h.held == nil {
		h.held = map[string]int{}
	}
	h.held[key]++
	h.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			h.mu.Lock()
			if h.held[key]--; h.held[key] <= 0 {
				delete(h.held, key)
			}
			h.mu.Unlock()
		})
	}
}

// IsHeld reports whether path is held.
func (h *Holder) IsHeld(path string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.held[holdKey(path)] > 0
}

func holdKey(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

// Rename renames oldpath to newpath, unless either is held.
func (h *Holder) Rename(oldpath, newpath string) error {
	if h.IsHeld(oldpath) || h.IsHeld(newpath) {
		return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: errSharingViolation}
	}
	return os.Rename(oldpath, newpath)
}

// OpenFile opens name, unless it is held and the flags ask to write.
func (h *Holder) OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	if flag&(os.O_WRONLY|os.O_RDWR|os.O_APPEND|os.O_TRUNC) != 0 && h.IsHeld(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: errSharingViolation}
	}
	return os.OpenFile(name, flag, perm)
}
