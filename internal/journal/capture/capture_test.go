package capture_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/journal/capture"
)

const example = `#capture v1
#port board dgt
#port clock lineclock
#meta board=12
#meta white=Carlsen, Magnus
#meta timecontrol=40/5400+30:1800+30
#meta clock-white=auto
0.000000 board w 4b
0.012480 board r 8e00050c00

# a comment
0.013511 board r 8e
0.013640 board r 00051401
#meta timecontrol=40/7200+30
1.500000 clock r 01
`

func TestReadExample(t *testing.T) {
	r := capture.NewReader(strings.NewReader(example))
	var kinds []capture.Kind
	var lines []int
	var data []capture.Record
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		kinds = append(kinds, rec.Kind)
		lines = append(lines, rec.Line)
		if rec.Kind == capture.KindData {
			data = append(data, rec)
		}
	}
	wantLines := []int{2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15}
	if !reflect.DeepEqual(lines, wantLines) {
		t.Errorf("lines %v, want %v", lines, wantLines)
	}
	if kinds[0] != capture.KindPort || kinds[2] != capture.KindMeta || kinds[8] != capture.KindComment {
		t.Errorf("kinds %v", kinds)
	}
	want := []capture.Record{
		{Line: 8, Kind: capture.KindData, Port: "board", At: 0, Dir: capture.Write, Data: []byte{0x4b}},
		{Line: 9, Kind: capture.KindData, Port: "board", At: 12480 * time.Microsecond, Dir: capture.Read, Data: []byte{0x8e, 0, 5, 0x0c, 0}},
		{Line: 12, Kind: capture.KindData, Port: "board", At: 13511 * time.Microsecond, Dir: capture.Read, Data: []byte{0x8e}},
		{Line: 13, Kind: capture.KindData, Port: "board", At: 13640 * time.Microsecond, Dir: capture.Read, Data: []byte{0, 5, 0x14, 1}},
		{Line: 15, Kind: capture.KindData, Port: "clock", At: 1500 * time.Millisecond, Dir: capture.Read, Data: []byte{1}},
	}
	if !reflect.DeepEqual(data, want) {
		t.Errorf("data records\n%+v\nwant\n%+v", data, want)
	}
	meta := r.Meta()
	if meta["timecontrol"] != "40/7200+30" || meta["white"] != "Carlsen, Magnus" || meta["board"] != "12" {
		t.Errorf("meta %v", meta)
	}
	if d, ok := r.Driver("clock"); !ok || d != "lineclock" {
		t.Errorf("clock driver %q %v", d, ok)
	}
}

func TestReaderErrors(t *testing.T) {
	head := "#capture v1\n#port board dgt\n"
	tests := []struct {
		name  string
		input string
		line  int
		want  string
	}{
		{"empty file", "", 1, "empty"},
		{"not a capture", "hello\n", 1, "not a capture"},
		{"version 2", "#capture v2\n", 1, "not a capture"},
		{"pgn", "[Event \"x\"]\n", 1, "not a capture"},
		{"binary", "\x00\x01\x02", 1, "not a capture"},
		{"five decimals", head + "0.00000 board r 00\n", 3, "exactly 6 digits"},
		{"no point", head + "12 board r 00\n", 3, "no decimal point"},
		{"sign", head + "-1.000000 board r 00\n", 3, "not a decimal"},
		{"time goes back", head + "2.000000 board r 00\n1.999999 board r 00\n", 4, "goes back"},
		{"undeclared port", head + "0.000000 clock r 00\n", 3, "not declared"},
		{"bad dir", head + "0.000000 board x 00\n", 3, "direction"},
		{"odd hex", head + "0.000000 board r 0\n", 3, "odd number"},
		{"upper-case hex", head + "0.000000 board r 8E\n", 3, "lower-case hex"},
		{"no bytes", head + "0.000000 board r \n", 3, "at least one byte"},
		{"three fields", head + "0.000000 board r\n", 3, "got 3 fields"},
		{"double space", head + "0.000000  board r 00\n", 3, "single spaces"},
		{"port redeclared", head + "#port board lineclock\n", 3, "declared again"},
		{"port one field", "#capture v1\n#port board\n", 2, "NAME DRIVER"},
		{"port bad name", "#capture v1\n#port Board dgt\n", 2, "not a port name"},
		{"meta no equals", head + "#meta white\n", 3, "KEY=VALUE"},
		{"meta bad key", head + "#meta White=x\n", 3, "not a key"},
		{"clock-white value", head + "#meta clock-white=north\n", 3, "left, right or auto"},
		{"rules value", head + "#meta rules=armageddon\n", 3, "standard, rapid or blitz"},
		{"garbage line", head + "hello world\n", 3, "data line"},
		{"too long", head + "0.000000 board r " + strings.Repeat("00", capture.MaxLine) + "\n", 3, "longer than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := capture.ReadAll(strings.NewReader(tt.input))
			var le *capture.LineError
			if !errors.As(err, &le) {
				t.Fatalf("error %v is not a *LineError", err)
			}
			if le.Line != tt.line {
				t.Errorf("line %d, want %d (%v)", le.Line, tt.line, err)
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), fmt.Sprintf("line %d", tt.line)) {
				t.Errorf("error %q does not say %q at line %d", err, tt.want, tt.line)
			}
			if (tt.line == 1) != errors.Is(err, capture.ErrNotCapture) {
				t.Errorf("ErrNotCapture mismatch: %v", err)
			}
		})
	}
}

func TestReaderAcceptsCRLFAndBlankLines(t *testing.T) {
	recs, err := capture.ReadAll(strings.NewReader("#capture v1\r\n\r\n#port board dgt\r\n0.100000 board r 0a\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || recs[1].Line != 4 || !bytes.Equal(recs[1].Data, []byte{0x0a}) {
		t.Fatalf("%+v", recs)
	}
}

// syncBuffer is an in-memory file that counts syncs.
type syncBuffer struct {
	bytes.Buffer
	syncs int
}

func (s *syncBuffer) Sync() error { s.syncs++; return nil }

func TestWriterRoundTrip(t *testing.T) {
	var buf syncBuffer
	w, err := capture.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(w.Port("board", "dgt"))
	must(w.Port("board", "dgt")) // same declaration again: no-op
	must(w.Meta("white", "Carlsen, Magnus"))
	must(w.Comment(" started by a test"))
	must(w.Data(0, "board", capture.Write, []byte{0x4b}))
	lenBefore := buf.Len()
	must(w.Data(12480*time.Microsecond+999, "board", capture.Read, []byte{0x8e, 0x00, 0x05, 0x0c, 0x00}))
	if buf.Len() == lenBefore {
		t.Fatal("Data did not flush its line before returning")
	}
	must(w.Data(5*time.Millisecond, "board", capture.Read, []byte{0x01})) // earlier: written at the last time
	must(w.Data(time.Second, "board", capture.Read, nil))                 // nothing
	want := "#capture v1\n#port board dgt\n#meta white=Carlsen, Magnus\n# started by a test\n" +
		"0.000000 board w 4b\n0.012480 board r 8e00050c00\n0.012480 board r 01\n"
	if buf.String() != want {
		t.Fatalf("capture:\n%s\nwant:\n%s", buf.String(), want)
	}
	recs, err := capture.ReadAll(strings.NewReader(buf.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 6 || recs[5].At != 12480*time.Microsecond {
		t.Fatalf("read back %+v", recs)
	}
}

func TestWriterErrors(t *testing.T) {
	w, err := capture.NewWriter(io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	w.Port("board", "dgt")
	for name, err := range map[string]error{
		"undeclared port": w.Data(0, "clock", capture.Read, []byte{1}),
		"bad dir":         w.Data(0, "board", 'x', []byte{1}),
		"bad port name":   w.Port("Board 2", "dgt"),
		"redeclare":       w.Port("board", "lineclock"),
		"bad meta":        w.Meta("clock-white", "up"),
		"meta newline":    w.Meta("white", "a\nb"),
		"comment newline": w.Comment("a\nb"),
		"comment as port": w.Comment("port x dgt"),
		// read back as a malformed marker, it would stop every reader of
		// the capture
		"comment as marker":  w.Comment(" session notes"),
		"comment as arbiter": w.Comment("arbiter said so"),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := capture.NewWriter(failWriter{}); err == nil {
		t.Error("NewWriter on a failing writer: no error")
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriterSyncs(t *testing.T) {
	var buf syncBuffer
	w, _ := capture.NewWriter(&buf)
	w.Port("board", "dgt")
	for ms := 0; ms <= 3000; ms += 100 {
		if err := w.Data(time.Duration(ms)*time.Millisecond, "board", capture.Read, []byte{1}); err != nil {
			t.Fatal(err)
		}
	}
	// Syncs at 1.0, 2.0 and 3.0 s of capture time.
	if buf.syncs != 3 {
		t.Errorf("%d syncs over 3 s of data, want 3", buf.syncs)
	}
	if err := w.Sync(); err != nil || buf.syncs != 4 {
		t.Errorf("Sync: %v, %d syncs", err, buf.syncs)
	}
}

func TestWriterConcurrent(t *testing.T) {
	var buf bytes.Buffer
	w, _ := capture.NewWriter(&buf)
	w.Port("board", "dgt")
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				w.Data(time.Duration(i)*time.Millisecond, "board", capture.Read, []byte{byte(g)})
			}
		}()
	}
	wg.Wait()
	recs, err := capture.ReadAll(&buf)
	if err != nil {
		t.Fatal(err) // would fail if times went back or lines interleaved
	}
	if len(recs) != 801 {
		t.Errorf("%d records, want 801", len(recs))
	}
}

func TestSeconds(t *testing.T) {
	for _, tt := range []struct {
		d time.Duration
		s string
	}{{0, "0.000000"}, {time.Microsecond, "0.000001"}, {5388010020 * time.Microsecond, "5388.010020"}, {-time.Second, "0.000000"}} {
		if got := capture.FormatSeconds(tt.d); got != tt.s {
			t.Errorf("FormatSeconds(%v) = %s, want %s", tt.d, got, tt.s)
		}
		if tt.d >= 0 {
			if d, err := capture.ParseSeconds(tt.s); err != nil || d != tt.d {
				t.Errorf("ParseSeconds(%s) = %v, %v", tt.s, d, err)
			}
		}
	}
}

// FuzzReader: the reader never panics, and whatever it accepts survives a
// round trip through the Writer unchanged.
func FuzzReader(f *testing.F) {
	f.Add(example)
	f.Add("#capture v1\n#port a dgt\n0.000000 a r 00\n")
	f.Add("#capture v1\n#meta rules=blitz\n#x\n")
	f.Add("#capture v1\n#port board dgt\n#session 1.000000 board connected\n# arbiter 2.000000 decide 3 accepted\n#arbiter 2.5 claim white\n")
	f.Fuzz(func(t *testing.T, input string) {
		recs, err := capture.ReadAll(strings.NewReader(input))
		if err != nil {
			var le *capture.LineError
			if !errors.As(err, &le) || le.Line < 1 {
				t.Fatalf("error without a line: %v", err)
			}
			return
		}
		// The Writer declares a port once; drop repeated identical
		// declarations before comparing.
		declared := map[string]bool{}
		kept := recs[:0]
		for _, r := range recs {
			if r.Kind == capture.KindPort {
				if declared[r.Port] {
					continue
				}
				declared[r.Port] = true
			}
			kept = append(kept, r)
		}
		recs = kept
		var buf bytes.Buffer
		w, _ := capture.NewWriter(&buf)
		for _, r := range recs {
			var err error
			switch r.Kind {
			case capture.KindPort:
				err = w.Port(r.Port, r.Driver)
			case capture.KindMeta:
				err = w.Meta(r.Key, r.Value)
			case capture.KindComment:
				err = w.Comment(r.Text)
			case capture.KindData:
				err = w.Data(r.At, r.Port, r.Dir, r.Data)
			case capture.KindSession, capture.KindArbiter:
				err = w.Marker(r)
			}
			if err != nil {
				t.Fatalf("writing back %+v: %v", r, err)
			}
		}
		again, err := capture.ReadAll(&buf)
		if err != nil {
			t.Fatalf("reading back: %v\n%s", err, buf.String())
		}
		if len(again) != len(recs) {
			t.Fatalf("%d records, then %d", len(recs), len(again))
		}
		for i := range recs {
			a, b := recs[i], again[i]
			a.Line, b.Line = 0, 0
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("record %d: %+v, then %+v", i, a, b)
			}
		}
	})
}

func TestStartedAndDate(t *testing.T) {
	for v, want := range map[string]string{
		"2026-12-01T18:30:19+01:00": "2026.12.01",
		"2026-12-01T23:59:59-05:00": "2026.12.01", // the date where it was played, not in UTC
		"2026-12-01T00:10:00Z":      "2026.12.01",
		"":                          "",
		"yesterday":                 "",
	} {
		if got := capture.Date(v); got != want {
			t.Errorf("Date(%q) = %q, want %q", v, got, want)
		}
	}
	if _, err := capture.Started("yesterday"); err == nil || !strings.Contains(err.Error(), "started") {
		t.Errorf("Started(yesterday): %v", err)
	}
}
