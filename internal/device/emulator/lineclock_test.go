package emulator

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/driver/dgt"
	"github.com/arbiterd/arbiterd/driver/lineclock"
)

// A board with NoClock sends no clock frame during play, answers a clock
// request with "no clock", and refuses a clock-off action.
func TestNoClockBoard(t *testing.T) {
	e, err := New(Config{Game: strings.Fields("e4 e5 Nf3 Nc6"), Seed: 1, NoClock: true})
	if err != nil {
		t.Fatal(err)
	}
	dec := dgt.NewDecoder()
	fields := 0
	for _, c := range e.Play() {
		for _, m := range dec.Feed(c.Data) {
			switch m.(type) {
			case dgt.ClockTime:
				t.Errorf("clock frame at %v from a board with no clock", c.At)
			case dgt.FieldUpdate:
				fields++
			}
		}
	}
	if fields == 0 {
		t.Fatal("no field updates: the game was not played")
	}
	s := newSim(&e.cfg, e.start, e.moves)
	s.simpleCommand(cmdSendClock, 0)
	if len(s.out) != 1 {
		t.Fatalf("%d answers to a clock request, want 1", len(s.out))
	}
	ms := dgt.NewDecoder().Feed(s.out[0])
	if ct, ok := ms[0].(dgt.ClockTime); len(ms) != 1 || !ok || !ct.NoClock {
		t.Fatalf("answer %v, want one BWTIME saying no clock", ms)
	}
	if _, err := New(Config{Game: []string{"e4"}, NoClock: true, Script: []Action{{Kind: ClockOff, Ply: 1}}}); err == nil ||
		!strings.Contains(err.Error(), "clock-off") || !strings.Contains(err.Error(), "NoClock") {
		t.Fatalf("clock-off with NoClock: %v, want an error naming both", err)
	}
}

// The lineclock follows the emulation: one PRESS per accepted press, by
// alternating faces (White's on the configured side), times in order, a
// STATUS at least every 500 ms while running, a FLAG when the last side to
// move thinks past its time, every line well formed and in sequence.
func TestLineClockFollowsGame(t *testing.T) {
	tc, err := clockd.ParseTimeControl("60+1")
	if err != nil {
		t.Fatal(err)
	}
	periods, err := ParseTimeControl("60+1")
	if err != nil {
		t.Fatal(err)
	}
	for _, right := range []bool{false, true} {
		lc := NewLineClock(tc, right)
		var end time.Duration
		presses := 0
		e, err := New(Config{Game: strings.Fields("e4 e5 Nf3 Nc6 Bb5"), Periods: periods, Seed: 2, NoClock: true, WhiteOnRight: right,
			End: EndFlag, ThinkTime: func(int) time.Duration { return 3 * time.Second },
			Observe: func(n Note) {
				end = max(end, n.At)
				if n.Kind == "press" {
					presses++
				}
				lc.Observe(n)
			}})
		if err != nil {
			t.Fatal(err)
		}
		e.Play()
		dec := lineclock.NewDecoder()
		white := clockd.Left
		if right {
			white = clockd.Right
		}
		var got []clockd.Face
		var flags []clockd.Face
		var last time.Duration
		var lastStatus time.Duration
		for _, c := range lc.Take(end + time.Second) {
			if c.At < last {
				t.Fatalf("chunk at %v after one at %v", c.At, last)
			}
			last = c.At
			for _, m := range dec.Feed(c.Data) {
				switch m := m.(type) {
				case lineclock.Press:
					got = append(got, m.Face)
				case lineclock.Flag:
					flags = append(flags, m.Face)
				case lineclock.Status:
					if m.Running && c.At-lastStatus > lineClockRunning {
						t.Errorf("status gap %v→%v while running", lastStatus, c.At)
					}
					lastStatus = c.At
				}
			}
		}
		if st := dec.Stats(); st.Bad != 0 || st.Gaps != 0 {
			t.Errorf("right=%v: %d bad lines, %d gaps (%v)", right, st.Bad, st.Gaps, dec.LastError())
		}
		if len(got) != presses || presses != 5 {
			t.Fatalf("right=%v: %d PRESS lines for %d presses, want 5", right, len(got), presses)
		}
		for i, f := range got {
			want := white
			if i%2 == 1 {
				want = white.Other()
			}
			if f != want {
				t.Errorf("right=%v: press %d on face %v, want %v", right, i+1, f, want)
			}
		}
		if len(flags) != 1 || flags[0] != white.Other() {
			t.Errorf("right=%v: flags %v, want one on Black's face", right, flags)
		}
		if end < 60*time.Second {
			t.Errorf("the game ended at %v, before Black's minute could run out", end)
		}
	}
}

// Run writes the clock's lines in real time, scaled by speed, and stops
// with its context.
func TestLineClockRun(t *testing.T) {
	tc, _ := clockd.ParseTimeControl("300+2")
	lc := NewLineClock(tc, false)
	r, w := io.Pipe()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- lc.Run(ctx, w, 10); w.Close() }()
	rd := lineclock.NewReader(r)
	var kinds []string
	for len(kinds) < 4 {
		m, err := rd.Next()
		if err != nil {
			t.Fatal(err)
		}
		switch m.(type) {
		case lineclock.Hello:
			kinds = append(kinds, "hello")
		case lineclock.Status:
			kinds = append(kinds, "status")
		}
	}
	if kinds[0] != "hello" || kinds[1] != "status" || kinds[3] != "status" {
		t.Fatalf("lines %v, want a greeting then statuses", kinds)
	}
	lc.Observe(Note{At: 2 * time.Second, Kind: "press"})
	for {
		m, err := rd.Next()
		if err != nil {
			t.Fatal(err)
		}
		if p, ok := m.(lineclock.Press); ok {
			if p.Face != clockd.Left || p.Left != 302*time.Second || p.Right != 302*time.Second {
				t.Fatalf("press %+v, want White's (left) at 5:02 both (Fischer: 2 s before the first move, 2 s used, 2 s back)", p)
			}
			break
		}
	}
	cancel()
	go io.Copy(io.Discard, r)
	if err := <-done; err != context.Canceled {
		t.Fatalf("Run returned %v, want context.Canceled", err)
	}
}

// A clock plugged back in (Run again) greets again and reports its state;
// what it said while unplugged is lost, and its time went on.
func TestLineClockReplug(t *testing.T) {
	tc, _ := clockd.ParseTimeControl("300+2")
	lc := NewLineClock(tc, false)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- lc.Run(ctx, io.Discard, 100) }()
	time.Sleep(50 * time.Millisecond) // 5 s of emulated time
	cancel()
	<-done
	lc.Observe(Note{At: 6 * time.Second, Kind: "press"}) // while unplugged
	time.Sleep(40 * time.Millisecond)                    // 4 s more
	r, w := io.Pipe()
	ctx, cancel = context.WithCancel(t.Context())
	defer cancel()
	go func() { done <- lc.Run(ctx, w, 100); w.Close() }()
	rd := lineclock.NewReader(r)
	m, err := rd.Next()
	if _, ok := m.(lineclock.Hello); err != nil || !ok {
		t.Fatalf("first line after replug %v (%v), want HELLO", m, err)
	}
	m, err = rd.Next()
	st, ok := m.(lineclock.Status)
	if err != nil || !ok {
		t.Fatalf("second line %v (%v), want STATUS", m, err)
	}
	if st.Seq != 0 || st.Turn != lineclock.TurnRight || st.Right >= 302*time.Second {
		t.Errorf("status after replug %+v, want sequence 0 and Black's (right) clock running since the press made while unplugged", st)
	}
	cancel()
	go io.Copy(io.Discard, r)
	<-done
}

// A press noted for a moment before the last status the clock sent (live,
// the board and the clock count from nearly the same instant) does not
// turn its time back: no face's time rises but by the increment.
func TestLineClockTimeNeverGoesBack(t *testing.T) {
	tc, _ := clockd.ParseTimeControl("60+1")
	lc := NewLineClock(tc, false)
	dec := lineclock.NewDecoder()
	var last [2]time.Duration // left, right
	check := func(l, r time.Duration, press bool) {
		t.Helper()
		slack := time.Duration(0)
		if press {
			slack = time.Second
		}
		if (last != [2]time.Duration{}) && (l > last[0]+slack || r > last[1]) {
			t.Errorf("times rose: %v %v after %v %v", l, r, last[0], last[1])
		}
		last = [2]time.Duration{l, r}
	}
	feed := func(cs []Chunk) {
		for _, c := range cs {
			for _, m := range dec.Feed(c.Data) {
				switch m := m.(type) {
				case lineclock.Status:
					check(m.Left, m.Right, false)
				case lineclock.Press:
					check(m.Left, m.Right, true)
				}
			}
		}
	}
	feed(lc.Take(10 * time.Second))
	lc.Observe(Note{At: 9 * time.Second, Kind: "press"})
	feed(lc.Take(10 * time.Second))
	if last[1] != 60*time.Second+time.Second {
		t.Errorf("Black's time %v after White's press, want its untouched 1:01", last[1])
	}
}
