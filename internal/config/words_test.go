package config

import (
	"testing"

	"github.com/arbiterd/arbiterd/clockd"
)

func TestTimeControlWords(t *testing.T) {
	tests := []struct{ tc, words, suggest string }{
		{"90+30", "90 seconds (1 min 30 s) for the game, plus 30 seconds per move from move 1", "5400+30"},
		{"5400+30", "90 minutes for the game, plus 30 seconds per move from move 1", ""},
		{"40/5400+30:1800+30", "90 minutes for 40 moves, plus 30 seconds per move from move 1; then 30 minutes for the rest of the game", ""},
		{"40/90+30:30+30", "90 seconds (1 min 30 s) for 40 moves, plus 30 seconds per move from move 1; then 30 seconds for the rest of the game", "40/5400+30:1800+30"},
		{"40/7200:20/3600:1800", "2 hours for 40 moves; then 60 minutes for 20 moves; then 30 minutes for the rest of the game", ""},
		{"15+10", "15 seconds for the game, plus 10 seconds per move from move 1", "900+10"},
		{"180+2", "3 minutes for the game, plus 2 seconds per move from move 1", ""},
		{"300d5", "5 minutes for the game, with a delay of 5 seconds per move", ""},
		{"300b5", "5 minutes for the game, with up to 5 seconds given back per move (Bronstein)", ""},
		{"60", "1 minute for the game", ""},
		{"45", "45 seconds for the game", "2700"},
	}
	for _, tt := range tests {
		tc, err := clockd.ParseTimeControl(tt.tc)
		if err != nil {
			t.Fatal(err)
		}
		if got := TimeControlWords(tc); got != tt.words {
			t.Errorf("%s: %q\nwant %q", tt.tc, got, tt.words)
		}
		s, suspect := MinutesMeant(tc)
		switch {
		case suspect != (tt.suggest != ""):
			t.Errorf("%s: looks written in minutes: %v", tt.tc, suspect)
		case suspect && s.String() != tt.suggest:
			t.Errorf("%s: suggests %s, want %s", tt.tc, s, tt.suggest)
		}
	}
}
