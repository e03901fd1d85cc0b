package emulator

import (
	"bytes"
	"context"
	"io"
	"net"
	"os"
	"testing"
	"time"
)

// host is a test host on the other end of the line: it sends command bytes
// and reads whole frames with the test decoder.
type host struct {
	t   testing.TB
	rw  io.ReadWriter
	buf []byte
}

func (h *host) send(b ...byte) {
	h.t.Helper()
	if _, err := h.rw.Write(b); err != nil {
		h.t.Fatalf("write % x: %v", b, err)
	}
}

// next reads until a frame with id arrives (skipping others) or the
// timeout passes.
func (h *host) next(id byte, timeout time.Duration) tframe {
	h.t.Helper()
	deadline := time.Now().Add(timeout)
	tmp := make([]byte, 512)
	for time.Now().Before(deadline) {
		frames, _ := splitFrames(h.buf)
		for i, f := range frames {
			if f.id == id {
				// drop everything up to and including this frame
				var used int
				for _, g := range frames[:i+1] {
					used += 3 + len(g.data)
				}
				h.buf = h.buf[consumed(h.buf, used):]
				return f
			}
		}
		if d, ok := h.rw.(interface{ SetReadDeadline(time.Time) error }); ok {
			_ = d.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
		}
		n, _ := h.rw.Read(tmp)
		h.buf = append(h.buf, tmp[:n]...)
	}
	h.t.Fatalf("no frame %#x within %s (have % x)", id, timeout, h.buf)
	return tframe{}
}

// consumed maps a count of frame bytes to an offset in b, skipping the
// garbage splitFrames skipped (frames are contiguous in these tests).
func consumed(b []byte, frameBytes int) int {
	off, seen := 0, 0
	for off < len(b) && seen < frameBytes {
		if b[off]&0x80 != 0 && off+3 <= len(b) {
			n := int(b[off+1])<<7 | int(b[off+2])
			if n >= 3 && off+n <= len(b) {
				off += n
				seen += n
				continue
			}
		}
		off++
	}
	return off
}

// idleBoard runs an emulator that plays nothing and sends nothing unasked.
func idleBoard(t *testing.T, cfg Config, rw io.ReadWriter) (stop func()) {
	t.Helper()
	cfg.Linger = true
	cfg.Mode = ModeIdle
	cfg.End = EndFlag
	em, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- em.Run(ctx, rw) }()
	return func() {
		cancel()
		if err := <-done; err != nil && !isCtxErr(err) {
			t.Errorf("Run: %v", err)
		}
	}
}

func checkCommands(t *testing.T, h *host, reversed bool) {
	const wait = 3 * time.Second
	start := fenFields(t, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
	if reversed {
		start = reverseFields(start)
	}
	tests := []struct {
		name  string
		cmd   []byte
		id    byte
		check func(d []byte) bool
	}{
		{"board dump", []byte{0x42}, 0x86, func(d []byte) bool { return bytes.Equal(d, start[:]) }},
		{"serial", []byte{0x45}, 0x91, func(d []byte) bool { return len(d) == 5 && isDigits(d) }},
		{"long serial", []byte{0x55}, 0xa2, func(d []byte) bool { return len(d) == 10 }},
		{"version", []byte{0x4d}, 0x93, func(d []byte) bool { return len(d) == 2 && d[0] >= 1 }},
		{"trademark", []byte{0x47}, 0x92, func(d []byte) bool { return bytes.Contains(d, []byte("Digital Game Technology")) }},
		{"battery", []byte{0x4c}, 0xa0, func(d []byte) bool { return len(d) == 9 && d[0] <= 100 }},
		{"bus address", []byte{0x46}, 0x90, func(d []byte) bool { return len(d) == 2 }},
		{"EEPROM moves", []byte{0x49}, 0x8f, func(d []byte) bool { return len(d) == 0 }},
		{"clock", []byte{0x41}, 0x8d, func(d []byte) bool {
			// Play began at once: White's (left) clock runs from 90 min
			// plus the 30 s increment given before the first move.
			c := decodeClock(d)
			return !c.ack && c.leftSecs <= 5430 && c.leftSecs > 5400 && c.rightSecs == 5430 &&
				c.status&0x1b == 0x09 && c.leftFl == 0x20 && c.rightFlags == 0x20
		}},
		{"clock version", []byte{0x2b, 0x03, 0x03, 0x09, 0x00}, 0x8d, func(d []byte) bool {
			c := decodeClock(d)
			return c.ack && c.acks == [4]byte{0x10, 0x09, emuClockMajor, emuClockMinor}
		}},
		{"clock beep", []byte{0x2b, 0x04, 0x03, 0x0b, 0x05, 0x00}, 0x8d, func(d []byte) bool {
			c := decodeClock(d)
			return c.ack && c.acks[0] == 0x10 && c.acks[1] == 0x0b
		}},
		{"clock text", append(append([]byte{0x2b, 0x0c, 0x03, 0x0c}, []byte("ARBITER ")...), 0x00, 0x00), 0x8d, func(d []byte) bool {
			c := decodeClock(d)
			return c.ack && c.acks[1] == 0x0c
		}},
	}
	for _, tc := range tests {
		h.send(tc.cmd...)
		f := h.next(tc.id, wait)
		if !tc.check(f.data) {
			t.Errorf("%s: unexpected answer % x", tc.name, f.data)
		}
	}
	// SetNRun: left 0:05:07 running, right 1:02:03.
	h.send(0x2b, 0x0a, 0x03, 0x0a, 0, 5, 7, 1, 2, 3, 0x01, 0x00)
	ack := decodeClock(h.next(0x8d, wait).data)
	if !ack.ack || ack.acks[1] != 0x0a {
		t.Errorf("SetNRun: no ack, got %+v", ack)
	}
	h.send(0x41)
	c := decodeClock(h.next(0x8d, wait).data)
	if c.ack || c.leftSecs > 307 || c.leftSecs < 300 || c.rightSecs != 3723 || c.status&0x09 != 0x09 {
		t.Errorf("after SetNRun the clock shows %+v", c)
	}
	// A malformed clock frame (no closing 00) gets no ack; the next valid
	// command is still answered.
	h.send(0x2b, 0x03, 0x03, 0x09, 0x07)
	h.send(0x45)
	if f := h.next(0x91, wait); len(f.data) != 5 {
		t.Errorf("serial after a bad clock frame: % x", f.data)
	}
}

func isDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func TestCommandsInProcess(t *testing.T) {
	for _, reversed := range []bool{false, true} {
		dev, hostEnd := net.Pipe()
		stop := idleBoard(t, Config{Reversed: reversed}, dev)
		checkCommands(t, &host{t: t, rw: hostEnd}, reversed)
		stop()
		dev.Close()
		hostEnd.Close()
	}
}

func TestCommandsOverPTY(t *testing.T) {
	master, path, err := OpenPTY()
	if err != nil {
		t.Skipf("no pty here: %v", err)
	}
	defer master.Close()
	slave, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer slave.Close()
	stop := idleBoard(t, Config{}, master)
	defer stop()
	checkCommands(t, &host{t: t, rw: slave}, false)
}

func TestClockAckHighBits(t *testing.T) {
	for _, ack := range [][4]byte{{0x10, 0x88, 0x00, 0x00}, {0x80, 0x81, 0xff, 0xfe}, {0x7f, 0x00, 0x80, 0x01}} {
		b := clockAck(ack, 0x09)
		frames, skipped := splitFrames(b)
		if skipped != 0 || len(frames) != 1 || frames[0].id != 0x8d || len(b) != 10 {
			t.Fatalf("ack % x: not one BWTIME frame: % x", ack, b)
		}
		c := decodeClock(frames[0].data)
		if !c.ack || c.acks != ack || c.status != 0x09 {
			t.Errorf("ack % x decoded as % x (ack %v)", ack, c.acks, c.ack)
		}
	}
}

func TestBWTimeEncoding(t *testing.T) {
	d := Display{
		Left:    Face{Time: 1*time.Hour + 29*time.Minute + 59*time.Second, PerMove: true},
		Right:   Face{Time: 0, FlagBlocked: true},
		Running: false, RightHigh: true, LeftTurn: false, BatteryLow: true,
	}
	want := []byte{0x8d, 0x00, 0x0a, 0x10, 0x00, 0x00, 0x21, 0x29, 0x59, 0x06}
	if got := bwtime(d); !bytes.Equal(got, want) {
		t.Errorf("bwtime = % x, want % x", got, want)
	}
	d = Display{Right: Face{Time: 9*time.Hour + 5*time.Minute + 7*time.Second, FlagShown: true}, Running: true, RightTurn: true}
	c := decodeClock(bwtime(d)[3:])
	if c.rightSecs != 9*3600+5*60+7 || c.rightFlags != 0x40 || c.status != 0x11 {
		t.Errorf("decoded %+v", c)
	}
	// The 2015 revision of the protocol header swaps the turn bits.
	d.TurnBits2015 = true
	if c := decodeClock(bwtime(d)[3:]); c.status != 0x09 {
		t.Errorf("2015 turn bits: status %#02x, want 0x09", c.status)
	}
}

// TestUpdateModes: what the board sends unasked depends on the last mode
// command: nothing after a reset, field updates only after 0x44, both
// after 0x43 or 0x4b.
func TestUpdateModes(t *testing.T) {
	tests := []struct {
		cmd           byte
		fields, clock bool
	}{
		{0x40, false, false},
		{0x44, true, false},
		{0x43, true, true},
		{0x4b, true, true},
	}
	for _, tc := range tests {
		cfg := Config{Game: immortal[:8], Seed: 4, Speed: 20000, Wait: true}
		b, err := run(t, cfg, 20*time.Second, func(h net.Conn) { _, _ = h.Write([]byte{tc.cmd}) })
		if err != nil {
			t.Fatalf("%#x: Run: %v", tc.cmd, err)
		}
		frames, _ := splitFrames(b)
		var fields, clock int
		for _, f := range frames {
			switch f.id {
			case 0x8e:
				fields++
			case 0x8d:
				clock++
			}
		}
		if (fields > 0) != tc.fields || (clock > 0) != tc.clock {
			t.Errorf("mode %#x: %d field updates, %d clock frames", tc.cmd, fields, clock)
		}
	}
}
