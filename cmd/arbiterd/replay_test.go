package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runArgs(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	root := newRootCmd()
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), errOut.String(), err
}

func TestReplayCommand(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.capture")
	os.WriteFile(good, []byte("#capture v1\n#port board dgt\n0.000000 board w 4b\n0.012480 board r 8e00050c00\n"+
		"0.013511 board r 8e\n0.013640 board r 00052401\n"), 0o644)
	out, errOut, err := runArgs(t, "replay", "--stats", good)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("output %q", out)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(lines[1]), &m); err != nil {
		t.Fatal(err)
	}
	if m["type"] != "field" || m["square"] != "e4" || m["port"] != "board" || m["char"] != "P" {
		t.Errorf("second message %v", m)
	}
	if !strings.HasPrefix(lines[1], `{"t":0.013640,`) {
		t.Errorf("t not written with 6 decimals: %s", lines[1])
	}
	if !strings.Contains(errOut, "2 messages") {
		t.Errorf("stats %q", errOut)
	}
}

func TestReplayCommandErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.capture")
	os.WriteFile(bad, []byte("#capture v1\n#port board dgt\n0.000000 board r 8E\n"), 0o644)
	notCapture := filepath.Join(dir, "game.pgn")
	os.WriteFile(notCapture, []byte("[Event \"x\"]\n"), 0o644)
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"replay", bad}, 1, "line 3"},
		{[]string{"replay", notCapture}, 1, "not a capture"},
		{[]string{"replay", filepath.Join(dir, "missing")}, 1, "no such file"},
		{[]string{"replay"}, 2, "exactly one argument"},
	}
	for _, tt := range tests {
		_, _, err := runArgs(t, tt.args...)
		if err == nil {
			t.Errorf("%v: no error", tt.args)
			continue
		}
		if exitCode(err) != tt.code || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: %v (exit %d), want exit %d mentioning %q", tt.args, err, exitCode(err), tt.code, tt.want)
		}
	}
}
