package emulator

import (
	"testing"
	"time"
)

func FuzzParseAction(f *testing.F) {
	for _, s := range []string{"garbage@ply=20", "drop-clock@ply=7,n=3", "unplug@ply=30,for=10s",
		"kings@ply=41,result=1/2-1/2", "flag@5", "x@", "@ply=1", "garbage@ply=0", "kings@ply=3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAction(s)
		if err != nil {
			return
		}
		// What parses renders back to something that parses the same.
		b, err := ParseAction(a.String())
		if err != nil || b != a {
			t.Fatalf("%q → %+v → %q → %+v, %v", s, a, a.String(), b, err)
		}
	})
}

func TestParseAction(t *testing.T) {
	good := map[string]Action{
		"garbage@ply=20":         {Kind: Garbage, Ply: 20},
		"garbage@20,n=5":         {Kind: Garbage, Ply: 20, N: 5},
		"unplug@ply=3,for=1m":    {Kind: Unplug, Ply: 3, For: time.Minute},
		"kings@ply=9,result=0-1": {Kind: Kings, Ply: 9, Result: "0-1"},
		" early-period@ply=77 ":  {Kind: EarlyPeriod, Ply: 77},
		"merged-press@ply=4":     {Kind: MergedPress, Ply: 4},
		"drop-field@ply=4,n=2":   {Kind: DropField, Ply: 4, N: 2},
	}
	for s, want := range good {
		got, err := ParseAction(s)
		if err != nil || got != want {
			t.Errorf("ParseAction(%q) = %+v, %v; want %+v", s, got, err, want)
		}
	}
	bad := []string{"", "garbage", "nonsense@ply=1", "garbage@ply=0", "garbage@ply=x", "garbage@ply=1,n=0",
		"flag@ply=2,n=3", "unplug@ply=1,for=-1s", "unplug@ply=1,for=abc", "kings@ply=3", "kings@ply=3,result=2-0",
		"flag@ply=3,result=1-0", "garbage@ply=1,what=2", "garbage@n=3", "garbage@ply=1,n"}
	for _, s := range bad {
		if _, err := ParseAction(s); err == nil {
			t.Errorf("ParseAction(%q): no error", s)
		}
	}
}

func TestParseTimeControl(t *testing.T) {
	good := map[string][]Period{
		"40/5400+30:1800+30": {{Moves: 40, Time: 5400 * sec, Increment: 30 * sec}, {Time: 1800 * sec, Increment: 30 * sec}},
		"300d5":              {{Time: 300 * sec, Increment: 5 * sec, Mode: Delay}},
		"300b5":              {{Time: 300 * sec, Increment: 5 * sec, Mode: Bronstein}},
		"40/7200:3600":       {{Moves: 40, Time: 7200 * sec}, {Time: 3600 * sec}},
		"40/6000+30:20/3000+30:900+30": {{Moves: 40, Time: 6000 * sec, Increment: 30 * sec},
			{Moves: 20, Time: 3000 * sec, Increment: 30 * sec}, {Time: 900 * sec, Increment: 30 * sec}},
	}
	for s, want := range good {
		got, err := ParseTimeControl(s)
		if err != nil || len(got) != len(want) {
			t.Errorf("%q: %v, %v", s, got, err)
			continue
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%q period %d: %+v, want %+v", s, i+1, got[i], want[i])
			}
		}
	}
	bad := map[string]string{
		"":             "empty",
		"40/5400+x":    "offset 8",
		"5400:40/1800": "last period",
		"40/5400":      "last period",
		"5400:1800":    "move count",
		"300q5":        "offset 3",
		"0":            "positive time",
		"36000":        "9:59:59",
		"300+5x":       "offset 5",
	}
	for s, frag := range bad {
		_, err := ParseTimeControl(s)
		if err == nil || !contains(err.Error(), frag) {
			t.Errorf("ParseTimeControl(%q) = %v; want an error mentioning %q", s, err, frag)
		}
	}
}

func contains(s, sub string) bool {
	return len(sub) == 0 || (len(s) >= len(sub) && (s[:len(sub)] == sub || contains(s[1:], sub)))
}

func FuzzParseTimeControl(f *testing.F) {
	for _, s := range []string{"40/5400+30:1800+30", "300d5", "300b5", "40/7200:3600", "::", "40/", "+5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ps, err := ParseTimeControl(s)
		if err != nil {
			return
		}
		if checkPeriods(ps) != nil {
			t.Fatalf("%q parsed into invalid periods %+v", s, ps)
		}
	})
}

func FuzzPGNMoves(f *testing.F) {
	f.Add("1. e4 {c} e5 (1... c5) 2. Nf3 $1 1-0")
	f.Add("[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n1. Ka2")
	f.Add("1. e4 ((( ")
	f.Fuzz(func(t *testing.T, s string) {
		moves, fen, err := pgnMoves(s)
		if err != nil {
			return
		}
		// Whatever it extracted either plays or is refused with an error.
		_, _ = New(Config{Game: moves, StartFEN: fen})
	})
}

// FuzzCommands: any bytes from the host are answered with well-formed
// messages only, and never panic.
func FuzzCommands(f *testing.F) {
	f.Add([]byte{0x40, 0x42, 0x41, 0x45, 0x47, 0x4d, 0x55, 0x4c, 0x46, 0x49})
	f.Add([]byte{0x2b, 0x0a, 0x03, 0x0a, 0, 5, 7, 1, 2, 3, 0x01, 0x00})
	f.Add([]byte{0x2b, 0x03, 0x03, 0x09, 0x00, 0x2b, 0xff, 0x2b})
	f.Fuzz(func(t *testing.T, data []byte) {
		em, err := New(Config{Game: immortal[:4]})
		if err != nil {
			t.Fatal(err)
		}
		s := newSim(&em.cfg, em.start, em.moves)
		s.begin(0)
		s.command(data, time.Second)
		for !s.finished() {
			if _, ok := s.nextAt(); !ok {
				break
			}
			s.step()
		}
		var out []byte
		for _, o := range s.out {
			out = append(out, o...)
		}
		if _, skipped := splitFrames(out); skipped != 0 {
			t.Fatalf("%d stray bytes in the answer to % x", skipped, data)
		}
	})
}
