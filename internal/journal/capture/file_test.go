package capture_test

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/arbiterd/arbiterd/internal/journal/capture"
)

func TestCreateAndAppend(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board12.capture")
	w, err := capture.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w.Port("board", "dgt")
	w.Data(2*time.Second, "board", capture.Read, []byte{0x8e, 0x00})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := capture.Create(path); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("Create over an existing capture: %v", err)
	}
	// A crash in the middle of a line.
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("2.500000 board r 05")
	f.Close()

	w, err = capture.Append(path)
	if err != nil {
		t.Fatal(err)
	}
	// The port is still declared; a time before the last one is clamped.
	if err := w.Data(time.Second, "board", capture.Read, []byte{0x05, 0x01, 0x02}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(path)
	want := "#capture v1\n#port board dgt\n2.000000 board r 8e00\n" +
		"#arbiterd: dropped a partial last line of 19 bytes on reopening\n2.000000 board r 050102\n"
	if string(raw) != want {
		t.Fatalf("after append:\n%s\nwant:\n%s", raw, want)
	}
	if _, err := capture.ReadAll(bytes.NewReader(raw)); err != nil {
		t.Fatal(err)
	}
}

func TestAppendRefusesBadCapture(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.capture")
	content := "#capture v1\n#port board dgt\n1.0 board r 00\n"
	os.WriteFile(bad, []byte(content), 0o644)
	_, err := capture.Append(bad)
	var le *capture.LineError
	if !errors.As(err, &le) || le.Line != 3 || !strings.Contains(err.Error(), bad) {
		t.Fatalf("Append(bad) = %v", err)
	}
	if raw, _ := os.ReadFile(bad); string(raw) != content {
		t.Fatal("a refused capture was changed")
	}
	if _, err := capture.Append(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Append(missing) = %v", err)
	}
	other := filepath.Join(dir, "notes.txt")
	os.WriteFile(other, []byte("shopping list\n"), 0o644)
	if _, err := capture.Append(other); !errors.Is(err, capture.ErrNotCapture) {
		t.Fatalf("Append(not a capture) = %v", err)
	}
}

func TestRunSyncSyncsOnlyWhenWritten(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var buf syncBuffer
		w, _ := capture.NewWriter(&buf)
		w.Port("board", "dgt")
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- w.RunSync(ctx, time.Second) }()
		time.Sleep(1500 * time.Millisecond) // header and port written: one sync
		synctest.Wait()
		if buf.syncs != 1 {
			t.Errorf("%d syncs after the header, want 1", buf.syncs)
		}
		time.Sleep(3 * time.Second) // nothing written: no sync
		synctest.Wait()
		if buf.syncs != 1 {
			t.Errorf("%d syncs while idle, want 1", buf.syncs)
		}
		w.Data(0, "board", capture.Read, []byte{1})
		time.Sleep(time.Second)
		synctest.Wait()
		if buf.syncs != 2 {
			t.Errorf("%d syncs after new data, want 2", buf.syncs)
		}
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("RunSync: %v", err)
		}
	})
}
