package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writePairings writes a pairing PGN of rounds 1 (played) and 2 (to play)
// into dir.
func writePairings(t *testing.T, dir string) string {
	t.Helper()
	const pgn = `[Event "Club"]
[Round "1.1"]
[White "Alpha, Anna"]
[Black "Beta, Bert"]
[Result "1-0"]

1-0

[Event "Club"]
[Round "2.1"]
[White "Beta, Bert"]
[Black "Alpha, Anna"]
[WhiteElo "2400"]
[BlackFideId "1000001"]
[Result "*"]

*
`
	path := filepath.Join(dir, "pairs.pgn")
	if err := os.WriteFile(path, []byte(pgn), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// With a pairings file and no round, the round is the file's first round
// still to play; with a round, that round; each board's pair comes from
// it.
func TestPairingsInTheConfiguration(t *testing.T) {
	dir := t.TempDir()
	path := writePairings(t, dir)
	for _, c := range []struct{ round, want, white string }{{"", "2", "Beta, Bert"}, {"round: \"1\"\n", "1", "Alpha, Anna"}} {
		cfg, err := Parse("c.yaml", []byte("pairings: "+path+"\n"+c.round+"boards:\n  - number: 1\n    port: /dev/ttyUSB0\n    timecontrol: 90+30\n"))
		if err != nil {
			t.Fatalf("%q: %v", c.round, err)
		}
		p, ok := cfg.Pair(1)
		if cfg.Round != c.want || !ok || p.White.Name != c.white {
			t.Errorf("%q: round %q, board 1 %+v, want round %s with %s as White", c.round, cfg.Round, p, c.want, c.white)
		}
	}
}

// A pairings file that cannot be read, or lacks the round, is an error
// naming the setting's line and what is wrong in the file.
func TestPairingsErrors(t *testing.T) {
	dir := t.TempDir()
	path := writePairings(t, dir)
	bad := filepath.Join(dir, "bad.pgn")
	os.WriteFile(bad, []byte("[Round \"1.1\"]\n[White \"A\"]\n[Black \"B\"]\n[WhiteElo \"24OO\"]\n[Result \"*\"]\n\n*\n"), 0o644)
	for _, c := range []struct{ file, round, says []string }{
		{[]string{"pairings: " + filepath.Join(dir, "none.pgn")}, nil, []string{"c.yaml:2: pairings:", "none.pgn"}},
		{[]string{"pairings: " + bad}, nil, []string{"c.yaml:2: pairings:", "bad.pgn:4:", "24OO"}},
		{[]string{"pairings: " + path}, []string{`round: "7"`}, []string{"c.yaml:2: pairings:", "round 7"}},
		{[]string{"pairings: " + path}, []string{`round: "2b"`}, []string{"c.yaml:3: round:", "round number"}},
	} {
		text := "listen: 127.0.0.1:8080\n" + strings.Join(c.file, "\n") + "\n" + strings.Join(c.round, "\n") + "\nboards:\n  - number: 1\n    port: /dev/ttyUSB0\n    timecontrol: 90+30\n"
		_, err := Parse("c.yaml", []byte(text))
		for _, s := range c.says {
			if err == nil || !strings.Contains(err.Error(), s) {
				t.Errorf("%s: %v, want an error saying %q", text, err, s)
			}
		}
	}
}
