package main

import (
	"regexp"
	"runtime"
	"testing"
)

// `arbiterd version` and `arbiterd --version` print the same line: the
// version, the revision, the Go version and the platform.
func TestVersionCommand(t *testing.T) {
	out, _, err := runArgs(t, "version")
	if err != nil {
		t.Fatal(err)
	}
	flag, _, err := runArgs(t, "--version")
	if err != nil {
		t.Fatal(err)
	}
	if out != flag {
		t.Errorf("version %q, --version %q", out, flag)
	}
	want := regexp.MustCompile(`^arbiterd \S+ \(revision \S+.*; go\S+ ` + runtime.GOOS + `/` + runtime.GOARCH + `\)\n$`)
	if !want.MatchString(out) {
		t.Errorf("version %q", out)
	}
}
