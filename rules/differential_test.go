package rules

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/notnil/chess"
)

// playRandom plays up to n random legal moves on g and returns how many it played.
func playRandom(t testing.TB, g *Game, rng *rand.Rand, n int) int {
	t.Helper()
	for i := 0; i < n; i++ {
		if g.Status().Over || len(g.legal) == 0 {
			return i
		}
		m := g.legal[rng.IntN(len(g.legal))]
		if err := g.MoveUCI(m.uci()); err != nil {
			t.Fatalf("playing generated move %s: %v", m.uci(), err)
		}
	}
	return n
}

// TestDifferentialNotnil plays seeded random games and checks, at every ply,
// that the record agrees with notnil/chess: the same legal moves with the same
// tags, the same FEN, the same mate and stalemate.
func TestDifferentialNotnil(t *testing.T) {
	games := 60
	if testing.Short() {
		games = 10
	}
	rng := rand.New(rand.NewPCG(1, 2))
	plies := 0
	ends := map[string]int{}
	for gi := 0; gi < games; gi++ {
		g, err := NewGame("")
		if err != nil {
			t.Fatal(err)
		}
		np := chess.StartingPosition() // notnil positions, without its O(n) game bookkeeping
		for !g.Status().Over && g.Ply() < 300 {
			cp := g.Position()
			if g.FEN() != np.String() || cp.String() != g.FEN() {
				t.Fatalf("game %d ply %d: FEN %s, Position() %s, notnil %s", gi, g.Ply(), g.FEN(), cp, np)
			}
			var mine, theirs []string
			for _, m := range g.legal {
				mine = append(mine, m.uci())
			}
			valid := np.ValidMoves()
			for _, v := range valid {
				theirs = append(theirs, v.String())
			}
			slices.Sort(mine)
			slices.Sort(theirs)
			if !slices.Equal(mine, theirs) {
				t.Fatalf("game %d ply %d %s: moves\n mine   %v\n notnil %v", gi, g.Ply(), g.FEN(), mine, theirs)
			}
			v := valid[rng.IntN(len(valid))]
			if err := g.Move(v); err != nil {
				t.Fatalf("game %d: %s rejected: %v", gi, v, err)
			}
			np = np.Update(v)
			if got := g.Moves()[g.Ply()-1]; got != v {
				// The record keeps the caller's move when its tags are right.
				t.Fatalf("game %d ply %d: record holds %p, played %p", gi, g.Ply(), got, v)
			}
			plies++
		}
		st := g.Status()
		switch np.Status() {
		case chess.Checkmate:
			want := "1-0"
			if np.Turn() == chess.White {
				want = "0-1"
			}
			if st.Reason != "checkmate" || st.Result != want {
				t.Errorf("game %d: notnil says mate %s, record says %+v", gi, want, st)
			}
		case chess.Stalemate:
			if st.Reason != "stalemate" {
				t.Errorf("game %d: notnil says stalemate, record says %+v", gi, st)
			}
		default:
			if st.Reason == "checkmate" || st.Reason == "stalemate" {
				t.Errorf("game %d: record says %s, notnil sees moves in %s", gi, st.Reason, np)
			}
		}
		ends[st.Reason]++
	}
	t.Logf("game ends: %v", ends)
	t.Logf("%d games, %d plies compared", games, plies)
}

// TestMovesTagsMatchNotnil rebuilds every recorded move from UCI (so the
// record must derive the notnil tags itself) and compares with notnil's own.
func TestMovesTagsMatchNotnil(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for gi := 0; gi < 20; gi++ {
		g, _ := NewGame("")
		playRandom(t, g, rng, 200)
		for i, m := range g.Moves() {
			var want *chess.Move
			for _, v := range g.PositionAt(i).ValidMoves() {
				if v.String() == m.String() {
					want = v
				}
			}
			if want == nil {
				t.Fatalf("game %d ply %d: %s not among notnil's moves", gi, i+1, m)
			}
			for _, tag := range []chess.MoveTag{chess.Capture, chess.EnPassant, chess.KingSideCastle, chess.QueenSideCastle, chess.Check} {
				if m.HasTag(tag) != want.HasTag(tag) {
					t.Fatalf("game %d ply %d %s: tag %d is %v, notnil %v", gi, i+1, m, tag, m.HasTag(tag), want.HasTag(tag))
				}
			}
			if got, want := g.PositionAt(i+1).String(), g.positions[i+1].FEN(); got != want {
				t.Fatalf("game %d ply %d: PositionAt %s, record %s", gi, i+1, got, want)
			}
		}
	}
}

// TestNotnilMoveLayout checks the moves the record builds in notnil's layout
// against the moves notnil generates, field by field (reflect.DeepEqual sees
// unexported fields), over every legal move of the positions of random games
// and of the special-move table.
func TestNotnilMoveLayout(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var positions []*position
	for gi := 0; gi < 30; gi++ {
		g, _ := NewGame("")
		playRandom(t, g, rng, 150)
		for i := range g.positions {
			positions = append(positions, &g.positions[i])
		}
	}
	for _, tc := range specialMoves {
		p, err := parseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		positions = append(positions, &p)
	}
	checked := 0
	for _, p := range positions {
		cp := chessPosition(p)
		valid := map[string]*chess.Move{}
		for _, v := range cp.ValidMoves() {
			valid[v.String()] = v
		}
		for _, im := range p.genLegal(nil) {
			v := valid[im.uci()]
			got := toChessMove(im)
			if v == nil || !reflect.DeepEqual(*got, *v) || !sameTags(v, im) {
				t.Fatalf("%s: move %s built as %+v, notnil has %+v", p.FEN(), im.uci(), *got, v)
			}
			checked++
		}
	}
	t.Logf("%d moves in %d positions", checked, len(positions))
}
