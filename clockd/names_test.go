package clockd

import (
	"testing"
	"time"
)

func TestParseWhiteFace(t *testing.T) {
	for in, want := range map[string]WhiteFace{"left": WhiteLeft, " Right ": WhiteRight, "AUTO": WhiteAuto} {
		got, err := ParseWhiteFace(in)
		if err != nil || got != want {
			t.Errorf("%q: %v %v", in, got, err)
		}
		if back, err := ParseWhiteFace(got.String()); err != nil || back != want {
			t.Errorf("%q: String %q does not parse back: %v %v", in, got, back, err)
		}
	}
	for _, bad := range []string{"", "white", "l", "leftt"} {
		if _, err := ParseWhiteFace(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestNames(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{White.String(), "white"}, {Black.String(), "black"}, {Side(5).String(), "Side(5)"},
		{White.Other().String(), "black"}, {Black.Other().String(), "white"},
		{Left.String(), "left"}, {Right.String(), "right"}, {Left.Other().String(), "right"}, {Face(9).String(), "Face(9)"},
		{Fischer.String(), "fischer"}, {Delay.String(), "delay"}, {Bronstein.String(), "bronstein"}, {Mode(7).String(), "Mode(7)"},
		{Standard.String(), "standard"}, {Rapid.String(), "rapid"}, {Blitz.String(), "blitz"}, {Class(4).String(), "Class(4)"},
		{Flag.String(), "flag"}, {PeriodAdded.String(), "period-added"}, {Started.String(), "started"}, {Press.String(), "press"},
		{Stopped.String(), "stopped"}, {Resumed.String(), "resumed"}, {Impossible.String(), "impossible"},
		{Disconnected.String(), "disconnected"}, {Connected.String(), "connected"}, {Adjusted.String(), "adjusted"},
		{BatteryLow.String(), "battery-low"}, {EventKind(0).String(), "EventKind(0)"},
		{WhiteFace(8).String(), "WhiteFace(8)"},
		{TimeControl{Periods: []Period{{Time: 1500 * time.Millisecond}}}.String(), "1.5"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
	if (TimeControl{}).Class() != Standard || (TimeControl{}).PeriodOf(3) != 1 {
		t.Error("empty control")
	}
}

func TestClockCorrections(t *testing.T) {
	tc, _ := ParseTimeControl("40/5400+30:1800+30")
	c := NewClock(tc)
	if c.Started() || c.TimeControl().String() != tc.String() {
		t.Fatal("new clock")
	}
	if s, run := c.Running(); s != White || run {
		t.Fatalf("running before start: %v %v", s, run)
	}
	c.Resume(sec(3)) // resuming a clock never started starts it
	if !c.Started() {
		t.Fatal("Resume did not start")
	}
	// The arbiter corrects the move counter (6.10): White is set to 39
	// completed moves in period 1, so the next completed move adds period 2.
	c.SetPeriod(White, 1, 39)
	evs := c.Press(White, sec(13), 40)
	if len(evs) != 1 || evs[0].Kind != PeriodAdded || evs[0].Period != 2 {
		t.Fatalf("events %v", evs)
	}
	c.SetPeriod(Black, 9, -4) // clamped
	if c.Period(Black) != 2 || c.Completed(Black) != 0 {
		t.Fatalf("clamp: %d %d", c.Period(Black), c.Completed(Black))
	}
	want := Times{White: sec(5430 - 10 + 1800 + 30), Black: sec(5430 - 7)}
	if got := c.Times(sec(20)); got != want {
		t.Fatalf("times %v, want %v", got, want)
	}
	c.Start(sec(30)) // a second Start changes nothing
	if got := c.Times(sec(20)); got != want {
		t.Fatalf("second Start changed times: %v", got)
	}
}
