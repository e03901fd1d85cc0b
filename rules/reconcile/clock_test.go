package reconcile

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/clockd"
)

func TestClockAndSessionAnomalies(t *testing.T) {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.clock(clockd.ClockEvent{Kind: clockd.Stopped, At: sec(5)})
	h.clock(clockd.ClockEvent{Kind: clockd.Resumed, At: sec(6)})
	h.clock(clockd.ClockEvent{Kind: clockd.Impossible, At: sec(7), Detail: "White's time rose without a press."})
	h.clock(clockd.ClockEvent{Kind: clockd.Disconnected, At: sec(8)})
	h.feed(h.g.Session(sec(9), "disconnected", "board"))
	h.feed(h.g.Session(sec(10), "connected", "board"))
	h.wantAnomalies(KindClockStopped, KindClockReading, KindClockDisconnected, KindBoardDisconnected)
	if a := h.of(TypeAnomaly); !a[0].NoSide || a[0].Article != "6.11" {
		t.Errorf("clock-stopped = %+v", a[0])
	}
	if s := h.of(TypeSession); len(s) != 2 || s[1].State != "connected" {
		t.Errorf("sessions %+v", s)
	}
}

func TestReferenceClockInStep(t *testing.T) {
	h := newHarness(t, Config{TimeControl: mustTC(t, "40/5400+30:1800+30")})
	h.show(0)
	h.start(0)
	h.play(10, "e4")
	h.press(10, W)
	h.play(25, "e5")
	h.press(25, B)
	h.advance(30)
	// Fischer: 30 s before the first move and after each completed move;
	// White used 10 s, Black 15 s, and White's clock has run 5 s since.
	want := clockd.Times{White: 5400*time.Second + 60*time.Second - 15*time.Second, Black: 5400*time.Second + 60*time.Second - 15*time.Second}
	if got := h.g.State().Expected; got != want {
		t.Errorf("expected clock %v, want %v", got, want)
	}
}

func TestOneReadSeveralPresses(t *testing.T) {
	// The host read late: three plies and their three presses arrive in
	// one read, all stamped with the same time, in the order they
	// happened. Each press completes the ply before it in that order —
	// plies in order, no press without a move (finding R1).
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(2, "e4")
	h.press(2.3, W)
	const read = 9.0
	h.put(read, "e7", chess.NoPiece)
	h.play(read, "e5")
	h.press(read, B)
	h.put(read, "g1", chess.NoPiece)
	h.play(read, "Nf3")
	h.press(read, W)
	h.put(read, "b8", chess.NoPiece)
	h.play(read, "Nc6")
	h.press(read, B)
	h.advance(12)
	h.wantAnomalies()
	h.wantCompleted(2, 2)
	var got []string
	for _, c := range h.of(TypeComplete) {
		got = append(got, fmt.Sprintf("%d:%s:%s:%d/%d", c.Ply, c.SAN, c.By, c.Moves.White, c.Moves.Black))
	}
	if want := "1:e4:press:1/0 2:e5:press:1/1 3:Nf3:press:2/1 4:Nc6:press:2/2"; strings.Join(got, " ") != want {
		t.Errorf("completions %s, want %s", strings.Join(got, " "), want)
	}
}
