package rules

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/notnil/chess"
)

// kasparovDeepBlue is the score of Kasparov – Deep Blue, New York 1997, game 2
// (public game score), a source of ordinary middlegame positions.
const kasparovDeepBlue = `e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 h6 d4 Re8
Nbd2 Bf8 Nf1 Bd7 Ng3 Na5 Bc2 c5 b3 Nc6 d5 Ne7 Be3 Ng6 Qd2 Nh7 a4 Nh4 Nxh4 Qxh4
Qe2 Qd8 b4 Qc7 Rec1 c4 Ra3 Rec8 Rca1 Qd8 f4 Nf6 fxe5 dxe5 Qf1 Ne8 Qf2 Nd6 Bb6 Qe8
R3a2 Be7 Bc5 Bf8 Nf5 Bxf5 exf5 f6 Bxd6 Bxd6 axb5 axb5 Be4 Rxa2 Qxa2 Qd7 Qa7 Rc7
Qb6 Rb7 Ra8+ Kf7 Qa6 Qc7 Qc6 Qb6+ Kf1 Rb8 Ra6`

func middlegame(tb testing.TB) []string {
	var sans []string
	g, _ := NewGame("")
	for _, f := range splitFields(kasparovDeepBlue) {
		if err := g.MoveSAN(f); err != nil {
			tb.Fatalf("%s: %v", f, err)
		}
		sans = append(sans, g.UCI(g.Ply()))
	}
	return sans
}

func splitFields(s string) []string {
	var out []string
	cur := ""
	for _, c := range s + " " {
		if c == ' ' || c == '\n' {
			if cur != "" {
				out = append(out, cur)
			}
			cur = ""
			continue
		}
		cur += string(c)
	}
	return out
}

// BenchmarkReconstruct explains 1–4 missed plies from middlegame positions of
// a real game (plies 20, 30, 40, 50 and 60 as starting points).
func BenchmarkReconstruct(b *testing.B) {
	ucis := middlegame(b)
	for _, occOnly := range []bool{false, true} {
		for k := 1; k <= 4; k++ {
			type tcase struct {
				g *Game
				s Snapshot
			}
			var cases []tcase
			for _, start := range []int{20, 30, 40, 50, 60} {
				g := mustGameB(b, ucis[:start])
				s := SnapshotOf(mustGameB(b, ucis[:start+k]).Position())
				s.OccupancyOnly = occOnly
				cases = append(cases, tcase{g, s})
			}
			name := fmt.Sprintf("plies=%d", k)
			if occOnly {
				name += "/occupancy"
			}
			b.Run(name, func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					c := cases[i%len(cases)]
					if r := Reconstruct(c.g, c.s, Options{}); r.Kind != Forward && r.Kind != Ambiguous {
						b.Fatalf("%v", r.Kind)
					}
				}
			})
		}
	}
}

func mustGameB(b *testing.B, ucis []string) *Game {
	g, _ := NewGame("")
	for _, m := range ucis {
		if err := g.MoveUCI(m); err != nil {
			b.Fatal(err)
		}
	}
	return g
}

// gameAt100 returns the UCI moves of a seeded random game that is still going
// after 101 plies.
func gameAt100(b *testing.B) []string {
	for seed := uint64(1); ; seed++ {
		rng := rand.New(rand.NewPCG(seed, 5))
		g, _ := NewGame("")
		if playRandom(b, g, rng, 101) == 101 {
			var out []string
			for i := 1; i <= 101; i++ {
				out = append(out, g.UCI(i))
			}
			return out
		}
	}
}

// BenchmarkMoveAtPly100 compares adding the 101st ply to the record with
// notnil/chess Game.Move on the same game. Each operation works on a fresh
// game at ply 100 (built outside the timer), so neither side reuses moves
// it generated in an earlier iteration.
func BenchmarkMoveAtPly100(b *testing.B) {
	ucis := gameAt100(b)
	const batch = 16
	b.Run("rules", func(b *testing.B) {
		base := mustGameB(b, ucis[:100])
		m := base.Clone()
		if err := m.MoveUCI(ucis[100]); err != nil {
			b.Fatal(err)
		}
		mv := m.Moves()[100]
		games := make([]*Game, batch)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if i%batch == 0 {
				b.StopTimer()
				for j := range games {
					games[j] = base.Clone()
				}
				b.StartTimer()
			}
			if err := games[i%batch].Move(mv); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("notnil", func(b *testing.B) {
		build := func() *chess.Game {
			ng := chess.NewGame(chess.UseNotation(chess.UCINotation{}))
			for _, s := range ucis[:100] {
				if err := ng.MoveStr(s); err != nil {
					b.Fatal(err)
				}
			}
			return ng
		}
		mv, err := chess.UCINotation{}.Decode(build().Position(), ucis[100])
		if err != nil {
			b.Fatal(err)
		}
		games := make([]*chess.Game, batch)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if i%batch == 0 {
				b.StopTimer()
				for j := range games {
					games[j] = build()
				}
				b.StartTimer()
			}
			if err := games[i%batch].Move(mv); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkReconstructLifted explains a board with one piece in the air (its
// square empty), the commonest unexplainable snapshot: every lift produces one.
func BenchmarkReconstructLifted(b *testing.B) {
	ucis := middlegame(b)
	for _, occOnly := range []bool{false, true} {
		var gs []*Game
		var snaps []Snapshot
		for _, start := range []int{20, 30, 40, 50, 60} {
			g := mustGameB(b, ucis[:start])
			s := SnapshotOf(g.Position())
			for sq, pc := range s.Squares {
				if pc != chess.NoPiece && pieceType(pc) != chess.King {
					l := s
					l.Squares[sq] = chess.NoPiece
					l.OccupancyOnly = occOnly
					gs = append(gs, g)
					snaps = append(snaps, l)
				}
			}
		}
		name := "full"
		if occOnly {
			name = "occupancy"
		}
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				Reconstruct(gs[i%len(gs)], snaps[i%len(gs)], Options{Retractable: 1})
			}
		})
	}
}
