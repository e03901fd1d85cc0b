package rules

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/notnil/chess"
)

// sharedData returns the path of a file under the shared data directory that
// sits next to the repository (../shared from the module root), skipping the
// test when it is absent.
func sharedData(t *testing.T, rel string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("module root not found")
		}
		dir = parent
	}
	p := filepath.Join(dir, "..", "shared", "data", rel)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("shared data %s absent", p)
	}
	return p
}

type pgnGame struct {
	tags  map[string]string
	moves []string
}

var (
	pgnTag     = regexp.MustCompile(`^\[(\w+)\s+"(.*)"\]\s*$`)
	pgnComment = regexp.MustCompile(`\{[^}]*\}|;[^\n]*`)
	pgnNoise   = regexp.MustCompile(`\$\d+|\d+\.(\.\.)?|1-0|0-1|1/2-1/2|\*`)
)

// parsePGN reads the games of a PGN file: tags, and the main line's SAN moves
// (comments, variations, NAGs, move numbers and results removed).
func parsePGN(text string) []pgnGame {
	var games []pgnGame
	var cur *pgnGame
	var body strings.Builder
	flush := func() {
		if cur == nil {
			return
		}
		s := pgnComment.ReplaceAllString(body.String(), " ")
		// Drop variations, which may nest.
		var main strings.Builder
		depth := 0
		for _, c := range s {
			switch {
			case c == '(':
				depth++
			case c == ')':
				depth--
			case depth == 0:
				main.WriteRune(c)
			}
		}
		s = pgnNoise.ReplaceAllString(main.String(), " ")
		cur.moves = strings.Fields(s)
		games = append(games, *cur)
		cur = nil
		body.Reset()
	}
	for _, line := range strings.Split(text, "\n") {
		if m := pgnTag.FindStringSubmatch(line); m != nil {
			if cur != nil && body.Len() > 0 {
				flush()
			}
			if cur == nil {
				cur = &pgnGame{tags: map[string]string{}}
			}
			cur.tags[m[1]] = m[2]
			continue
		}
		body.WriteString(line + "\n")
	}
	flush()
	return games
}

// TestReplayReferenceGames replays the shared reference games through the
// record by SAN, checks every position against notnil/chess, and checks the
// end of the game against the PGN result.
func TestReplayReferenceGames(t *testing.T) {
	data, err := os.ReadFile(sharedData(t, "games/games.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	games := parsePGN(string(data))
	if len(games) < 10 {
		t.Fatalf("read %d games from games.pgn", len(games))
	}
	total := 0
	for gi, pg := range games {
		g, err := NewGame(pg.tags["FEN"])
		if err != nil {
			t.Fatalf("game %d: %v", gi+1, err)
		}
		np := g.Position()
		for i, san := range pg.moves {
			if err := g.MoveSAN(san); err != nil {
				t.Fatalf("game %d (%s - %s) move %d %q: %v", gi+1, pg.tags["White"], pg.tags["Black"], i+1, san, err)
			}
			m, err := chess.AlgebraicNotation{}.Decode(np, san)
			if err != nil {
				// notnil cannot read some legal SAN forms; the FEN check still runs below.
				m = g.Moves()[g.Ply()-1]
			}
			np = np.Update(m)
			if g.FEN() != np.String() {
				t.Fatalf("game %d ply %d %s: record %s, notnil %s", gi+1, i+1, san, g.FEN(), np)
			}
			if strings.TrimRight(san, "+#!?") != strings.TrimRight(g.SAN(g.Ply()), "+#") && !strings.Contains(san, "-") {
				t.Errorf("game %d ply %d: SAN %q written back as %q", gi+1, i+1, san, g.SAN(g.Ply()))
			}
		}
		total += g.Ply()
		st := g.Status()
		if st.Reason == "checkmate" && st.Result != pg.tags["Result"] {
			t.Errorf("game %d ends in mate %s, PGN says %s", gi+1, st.Result, pg.tags["Result"])
		}
		if strings.HasSuffix(pg.moves[len(pg.moves)-1], "#") != (st.Reason == "checkmate") {
			t.Errorf("game %d: last move %q, status %+v", gi+1, pg.moves[len(pg.moves)-1], st)
		}
	}
	t.Logf("%d games, %d plies replayed", len(games), total)
}
