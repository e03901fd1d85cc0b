package capture

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"time"
)

// Create creates a new capture file at path (it must not exist yet) and
// returns a Writer that owns it: Close syncs and closes the file.
func Create(path string) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, fmt.Errorf("capture: %w", err)
	}
	w, err := NewWriter(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	w.closer = f
	return w, nil
}

// Append reopens the capture at path to continue it after a restart (the
// daemon replays it, then carries on). The file is read strictly first:
// its ports stay declared and new times continue from its last time. A
// partial last line — what a crash in the middle of a write leaves — is
// cut off and noted in a comment. Any other error leaves the file as it
// is.
func Append(path string) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("capture: %w", err)
	}
	w, err := appendTo(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("capture %s: %w", path, err)
	}
	return w, nil
}

func appendTo(f *os.File) (*Writer, error) {
	raw, err := io.ReadAll(f)
	if err != nil {
		return nil, err
	}
	keep, dropped := raw, 0
	if i := bytes.LastIndexByte(raw, '\n'); i+1 < len(raw) {
		keep, dropped = raw[:i+1], len(raw)-(i+1)
	}
	r := NewReader(bytes.NewReader(keep))
	if err := r.Each(func(Record) error { return nil }); err != nil {
		return nil, err
	}
	if dropped > 0 {
		if err := f.Truncate(int64(len(keep))); err != nil {
			return nil, err
		}
	}
	if _, err := f.Seek(int64(len(keep)), io.SeekStart); err != nil {
		return nil, err
	}
	w := &Writer{ports: r.Ports(), last: r.last, lastSync: r.last, closer: f, sync: f.Sync}
	w.bw = newBufWriter(f)
	if dropped > 0 {
		if err := w.Comment(fmt.Sprintf("arbiterd: dropped a partial last line of %d bytes on reopening", dropped)); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// Close syncs the capture and, for a Writer made by Create or Append,
// closes the file.
func (w *Writer) Close() error {
	err := w.Sync()
	if w.closer != nil {
		if cerr := w.closer.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("capture: %w", cerr)
		}
	}
	return err
}

// RunSync syncs the capture every interval (at most SyncEvery apart is
// the promise) while data was written since the last sync, until ctx is
// done. It is the runner the daemon starts next to its ports, so that a
// quiet capture reaches the disk within a second too.
func (w *Writer) RunSync(ctx context.Context, interval time.Duration) error {
	if interval <= 0 {
		interval = SyncEvery
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
			w.mu.Lock()
			dirty := w.dirty
			w.mu.Unlock()
			if dirty {
				if err := w.Sync(); err != nil {
					return err
				}
			}
		}
	}
}
