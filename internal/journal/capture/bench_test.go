package capture_test

import (
	"bytes"
	"io"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/journal/capture"
)

// benchCapture is a game's worth of board traffic as a capture: a read of
// 1–11 bytes every ~20 ms of an hour.
func benchCapture(b *testing.B) []byte {
	var buf bytes.Buffer
	w, _ := capture.NewWriter(&buf)
	w.Port("board", "dgt")
	w.Meta("timecontrol", "40/5400+30:1800+30")
	data := []byte{0x8d, 0x00, 0x0a, 0x01, 0x29, 0x59, 0x01, 0x30, 0x00, 0x09, 0x8e}
	for i := 0; i < 180000; i++ {
		if err := w.Data(time.Duration(i)*20*time.Millisecond, "board", capture.Read, data[:1+i%len(data)]); err != nil {
			b.Fatal(err)
		}
	}
	return buf.Bytes()
}

func BenchmarkReader(b *testing.B) {
	raw := benchCapture(b)
	b.SetBytes(int64(len(raw)))
	b.ResetTimer()
	for b.Loop() {
		r := capture.NewReader(bytes.NewReader(raw))
		n := 0
		for {
			_, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != 180002 {
			b.Fatalf("%d records", n)
		}
	}
}

func BenchmarkWriterData(b *testing.B) {
	w, _ := capture.NewWriter(io.Discard)
	w.Port("board", "dgt")
	data := []byte{0x8d, 0x00, 0x0a, 0x01, 0x29, 0x59, 0x01, 0x30, 0x00, 0x09}
	b.SetBytes(int64(len(data)))
	i := 0
	for b.Loop() {
		i++
		w.Data(time.Duration(i)*time.Millisecond, "board", capture.Read, data)
	}
}
