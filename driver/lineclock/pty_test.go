// An external test package: internal/device/emulator (for its pseudo-terminal)
// itself imports lineclock for its emulated USB clock.
package lineclock_test

import (
	"bytes"
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/driver/lineclock"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/internal/device/serialport"
)

// TestOverSerialPort sends an emulated lineclock's lines through a
// pseudo-terminal, a real serial port for go.bug.st/serial, and reads them
// back through internal/device/serialport with a Reader.
func TestOverSerialPort(t *testing.T) {
	master, path, err := emulator.OpenPTY()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer master.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	port, err := serialport.Open(ctx, path, serialport.Options{Baud: 115200})
	if err != nil {
		t.Fatal(err)
	}
	defer port.Close()

	tc, _ := clockd.ParseTimeControl("300+2")
	clk := clockd.NewClock(tc)
	dev := lineclock.NewDevice(clk, clockd.Left, "LC-2", "pty1") // White's time on the left face
	var wire bytes.Buffer
	wire.Write(dev.Hello())
	wire.Write(dev.Start(0))
	for i := 1; i <= 50; i++ {
		at := time.Duration(i) * 700 * time.Millisecond
		wire.Write(dev.Status(at))
		if i%3 == 0 {
			face := clockd.Left
			if side, _ := clk.Running(); side == clockd.Black {
				face = clockd.Right
			}
			wire.Write(dev.Press(face, at, i/6+1))
		}
	}
	want := lineclock.NewDecoder().Feed(wire.Bytes())
	go func() {
		data := wire.Bytes()
		for len(data) > 0 { // odd-sized writes, like a microcontroller's
			n := min(len(data), 37)
			if _, err := master.Write(data[:n]); err != nil {
				return
			}
			data = data[n:]
		}
	}()
	rd := lineclock.NewReader(port)
	var got []lineclock.Message
	for len(got) < len(want) {
		m, err := rd.Next()
		if err != nil {
			t.Fatalf("after %d messages: %v", len(got), err)
		}
		got = append(got, m)
	}
	if !reflect.DeepEqual(got, want) || rd.Stats().Bad != 0 {
		t.Fatalf("got %d messages %+v, want %d", len(got), rd.Stats(), len(want))
	}
}
