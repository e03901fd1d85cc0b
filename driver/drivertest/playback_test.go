package drivertest_test

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	dt "github.com/arbiterd/arbiterd/driver/drivertest"
)

func TestPlaybackFollowsRecording(t *testing.T) {
	pb := &dt.Playback{ReadChunk: 2, Steps: []dt.Step{
		{Read: []byte{1}}, // unprompted
		{Write: []byte{0x40, 0x4b}, Read: []byte{2, 3, 4}},
	}}
	b := make([]byte, 8)
	if n, err := pb.Read(b); n != 1 || err != nil || b[0] != 1 {
		t.Fatalf("unprompted read: %d %v", n, err)
	}
	// The recorded write may arrive in pieces.
	if _, err := pb.Write([]byte{0x40}); err != nil {
		t.Fatal(err)
	}
	if pb.Done() {
		t.Fatal("done before the second half of the write")
	}
	if _, err := pb.Write([]byte{0x4b}); err != nil {
		t.Fatal(err)
	}
	if n, _ := pb.Read(b); n != 2 { // ReadChunk caps it
		t.Fatalf("read %d bytes, want 2", n)
	}
	if n, _ := pb.Read(b); n != 1 || b[0] != 4 {
		t.Fatalf("read %d bytes %x", n, b[:n])
	}
	if !pb.Done() {
		t.Fatal("not done")
	}
	pb.Close()
	if _, err := pb.Read(b); err != io.EOF {
		t.Fatalf("read after close: %v", err)
	}
}

func TestPlaybackFailsOnUnexpectedWrite(t *testing.T) {
	var failed []string
	pb := &dt.Playback{
		Steps: []dt.Step{{Write: []byte{0x40}}},
		Fail:  func(f string, a ...any) { failed = append(failed, f) },
	}
	if _, err := pb.Write([]byte{0x41}); !errors.Is(err, dt.ErrUnexpectedWrite) {
		t.Fatalf("write: %v", err)
	}
	if len(failed) != 1 || !errors.Is(pb.Err(), dt.ErrUnexpectedWrite) || !strings.Contains(pb.Err().Error(), "41") {
		t.Fatalf("fail %v, err %v", failed, pb.Err())
	}
	pb2 := &dt.Playback{Steps: []dt.Step{{Write: []byte{0x40}}}}
	pb2.Write([]byte{0x40})
	if _, err := pb2.Write([]byte{0x45}); !errors.Is(err, dt.ErrUnexpectedWrite) {
		t.Fatalf("write after the end: %v", err)
	}
}

func TestFrameBuilders(t *testing.T) {
	f := dt.DGTFrame(0x8f, make([]byte, 200)...)
	if n := int(f[1])<<7 | int(f[2]); n != 203 {
		t.Fatalf("length %d", n)
	}
	c := dt.DGTClock(dt.Face{Time: 3600e9 + 23*60e9 + 45e9, Flag: true}, dt.Face{PerMove: true, FlagShown: true}, dt.ClockRunning)
	want := []byte{0x8d, 0, 10, 0x60, 0, 0, 0x11, 0x23, 0x45, 1}
	if string(c) != string(want) {
		t.Fatalf("clock % x, want % x", c, want)
	}
}

func TestStepsFromCapture(t *testing.T) {
	c := "#capture v1\n#port board dgt\n#port clock lineclock\n0.000000 board r 01\n0.100000 board w 40\n0.200000 clock r 99\n" +
		"0.300000 board r 0203\n0.400000 board r 04\n0.500000 board w 4b\n"
	steps, err := dt.StepsFromCapture(strings.NewReader(c), "board")
	if err != nil {
		t.Fatal(err)
	}
	want := []dt.Step{{Read: []byte{1}}, {Write: []byte{0x40}, Read: []byte{2, 3, 4}}, {Write: []byte{0x4b}}}
	if !reflect.DeepEqual(steps, want) {
		t.Fatalf("steps %+v, want %+v", steps, want)
	}
	if _, err := dt.StepsFromCapture(strings.NewReader(c), "board2"); err == nil {
		t.Error("an undeclared port gave steps")
	}
	if _, err := dt.StepsFromCapture(strings.NewReader("nope"), "board"); err == nil {
		t.Error("a non-capture gave steps")
	}
}

func TestDGTFields(t *testing.T) {
	start, err := dt.DGTFields("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
	if err != nil || start != dt.DGTStartPosition() {
		t.Fatalf("initial position: %v, %v", start, err)
	}
	f, err := dt.DGTFields("8/8/8/8/8/8/8/K6q")
	if err != nil || f[56] != 5 || f[63] != 12 {
		t.Fatalf("a1 = %d, h1 = %d (%v), want white king 5 and black queen 12", f[56], f[63], err)
	}
	for _, bad := range []string{"8/8/8", "8/8/8/8/8/8/8/K6x", "9/8/8/8/8/8/8/8", "8/8/8/8/8/8/8/K7q", "ppppppppp/8/8/8/8/8/8/7"} {
		if _, err := dt.DGTFields(bad); err == nil {
			t.Errorf("DGTFields(%q) accepted a bad placement", bad)
		}
	}
}
