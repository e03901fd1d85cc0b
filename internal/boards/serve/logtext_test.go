package serve

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// Paths in the text log read as written, whatever quoting they need; an
// escaped quote or line break stays escaped, and a line without
// backslashes is slog's own.
func TestTextLogPathsAsWritten(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(NewTextHandler(&buf, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}}))
	log.Info("new game", "capture", `C:\arbiterd data\club\round-1\board-1.capture`, "port", `\\.\COM12`, "plain", `C:\arbiterd\data`)
	log.Warn(`the PGN of "board 2"`, "err", "line one\nline two", "path", `D:\x "y"`)
	log.Info("no backslash", "event", "Open de Genève")
	want := strings.Join([]string{
		`level=INFO msg="new game" capture="C:\arbiterd data\club\round-1\board-1.capture" port=\\.\COM12 plain=C:\arbiterd\data`,
		`level=WARN msg="the PGN of \"board 2\"" err="line one\nline two" path="D:\x \"y\""`,
		`level=INFO msg="no backslash" event="Open de Genève"`,
	}, "\n") + "\n"
	if got := buf.String(); got != want {
		t.Errorf("log:\n%s\nwant\n%s", got, want)
	}
}
