package dgt_test

import (
	"context"
	"errors"
	"io"
	"reflect"
	"testing"
	"testing/synctest"
	"time"

	"github.com/arbiterd/arbiterd/driver/dgt"
	dt "github.com/arbiterd/arbiterd/driver/drivertest"
)

// runSession starts a session over a playback in the current synctest
// bubble and returns a function that stops it and returns Run's error and
// every event.
func runSession(t *testing.T, pb *dt.Playback, opts dgt.SessionOptions) (*dgt.Session, func() (error, []dgt.Event)) {
	pb.Fail = t.Errorf
	ctx, cancel := context.WithCancel(context.Background())
	context.AfterFunc(ctx, func() { pb.Close() })
	s := dgt.NewSession(pb, opts)
	var events []dgt.Event
	collected := make(chan struct{})
	go func() {
		for e := range s.Events() {
			events = append(events, e)
		}
		close(collected)
	}()
	runErr := make(chan error, 1)
	go func() { runErr <- s.Run(ctx) }()
	return s, func() (error, []dgt.Event) {
		cancel()
		err := <-runErr
		<-collected
		return err, events
	}
}

func msgs(events []dgt.Event) []dgt.Message {
	var out []dgt.Message
	for _, e := range events {
		if e.Msg != nil {
			out = append(out, e.Msg)
		}
	}
	return out
}

func states(events []dgt.Event) []dgt.State {
	var out []dgt.State
	for _, e := range events {
		if e.Msg == nil {
			out = append(out, e.State)
		}
	}
	return out
}

func TestSessionStartsBoardAndAcksClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := dt.DGTStartPosition()
		setRun, _ := dgt.SetAndRun(90*time.Minute, 90*time.Minute, dgt.RunNone)
		var startReply []byte
		startReply = append(startReply, dt.DGTSerial("40123")...)
		startReply = append(startReply, dt.DGTVersion(1, 7)...)
		startReply = append(startReply, dt.DGTBoardDump(start)...)
		pb := &dt.Playback{ReadChunk: 5, Steps: []dt.Step{
			{Write: dgt.StartCommands(), Read: startReply},
			{Write: setRun, Read: dt.DGTClockAck([4]byte{0x10, dgt.ClockSetAndRun, 0, 0})},
			{Write: dgt.PollCommands(), Read: dt.DGTSerial("40123")},
		}}
		s, stop := runSession(t, pb, dgt.SessionOptions{})
		if err := s.SendClock(context.Background(), setRun); err != nil {
			t.Fatalf("SendClock: %v", err)
		}
		time.Sleep(1500 * time.Millisecond) // one keep-alive poll
		synctest.Wait()
		if !pb.Done() {
			t.Error("the recording was not played to the end")
		}
		err, events := stop()
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Run: %v", err)
		}
		want := []dgt.Message{dgt.Serial{Number: "40123"}, dgt.Version{Major: 1, Minor: 7}, dgt.BoardDump{Fields: start},
			dgt.ClockAck{Ack: [4]byte{0x10, dgt.ClockSetAndRun, 0, 0}}, dgt.Serial{Number: "40123"}}
		if got := msgs(events); !reflect.DeepEqual(got, want) {
			t.Errorf("messages %v, want %v", got, want)
		}
		if got := states(events); !reflect.DeepEqual(got, []dgt.State{dgt.StateReady}) {
			t.Errorf("states %v", got)
		}
		if events[len(events)-1].At < time.Second {
			t.Errorf("poll answer stamped %v", events[len(events)-1].At)
		}
	})
}

func TestSessionMarksSilentBoardUnresponsive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		poll := dgt.PollCommands()
		pb := &dt.Playback{Steps: []dt.Step{
			{Write: dgt.StartCommands(), Read: dt.DGTSerial("00001")},
			{Write: poll}, // 1 s: no answer
			{Write: poll}, // 2 s: still none → unresponsive
			{Write: poll, Read: dt.DGTSerial("00001")}, // 3 s: back
		}}
		s, stop := runSession(t, pb, dgt.SessionOptions{})
		time.Sleep(2500 * time.Millisecond)
		synctest.Wait()
		if s.State() != dgt.StateUnresponsive {
			t.Errorf("state after two silent polls: %v", s.State())
		}
		time.Sleep(time.Second)
		synctest.Wait()
		err, events := stop()
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Run: %v", err)
		}
		want := []dgt.State{dgt.StateReady, dgt.StateUnresponsive, dgt.StateReady}
		if got := states(events); !reflect.DeepEqual(got, want) {
			t.Errorf("states %v, want %v", got, want)
		}
		for _, e := range events {
			if e.Msg == nil && e.State == dgt.StateUnresponsive && e.At != 2*time.Second {
				t.Errorf("unresponsive at %v, want 2s", e.At)
			}
		}
	})
}

func TestSessionResendsUnackedClockCommand(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		beep, _ := dgt.Beep(time.Second)
		pb := &dt.Playback{Steps: []dt.Step{
			{Write: dgt.StartCommands()},
			{Write: beep}, // lost
			{Write: beep, Read: dt.DGTClockAck([4]byte{0x10, 0x88, 0, 0x33})}, // a button, not the ack
			{Write: beep, Read: dt.DGTClockAck([4]byte{0x10, dgt.ClockBeep, 0, 0})},
		}}
		s, stop := runSession(t, pb, dgt.SessionOptions{PollInterval: time.Hour})
		t0 := time.Now()
		if err := s.SendClock(context.Background(), beep); err != nil {
			t.Fatalf("SendClock: %v", err)
		}
		if d := time.Since(t0); d != 4*time.Second {
			t.Errorf("acknowledged after %v, want 4s (two resends 2 s apart)", d)
		}
		stop()
	})
}

func TestSessionGivesUpAfterMaxSends(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		beep, _ := dgt.Beep(0)
		pb := &dt.Playback{Steps: []dt.Step{{Write: dgt.StartCommands()}, {Write: beep}, {Write: beep}}}
		s, stop := runSession(t, pb, dgt.SessionOptions{PollInterval: time.Hour, MaxSends: 2, AckTimeout: time.Second})
		err := s.SendClock(context.Background(), beep)
		if !errors.Is(err, dgt.ErrNoAck) {
			t.Fatalf("SendClock: %v, want ErrNoAck", err)
		}
		if err := s.SendClock(context.Background(), []byte{0x2b, 0x01}); err == nil {
			t.Error("a malformed clock command was accepted")
		}
		stop()
	})
}

func TestSessionEndsWhenBoardGoesAway(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pb := &dt.Playback{Steps: []dt.Step{{Write: dgt.StartCommands(), Read: dt.DGTFieldUpdate(1, 0)}}}
		s := dgt.NewSession(pb, dgt.SessionOptions{})
		done := make(chan error, 1)
		go func() { done <- s.Run(context.Background()) }()
		var got []dgt.Message
		go func() {
			time.Sleep(100 * time.Millisecond)
			pb.Close() // unplugged: reads end
		}()
		for e := range s.Events() {
			if e.Msg != nil {
				got = append(got, e.Msg)
			}
		}
		err := <-done
		if err == nil || errors.Is(err, context.Canceled) {
			t.Fatalf("Run after the board went away: %v", err)
		}
		if !reflect.DeepEqual(got, []dgt.Message{dgt.FieldUpdate{Field: 1}}) {
			t.Errorf("messages %v", got)
		}
	})
}

// emptyReader returns (0, nil) for ever, like go.bug.st/serial on a
// timeout when nothing wraps it.
type emptyReader struct{}

func (emptyReader) Read([]byte) (int, error)    { return 0, nil }
func (emptyReader) Write(b []byte) (int, error) { return len(b), nil }

func TestSessionRefusesEndlessEmptyReads(t *testing.T) {
	s := dgt.NewSession(emptyReader{}, dgt.SessionOptions{})
	go func() {
		for range s.Events() {
		}
	}()
	err := s.Run(context.Background())
	if !errors.Is(err, io.ErrNoProgress) {
		t.Fatalf("Run over a reader that only returns (0, nil): %v", err)
	}
	if err := s.Run(context.Background()); !errors.Is(err, dgt.ErrSessionEnded) {
		t.Errorf("second Run: %v", err)
	}
	beep, _ := dgt.Beep(0)
	if err := s.SendClock(context.Background(), beep); !errors.Is(err, dgt.ErrSessionEnded) {
		t.Errorf("SendClock after Run: %v", err)
	}
}

// closingLine is a board line that the context's end closes in the middle
// of a write: writes after the start commands cancel the context and fail,
// as a port closed by the cancellation does; reads wait for the close.
type closingLine struct {
	cancel context.CancelFunc
	writes int
	closed chan struct{}
}

func (l *closingLine) Read([]byte) (int, error) { <-l.closed; return 0, io.ErrClosedPipe }
func (l *closingLine) Write(b []byte) (int, error) {
	if l.writes++; l.writes == 1 {
		return len(b), nil
	}
	l.cancel()
	close(l.closed)
	return 0, io.ErrClosedPipe
}

// A write that fails because the line closed with the context is the
// cancellation, as a failed read is: Run returns the context's error, not
// a write error.
func TestSessionWriteOnCancelledLine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		line := &closingLine{cancel: cancel, closed: make(chan struct{})}
		s := dgt.NewSession(line, dgt.SessionOptions{})
		go func() {
			for range s.Events() {
			}
		}()
		if err := s.Run(ctx); !errors.Is(err, context.Canceled) {
			t.Errorf("Run: %v, want the cancellation", err)
		}
	})
}
