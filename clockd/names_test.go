package clockd

import "testing"

func TestNames(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{White.String(), "white"}, {Black.String(), "black"}, {Side(2).String(), "Side(2)"}, {Side(-1).String(), "Side(-1)"},
		{Fischer.String(), "fischer"}, {Delay.String(), "delay"}, {Bronstein.String(), "bronstein"}, {Mode(3).String(), "Mode(3)"},
		{Standard.String(), "standard"}, {Rapid.String(), "rapid"}, {Blitz.String(), "blitz"}, {Class(9).String(), "Class(9)"},
		{Left.String(), "left"}, {Right.String(), "right"}, {Face(2).String(), "Face(2)"},
		{WhiteAuto.String(), "auto"}, {WhiteLeft.String(), "left"}, {WhiteRight.String(), "right"}, {WhiteFace(3).String(), "WhiteFace(3)"},
		{EventKind(0).String(), "EventKind(0)"}, {Flag.String(), "flag"}, {PeriodAdded.String(), "period-added"},
		{BatteryLow.String(), "battery-low"}, {Running.String(), "running"}, {(Running + 1).String(), "EventKind(15)"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
