package main

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestDemoLineFlag(t *testing.T) {
	root := newRootCmd()
	root.SetOut(io.Discard)
	root.SetErr(io.Discard)
	root.SetArgs([]string{"demo", "--line", "serial"})
	err := root.Execute()
	var u usageError
	if !errors.As(err, &u) || !strings.Contains(err.Error(), "in-process") {
		t.Fatalf("demo --line serial: %v, want a usage error naming the lines", err)
	}
}
