package pipeline_test

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/arbiterd/arbiterd/internal/boards/pipeline"
	"github.com/arbiterd/arbiterd/internal/testkit/shareddata"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

var uciMove = regexp.MustCompile(`\b[a-h][1-8][a-h][1-8][qrbn]?\b`)

// TestRealDGTGames replays the real games and checks that every completed
// ply is the game's own, in order, that every ply pressed is completed,
// and that arbiterd raises at most two anomalies in a game. These bytes
// come from a board whose clock sets turn bit D3 while the left face runs,
// the opposite of what the 2015 revision of the protocol header says.
func TestRealDGTGames(t *testing.T) {
	for _, tc := range []struct {
		game      string
		completed int // plies completed: the last ply of game 2 is never pressed
	}{{"game-1", 57}, {"game-2", 98}} {
		t.Run(tc.game, func(t *testing.T) {
			// Real DGT board bytes beside the repository: two games a
			// DGT board and clock sent, with their moves as UCI.
			realDGT := shareddata.Require(t, "real-dgt")
			capPath := filepath.Join(realDGT, tc.game+".capture")
			f, err := os.Open(capPath)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			text, err := os.ReadFile(filepath.Join(realDGT, tc.game+".uci"))
			if err != nil {
				t.Fatal(err)
			}
			want := uciMove.FindAllString(string(text), -1)

			made := map[int]string{} // ply → the move the board shows
			var done []int
			var anomalies []reconcile.Event
			var flags int
			_, err = pipeline.Replay(f, pipeline.Options{}, func(e reconcile.Event) error {
				switch e.Type {
				case reconcile.TypeMove:
					made[e.Ply] = e.UCI
				case reconcile.TypeComplete:
					done = append(done, e.Ply)
				case reconcile.TypeAnomaly:
					anomalies = append(anomalies, e)
				case reconcile.TypeFlag:
					flags++
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			for i, ply := range done {
				if ply != i+1 {
					t.Fatalf("completion %d is ply %d, want ply %d (completed: %v)", i+1, ply, i+1, done)
				}
				if i < len(want) && made[ply] != want[i] {
					t.Errorf("ply %d completed as %s, the game's move is %s", ply, made[ply], want[i])
				}
			}
			if len(done) != tc.completed {
				t.Errorf("%d plies completed, want %d", len(done), tc.completed)
			}
			if len(anomalies) > 2 {
				t.Errorf("%d anomalies, want at most 2:", len(anomalies))
				for i, a := range anomalies {
					if i == 10 {
						break
					}
					t.Logf("  %s at %v: %s", a.Kind, a.At, a.Detail)
				}
			}
			if flags != 0 {
				t.Errorf("%d flags reported; no flag fell in this game", flags)
			}
		})
	}
}
