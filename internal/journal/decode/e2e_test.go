//go:build linux

package decode_test

import (
	"bytes"
	"context"
	"errors"
	"github.com/arbiterd/arbiterd/internal/testkit/lockedbuf"
	"io"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/driver/dgt"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/internal/device/serialport"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
	"github.com/arbiterd/arbiterd/internal/journal/decode"
)

// teePort records every byte read from or written to a port into a
// capture before handing it on, stamped by now — as arbiterd's live runner
// journals a board's line (internal/boards/live) — and gives reads their
// capture times (dgt.Session uses them), so that replay can match them.
type teePort struct {
	rw   io.ReadWriter
	cw   *capture.Writer
	port string
	now  func() time.Duration
}

func (t *teePort) Read(b []byte) (int, error) {
	n, _, err := t.ReadStamped(b)
	return n, err
}

func (t *teePort) ReadStamped(b []byte) (int, time.Duration, error) {
	n, err := t.rw.Read(b)
	if n == 0 {
		return 0, t.now(), err
	}
	at, cerr := t.cw.Record(t.now(), t.port, capture.Read, b[:n])
	if err == nil {
		err = cerr
	}
	return n, at, err
}

func (t *teePort) Write(b []byte) (int, error) {
	n, err := t.rw.Write(b)
	if n > 0 {
		if _, cerr := t.cw.Record(t.now(), t.port, capture.Write, b[:n]); err == nil {
			err = cerr
		}
	}
	return n, err
}

// TestEmulatorToReplay is the whole input path end to end: the emulated
// board and clock on a pseudo-terminal, arbiterd's serial port layer on the
// other end, every byte teed into a capture, a dgt.Session decoding live;
// then the capture replayed must give the same messages at the same times.
func TestEmulatorToReplay(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a game over a pty")
	}
	master, slave, err := emulator.OpenPTY()
	if err != nil {
		t.Skip(err)
	}
	defer master.Close()
	emu, err := emulator.New(emulator.Config{
		Game: immortal, Seed: 7, Speed: 100, Wait: true,
		Periods:   []emulator.Period{{Time: 30 * time.Minute, Increment: 10 * time.Second}},
		ThinkTime: func(int) time.Duration { return 3 * time.Second },
	})
	if err != nil {
		t.Fatal(err)
	}

	var file lockedbuf.Buffer
	cw, err := capture.NewWriter(&file)
	if err != nil {
		t.Fatal(err)
	}
	cw.Port("board", "dgt")
	cw.Meta("white", "Anderssen, Adolf")
	start := time.Now()
	now := func() time.Duration { return time.Since(start) }

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	sctx, stopSession := context.WithTimeout(context.Background(), 60*time.Second)
	defer stopSession()
	sp, err := serialport.Open(sctx, slave, serialport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sp.Close()
	port := &teePort{rw: sp, cw: cw, port: "board", now: now}

	emuDone := make(chan error, 1)
	go func() { emuDone <- emu.Run(ctx, master) }()

	sess := dgt.NewSession(port, dgt.SessionOptions{Now: now})
	var live []decode.Message
	collected := make(chan struct{})
	stopped := make(chan struct{}) // the players stopped the clock: game over
	go func() {
		defer close(collected)
		ran, fieldsSeen := false, 0
		for e := range sess.Events() {
			if e.Msg != nil {
				live = append(live, decode.Message{At: e.At, Port: "board", Msg: e.Msg})
			}
			switch m := e.Msg.(type) {
			case dgt.FieldUpdate:
				fieldsSeen++
			case dgt.ClockTime:
				if m.Running {
					ran = true
				} else if ran && fieldsSeen >= 2*len(immortal) {
					close(stopped)
					ran = false
				}
			}
		}
	}()
	runDone := make(chan error, 1)
	go func() { runDone <- sess.Run(sctx) }()

	// The emulator returns when nothing is left to happen; with a stopped
	// clock that can take until the flag would have fallen, so stop at the
	// clock stop after the last move.
	select {
	case err := <-emuDone:
		if err != nil {
			t.Fatalf("emulator: %v", err)
		}
	case <-stopped:
		time.Sleep(300 * time.Millisecond) // let the last bytes arrive
		cancel()
		if err := <-emuDone; err != nil && !errors.Is(err, context.Canceled) {
			t.Fatalf("emulator: %v", err)
		}
	}
	stopSession()
	if err := <-runDone; !errors.Is(err, context.Canceled) {
		t.Fatalf("session: %v", err)
	}
	<-collected

	st := sess.Stats()
	if st.Corrupt != 0 || st.Unknown != 0 {
		t.Errorf("live decoder skipped frames: %+v", st)
	}
	var dumps, fields, clocks, acks int
	for _, m := range live {
		switch m.Msg.(type) {
		case dgt.BoardDump:
			dumps++
		case dgt.FieldUpdate:
			fields++
		case dgt.ClockTime:
			clocks++
		case dgt.ClockAck:
			acks++
		}
	}
	if dumps == 0 || fields < 2*len(immortal) || clocks < len(immortal) {
		t.Errorf("live stream: %d board dumps, %d field updates, %d clock readings for %d plies", dumps, fields, clocks, len(immortal))
	}

	// Replay the capture: the same messages, at the same times.
	var replayed []decode.Message
	rst, err := decode.Run(bytes.NewReader(file.Bytes()), decode.Options{}, func(m decode.Message) error {
		m.Line = 0
		replayed = append(replayed, m)
		return nil
	})
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	if len(replayed) != len(live) {
		t.Fatalf("replay gave %d messages, live %d", len(replayed), len(live))
	}
	for i := range live {
		if !reflect.DeepEqual(live[i], replayed[i]) {
			t.Fatalf("message %d: live %+v, replay %+v", i, live[i], replayed[i])
		}
	}
	if rst.Ports["board"] != st {
		t.Errorf("replay counters %+v, live %+v", rst.Ports["board"], st)
	}
	if rst.Writes == 0 || rst.Meta["white"] != "Anderssen, Adolf" {
		t.Errorf("replay stats %+v", rst)
	}
	t.Logf("%d messages (%d field updates, %d clock readings), %d reads, %d writes, last byte at %v", len(live), fields, clocks, rst.Reads, rst.Writes, rst.End)
	if os.Getenv("ARBITERD_KEEP_CAPTURE") != "" {
		os.WriteFile(os.Getenv("ARBITERD_KEEP_CAPTURE"), file.Bytes(), 0o644)
	}
}
