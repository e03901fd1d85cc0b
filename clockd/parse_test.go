package clockd

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParseTimeControl(t *testing.T) {
	tests := []struct {
		in, canon string
		class     Class
	}{
		{"5400+30", "5400+30", Standard},
		{"40/5400+30:1800+30", "40/5400+30:1800+30", Standard},
		{"40/6000+30:20/3000+30:900+30", "40/6000+30:20/3000+30:900+30", Standard},
		{"40/7200:3600", "40/7200:3600", Standard},
		{"300d5", "300d5", Blitz},
		{"300b5", "300b5", Blitz},
		{"40/5400d30:1800d30", "40/5400d30:1800d30", Standard},
		{"5400+0", "5400", Standard},
		{"300d0", "300", Blitz},
		{"900+10", "900+10", Rapid},      // 15 + 10 = 25 min
		{"180+2", "180+2", Blitz},        // 3 + 2 = 5 min
		{"600", "600", Blitz},            // exactly 10 min
		{"601", "601", Rapid},            // just over 10
		{"1800+30", "1800+30", Standard}, // 30 + 30 = 60 min: not less than 60
		{"1800+29", "1800+29", Rapid},    // 59 min
		{"  300+2 ", "300+2", Blitz},     // surrounding space
		{"90/40+30+30s", "40/5400+30:1800+30", Standard},
		{"90'/40 + 30' + 30\"", "40/5400+30:1800+30", Standard},
		{"90’/40 + 30’ + 30”", "40/5400+30:1800+30", Standard},
		{"90 min/40 moves + 30 min + 30 s/move", "40/5400+30:1800+30", Standard},
		{"100'/40 + 50'/20 + 15' + 30\"", "40/6000+30:20/3000+30:900+30", Standard},
		{"15 min + 10 s", "900+10", Rapid},
		{"3'+2\"", "180+2", Blitz},
		{"5 min + 5 s delay", "300d5", Blitz},
		{"5' + 5\" bronstein", "300b5", Blitz},
		{"2h/40 + 1h", "40/7200:3600", Standard},
		{"25 minutes", "1500", Rapid},
		{"90'+30\" per move", "5400+30", Standard},
	}
	for _, tt := range tests {
		tc, err := ParseTimeControl(tt.in)
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		if got := tc.String(); got != tt.canon {
			t.Errorf("%q: String %q, want %q", tt.in, got, tt.canon)
		}
		if got := tc.Class(); got != tt.class {
			t.Errorf("%q: Class %v, want %v", tt.in, got, tt.class)
		}
		again, err := ParseTimeControl(tc.String())
		if err != nil || again.String() != tt.canon {
			t.Errorf("%q: canonical form does not parse back: %v %v", tt.in, again, err)
		}
	}
}

func TestParseTimeControlFields(t *testing.T) {
	tc, err := ParseTimeControl("40/5400+30:20/3000b10:900d5")
	if err != nil {
		t.Fatal(err)
	}
	want := []Period{
		{Moves: 40, Time: 5400 * time.Second, Mode: Fischer, Increment: 30 * time.Second},
		{Moves: 20, Time: 3000 * time.Second, Mode: Bronstein, Increment: 10 * time.Second},
		{Moves: 0, Time: 900 * time.Second, Mode: Delay, Increment: 5 * time.Second},
	}
	if len(tc.Periods) != len(want) {
		t.Fatalf("periods %v", tc.Periods)
	}
	for i := range want {
		if tc.Periods[i] != want[i] {
			t.Errorf("period %d: %+v, want %+v", i+1, tc.Periods[i], want[i])
		}
	}
	for completed, p := range map[int]int{0: 1, 39: 1, 40: 2, 59: 2, 60: 3, 200: 3, -1: 1} {
		if got := tc.PeriodOf(completed); got != p {
			t.Errorf("PeriodOf(%d) = %d, want %d", completed, got, p)
		}
	}
	for period, n := range map[int]int{1: 40, 2: 60, 3: 0, 0: 0, 4: 0} {
		if got := tc.Required(period); got != n {
			t.Errorf("Required(%d) = %d, want %d", period, got, n)
		}
	}
}

func TestParseTimeControlErrors(t *testing.T) {
	tests := []struct {
		in     string
		offset int
		msg    string // a fragment of the message
	}{
		{"", 0, "empty"},
		{"?", 0, "unknown"},
		{"-", 0, "no time control"},
		{"*180", 0, "sandclock"},
		{"40/5400", 0, "last period"},
		{"5400:1800", 0, "only the last period"},
		{"40/5400+30:", 11, "expected a period"},
		{"40/5400+30;1800", 10, "expected ':'"},
		{"40/", 3, "seconds"},
		{"0/300", 0, "move count must be positive"},
		{"40/0:300", 3, "positive time"},
		{"0", 0, "positive time"},
		{"300+", 4, "increment"},
		{"300+x", 4, "increment"},
		{"300x5", 3, "unexpected character"},
		{"40/5400+30:1800+3a", 17, "unexpected character"},
		{"99999999999999", 0, "too large"},
		{"300+9999", 4, "too large"},
		{"5000/300:60", 0, "move count is too large"},
		{"90'/40 + 30' + 30\" + 5\"", 15, "only the last part"},
		{"90'/40 + 30 parsecs", 12, "unknown unit"},
		{"90'/40 + ", 9, "expected a time"},
		{"90'/x", 4, "expected a move count"},
		{"90' 30'", 4, "expected '+'"},
		{"90'/40", 0, "last period"},
		{"90' + 30'", 0, "only the last period may omit"},
		{"0' + 30\"", 0, "positive time"},
	}
	for _, tt := range tests {
		_, err := ParseTimeControl(tt.in)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%q: error %v, want *SyntaxError", tt.in, err)
			continue
		}
		if se.Offset != tt.offset || !strings.Contains(se.Msg, tt.msg) || se.Text != tt.in {
			t.Errorf("%q: offset %d msg %q, want offset %d msg containing %q", tt.in, se.Offset, se.Msg, tt.offset, tt.msg)
		}
		if !strings.Contains(err.Error(), "time control") {
			t.Errorf("%q: message %q does not say what it is about", tt.in, err)
		}
	}
}

// FuzzParseTimeControl: any text either parses to a control whose
// canonical form parses back to itself, or gives a *SyntaxError whose
// offset lies within the text; never a panic.
func FuzzParseTimeControl(f *testing.F) {
	for _, s := range []string{"5400+30", "40/5400+30:1800+30", "300d5", "300b5", "90/40+30+30s",
		"90'/40 + 30' + 30\"", "*180", "?", "40/", "15 min + 10 s", "2h/40 + 1h", "5' + 5\" bronstein"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tc, err := ParseTimeControl(s)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("%q: %T %v", s, err, err)
			}
			if se.Offset < 0 || se.Offset > len(s) {
				t.Fatalf("%q: offset %d out of range", s, se.Offset)
			}
			_ = err.Error()
			return
		}
		if err := tc.Validate(); err != nil {
			t.Fatalf("%q parsed to an invalid control: %v", s, err)
		}
		canon := tc.String()
		again, err := ParseTimeControl(canon)
		if err != nil || again.String() != canon {
			t.Fatalf("%q -> %q does not round-trip: %v", s, canon, err)
		}
		if len(tc.Periods) == 0 || tc.Periods[len(tc.Periods)-1].Moves != 0 {
			t.Fatalf("%q: bad periods %+v", s, tc.Periods)
		}
		for _, p := range tc.Periods[:len(tc.Periods)-1] {
			if p.Moves <= 0 || p.Time <= 0 {
				t.Fatalf("%q: bad period %+v", s, p)
			}
		}
	})
}

func TestValidate(t *testing.T) {
	ok, _ := ParseTimeControl("40/5400+30:1800+30")
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []TimeControl{
		{},
		{Periods: []Period{{Moves: 40, Time: time.Hour}}},
		{Periods: []Period{{Time: time.Hour}, {Time: time.Hour}}},
		{Periods: []Period{{Time: 0}}},
		{Periods: []Period{{Time: time.Hour, Increment: -time.Second}}},
		{Periods: []Period{{Time: time.Hour, Mode: 9}}},
	} {
		if err := tc.Validate(); err == nil {
			t.Errorf("%+v accepted", tc)
		}
	}
}
