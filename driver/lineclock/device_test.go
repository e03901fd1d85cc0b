package lineclock

import (
	"bytes"
	"io"
	"testing"
	"testing/iotest"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
)

// TestDeviceToInterpreter plays a 100-move game on an emulated lineclock
// (status every 500 ms, presses reported as lines, some pairs of presses
// 150 ms apart), reads the bytes back one byte at a time, and checks that
// the interpreter sees every press, none inferred, with the exact
// millisecond times the reference clock had.
func TestDeviceToInterpreter(t *testing.T) {
	tc, err := clockd.ParseTimeControl("40/5400+30:1800+30")
	if err != nil {
		t.Fatal(err)
	}
	ref := clockd.NewClock(tc)
	dev := NewDevice(clockd.NewClock(tc), clockd.Right, "LC-2", "42")
	var wire bytes.Buffer
	send := func(_ time.Duration, b []byte) { wire.Write(b) }
	send(0, dev.Hello())
	send(0, dev.Status(0))
	at := time.Second
	send(at, dev.Start(at))
	ref.Start(at)
	var want []clockd.Times
	seed := uint32(7)
	nextStatus := at + 500*time.Millisecond
	wait := func(d time.Duration) {
		end := at + d
		for nextStatus <= end {
			send(nextStatus, dev.Status(nextStatus))
			nextStatus += 500 * time.Millisecond
		}
		at = end
	}
	for ply := 0; ply < 200; ply++ {
		seed = seed*1664525 + 1013904223
		think := time.Duration(1000+seed>>20%20000) * time.Millisecond
		if ply%9 == 1 {
			think = 150 * time.Millisecond
		}
		wait(think)
		side := clockd.White
		face := clockd.Right
		if ply%2 == 1 {
			side, face = clockd.Black, clockd.Left
		}
		send(at, dev.Press(face, at, ply/2+1))
		ref.Press(side, at, ply/2+1)
		want = append(want, ref.Times(at))
	}
	wait(time.Second)

	// Read back one byte at a time; the readings' At is just their order
	// (the interpreter must not need more).
	rd := NewReader(iotest.OneByteReader(bytes.NewReader(wire.Bytes())))
	var tr Tracker
	in := clockd.NewInterpreter(tc, clockd.WhiteAuto)
	var presses []clockd.ClockEvent
	n := 0
	for {
		m, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n++
		r, ok := tr.Reading(m, time.Duration(n)*time.Millisecond)
		if !ok {
			continue
		}
		for _, e := range in.Feed(r) {
			switch e.Kind {
			case clockd.Press:
				presses = append(presses, e)
			case clockd.Impossible:
				t.Fatalf("impossible: %v", e)
			}
		}
	}
	if st := rd.Stats(); st.Bad != 0 || st.Gaps != 0 {
		t.Fatalf("stats %+v", st)
	}
	if len(presses) != len(want) {
		t.Fatalf("%d presses, want %d", len(presses), len(want))
	}
	for i, p := range presses {
		if p.Inferred || p.Clock != want[i] || p.Side != clockd.Side(i%2) {
			t.Fatalf("press %d: %v, want %v %v/%v", i+1, p, clockd.Side(i%2), want[i].White, want[i].Black)
		}
	}
	if f, ok := in.WhiteFace(); !ok || f != clockd.Right {
		t.Fatalf("white face %v %v", f, ok)
	}
}

func TestDeviceFlag(t *testing.T) {
	tc, _ := clockd.ParseTimeControl("10")
	dev := NewDevice(clockd.NewClock(tc), clockd.Left, "x", "y")
	dev.Start(0)
	if b := dev.Flags(9 * time.Second); b != nil {
		t.Fatalf("early flag %q", b)
	}
	b := dev.Flags(11 * time.Second)
	m, err := Decode(bytes.TrimSuffix(b, []byte("\n")))
	if err != nil {
		t.Fatal(err)
	}
	if f, ok := m.(Flag); !ok || f.Face != clockd.Left || f.Left != 0 || f.Right != 10*time.Second {
		t.Fatalf("%#v", m)
	}
	st, _ := Decode(bytes.TrimSuffix(dev.Status(12*time.Second), []byte("\n")))
	if s := st.(Status); !s.LeftFlags.Fallen || s.RightFlags.Fallen || s.Turn != TurnLeft {
		t.Fatalf("%#v", s)
	}
}
