package serve

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestJournalFailureIsLoud: a capture that cannot be written raises an
// alert on the board and counts in the metrics, once per failure spell.
func TestJournalFailureIsLoud(t *testing.T) {
	d, err := New(Options{Config: testConfig(t.TempDir(), "/dev/nonexistent-board"), Mounts: []Mount{}, Runners: []Runner{}})
	if err != nil {
		t.Fatal(err)
	}
	b := d.boards[0]
	defer b.close()
	full := &os.PathError{Op: "write", Path: "board-1.capture", Err: syscall.ENOSPC}
	b.journalFailed(full)
	b.journalFailed(full)
	st, err := d.Hub().Board("1")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, a := range st.Alerts {
		if a.Kind == KindJournal {
			n++
			if !strings.Contains(a.Text, "no space left") {
				t.Errorf("alert text %q does not say why", a.Text)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d journal alerts, want 1: %+v", n, st.Alerts)
	}
	if got := counter(t, d, "arbiterd_journal_errors_total"); got != 2 {
		t.Errorf("journal errors metric %v, want 2", got)
	}
}

// TestRecoverBadCapture: a capture that does not read back stops the
// daemon with an error naming the file and the line; it is never
// overwritten.
func TestRecoverBadCapture(t *testing.T) {
	data := t.TempDir()
	c := testConfig(data, "/dev/nonexistent-board")
	d, err := New(Options{Config: c, Mounts: []Mount{}, Runners: []Runner{}})
	if err != nil {
		t.Fatal(err)
	}
	d.boards[0].close()
	path := capturePath(d.Dir(), "1")
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("12.5 board r zz\n1.0 board r 00\n")
	f.Close()
	before, _ := os.ReadFile(path)
	_, err = New(Options{Config: c, Mounts: []Mount{}, Runners: []Runner{}})
	if err == nil {
		t.Fatal("a broken capture was accepted")
	}
	if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "line") {
		t.Errorf("error %q does not name the file and line", err)
	}
	after, _ := os.ReadFile(path)
	if string(before) != string(after) {
		t.Error("the broken capture was changed")
	}
}

// TestNewErrors: the daemon refuses what it cannot run, saying why.
func TestNewErrors(t *testing.T) {
	if _, err := New(Options{}); err == nil {
		t.Error("no configuration accepted")
	}
	c := testConfig(t.TempDir(), "/dev/a")
	c.Boards[0].TimeControl = "forty moves"
	if _, err := New(Options{Config: c}); err == nil || !strings.Contains(err.Error(), "boards[0].timecontrol") {
		t.Errorf("bad time control: %v", err)
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	c = testConfig(filepath.Join(file, "data"), "/dev/a") // the data directory under a file
	if _, err := New(Options{Config: c}); err == nil || !errors.Is(err, syscall.ENOTDIR) {
		t.Errorf("data directory under a file: %v", err)
	}
}

// counter reads a counter's total over all its labels.
func counter(t *testing.T, d *Daemon, name string) float64 {
	t.Helper()
	mfs, err := d.m.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, mf := range mfs {
		if mf.GetName() == name {
			for _, m := range mf.GetMetric() {
				sum += m.GetCounter().GetValue()
			}
		}
	}
	return sum
}
