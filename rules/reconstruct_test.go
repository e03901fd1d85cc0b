package rules

import (
	"slices"
	"testing"

	"github.com/notnil/chess"
)

// snapAfter returns the snapshot of fen after the given UCI moves.
func snapAfter(t *testing.T, fen string, moves ...string) Snapshot {
	t.Helper()
	return SnapshotOf(mustGame(t, fen, moves...).Position())
}

func seqStrings(r Result) []string {
	var out []string
	if r.Moves != nil {
		out = append(out, uciSeq(r.Moves))
	}
	for _, c := range r.Candidates {
		out = append(out, uciSeq(c))
	}
	slices.Sort(out)
	return out
}

func TestReconstructSpecialMoves(t *testing.T) {
	for _, tc := range specialMoves {
		t.Run(tc.name, func(t *testing.T) {
			g := mustGame(t, tc.fen)
			r := Reconstruct(g, snapAfter(t, tc.fen, tc.uci), Options{})
			if r.Kind != Forward || r.From != 0 || len(r.Moves) != 1 || r.Moves[0].String() != tc.uci {
				t.Fatalf("got %v %v, want forward %s", r.Kind, seqStrings(r), tc.uci)
			}
			if err := g.Move(r.Moves[0]); err != nil {
				t.Fatalf("the reported move does not play: %v", err)
			}
		})
	}
}

func TestReconstructTable(t *testing.T) {
	const promo = "8/4P3/8/8/8/8/k7/4K3 w - - 0 1"
	tests := []struct {
		name   string
		fen    string
		played []string // the record
		opt    Options
		snap   func(t *testing.T) Snapshot
		kind   Kind
		from   int
		want   []string // sorted UCI sequences (Moves or Candidates)
	}{
		{
			name: "no change", snap: func(t *testing.T) Snapshot { return snapAfter(t, "") },
			kind: NoChange,
		},
		{
			name: "one ply", snap: func(t *testing.T) Snapshot { return snapAfter(t, "", "e2e4") },
			kind: Forward, want: []string{"e2e4"},
		},
		{
			name: "two plies", snap: func(t *testing.T) Snapshot { return snapAfter(t, "", "e2e4", "c7c5") },
			kind: Forward, want: []string{"e2e4 c7c5"},
		},
		{
			name: "transposition is ambiguous",
			snap: func(t *testing.T) Snapshot { return snapAfter(t, "", "e2e4", "e7e5", "g1f3") },
			kind: Ambiguous, want: []string{"e2e4 e7e5 g1f3", "g1f3 e7e5 e2e4"},
		},
		{
			name: "four plies, one order",
			snap: func(t *testing.T) Snapshot { return snapAfter(t, "", "e2e4", "d7d5", "e4d5", "d8d5") },
			kind: Forward, want: []string{"e2e4 d7d5 e4d5 d8d5"},
		},
		{
			name: "occupancy-only promotion lists every piece", fen: promo,
			snap: func(t *testing.T) Snapshot { s := snapAfter(t, promo, "e7e8q"); s.OccupancyOnly = true; return s },
			kind: Ambiguous, want: []string{"e7e8b", "e7e8n", "e7e8q", "e7e8r"},
		},
		{
			name: "occupancy-only capture", fen: "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1",
			snap: func(t *testing.T) Snapshot {
				s := snapAfter(t, "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5")
				s.OccupancyOnly = true
				return s
			},
			kind: Forward, want: []string{"e4d5"},
		},
		{
			name:   "take-back to the most recent equal position",
			played: []string{"e2e4", "e7e5", "g1f3", "b8c6", "f3g1", "c6b8", "d2d4", "d7d5"},
			snap:   func(t *testing.T) Snapshot { return snapAfter(t, "", "e2e4", "e7e5") },
			kind:   TakeBack, from: 6,
		},
		{
			name: "a piece put back is a take-back, not a knight dance", played: []string{"e2e4", "e7e5", "f1c4"},
			snap: func(t *testing.T) Snapshot { return snapAfter(t, "", "e2e4", "e7e5") },
			kind: TakeBack, from: 2,
		},
		{
			name: "slid bishop is a correction", played: []string{"e2e4", "e7e5", "f1c4"}, opt: Options{Retractable: 1},
			snap: func(t *testing.T) Snapshot { return snapAfter(t, "", "e2e4", "e7e5", "f1b5") },
			kind: Correction, from: 2, want: []string{"f1b5"},
		},
		{
			name: "correction of the last two plies", played: []string{"e2e4", "e7e5", "d2d3", "d7d6"}, opt: Options{Retractable: 2},
			snap: func(t *testing.T) Snapshot { return snapAfter(t, "", "e2e4", "e7e5", "c2c3", "d7d6") },
			kind: Correction, from: 2, want: []string{"c2c3 d7d6"},
		},
		{
			name: "only Retractable plies may be replaced", played: []string{"e2e4", "e7e5", "d2d3", "d7d6"}, opt: Options{Retractable: 1},
			snap: func(t *testing.T) Snapshot { return snapAfter(t, "", "e2e4", "e7e5", "c2c3", "d7d6") },
			kind: Unexplained,
		},
		{
			name: "without retractable plies the slide needs three plies", played: []string{"e2e4", "e7e5", "f1c4"},
			snap: func(t *testing.T) Snapshot { return snapAfter(t, "", "e2e4", "e7e5", "f1b5") },
			kind: Ambiguous, from: 3,
		},
		{
			name: "nothing within reach", opt: Options{MaxPlies: 2},
			snap: func(t *testing.T) Snapshot { return snapAfter(t, "", "e2e4", "e7e5", "d2d4", "d7d5") },
			kind: Unexplained,
		},
		{
			name: "no move after mate", fen: "k7/8/1K6/8/8/8/8/7R w - - 0 1", played: []string{"h1h8"},
			snap: func(t *testing.T) Snapshot { return snapAfter(t, "k7/8/1K6/8/8/8/8/6R1 w - - 0 1") },
			kind: Unexplained, from: 1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := mustGame(t, tc.fen, tc.played...)
			r := Reconstruct(g, tc.snap(t), tc.opt)
			wantFrom := tc.from
			if tc.kind == Forward || tc.kind == NoChange || tc.kind == Unexplained || (tc.kind == Ambiguous && tc.from == 0) {
				wantFrom = len(tc.played)
			}
			if r.Kind != tc.kind || r.From != wantFrom {
				t.Fatalf("got %v from %d %v, want %v from %d", r.Kind, r.From, seqStrings(r), tc.kind, wantFrom)
			}
			if tc.want != nil && !slices.Equal(seqStrings(r), tc.want) {
				t.Fatalf("sequences %v, want %v", seqStrings(r), tc.want)
			}
		})
	}
}

func TestResultSignal(t *testing.T) {
	tests := []struct {
		wk, bk chess.Square
		want   string
	}{
		{chess.D4, chess.E5, "0-1"},
		{chess.E5, chess.D4, "0-1"},
		{chess.D5, chess.E4, "1-0"},
		{chess.E4, chess.D5, "1-0"},
		{chess.D4, chess.D5, "1/2-1/2"},
		{chess.E4, chess.E5, "1/2-1/2"},
		{chess.E1, chess.E5, ""},
	}
	g := mustGame(t, "", "e2e4", "e7e5")
	for _, tc := range tests {
		s := SnapshotOf(g.Position())
		s.Squares[chess.E1], s.Squares[chess.E8] = chess.NoPiece, chess.NoPiece
		s.Squares[tc.wk], s.Squares[tc.bk] = chess.WhiteKing, chess.BlackKing
		r := Reconstruct(g, s, Options{})
		if tc.want == "" {
			if r.Kind == ResultSignal {
				t.Errorf("kings on %s %s: signal %s", tc.wk, tc.bk, r.Signal)
			}
			continue
		}
		if r.Kind != ResultSignal || r.Signal != tc.want || r.Moves != nil {
			t.Errorf("kings on %s %s: %v %q, want signal %s", tc.wk, tc.bk, r.Kind, r.Signal, tc.want)
		}
	}
}

func TestUnknownPieces(t *testing.T) {
	g := mustGame(t, "")
	s := snapAfter(t, "", "e2e4")
	s.Unknown = 1<<chess.E4 | 1<<chess.H8
	r := Reconstruct(g, s, Options{})
	if r.Kind != UnknownPieces || !slices.Equal(r.Unknown, []chess.Square{chess.E4, chess.H8}) {
		t.Fatalf("got %v %v", r.Kind, r.Unknown)
	}
	s = snapAfter(t, "")
	s.Squares[chess.A3] = chess.Piece(99)
	s.Squares[chess.B3] = chess.Piece(-1)
	r = Reconstruct(g, s, Options{})
	if r.Kind != UnknownPieces || !slices.Equal(r.Unknown, []chess.Square{chess.A3, chess.B3}) {
		t.Fatalf("bad codes: got %v %v", r.Kind, r.Unknown)
	}
}

func TestOrientation(t *testing.T) {
	start := snapAfter(t, "")
	if o, ok := DetectOrientation(start, nil); !ok || o != WhiteBottom {
		t.Errorf("start: %v %v", o, ok)
	}
	if o, ok := DetectOrientation(start.Rotated(), nil); !ok || o != BlackBottom {
		t.Errorf("rotated start: %v %v", o, ok)
	}
	if start.Rotated().Rotated() != start {
		t.Error("rotating twice must give the board back")
	}
	if BlackBottom.String() != "black-bottom" || WhiteBottom.String() != "white-bottom" {
		t.Error("orientation names")
	}
	custom := mustGame(t, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1").Position()
	cs := SnapshotOf(custom)
	if o, ok := DetectOrientation(cs.Rotated(), custom); !ok || o != BlackBottom {
		t.Errorf("rotated custom start: %v %v", o, ok)
	}
	if _, ok := DetectOrientation(snapAfter(t, "", "e2e4"), nil); ok {
		t.Error("a position after 1.e4 is not the start")
	}
	s := start
	s.Unknown = 1
	if _, ok := DetectOrientation(s, nil); ok {
		t.Error("an unknown code must not pass for the start position")
	}
	r := start.Rotated()
	r.Unknown = 1 << 63
	if r.Rotated().Unknown != 1 {
		t.Error("Rotated must move the unknown bits too")
	}
}

func TestKindNames(t *testing.T) {
	for k := NoChange; k <= UnknownPieces; k++ {
		if k.String() == "kind(?)" || k.String() == "" {
			t.Errorf("kind %d has no name", k)
		}
	}
	if Kind(99).String() != "kind(?)" {
		t.Error("out-of-range kind")
	}
}

// TestReconstructStopsAtGameEnd: a sequence cannot continue past a position
// that ends the game (here the fifth occurrence, 9.6.1).
func TestReconstructStopsAtGameEnd(t *testing.T) {
	record := append(knightDance(3), "g1f3", "g8f6", "f3g1")
	g := mustGame(t, "", record...)
	s := snapAfter(t, "", "e2e4")
	if r := Reconstruct(g, s, Options{}); r.Kind == Forward || r.Kind == Ambiguous {
		t.Fatalf("got %v %v: ...Ng8 repeats the start a fifth time and ends the game", r.Kind, seqStrings(r))
	}
	// One repetition fewer and the same two plies explain it.
	g = mustGame(t, "", append(knightDance(2), "g1f3", "g8f6", "f3g1")...)
	if r := Reconstruct(g, s, Options{}); r.Kind != Forward || uciSeq(r.Moves) != "f6g8 e2e4" {
		t.Fatalf("got %v %v, want forward f6g8 e2e4", r.Kind, seqStrings(r))
	}
	// The same for the seventy-five-move rule.
	late := snapAfter(t, "4k1n1/8/8/8/8/8/4P3/4K3 b - - 0 100", "g8f6", "e1d1", "f6g8")
	g = mustGame(t, "4k1n1/8/8/8/8/8/4P3/4K3 b - - 147 100", "g8f6")
	if r := Reconstruct(g, late, Options{}); r.Kind != Forward {
		t.Fatalf("Kd1 Ng8 at plies 149-150: got %v", r.Kind)
	}
	g = mustGame(t, "4k1n1/8/8/8/8/8/4P3/4K3 b - - 148 100", "g8f6")
	if r := Reconstruct(g, late, Options{}); r.Kind == Forward {
		t.Fatal("Kd1 is the 150th ply without pawn move or capture: the game is over before Ng8")
	}
}

func TestClone(t *testing.T) {
	g := mustGame(t, "", "e2e4", "e7e5")
	c := g.Clone()
	if err := c.MoveUCI("g1f3"); err != nil {
		t.Fatal(err)
	}
	if g.Ply() != 2 || c.Ply() != 3 || g.FEN() == c.FEN() || g.Repetitions() != 1 {
		t.Fatalf("clone shares state: %d %d", g.Ply(), c.Ply())
	}
}
