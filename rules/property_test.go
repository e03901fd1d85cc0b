package rules

import (
	"math/rand/v2"
	"testing"

	"github.com/notnil/chess"
)

// reaches reports whether seq, played from position start, is legal and ends on
// a placement equal to s (occupancy only if s says so).
func reaches(start *chess.Position, seq []*chess.Move, s Snapshot) bool {
	p := start
	for _, m := range seq {
		var legal *chess.Move
		for _, v := range p.ValidMoves() {
			if v.String() == m.String() {
				legal = v
			}
		}
		if legal == nil {
			return false
		}
		p = p.Update(legal)
	}
	return SnapshotOf(p).matches(s)
}

func uciSeq(ms []*chess.Move) string {
	s := ""
	for i, m := range ms {
		if i > 0 {
			s += " "
		}
		s += m.String()
	}
	return s
}

// reachesFrom is reaches on the record's own positions: each move must be
// among the legal moves generated there (the generator is checked against
// notnil by perft and the differential tests).
func reachesFrom(p position, seq []*chess.Move, s Snapshot) bool {
	for _, m := range seq {
		found := false
		for _, im := range p.genLegal(nil) {
			if chess.Square(im.from) == m.S1() && chess.Square(im.to) == m.S2() && im.promo == m.Promo() {
				p.apply(im)
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	var ps Snapshot
	for i, pc := range p.sq {
		ps.Squares[i] = pc
	}
	return ps.matches(s)
}

var endgames = []string{
	"8/5pk1/6p1/8/5P2/6P1/5K2/3R4 w - - 0 40",
	"8/8/4k3/3rp3/8/3RK3/4P3/8 w - - 0 50",
	"6k1/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 30",
	"8/2k5/8/1p6/1P6/8/5K2/8 w - - 0 60",
	"4k3/8/8/8/3BN3/8/8/4K3 w - - 0 70",
	"8/8/3k4/8/8/2QK4/8/7q w - - 140 120", // 75 moves within reach
	"r5k1/5ppp/8/8/8/8/5PPP/1R4K1 b - - 144 90",
}

// TestReconstructRandomGames plays seeded random games; after every k plies
// (k cycling 1..4) it shows Reconstruct the board and checks that the played
// sequence is reported (alone, or among Ambiguous candidates), or that a
// strictly shorter explanation was found; every reported sequence must be
// legal and reach the snapshot.
func TestReconstructRandomGames(t *testing.T) {
	// 2,000 games in every full run, the race detector's included (CI
	// runs the suite with -race); -short plays 300.
	games := 2000
	if testing.Short() {
		games = 300
	}
	rng := rand.New(rand.NewPCG(7, 11))
	var calls, plies, shorter, ambiguous, occ, takeBacks int
	for gi := 0; gi < games; gi++ {
		// Most games are short openings; every twentieth runs long, and every
		// twentieth plays out an endgame, some near the 75-move limit.
		fen := ""
		length := 8 + rng.IntN(24)
		switch gi % 20 {
		case 0:
			length = 120 + rng.IntN(100)
		case 10:
			fen = endgames[(gi/20)%len(endgames)]
			length = 80 + rng.IntN(80)
		}
		g, err := NewGame(fen)
		if err != nil {
			t.Fatal(err)
		}
		truth := g.Clone()
		for k := 1 + gi%4; truth.Ply() < length && !truth.Status().Over; k = k%4 + 1 {
			before := truth.Ply()
			playRandom(t, truth, rng, k)
			var played []*chess.Move
			for i := before + 1; i <= truth.Ply(); i++ {
				played = append(played, truth.chessMoveAt(i))
			}
			if len(played) == 0 {
				break
			}
			snap := SnapshotOf(truth.Position())
			if gi%7 == 3 {
				snap.OccupancyOnly = true
				occ++
			}
			res := Reconstruct(g, snap, Options{MaxPlies: 4})
			calls++
			plies += len(played)
			var cands [][]*chess.Move
			switch res.Kind {
			case Forward:
				cands = [][]*chess.Move{res.Moves}
			case Ambiguous:
				cands = res.Candidates
				ambiguous++
			case NoChange:
				// The played moves came back to the same placement.
				cands = [][]*chess.Move{nil}
			case TakeBack:
				// The played moves came back to an earlier placement, fewer
				// plies back than were played: the cheaper explanation.
				if before-res.From >= len(played) || !SnapshotOf(g.PositionAt(res.From)).matches(snap) {
					t.Fatalf("game %d ply %d: played %s, got take-back to %d", gi, before, uciSeq(played), res.From)
				}
				takeBacks++
				res.From = before
			default:
				t.Fatalf("game %d ply %d: played %s, got %v", gi, before, uciSeq(played), res.Kind)
			}
			if res.From != before {
				t.Fatalf("game %d: From %d, want %d", gi, res.From, before)
			}
			found := res.Kind == TakeBack
			for i, c := range cands {
				// notnil checks the first candidate, the record all of them.
				if (i == 0 && !reaches(g.Position(), c, snap)) || !reachesFrom(g.positions[g.Ply()], c, snap) {
					t.Fatalf("game %d ply %d: candidate %s does not reach the snapshot", gi, before, uciSeq(c))
				}
				if len(c) != len(cands[0]) {
					t.Fatalf("game %d: candidates of different lengths", gi)
				}
				found = found || uciSeq(c) == uciSeq(played)
			}
			if !found {
				if len(cands) == 0 || len(cands[0]) >= len(played) {
					t.Fatalf("game %d ply %d: played %s not among %d candidates (first %s)", gi, before, uciSeq(played), len(cands), uciSeq(cands[0]))
				}
				shorter++
			}
			// Catch up with the truth so the next window starts in step.
			for _, m := range played {
				if err := g.Move(m); err != nil {
					t.Fatalf("game %d: %v", gi, err)
				}
			}
		}
	}
	t.Logf("%d games, %d reconstructions of %d plies (%d occupancy-only); %d ambiguous, %d explained by a shorter sequence, %d by a shorter take-back",
		games, calls, plies, occ, ambiguous, shorter, takeBacks)
}
