// Package shareddata finds the test data that sits beside the repository,
// in ../shared/data relative to the module root: real DGT bytes, broadcast
// games, reference games and labelled 6.9 positions. The repository does
// not carry that data; tests that need it skip when it is absent, so a
// clone stands alone.
package shareddata

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// Root returns the module root: the nearest folder at or above the working
// directory that holds go.mod.
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("shareddata: no go.mod at or above the working directory")
		}
		dir = parent
	}
}

// Path returns the path of elem under ../shared/data and whether it exists.
func Path(elem ...string) (string, bool) {
	root, err := Root()
	if err != nil {
		return "", false
	}
	p := filepath.Join(append([]string{root, "..", "shared", "data"}, elem...)...)
	_, err = os.Stat(p)
	return p, err == nil
}

// Require returns the path of elem under ../shared/data, skipping the test
// when it is absent.
func Require(t testing.TB, elem ...string) string {
	t.Helper()
	p, ok := Path(elem...)
	if !ok {
		t.Skipf("%s is absent (the shared data sits beside the repository)", p)
	}
	return p
}
