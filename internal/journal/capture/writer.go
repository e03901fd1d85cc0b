package capture

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// SyncEvery is how much capture time may pass between two syncs to disk
// while data keeps arriving.
const SyncEvery = time.Second

// Writer writes a capture. It is safe for concurrent use: a port's reader
// and writer goroutines may log into the same capture.
type Writer struct {
	mu       sync.Mutex
	bw       *bufio.Writer
	sync     func() error // the file's Sync, if it has one
	ports    map[string]string
	last     time.Duration
	lastSync time.Duration
	hexbuf   []byte
	err      error
	dirty    bool      // written since the last sync
	closer   io.Closer // the file, when the Writer owns it
}

func newBufWriter(w io.Writer) *bufio.Writer { return bufio.NewWriterSize(w, 8192) }

// NewWriter writes the capture header to w and returns a Writer. If w has a
// Sync() error method (an *os.File does), Sync calls it.
func NewWriter(w io.Writer) (*Writer, error) {
	cw := &Writer{bw: newBufWriter(w), ports: map[string]string{}}
	if s, ok := w.(interface{ Sync() error }); ok {
		cw.sync = s.Sync
	}
	cw.bw.WriteString(Header + "\n")
	if err := cw.bw.Flush(); err != nil {
		return nil, fmt.Errorf("capture: writing header: %w", err)
	}
	return cw, nil
}

// Port declares a port. Declaring the same name again with the same driver
// is a no-op.
func (w *Writer) Port(name, driver string) error {
	if !validName(name) {
		return fmt.Errorf("capture: %q is not a port name (a short lower-case word)", name)
	}
	if !validName(driver) {
		return fmt.Errorf("capture: port %s: %q is not a driver name", name, driver)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if old, ok := w.ports[name]; ok {
		if old != driver {
			return fmt.Errorf("capture: port %s already declared with driver %s", name, old)
		}
		return nil
	}
	w.ports[name] = driver
	return w.line("#port " + name + " " + driver)
}

// Meta records a game setting (see the Meta* keys).
func (w *Writer) Meta(key, value string) error {
	if !validKey(key) {
		return fmt.Errorf("capture: %q is not a meta key", key)
	}
	if err := checkMetaValue(key, value); err != nil {
		return fmt.Errorf("capture: %w", err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.line("#meta " + key + "=" + value)
}

// Comment writes a comment line; a line break in text is an error, and so
// is a text the reader would take for another record: a #port or #meta line,
// or a marker ("session …", "arbiter …", which Marker writes), since a
// comment that read back as a malformed marker would make the whole capture
// unreadable.
func (w *Writer) Comment(text string) error {
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' || text[i] == '\r' {
			return fmt.Errorf("capture: comment contains a line break")
		}
	}
	if w, _, _ := strings.Cut(text, " "); w == "port" || w == "meta" {
		return fmt.Errorf("capture: a comment starting with %q would read as a #%s line", w, w)
	}
	if _, marker, _ := parseMarker(text); marker {
		return fmt.Errorf("capture: comment %q would read as a marker", clip(text))
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.line("#" + text)
}

func (w *Writer) line(s string) error {
	if w.err != nil {
		return w.err
	}
	w.bw.WriteString(s)
	w.bw.WriteByte('\n')
	w.dirty = true
	if err := w.bw.Flush(); err != nil {
		w.err = fmt.Errorf("capture: %w", err)
	}
	return w.err
}

// Data records the bytes p of one read or write call on port at time at
// (since the capture started) and flushes them to the file before
// returning, so that a caller acts on bytes only once they are recorded. A
// time earlier than the last one recorded is written as the last one
// (capture times never decrease). When SyncEvery has passed since the last
// sync, Data also syncs the file to disk. Empty p records nothing.
func (w *Writer) Data(at time.Duration, port string, dir Dir, p []byte) error {
	_, err := w.Record(at, port, dir, p)
	return err
}

// Record is Data returning the time the line was recorded with: at cut to
// the capture's microseconds, or the last time written if at was earlier.
// A live driver stamps what it derives from the bytes with this time, so a
// replay of the capture reproduces it exactly.
func (w *Writer) Record(at time.Duration, port string, dir Dir, p []byte) (time.Duration, error) {
	at = at.Truncate(time.Microsecond)
	if at < 0 {
		at = 0
	}
	if len(p) == 0 {
		return at, nil
	}
	if dir != Read && dir != Write {
		return at, fmt.Errorf("capture: direction %q: want r or w", rune(dir))
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return at, w.err
	}
	if _, ok := w.ports[port]; !ok {
		return at, fmt.Errorf("capture: port %q was not declared", port)
	}
	if at < w.last {
		at = w.last
	}
	w.last = at
	w.hexbuf = hex.AppendEncode(w.hexbuf[:0], p)
	w.bw.WriteString(FormatSeconds(at))
	w.bw.WriteByte(' ')
	w.bw.WriteString(port)
	w.bw.WriteByte(' ')
	w.bw.WriteByte(byte(dir))
	w.bw.WriteByte(' ')
	w.bw.Write(w.hexbuf)
	w.bw.WriteByte('\n')
	w.dirty = true
	if err := w.bw.Flush(); err != nil {
		w.err = fmt.Errorf("capture: %w", err)
		return at, w.err
	}
	if at-w.lastSync >= SyncEvery {
		return at, w.syncLocked()
	}
	return at, nil
}

// Sync flushes and syncs the capture to disk. The daemon calls it at every
// completed move and flag, and from a ticker while the ports are quiet.
func (w *Writer) Sync() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.syncLocked()
}

func (w *Writer) syncLocked() error {
	if w.err != nil {
		return w.err
	}
	if err := w.bw.Flush(); err != nil {
		w.err = fmt.Errorf("capture: %w", err)
		return w.err
	}
	w.lastSync = w.last
	w.dirty = false
	if w.sync != nil {
		if err := w.sync(); err != nil {
			return fmt.Errorf("capture: sync: %w", err)
		}
	}
	return nil
}

// Last returns the time of the last data line written.
func (w *Writer) Last() time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.last
}
