package audit

import (
	"io"
	"strings"
	"testing"
)

// FuzzReader: no input makes the reader or the audit panic, loop, or
// return a game without a ParseError for a line it could not read.
func FuzzReader(f *testing.F) {
	f.Add(twoGames)
	f.Add("[Event \"x\"]\n\n1. e4 {[%clk 0:00:00]} e5 {[%clk 99:99:99]} 1-0\n")
	f.Add("1. e4 ( 1. d4 ( 1. c4 ) ) { unclosed")
	f.Add("[FEN \"8/8/4k3/8/8/3K4/R7/8 b - - 0 1\"]\n[Termination \"time forfeit\"]\n[Result \"1-0\"]\n\n1... Kd5 {[%clk 0:00:00]} 1-0\n")
	f.Add("[TimeControl \"90 minutes for the first 40 moves, then 30 minutes with 30 seconds per move\"]\n\n1. e4 {[%clk 1:30:56] [%emt 0:00:04]} *\n")
	for _, sy := range synthGames(f)[:3] {
		f.Add(sy.pgn(f))
	}
	// One auditor for the whole run: its 6.9 analyzer allocates its table
	// once (the fuzz function is not run in parallel within a worker).
	a := New(Options{NodeBudget: 2000})
	f.Fuzz(func(t *testing.T, text string) {
		rd := NewReader(strings.NewReader(text), "fuzz.pgn")
		for range 10000 {
			g, err := rd.Next()
			if err == io.EOF {
				return
			}
			if g != nil {
				r := a.Game(g)
				for _, f := range r.Findings {
					if f.Kind == "" || f.Detail == "" {
						t.Fatalf("empty finding %+v", f)
					}
				}
			}
		}
		t.Fatal("the reader does not reach the end")
	})
}
