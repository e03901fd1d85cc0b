package dgt_test

import (
	"bufio"
	"bytes"
	"io"
	"math/rand/v2"
	"reflect"
	"testing"
	"testing/iotest"
	"time"

	"github.com/arbiterd/arbiterd/driver/dgt"
	dt "github.com/arbiterd/arbiterd/driver/drivertest"
)

// session builds a realistic board stream: serial, version, a board dump,
// then moves as field updates with a clock reading every ~0.5 s, returning
// the bytes and the messages a correct decoder must produce.
func session(rng *rand.Rand, updates int) ([]byte, []dgt.Message) {
	var buf []byte
	var want []dgt.Message
	add := func(frame []byte, m dgt.Message) {
		buf = append(buf, frame...)
		if m != nil {
			want = append(want, m)
		}
	}
	add(dt.DGTSerial("40123"), dgt.Serial{Number: "40123"})
	add(dt.DGTVersion(1, 7), dgt.Version{Major: 1, Minor: 7})
	start := dt.DGTStartPosition()
	add(dt.DGTBoardDump(start), dgt.BoardDump{Fields: start})
	left, right := 90*time.Minute, 90*time.Minute
	for i := 0; i < updates; i++ {
		f, p := byte(rng.IntN(64)), byte(rng.IntN(13))
		add(dt.DGTFieldUpdate(f, p), dgt.FieldUpdate{Field: f, Piece: p})
		if i%2 == 1 {
			left = 90*time.Minute - time.Duration(i/2%5000)*time.Second
			add(dt.DGTClock(dt.Face{Time: left}, dt.Face{Time: right}, dt.ClockRunning|dt.ClockLeftTurn),
				dgt.ClockTime{Left: dgt.FaceTime{Time: left}, Right: dgt.FaceTime{Time: right}, Running: true, TurnD3: true})
		}
		if i%50 == 7 {
			add(dt.DGTFrame(0x8d, 0, 0, 0, 0, 0, 0, 0), nil) // noise
		}
	}
	return buf, want
}

func scanAll(t *testing.T, r io.Reader) []dgt.Message {
	t.Helper()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64), dgt.MaxFrameLen)
	sc.Split(dgt.Split)
	var out []dgt.Message
	for sc.Scan() {
		m, err := dgt.Decode(sc.Bytes())
		if err != nil {
			continue
		}
		out = append(out, m)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("scanner: %v", err)
	}
	return out
}

func TestSplitWithOddReaders(t *testing.T) {
	stream, want := session(rand.New(rand.NewPCG(1, 2)), 400)
	readers := map[string]func(io.Reader) io.Reader{
		"whole":    func(r io.Reader) io.Reader { return r },
		"one byte": iotest.OneByteReader,
		"half":     iotest.HalfReader,
		"data+err": iotest.DataErrReader,
	}
	for name, wrap := range readers {
		t.Run(name, func(t *testing.T) {
			got := scanAll(t, wrap(bytes.NewReader(stream)))
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("got %d messages, want %d", len(got), len(want))
			}
		})
	}
}

func TestDecoderChunkingIndependent(t *testing.T) {
	stream, want := session(rand.New(rand.NewPCG(3, 4)), 300)
	whole := dgt.NewDecoder()
	if got := whole.Feed(stream); !reflect.DeepEqual(got, want) {
		t.Fatalf("whole stream: got %d messages, want %d", len(got), len(want))
	}
	for _, chunk := range []int{1, 2, 3, 7, 64, 67, 500} {
		d := dgt.NewDecoder()
		var got []dgt.Message
		for i := 0; i < len(stream); i += chunk {
			got = append(got, d.Feed(stream[min(i, len(stream)):min(i+chunk, len(stream))])...)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("chunks of %d: got %d messages, want %d", chunk, len(got), len(want))
		}
		if d.Stats() != whole.Stats() {
			t.Errorf("chunks of %d: stats %+v, whole %+v", chunk, d.Stats(), whole.Stats())
		}
	}
	st := whole.Stats()
	if st.Noise == 0 || st.Messages != int64(len(want)) || st.Bytes != int64(len(stream)) || st.Corrupt != 0 || st.Skipped != 0 {
		t.Errorf("stats %+v", st)
	}
}

// TestDecoderResyncsAfterGarbage injects garbage between valid frames:
// every valid frame after garbage must still be decoded, in order.
func TestDecoderResyncsAfterGarbage(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	_, msgs := session(rng, 200)
	for _, highBits := range []bool{false, true} {
		var stream []byte
		var frames [][]byte
		for _, m := range msgs {
			f := encode(t, m)
			frames = append(frames, f)
			if rng.IntN(3) == 0 {
				g := make([]byte, 1+rng.IntN(12))
				for i := range g {
					g[i] = byte(rng.IntN(256))
					if !highBits {
						g[i] &= 0x7f
					}
				}
				stream = append(stream, g...)
			}
			stream = append(stream, f...)
		}
		d := dgt.NewDecoder()
		var got []dgt.Message
		for i := 0; i < len(stream); {
			n := 1 + rng.IntN(40)
			got = append(got, d.Feed(stream[i:min(i+n, len(stream))])...)
			i += n
		}
		if !highBits {
			if !reflect.DeepEqual(got, msgs) {
				t.Fatalf("7-bit garbage: got %d messages, want %d", len(got), len(msgs))
			}
		} else if !isSubsequence(msgs, got) {
			t.Fatalf("garbage with bit 7: the valid messages are not all decoded in order (%d of %d)", len(got), len(msgs))
		}
		if d.Stats().Skipped == 0 {
			t.Errorf("garbage not counted: %+v", d.Stats())
		}
	}
}

func isSubsequence(want, got []dgt.Message) bool {
	i := 0
	for _, m := range got {
		if i < len(want) && reflect.DeepEqual(m, want[i]) {
			i++
		}
	}
	return i == len(want)
}

// encode is the test's device side: the frame a board sends for m.
func encode(t *testing.T, m dgt.Message) []byte {
	switch m := m.(type) {
	case dgt.Serial:
		return dt.DGTSerial(m.Number)
	case dgt.Version:
		return dt.DGTVersion(m.Major, m.Minor)
	case dgt.BoardDump:
		return dt.DGTBoardDump(m.Fields)
	case dgt.FieldUpdate:
		return dt.DGTFieldUpdate(m.Field, m.Piece)
	case dgt.ClockTime:
		var st byte
		for bit, on := range map[byte]bool{dt.ClockRunning: m.Running, dt.ClockLeverHigh: m.LeverRightHigh, dt.ClockBattery: m.BatteryLow,
			0x08: m.TurnD3, 0x10: m.TurnD4, dt.ClockNone: m.NoClock} {
			if on {
				st |= bit
			}
		}
		face := func(f dgt.FaceTime) dt.Face {
			return dt.Face{Time: f.Time, Flag: f.Flag, FlagShown: f.FlagShown, PerMove: f.PerMove}
		}
		return dt.DGTClock(face(m.Left), face(m.Right), st)
	}
	t.Fatalf("no encoder for %T", m)
	return nil
}

func TestDecoderCountsBrokenFrames(t *testing.T) {
	var s []byte
	s = append(s, 0x01, 0x02)                                // 2 garbage bytes
	s = append(s, 0x8e, 0x00, 0x05, 0x0c)                    // field update cut short (4 bytes)
	s = append(s, dt.DGTFieldUpdate(12, 0)...)               // valid
	s = append(s, 0x8e, 0x00, 0x07, 0x01, 0x01)              // wrong length: 1 byte broken, 4 skipped as garbage
	s = append(s, dt.DGTFrame(0xb1, 0x01)...)                // unknown id
	s = append(s, dt.DGTFrame(0x8d, 0, 0, 0, 0, 0, 0, 0)...) // noise
	s = append(s, dt.DGTFieldUpdate(70, 1)...)               // corrupt contents
	s = append(s, dt.DGTSerial("99999")...)                  // valid
	s = append(s, 0x8e, 0x00)                                // partial: waits
	d := dgt.NewDecoder()
	got := d.Feed(s)
	want := []dgt.Message{dgt.FieldUpdate{Field: 12}, dgt.Serial{Number: "99999"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v", got)
	}
	st := d.Stats()
	wantSt := dgt.Stats{Bytes: int64(len(s)), Frames: 5, Messages: 2, Unknown: 1, Corrupt: 3, Noise: 1, Skipped: 2 + 4 + 1 + 4}
	if st != wantSt {
		t.Errorf("stats %+v, want %+v", st, wantSt)
	}
	if d.Pending() != 2 {
		t.Errorf("pending %d, want 2", d.Pending())
	}
	if d.LastError() == nil {
		t.Error("no last error")
	}
	// The partial frame completes with the next read.
	if got := d.Feed([]byte{0x05, 0x01, 0x02}); !reflect.DeepEqual(got, []dgt.Message{dgt.FieldUpdate{Field: 1, Piece: 2}}) {
		t.Errorf("completing the partial frame: %#v", got)
	}
}

func TestDecoderBoundsFrames(t *testing.T) {
	// A header claiming the largest length, then 7-bit bytes: the decoder
	// holds at most MaxFrameLen bytes and decodes the EEPROM dump.
	big := dt.DGTFrame(0x8f, make([]byte, dgt.MaxFrameLen-3)...)
	d := dgt.NewDecoder()
	for i := 0; i < len(big)-1; i += 1000 {
		if got := d.Feed(big[i:min(i+1000, len(big)-1)]); len(got) != 0 {
			t.Fatalf("message before the end: %v", got)
		}
		if d.Pending() > dgt.MaxFrameLen {
			t.Fatalf("pending %d > MaxFrameLen", d.Pending())
		}
	}
	got := d.Feed(big[len(big)-1:])
	if len(got) != 1 || len(got[0].(dgt.EEPROMMoves).Data) != dgt.MaxFrameLen-3 {
		t.Fatalf("EEPROM dump not decoded: %d messages", len(got))
	}
}

func FuzzDecoder(f *testing.F) {
	stream, _ := session(rand.New(rand.NewPCG(7, 8)), 10)
	f.Add(stream, uint8(1))
	f.Add([]byte{0x8e, 0x00, 0x05, 0x8d, 0x00, 0x0a}, uint8(2))
	f.Add(dt.DGTClockAck([4]byte{0x10, 0x88, 0, 0x31}), uint8(3))
	f.Add([]byte{0x8d, 0x00, 0x0a, 0x0a, 0x7f, 0x7f, 0x0a, 0x7f, 0x7f, 0x7f}, uint8(5))
	f.Fuzz(func(t *testing.T, data []byte, chunk uint8) {
		whole := dgt.NewDecoder()
		want := whole.Feed(data)
		d := dgt.NewDecoder()
		var got []dgt.Message
		step := int(chunk%16) + 1
		for i := 0; i < len(data); i += step {
			got = append(got, d.Feed(data[i:min(i+step, len(data))])...)
		}
		if !reflect.DeepEqual(got, want) || d.Stats() != whole.Stats() {
			t.Fatalf("chunks of %d differ: %d vs %d messages", step, len(got), len(want))
		}
		// The scanner path finds the same frames.
		var viaSplit []dgt.Message
		sc := bufio.NewScanner(iotest.OneByteReader(bytes.NewReader(data)))
		sc.Buffer(make([]byte, 16), dgt.MaxFrameLen)
		sc.Split(dgt.Split)
		for sc.Scan() {
			if m, err := dgt.Decode(sc.Bytes()); err == nil {
				viaSplit = append(viaSplit, m)
			}
		}
		if sc.Err() != nil {
			t.Fatal(sc.Err())
		}
		if !reflect.DeepEqual(viaSplit, want) {
			t.Fatalf("Split found %d messages, Decoder %d", len(viaSplit), len(want))
		}
		st := whole.Stats()
		if st.Bytes != int64(len(data)) || st.Messages != int64(len(want)) ||
			st.Frames < st.Messages+st.Unknown+st.Noise || st.Skipped+int64(whole.Pending()) > st.Bytes {
			t.Fatalf("stats %+v", st)
		}
	})
}

func FuzzDecode(f *testing.F) {
	f.Add(dt.DGTFieldUpdate(1, 2))
	f.Add(dt.DGTClock(dt.Face{Time: time.Hour}, dt.Face{}, 1))
	f.Add(dt.DGTClockAck([4]byte{1, 2, 3, 4}))
	f.Add(dt.DGTBoardDump(dt.DGTStartPosition()))
	f.Fuzz(func(t *testing.T, frame []byte) {
		m, err := dgt.Decode(frame)
		if (m == nil) == (err == nil) {
			t.Fatalf("Decode(%x) = %v, %v", frame, m, err)
		}
		if err == nil && m.ID() != frame[0] {
			t.Fatalf("ID %#x for frame %x", m.ID(), frame)
		}
		if ct, ok := m.(dgt.ClockTime); ok {
			for _, f := range []dgt.FaceTime{ct.Left, ct.Right} {
				if f.Time < 0 || f.Time >= 10*time.Hour {
					t.Fatalf("impossible time %v from %x", f.Time, frame)
				}
			}
		}
	})
}

func BenchmarkDecoderFeed(b *testing.B) {
	stream, want := session(rand.New(rand.NewPCG(9, 10)), 20000)
	// Cut the stream into read-sized chunks as a serial port delivers them.
	rng := rand.New(rand.NewPCG(11, 12))
	var chunks [][]byte
	for i := 0; i < len(stream); {
		n := 1 + rng.IntN(32)
		chunks = append(chunks, stream[i:min(i+n, len(stream))])
		i += n
	}
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		d := dgt.NewDecoder()
		n := 0
		for _, c := range chunks {
			d.FeedFunc(c, func(dgt.Message) { n++ })
		}
		if n != len(want) {
			b.Fatalf("decoded %d, want %d", n, len(want))
		}
	}
}
