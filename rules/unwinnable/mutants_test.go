package unwinnable

import (
	"bufio"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	bb "github.com/arbiterd/arbiterd/rules/bitboard"
)

// TestMutantHunt looks for queries full mode leaves undetermined among
// positions one or a few men away from hard ones: from each query of the
// file ARBITERD_MUTANTS ("FEN side" lines, as the CLI reads them), it
// makes ARBITERD_MUTANT_EACH mutants (default 8) with a generator seeded
// by ARBITERD_MUTANT_SEED (default 77) and asks full mode for the query's
// side in each. ARBITERD_MUTANT_KIND is "move:N" (N men other than the
// kings moved to empty squares, default move:1), "remove" (one taken off)
// or "add" (a knight, bishop, rook, queen or pawn of either side put on an
// empty square); no pawn lands on the first or last rank, and a mutant
// ParseFEN refuses is not counted. The verdicts are logged, and each
// undetermined query; with ARBITERD_ENDGAME_FULL=1 one fails the test.
// docs/PERFORMANCE.md gives the commands that made its files.
func TestMutantHunt(t *testing.T) {
	file := os.Getenv("ARBITERD_MUTANTS")
	if file == "" {
		t.Skip("set ARBITERD_MUTANTS to a file of queries to mutate")
	}
	each := envCount(t, "ARBITERD_MUTANT_EACH", 8, 0, math.MaxInt)
	seed := envCount(t, "ARBITERD_MUTANT_SEED", 77, 0, math.MaxInt)
	kind, moves := "move", 1
	switch k := os.Getenv("ARBITERD_MUTANT_KIND"); {
	case k == "" || k == "remove" || k == "add":
		if k != "" {
			kind = k
		}
	case strings.HasPrefix(k, "move:"):
		n, err := strconv.Atoi(k[len("move:"):])
		if err != nil || n < 1 {
			t.Fatalf("ARBITERD_MUTANT_KIND=%q: want move:N with N at least 1", k)
		}
		moves = n
	default:
		t.Fatalf("ARBITERD_MUTANT_KIND=%q: want move:N, remove or add", k)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rng := rand.New(rand.NewPCG(uint64(seed), uint64(seed)+1))
	a := NewAnalyzer(Options{Mode: Full, LineBudget: -1})
	strict := os.Getenv("ARBITERD_ENDGAME_FULL") != ""
	count := map[Verdict]int{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		fields := strings.Fields(sc.Text())
		if len(fields) < 5 {
			continue
		}
		side := bb.White
		switch fields[len(fields)-1] {
		case "white":
		case "black":
			side = bb.Black
		default:
			t.Fatalf("%s:%d: want a side, white or black, after the FEN", file, line)
		}
		pos, err := bb.ParseFEN(strings.Join(fields[:len(fields)-1], " "))
		if err != nil {
			t.Fatalf("%s:%d: %v", file, line, err)
		}
		for _, m := range mutants(rng, &pos, each, kind, moves) {
			r := a.Analyze(&m, side)
			count[r.Verdict]++
			if r.Verdict == Undetermined {
				if strict {
					t.Errorf("%s for %s: undetermined in full mode", m.FEN(), side)
				} else {
					t.Logf("%s for %s: undetermined", m.FEN(), side)
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s, %d a query, seed %d: %d winnable, %d unwinnable, %d undetermined", kind, each, seed,
		count[Winnable], count[Unwinnable], count[Undetermined])
}

// mutants returns up to n placements one change of kind away from pos
// (moves men moved, for "move"), with pos's side to move and no castling
// or en passant, that ParseFEN accepts; up to 50 tries a mutant.
func mutants(rng *rand.Rand, pos *bb.Position, n int, kind string, moves int) []bb.Position {
	var out []bb.Position
	steps := moves
	if kind != "move" {
		steps = 1
	}
	for try := 0; try < 50*n && len(out) < n; try++ {
		var board [64]bb.Piece
		for s := range board {
			board[s] = pos.PieceAt(bb.Square(s))
		}
		ok := true
		for k := 0; k < steps && ok; k++ {
			var men []int
			for s := range board {
				if board[s] != bb.NoPiece && board[s].Type() != bb.King {
					men = append(men, s)
				}
			}
			if len(men) == 0 {
				ok = false
				break
			}
			from, to := men[rng.IntN(len(men))], rng.IntN(64)
			switch kind {
			case "remove":
				board[from] = bb.NoPiece
			case "add":
				if board[to] != bb.NoPiece {
					ok = false
					break
				}
				pt := bb.PieceType(rng.IntN(5))
				if pt == bb.Pawn && (to < 8 || to >= 56) {
					ok = false
					break
				}
				board[to] = bb.MakePiece(bb.Color(rng.IntN(2)), pt)
			default:
				if board[to] != bb.NoPiece || (board[from].Type() == bb.Pawn && (to < 8 || to >= 56)) {
					ok = false
					break
				}
				board[to], board[from] = board[from], bb.NoPiece
			}
		}
		if ok {
			var letters [64]byte
			for s, p := range board {
				letters[s] = '.'
				if p != bb.NoPiece {
					letters[s] = "PNBRQKpnbrqk"[int(p.Color())*6+int(p.Type())]
				}
			}
			if m, err := bb.ParseFEN(letterFEN(&letters, "wb"[pos.Side()])); err == nil {
				out = append(out, m)
			}
		}
	}
	return out
}
