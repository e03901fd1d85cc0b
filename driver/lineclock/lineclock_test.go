package lineclock

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
)

// sum appends "*HH" to body, the checksum computed here independently.
func sum(body string) string {
	var x byte
	for i := 0; i < len(body); i++ {
		x ^= body[i]
	}
	return fmt.Sprintf("%s*%02X", body, x)
}

func msec(n int64) time.Duration { return time.Duration(n) * time.Millisecond }

func TestDecode(t *testing.T) {
	tests := []struct {
		body string
		want Message
	}{
		{"HELLO lineclock 1 LC-2 00A17", Hello{Version: 1, Model: "LC-2", Serial: "00A17"}},
		{"STATUS 17 5391000 5400000 L R - I -", Status{Seq: 17, Left: msec(5391000), Right: msec(5400000), Turn: TurnLeft, Running: true, RightFlags: FaceFlags{PerMove: true}}},
		{"STATUS 0 0 1 - S F SI B", Status{Seq: 0, Left: 0, Right: msec(1), Turn: TurnNone, LeftFlags: FaceFlags{Fallen: true}, RightFlags: FaceFlags{Shown: true, PerMove: true}, BatteryLow: true}},
		{"STATUS 9999 359999999 2 R S IFS - -", Status{Seq: 9999, Left: MaxTime, Right: msec(2), Turn: TurnRight, LeftFlags: FaceFlags{true, true, true}}},
		{"PRESS 18 L 5421000 5400000", Press{Seq: 18, Face: clockd.Left, Left: msec(5421000), Right: msec(5400000)}},
		{"FLAG 3 R 12 0", Flag{Seq: 3, Face: clockd.Right, Left: msec(12), Right: 0}},
	}
	for _, tt := range tests {
		line := sum(tt.body)
		got, err := Decode([]byte(line))
		if err != nil {
			t.Errorf("%s: %v", line, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: %#v, want %#v", line, got, tt.want)
		}
		enc, err := Encode(got)
		if err != nil {
			t.Errorf("%s: encode: %v", line, err)
			continue
		}
		again, err := Decode(bytes.TrimSuffix(enc, []byte("\n")))
		if err != nil || !reflect.DeepEqual(again, got) {
			t.Errorf("%s: re-encoded %q decodes to %v, %v", line, enc, again, err)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		line   string
		column int
		err    error
		msg    string
	}{
		{sum("STATUS 1 1000 1000 L R - - -")[:28] + "*00", 30, ErrChecksum, "checksum"},
		{"STATUS 1 1000 1000 L R - - -", 29, ErrSyntax, "missing checksum"},
		{"STATUS 1 1000 1000 L R - - -*4", 29, ErrSyntax, "exactly two"},
		{"STATUS 1 1000 1000 L R - - -*4g", 30, ErrSyntax, "upper-case hex"},
		{sum("BLINK 1"), 1, ErrUnknown, "unknown line type"},
		{sum("status 1 1000 1000 L R - - -"), 1, ErrUnknown, "unknown line type"},
		{sum("STATUS 1 1000 1000 L R - -"), 27, ErrSyntax, "missing device flags"},
		{sum("STATUS 1 1000 1000 L R - - - x"), 29, ErrSyntax, "unexpected text"},
		{sum("STATUS 1  1000 1000 L R - - -"), 10, ErrSyntax, "empty left time"},
		{sum("STATUS 01 1000 1000 L R - - -"), 8, ErrSyntax, "leading zero"},
		{sum("STATUS 1 10a0 1000 L R - - -"), 12, ErrSyntax, "decimal digits"},
		{sum("STATUS 1 -5 1000 L R - - -"), 10, ErrSyntax, "decimal digits"},
		{sum("STATUS 1 360000000 1000 L R - - -"), 10, ErrSyntax, "larger than"},
		{sum("STATUS 10000 1 1 L R - - -"), 8, ErrSyntax, "larger than"},
		{sum("STATUS 1 1000 1000 X R - - -"), 20, ErrSyntax, "turn must be"},
		{sum("STATUS 1 1000 1000 L Q - - -"), 22, ErrSyntax, "run state"},
		{sum("STATUS 1 1000 1000 L R FX - -"), 25, ErrSyntax, "not one of"},
		{sum("STATUS 1 1000 1000 L R FF - -"), 25, ErrSyntax, "appears twice"},
		{sum("STATUS 1 1000 1000 L R - - Z"), 28, ErrSyntax, "not one of"},
		{sum("STATUS 1 1000 1000 - R - - -"), 28, ErrSyntax, "whose turn"},
		{sum("PRESS 1 X 1 1"), 9, ErrSyntax, "face must be"},
		{sum("PRESS 1 L 1"), 12, ErrSyntax, "missing right time"},
		{sum("HELLO lineclock x A B"), 17, ErrSyntax, "decimal digits"},
		{sum("HELLO linedock 1 A B"), 7, ErrSyntax, "must be \"lineclock\""},
		{sum("HELLO lineclock 1 A/B C"), 20, ErrSyntax, "only letters"},
		{sum("FLAG 1 L 1 1\x01"), 13, ErrSyntax, "not printable"},
		{sum(strings.Repeat("A", MaxLine)), MaxLine + 1, ErrTooLong, "at most"},
	}
	for _, tt := range tests {
		_, err := Decode([]byte(tt.line))
		var le *LineError
		if !errors.As(err, &le) {
			t.Errorf("%q: %v, want *LineError", tt.line, err)
			continue
		}
		if le.Column != tt.column || !errors.Is(err, tt.err) || !strings.Contains(le.Msg, tt.msg) {
			t.Errorf("%q: column %d %v %q; want column %d %v containing %q", tt.line, le.Column, le.Err, le.Msg, tt.column, tt.err, tt.msg)
		}
	}
}

func TestEncodeRejects(t *testing.T) {
	for _, m := range []Message{
		Status{Seq: -1}, Status{Seq: MaxSeq + 1}, Status{Left: -1}, Status{Right: MaxTime + time.Millisecond},
		Status{Running: true}, Status{Turn: 7}, Press{Face: 3}, Flag{Seq: 1, Left: -time.Second},
		Hello{Version: 1, Model: "a b", Serial: "x"}, Hello{Version: 1, Model: "", Serial: "x"}, Hello{Version: 100, Model: "a", Serial: "b"},
	} {
		if b, err := Encode(m); err == nil {
			t.Errorf("%#v encoded as %q", m, b)
		}
	}
}

// stream is a small recording: a hello, statuses, presses, a flag, with a
// corrupt line, an over-long line, CRLF endings and a lost sequence number.
func stream() (data []byte, good int) {
	var b bytes.Buffer
	lines := []string{
		sum("HELLO lineclock 1 LC-2 0017"),
		sum("STATUS 1 300000 300000 - S - - -"),
		sum("STATUS 2 300000 300000 L R - - -"),
		sum("PRESS 3 L 297500 300000") + "\r",
		sum("STATUS 4 297500 299000 R R - - -")[:10] + "X" + sum("STATUS 4 297500 299000 R R - - -")[11:],
		strings.Repeat("Z", 300),
		sum("STATUS 6 297500 298000 R R - - -"),
		sum("FLAG 7 R 297500 0"),
	}
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	b.WriteString(sum("STATUS 8 297500 0 R R - F -")) // no LF at the end
	return b.Bytes(), 7
}

func TestDecoderSplitReads(t *testing.T) {
	data, good := stream()
	whole := NewDecoder()
	want := append(whole.Feed(data), whole.Flush()...)
	if len(want) != good {
		t.Fatalf("%d messages, want %d: %v (last error %v)", len(want), good, want, whole.LastError())
	}
	st := whole.Stats()
	// Lines: 8 terminated + the 300-byte line splits into 3 tokens + 1 at EOF.
	if st.Bad != 4 || st.Messages != good || st.Gaps != 1 {
		t.Errorf("stats %+v", st)
	}
	var le *LineError
	if !errors.As(whole.LastError(), &le) || le.Line == 0 {
		t.Errorf("last error %v does not name its line", whole.LastError())
	}
	for name, r := range map[string]io.Reader{
		"one byte": iotest.OneByteReader(bytes.NewReader(data)),
		"half":     iotest.HalfReader(bytes.NewReader(data)),
		"data+err": iotest.DataErrReader(bytes.NewReader(data)),
	} {
		rd := NewReader(r)
		var got []Message
		for {
			m, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			got = append(got, m)
		}
		if !reflect.DeepEqual(got, want) || rd.Stats() != st {
			t.Errorf("%s: %v %+v\nwant %v %+v", name, got, rd.Stats(), want, st)
		}
	}
	// Byte by byte into a Decoder.
	d := NewDecoder()
	var got []Message
	for i := range data {
		got = append(got, d.Feed(data[i:i+1])...)
	}
	got = append(got, d.Flush()...)
	if !reflect.DeepEqual(got, want) || d.Stats() != st {
		t.Errorf("byte by byte: %v %+v", got, d.Stats())
	}
}

func TestReaderError(t *testing.T) {
	boom := errors.New("unplugged")
	rd := NewReader(iotest.TimeoutReader(io.MultiReader(strings.NewReader(sum("FLAG 1 L 0 5")+"\n"), iotest.ErrReader(boom))))
	if m, err := rd.Next(); err != nil || m.(Flag).Right != 5*time.Millisecond {
		t.Fatalf("%v %v", m, err)
	}
	if _, err := rd.Next(); err == nil || err == io.EOF {
		t.Fatalf("read error lost: %v", err)
	}
}

func FuzzDecode(f *testing.F) {
	data, _ := stream()
	for _, l := range bytes.Split(data, []byte("\n")) {
		f.Add(l)
	}
	f.Add([]byte(sum("PRESS 1 L 1 1")))
	f.Fuzz(func(t *testing.T, line []byte) {
		m, err := Decode(line)
		if err != nil {
			var le *LineError
			if !errors.As(err, &le) || le.Column < 1 || le.Column > len(line)+1 || le.Err == nil {
				t.Fatalf("%q: bad error %v", line, err)
			}
			return
		}
		enc, err := Encode(m)
		if err != nil {
			t.Fatalf("%q decoded to %#v which does not encode: %v", line, m, err)
		}
		again, err := Decode(enc[:len(enc)-1])
		if err != nil || !reflect.DeepEqual(again, m) {
			t.Fatalf("%q: %#v re-encodes to %q -> %v %v", line, m, enc, again, err)
		}
	})
}

// FuzzDecoderChunks: however a stream is cut into reads, the decoder
// yields the same messages and counts.
func FuzzDecoderChunks(f *testing.F) {
	data, _ := stream()
	f.Add(data, uint8(1))
	f.Add(data, uint8(7))
	f.Fuzz(func(t *testing.T, data []byte, step uint8) {
		n := int(step%64) + 1
		whole := NewDecoder()
		want := append(whole.Feed(data), whole.Flush()...)
		d := NewDecoder()
		var got []Message
		for i := 0; i < len(data); i += n {
			got = append(got, d.Feed(data[i:min(len(data), i+n)])...)
		}
		got = append(got, d.Flush()...)
		if !reflect.DeepEqual(got, want) || d.Stats() != whole.Stats() {
			t.Fatalf("chunks of %d: %v %+v, whole: %v %+v", n, got, d.Stats(), want, whole.Stats())
		}
	})
}
