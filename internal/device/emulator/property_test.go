package emulator

import (
	"github.com/arbiterd/arbiterd/internal/testkit/shareddata"
	"math/rand"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/notnil/chess"
)

// randomGame plays random legal moves (preferring captures, castling,
// promotions and en passant so the hand noise of each is exercised).
func randomGame(rng *rand.Rand, maxPlies int) []string {
	pos := chess.StartingPosition()
	var moves []string
	for len(moves) < maxPlies {
		valid := pos.ValidMoves()
		if len(valid) == 0 {
			break
		}
		var special []*chess.Move
		for _, m := range valid {
			if m.HasTag(chess.Capture) || m.HasTag(chess.EnPassant) || m.HasTag(chess.KingSideCastle) ||
				m.HasTag(chess.QueenSideCastle) || m.Promo() != chess.NoPieceType {
				special = append(special, m)
			}
		}
		m := valid[rng.Intn(len(valid))]
		if len(special) > 0 && rng.Intn(2) == 0 {
			m = special[rng.Intn(len(special))]
		}
		moves = append(moves, chess.UCINotation{}.Encode(pos, m))
		pos = pos.Update(m)
	}
	return moves
}

// TestRandomGamesReachEveryPosition is the property: whatever the game and
// the noise, applying the field updates to the start board passes through
// every position of the game in order and ends on the last one.
func TestRandomGamesReachEveryPosition(t *testing.T) {
	n := 16
	if testing.Short() {
		n = 4
	}
	kinds := map[string]int{}
	for seed := int64(1); seed <= int64(n); seed++ {
		rng := rand.New(rand.NewSource(seed))
		moves := randomGame(rng, 160)
		cfg := Config{Game: moves, Seed: seed, Reversed: seed%3 == 0, WhiteOnRight: seed%2 == 0,
			Periods: []Period{{Time: 2 * time.Hour, Increment: 30 * time.Second}}}
		its, skipped := items(t, stream(t, cfg))
		if skipped != 0 {
			t.Fatalf("seed %d: %d stray bytes", seed, skipped)
		}
		fens := gameFENs(t, "", moves)
		reached, board := replayBoard(t, onlyFrames(its), fens, cfg.Reversed)
		if reached != len(moves) {
			t.Fatalf("seed %d: reached %d of %d positions (%v)", seed, reached, len(moves), moves)
		}
		final := fenFields(t, fens[len(fens)-1])
		if cfg.Reversed {
			final = reverseFields(final)
		}
		if board != final {
			t.Fatalf("seed %d: the board does not end on the final position", seed)
		}
		if got := turns(its); len(got) != len(moves)+1 {
			t.Fatalf("seed %d: %d visible turns for %d plies", seed, len(got), len(moves))
		}
		for _, m := range moves {
			if len(m) == 5 {
				kinds["promotion"]++
			}
		}
	}
	if kinds["promotion"] == 0 {
		t.Log("no promotion in the random games")
	}
}

// TestEveryMoveKind checks positions that force each special move.
func TestEveryMoveKind(t *testing.T) {
	tests := []struct {
		name, fen string
		moves     []string
	}{
		{"castling both ways", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", []string{"O-O", "O-O-O"}},
		{"en passant", "4k3/8/8/8/4p3/8/3P4/4K3 w - - 0 1", []string{"d4", "exd3"}},
		{"promotion with capture", "1n2k3/P1P5/8/8/8/8/8/4K3 w - - 0 1", []string{"axb8=Q+", "Kd7", "c8=N"}},
		{"long slides", "4k3/8/8/8/8/8/8/Q3K3 w - - 0 1", []string{"Qa8+", "Kd7", "Qh1", "Ke6", "Qa8"}},
	}
	for _, tc := range tests {
		for seed := int64(1); seed <= 12; seed++ {
			cfg := Config{Game: tc.moves, StartFEN: tc.fen, Seed: seed, Reversed: seed%2 == 0,
				Periods: []Period{{Time: time.Hour}}}
			its, _ := items(t, stream(t, cfg))
			fens := gameFENs(t, tc.fen, tc.moves)
			if reached, _ := replayBoard(t, onlyFrames(its), fens, cfg.Reversed); reached != len(tc.moves) {
				t.Errorf("%s seed %d: reached %d of %d", tc.name, seed, reached, len(tc.moves))
			}
		}
	}
}

func sharedGames(t *testing.T) string {
	b, err := os.ReadFile(shareddata.Require(t, "games", "games.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// splitPGN cuts a PGN file into games at each "[Event" that follows
// movetext.
func splitPGN(text string) []string {
	var games []string
	parts := strings.Split(text, "\n[Event ")
	for i, p := range parts {
		if i > 0 {
			p = "[Event " + p
		}
		if strings.TrimSpace(p) != "" {
			games = append(games, p)
		}
	}
	return games
}

func TestSharedGames(t *testing.T) {
	games := splitPGN(sharedGames(t))
	if len(games) == 0 {
		t.Fatal("no games")
	}
	for i, pgn := range games {
		moves, fen, err := pgnMoves(pgn)
		if err != nil {
			t.Fatalf("game %d: %v", i+1, err)
		}
		cfg := Config{PGN: pgn, Seed: int64(i), Periods: []Period{{Moves: 40, Time: 2 * time.Hour, Increment: 30 * time.Second}, {Time: time.Hour, Increment: 30 * time.Second}}}
		em, err := New(cfg)
		if err != nil {
			t.Fatalf("game %d: %v", i+1, err)
		}
		its, _ := items(t, em.Play())
		fens := gameFENs(t, fen, moves)
		if reached, _ := replayBoard(t, onlyFrames(its), fens, false); reached != len(moves) {
			t.Errorf("game %d: reached %d of %d positions", i+1, reached, len(moves))
		}
	}
}

func TestPGNMoves(t *testing.T) {
	tests := []struct {
		name, pgn string
		want      []string
		wantFEN   string
	}{
		{"plain", "1. e4 e5 2. Nf3 1-0", []string{"e4", "e5", "Nf3"}, ""},
		{"comments variations NAGs", "[White \"x\"]\n\n1. e4 {best by test} e5 (1... c5 2. Nf3 (2. c3)) 2. Nf3!? $1 ; line comment\nNc6 3... a6 *",
			[]string{"e4", "e5", "Nf3", "Nc6", "a6"}, ""},
		{"numbers glued", "1.e4 e5 2.Nf3", []string{"e4", "e5", "Nf3"}, ""},
		{"fen tag", "[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n1. Ka2", []string{"Ka2"}, "8/8/8/8/8/8/8/K6k w - - 0 1"},
		{"first game only", "[Event \"a\"]\n1. e4 1-0\n\n[Event \"b\"]\n1. d4 0-1", []string{"e4"}, ""},
		{"next game without result", "[Event \"a\"]\n1. e4\n[Event \"b\"]\n1. d4", []string{"e4"}, ""},
	}
	for _, tc := range tests {
		got, fen, err := pgnMoves(tc.pgn)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") || fen != tc.wantFEN {
			t.Errorf("%s: got %v %q, want %v %q", tc.name, got, fen, tc.want, tc.wantFEN)
		}
	}
	for _, bad := range []string{"1. e4 {open", "1. e4 (1. d4", "1. e4 )", "[Event \"x\""} {
		if _, _, err := pgnMoves(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
