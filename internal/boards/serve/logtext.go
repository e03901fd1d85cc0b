package serve

import (
	"bytes"
	"io"
	"log/slog"
	"sync"
)

// NewTextHandler is the daemon's text log format: slog's text handler,
// with paths shown as written. slog quotes a value with a space in it the
// way Go source does, doubling every backslash, so a Windows path read
// C:\\arbiterd data\\club\\… and could not be pasted back; here a doubled
// backslash inside a quoted value is written once
// (capture="C:\arbiterd data\club\round-1\board-1.capture"). An escaped
// quote or control character stays escaped (\", \n).
func NewTextHandler(w io.Writer, opts *slog.HandlerOptions) slog.Handler {
	return slog.NewTextHandler(&asWritten{w: w}, opts)
}

// asWritten undoubles the backslashes of the quoted values in each log
// line written through it (slog writes a record in one Write).
type asWritten struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
}

func (a *asWritten) Write(p []byte) (int, error) {
	if !bytes.Contains(p, []byte(`\\`)) {
		return a.w.Write(p)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.buf = undouble(a.buf[:0], p)
	if _, err := a.w.Write(a.buf); err != nil {
		return 0, err
	}
	return len(p), nil
}

// undouble appends line to dst with every \\ inside double quotes written
// as \.
func undouble(dst, line []byte) []byte {
	quoted := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '"':
			quoted = !quoted
		case c == '\\' && quoted && i+1 < len(line):
			if line[i+1] == '\\' {
				dst = append(dst, '\\')
			} else {
				dst = append(dst, c, line[i+1])
			}
			i++
			continue
		}
		dst = append(dst, c)
	}
	return dst
}
