package bitboard

import (
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/notnil/chess"
)

// TestDifferentialRandomGames plays seeded random games with notnil/chess
// from the perft positions and checks, in every position reached, that
// this package produces the same legal move set, the same check, mate
// and stalemate status, and that Make/Unmake round-trips.
func TestDifferentialRandomGames(t *testing.T) {
	// notnil/chess needs about a millisecond per position; the default
	// keeps the race-detector run short. ARBITERD_DIFF_GAMES raises it.
	games, plies := 2, 200
	if testing.Short() {
		games = 1
	}
	if n, err := strconv.Atoi(os.Getenv("ARBITERD_DIFF_GAMES")); err == nil && n > 0 {
		games = n
	}
	for i, tc := range perftCases {
		for g := 0; g < games; g++ {
			rng := rand.New(rand.NewPCG(uint64(i), uint64(g)))
			playRandomGame(t, tc.fen, rng, plies)
		}
	}
}

func playRandomGame(t *testing.T, fen string, rng *rand.Rand, plies int) {
	t.Helper()
	opt, err := chess.FEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	game := chess.NewGame(opt)
	pos, err := ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	var lastCheck bool
	for ply := 0; ply < plies; ply++ {
		ref := game.Position()
		var ml MoveList
		pos.LegalMoves(&ml)
		got := make([]string, 0, ml.N)
		for _, m := range ml.Slice() {
			got = append(got, m.UCI())
		}
		valid := ref.ValidMoves()
		want := make([]string, 0, len(valid))
		for _, m := range valid {
			want = append(want, m.String())
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("%s: legal moves differ\n got  %v\n want %v", ref, got, want)
		}
		ep := slices.ContainsFunc(ml.Slice(), Move.IsEnPassant)
		if pos.EnPassantLegal() != ep {
			t.Fatalf("%s: EnPassantLegal = %v, an en-passant capture among the legal moves: %v", ref, pos.EnPassantLegal(), ep)
		}
		if ply > 0 && pos.InCheck() != lastCheck {
			t.Fatalf("%s: InCheck = %v, notnil says %v", ref, pos.InCheck(), lastCheck)
		}
		mate, stale := false, false
		if len(valid) == 0 {
			st := ref.Status()
			mate, stale = st == chess.Checkmate, st == chess.Stalemate
		}
		if pos.IsCheckmate() != mate || pos.IsStalemate() != stale {
			t.Fatalf("%s: mate/stalemate = %v/%v, notnil says %v/%v", ref, pos.IsCheckmate(), pos.IsStalemate(), mate, stale)
		}
		for _, m := range ml.Slice() {
			q := pos
			u := q.Make(m)
			if pos.GivesCheck(m) != q.InCheck() {
				t.Fatalf("%s: GivesCheck(%s) = %v, but the move gives check: %v", ref, m, pos.GivesCheck(m), q.InCheck())
			}
			if q.Hash() != q.computeHash() {
				t.Fatalf("%s after %s: incremental hash differs from recomputed", ref, m)
			}
			if q.Unmake(m, u); q != pos {
				t.Fatalf("%s: Make/Unmake of %s did not restore the position", ref, m)
			}
		}
		if len(valid) == 0 {
			return
		}
		pick := valid[rng.IntN(len(valid))]
		m, ok := pos.ParseMove(pick.String())
		if !ok {
			t.Fatalf("%s: move %s not found", ref, pick)
		}
		before := pos
		u := pos.Make(m)
		if pos.Hash() != pos.computeHash() {
			t.Fatalf("%s after %s: incremental hash differs from recomputed", ref, m)
		}
		pos.Unmake(m, u)
		if pos != before {
			t.Fatalf("%s: Make/Unmake of %s did not restore the position", ref, m)
		}
		pos.Make(m)
		lastCheck = pick.HasTag(chess.Check)
		if err := game.Move(pick); err != nil {
			t.Fatal(err)
		}
		// Both sides agree on the placement and side to move.
		if a, b := pos.FEN(), game.Position().String(); fenPrefix(a, 2) != fenPrefix(b, 2) {
			t.Fatalf("after %s: FEN %q, notnil %q", m, a, b)
		}
	}
}

func fenPrefix(fen string, fields int) string {
	n := 0
	for i := 0; i < len(fen); i++ {
		if fen[i] == ' ' {
			n++
			if n == fields {
				return fen[:i]
			}
		}
	}
	return fen
}
