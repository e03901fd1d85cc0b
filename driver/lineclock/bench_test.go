package lineclock

import (
	"bytes"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
)

// BenchmarkDecoderFeed decodes a stream of status and press lines fed in
// 64-byte reads.
func BenchmarkDecoderFeed(b *testing.B) {
	tc, _ := clockd.ParseTimeControl("40/5400+30:1800+30")
	dev := NewDevice(clockd.NewClock(tc), clockd.Left, "LC", "1")
	var buf bytes.Buffer
	buf.Write(dev.Start(0))
	for i := 1; i < 2000; i++ {
		at := time.Duration(i) * 500 * time.Millisecond
		buf.Write(dev.Status(at))
		if i%20 == 0 {
			side, _ := dev.clock.Running()
			face := dev.faceOf(side)
			buf.Write(dev.Press(face, at, i/40))
		}
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		d := NewDecoder()
		for i := 0; i < len(data); i += 64 {
			d.Feed(data[i:min(len(data), i+64)])
		}
		if d.Stats().Bad != 0 {
			b.Fatal(d.Stats())
		}
	}
}
