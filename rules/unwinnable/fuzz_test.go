package unwinnable

import (
	"strings"
	"testing"

	bb "github.com/arbiterd/arbiterd/rules/bitboard"
)

// FuzzCanMate feeds arbitrary query lines through ParseQuery and a small
// analysis: no input may panic, bad input must be an error, and every
// Winnable line must replay legally (with bitboard) to mate by the side.
func FuzzCanMate(f *testing.F) {
	for _, tc := range verdictCases {
		f.Add(tc.fen + " white")
		f.Add(tc.fen)
	}
	f.Add("8/8/8/8/8/8/8/8 w")
	f.Add("2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1 black id123")
	f.Fuzz(func(t *testing.T, line string) {
		q, err := ParseQuery(line)
		if err != nil {
			return
		}
		r, err := CanMate(q.FEN, q.Side, Options{Mode: Quick, NodeBudget: 300})
		if err != nil {
			t.Fatalf("ParseQuery accepted %q but CanMate rejects it: %v", q.FEN, err)
		}
		if r.Verdict != Winnable {
			return
		}
		pos, _ := bb.ParseFEN(q.FEN)
		for i, s := range r.Line {
			m, ok := pos.ParseMove(s)
			if !ok {
				t.Fatalf("%s: move %d %q of %v is illegal", q.FEN, i+1, s, r.Line)
			}
			pos.Make(m)
		}
		if !pos.IsCheckmate() || pos.Side() == q.Side {
			t.Fatalf("%s: line %v does not end in mate by %s", q.FEN, r.Line, q.Side)
		}
	})
}

func TestParseLabelled(t *testing.T) {
	good := []string{"WB 8/8/8/4k3/8/8/8/4K2R w - -", "-- 8/8/8/4k3/8/8/8/4K3 w - -"}
	for _, l := range good {
		if _, err := ParseLabelled(l); err != nil {
			t.Errorf("ParseLabelled(%q): %v", l, err)
		}
	}
	bad := []string{"", "XB 8/8/8/4k3/8/8/8/4K2R w - -", "WB", "WB8/8/8/4k3/8/8/8/4K2R w - -", "W- 8/8/8/4k3/8/8/8/4K2Z w - -"}
	for _, l := range bad {
		if _, err := ParseLabelled(l); err == nil {
			t.Errorf("ParseLabelled(%q) accepted a bad line", l)
		}
	}
	q, _ := ParseLabelled("W- 8/8/8/4k3/8/8/8/4K2R w - -")
	if !q.Label[bb.White] || q.Label[bb.Black] {
		t.Errorf("label W- parsed as %v", q.Label)
	}
}

func TestParseQuerySide(t *testing.T) {
	cases := []struct {
		line string
		want bb.Color
	}{
		{"8/8/8/4k3/8/8/8/4K2R w - - 0 1", bb.Black}, // the side not to move
		{"8/8/8/4k3/8/8/8/4K2R b - - 0 1", bb.White},
		{"8/8/8/4k3/8/8/8/4K2R w - - 0 1 white", bb.White},
		{"8/8/8/4k3/8/8/8/4K2R w - - 3 51 Y173WRCO", bb.Black},
	}
	for _, tc := range cases {
		q, err := ParseQuery(tc.line)
		if err != nil {
			t.Fatalf("ParseQuery(%q): %v", tc.line, err)
		}
		if q.Side != tc.want {
			t.Errorf("ParseQuery(%q).Side = %s, want %s", tc.line, q.Side, tc.want)
		}
	}
}

// TestSplitQuery checks the allocation-free split of a query line against
// strings.Fields and strings.Join.
func TestSplitQuery(t *testing.T) {
	for _, line := range []string{
		"8/8/8/4k3/8/8/8/4K2R w - - 0 1",
		"8/8/8/4k3/8/8/8/4K2R w - - 0 1 white",
		"8/8/8/4k3/8/8/8/4K2R w - - 0 1 gameid black",
		"8/8/8/4k3/8/8/8/4K2R w - - 0 1 gameid",
		"8/8/8/4k3/8/8/8/4K2R w",
		"8/8/8/4k3/8/8/8/4K2R w black",
		"8/8/8/4k3/8/8/8/4K2R  w - -\t0 1 white",
		" 8/8/8/4k3/8/8/8/4K2R w - - 0 1 ",
		"white", "black", "", "x", "a b c d e f g h",
		"8/8/8/4k3/8/8/8/4K2R\u00a0w - - 0 1",
	} {
		f := strings.Fields(line)
		var side string
		if n := len(f); n > 0 && (f[n-1] == "white" || f[n-1] == "black") {
			side, f = f[n-1], f[:n-1]
		}
		if len(f) > 6 {
			f = f[:6]
		}
		wantFEN := strings.Join(f, " ")
		if fen, sd := splitQuery(line); fen != wantFEN || sd != side {
			t.Errorf("splitQuery(%q) = %q, %q; want %q, %q", line, fen, sd, wantFEN, side)
		}
	}
}
