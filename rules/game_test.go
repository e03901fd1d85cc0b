package rules

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func mustGame(t *testing.T, fen string, moves ...string) *Game {
	t.Helper()
	g, err := NewGame(fen)
	if err != nil {
		t.Fatalf("NewGame(%q): %v", fen, err)
	}
	for _, m := range moves {
		if err := g.MoveUCI(m); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
	}
	return g
}

// specialMoves covers every kind of special move, for both colours where the
// move differs by colour.
var specialMoves = []struct {
	name, fen, uci, san, after string
}{
	{"white O-O", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "O-O", "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1"},
	{"white O-O-O", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1", "O-O-O", "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1"},
	{"black O-O", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8g8", "O-O", "r4rk1/8/8/8/8/8/8/R3K2R w KQ - 1 2"},
	{"black O-O-O", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8", "O-O-O", "2kr3r/8/8/8/8/8/8/R3K2R w KQ - 1 2"},
	{"white en passant", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6", "exd6", "4k3/8/3P4/8/8/8/8/4K3 b - - 0 2"},
	{"black en passant", "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1", "e4d3", "exd3", "4k3/8/8/8/8/3p4/8/4K3 w - - 0 2"},
	{"promotion to queen", "8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8q", "e8=Q", "4Q3/8/8/8/8/8/k7/4K3 b - - 0 1"},
	{"promotion to rook", "8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8r", "e8=R", "4R3/8/8/8/8/8/k7/4K3 b - - 0 1"},
	{"promotion to bishop", "8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8b", "e8=B", "4B3/8/8/8/8/8/k7/4K3 b - - 0 1"},
	{"promotion to knight", "8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8n", "e8=N", "4N3/8/8/8/8/8/k7/4K3 b - - 0 1"},
	{"black promotion with check", "4k3/8/8/8/8/8/3p4/K7 b - - 0 1", "d2d1q", "d1=Q+", "4k3/8/8/8/8/8/8/K2q4 w - - 0 2"},
	{"capture-promotion", "3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7d8n", "exd8=N", "3N4/8/8/8/8/8/k7/4K3 b - - 0 1"},
	{"check evasion by capture", "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", "e1e2", "Kxe2", "4k3/8/8/8/8/8/4K3/8 b - - 0 1"},
	{"check evasion by block", "4k3/8/8/8/8/8/B7/r3K3 w - - 0 1", "a2b1", "Bb1", "4k3/8/8/8/8/8/8/rB2K3 b - - 1 1"},
	{"knight disambiguation by file", "4k3/8/8/8/8/8/8/N1N1K3 w - - 0 1", "a1b3", "Nab3", "4k3/8/8/8/8/1N6/8/2N1K3 b - - 1 1"},
	{"rook disambiguation by rank", "4k3/R7/8/8/8/8/8/R3K3 w - - 0 1", "a1a4", "R1a4", "4k3/R7/8/8/R7/8/8/4K3 b - - 1 1"},
	{"mate", "k7/8/1K6/8/8/8/8/7R w - - 0 1", "h1h8", "Rh8#", "k6R/8/1K6/8/8/8/8/8 b - - 1 1"},
	{"double push sets en passant square", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2e4", "e4", "4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1"},
	{"rook capture removes castling right", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "a1a8", "Rxa8+", "R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 1"},
}

func TestSpecialMoves(t *testing.T) {
	for _, tc := range specialMoves {
		t.Run(tc.name, func(t *testing.T) {
			g := mustGame(t, tc.fen, tc.uci)
			if got := g.FEN(); got != tc.after {
				t.Errorf("FEN after %s = %s, want %s", tc.uci, got, tc.after)
			}
			if got := g.SAN(1); got != tc.san {
				t.Errorf("SAN = %q, want %q", got, tc.san)
			}
			if got := g.UCI(1); got != tc.uci {
				t.Errorf("UCI = %q, want %q", got, tc.uci)
			}
			// notnil agrees on the resulting position and accepts the move.
			if got := g.Position().String(); got != tc.after {
				t.Errorf("Position() = %s, want %s", got, tc.after)
			}
			h := mustGame(t, tc.fen)
			if err := h.MoveSAN(tc.san); err != nil || h.UCI(1) != tc.uci {
				t.Errorf("MoveSAN(%q) = %v, played %q", tc.san, err, h.UCI(1))
			}
		})
	}
}

func TestIllegalMoves(t *testing.T) {
	tests := []struct {
		name, fen, uci string
	}{
		{"ignores check", "4k3/8/8/8/8/8/P3r3/4K3 w - - 0 1", "a2a3"},
		{"castles through an attacked square", "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1", "e1g1"},
		{"castles out of check", "r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1", "e1c1"},
		{"pinned piece leaves the line", "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", "e2c3"},
		{"en passant exposing the king on the rank", "4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 2", "e5d6"},
		{"promotion without piece", "8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8"},
		{"no piece there", "", "e3e4"},
		{"not UCI", "", "e2"},
	}
	for _, tc := range tests {
		g := mustGame(t, tc.fen)
		err := g.MoveUCI(tc.uci)
		if !errors.Is(err, ErrIllegalMove) {
			t.Errorf("%s: MoveUCI(%s) = %v, want ErrIllegalMove", tc.name, tc.uci, err)
		}
		if g.Ply() != 0 {
			t.Errorf("%s: the illegal move was recorded", tc.name)
		}
	}
	g := mustGame(t, "")
	for _, san := range []string{"", "Nf6", "Ke2", "O-O", "e5", "Qh9", "N", "Zf3"} {
		if err := g.MoveSAN(san); !errors.Is(err, ErrIllegalMove) {
			t.Errorf("MoveSAN(%q) = %v, want ErrIllegalMove", san, err)
		}
	}
	if err := g.Move(nil); !errors.Is(err, ErrIllegalMove) {
		t.Errorf("Move(nil) = %v", err)
	}
	ambiguous := mustGame(t, "4k3/8/8/8/8/8/8/N1N1K3 w - - 0 1")
	if err := ambiguous.MoveSAN("Nb3"); err == nil || !strings.Contains(err.Error(), "ambiguous") {
		t.Errorf("MoveSAN(Nb3) with two knights = %v, want an ambiguity error", err)
	}
}

func TestSANForms(t *testing.T) {
	// Forms found on score sheets and in PGN files.
	for _, tc := range []struct{ fen, san, uci string }{
		{"", "Ng1f3", "g1f3"},
		{"", "Ng1-f3", "g1f3"},
		{"", "e4!?", "e2e4"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "0-0-0", "e1c1"},
		{"8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e8Q", "e7e8q"},
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "exd6e.p.", "e5d6"},
		{"4k3/8/8/8/8/8/8/N1N1K3 w - - 0 1", "Na1b3", "a1b3"},
	} {
		g := mustGame(t, tc.fen)
		if err := g.MoveSAN(tc.san); err != nil || g.UCI(1) != tc.uci {
			t.Errorf("MoveSAN(%q) = %v, played %q, want %s", tc.san, err, g.UCI(1), tc.uci)
		}
	}
}

func TestNewGameErrors(t *testing.T) {
	tests := []struct{ fen, want string }{
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", "fields"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", ""}, // EPD-style: clocks default to 0 1
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "field 1"},
		{"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "field 1"},
		{"rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "field 1"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", "field 1"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1", "white kings"},
		{"P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "pawn on rank 8"},
		{"4k3/8/8/8/8/8/8/4K3 x - - 0 1", "field 2"},
		{"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", ""}, // fine
		{"4k3/8/8/8/8/8/8/4K2R b - - 0 1", ""}, // fine
		{"4k2R/8/8/8/8/8/8/4K3 w - - 0 1", "field 2"},
		{"4k3/8/8/8/8/8/8/4K3 w K - 0 1", "field 3"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkqX - 0 1", "field 3"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1", "field 3"},
		{"4k3/8/8/8/8/8/8/4K3 w - e9 0 1", "field 4"},
		{"4k3/8/8/8/8/8/8/4K3 w - e3 0 1", "field 4"},
		{"4k3/8/8/8/4p3/8/8/4K3 w - e6 0 1", "field 4"},
		{"4k3/8/8/8/8/8/8/4K3 w - - x 1", "field 5"},
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 0", "field 6"},
	}
	for _, tc := range tests {
		_, err := NewGame(tc.fen)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("NewGame(%q) = %v, want no error", tc.fen, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("NewGame(%q) = %v, want an error naming %q", tc.fen, err, tc.want)
		}
	}
}

func TestFENRoundTrip(t *testing.T) {
	for _, fen := range []string{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
		"8/8/8/8/8/8/8/K1k5 b - - 99 120",
	} {
		g := mustGame(t, fen)
		if g.FEN() != fen || g.Position().String() != fen {
			t.Errorf("FEN %q read back as %q / %q", fen, g.FEN(), g.Position().String())
		}
	}
}

func TestTakeBack(t *testing.T) {
	g := mustGame(t, "", "e2e4", "e7e5", "g1f3")
	want := g.PositionAt(1).String()
	if err := g.TakeBack(1); err != nil {
		t.Fatal(err)
	}
	if g.Ply() != 1 || g.FEN() != want || g.Position().String() != want || len(g.Moves()) != 1 {
		t.Fatalf("after TakeBack(1): ply %d FEN %s", g.Ply(), g.FEN())
	}
	if err := g.MoveUCI("c7c5"); err != nil {
		t.Fatal(err)
	}
	if g.SAN(2) != "c5" {
		t.Errorf("SAN(2) = %q", g.SAN(2))
	}
	for _, bad := range []int{-1, 3} {
		if err := g.TakeBack(bad); err == nil {
			t.Errorf("TakeBack(%d) accepted", bad)
		}
	}
	if g.PositionAt(-1) != nil || g.PositionAt(3) != nil || g.SAN(0) != "" || g.UCI(3) != "" {
		t.Error("out-of-range plies must give nil or empty")
	}
}

func knightDance(n int) []string {
	var out []string
	for i := 0; i < n; i++ {
		out = append(out, "g1f3", "g8f6", "f3g1", "f6g8")
	}
	return out
}

// TestRepetition9_2_3 checks the identity of positions under Law 9.2.3.
func TestRepetition9_2_3(t *testing.T) {
	tests := []struct {
		name  string
		fen   string
		moves []string
		want  int
	}{
		{
			// 1.e4 leaves an en-passant square no black pawn can use: the
			// position is the same as when it recurs without one. notnil
			// counts these as different.
			"unusable en passant square", "",
			[]string{"e2e4", "g8f6", "g1f3", "f6g8", "f3g1"}, 2,
		},
		{
			"usable en passant capture makes the position differ",
			"4k1n1/3p4/8/4P3/8/8/8/4K1N1 b - - 0 1",
			[]string{"d7d5", "g1f3", "g8f6", "f3g1", "f6g8"}, 1,
		},
		{
			// exd6 would expose the king on a5 to the rook on h5: the
			// capture is not possible, so the positions are the same.
			"en passant capture prevented by a pin",
			"4k3/3p4/8/K3P2r/8/8/8/8 b - - 0 1",
			[]string{"d7d5", "a5a6", "e8f7", "a6a5", "f7e8"}, 2,
		},
		{
			"lost castling rights make the position differ",
			"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
			[]string{"a1b1", "a8b8", "b1a1", "b8a8"}, 1,
		},
		{
			"same rights afterwards: repetition counts",
			"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
			[]string{"a1b1", "a8b8", "b1a1", "b8a8", "a1b1", "a8b8", "b1a1", "b8a8"}, 2,
		},
		{"three times", "", knightDance(2), 3},
	}
	for _, tc := range tests {
		g := mustGame(t, tc.fen, tc.moves...)
		if got := g.Repetitions(); got != tc.want {
			t.Errorf("%s: Repetitions() = %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestThreefoldAndFivefold(t *testing.T) {
	g := mustGame(t, "", knightDance(2)...)
	st := g.Status()
	if st.Over || !slices.Contains(st.Claimable, "threefold-repetition") {
		t.Fatalf("after the third occurrence: %+v", st)
	}
	g = mustGame(t, "", knightDance(4)...)
	st = g.Status()
	if !st.Over || st.Reason != "fivefold-repetition" || st.Article != "9.6.1" || st.Result != "1/2-1/2" {
		t.Fatalf("after the fifth occurrence: %+v", st)
	}
	err := g.MoveUCI("e2e4")
	if !errors.Is(err, ErrGameOver) {
		t.Fatalf("move after fivefold: %v, want ErrGameOver", err)
	}
	m := g.PositionAt(0).ValidMoves()[0]
	if err := g.Move(m); !errors.Is(err, ErrGameOver) {
		t.Fatalf("Move after fivefold: %v, want ErrGameOver", err)
	}
	if err := g.MoveSAN("e4"); !errors.Is(err, ErrGameOver) {
		t.Fatalf("MoveSAN after fivefold: %v, want ErrGameOver", err)
	}
	if err := g.TakeBack(g.Ply() - 1); err != nil || g.Status().Over {
		t.Fatalf("take back from fivefold: %v %+v", err, g.Status())
	}
}

func TestMoveCountRules(t *testing.T) {
	tests := []struct {
		name, fen, move string
		over            bool
		reason, result  string
		claim           string
	}{
		{"fifty moves claimable", "4k3/8/8/8/8/8/8/R3K3 w - - 99 60", "a1a2", false, "", "*", "fifty-moves"},
		{"seventy-five moves end the game", "4k3/8/8/8/8/8/8/R3K3 w - - 149 100", "a1a2", true, "seventy-five-moves", "1/2-1/2", ""},
		{"mate on the 150th ply wins", "k7/8/1K6/8/8/8/8/7R w - - 149 100", "h1h8", true, "checkmate", "1-0", ""},
		{"pawn move resets the count", "4k3/8/8/8/8/8/P7/4K3 w - - 149 100", "a2a3", false, "", "*", ""},
		{"stalemate after a king move", "k7/8/1Q6/8/8/8/8/4K3 w - - 0 1", "e1d2", true, "stalemate", "1/2-1/2", ""},
		{"stalemate", "k7/8/8/2Q5/8/8/8/4K3 w - - 0 1", "c5b6", true, "stalemate", "1/2-1/2", ""},
		{"rook check that is not mate", "r3k3/8/8/8/8/8/5P1P/6K1 b - - 0 1", "a8a1", false, "", "*", ""},
		{"back-rank mate by black", "r3k3/8/8/8/8/8/5PPP/6K1 b - - 0 1", "a8a1", true, "checkmate", "0-1", ""},
		{"king takes the last piece: dead position", "4k3/8/8/8/8/8/4q3/4K3 w - - 0 1", "e1e2", true, "dead-position", "1/2-1/2", ""},
	}
	for _, tc := range tests {
		g := mustGame(t, tc.fen, tc.move)
		st := g.Status()
		if st.Over != tc.over || st.Reason != tc.reason || st.Result != tc.result {
			t.Errorf("%s: %+v", tc.name, st)
		}
		if (tc.claim != "") != slices.Contains(st.Claimable, tc.claim) || (tc.claim == "" && len(st.Claimable) > 0) {
			t.Errorf("%s: claimable %v, want %q", tc.name, st.Claimable, tc.claim)
		}
	}
}

func TestDeadByMaterial(t *testing.T) {
	tests := []struct {
		fen  string
		dead bool
	}{
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", true},
		{"4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", true},
		{"4k3/8/8/8/8/8/8/1N2K3 b - - 0 1", true},
		{"4k3/8/8/8/8/2b5/8/2B1K3 w - - 0 1", true},  // bishops on dark squares c1, c3
		{"4k3/8/8/8/8/3b4/8/2B1K3 w - - 0 1", false}, // c1 dark, d3 light
		{"4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1", false},
		{"4k3/8/8/8/8/8/8/1N1BK3 w - - 0 1", false},
		{"4k3/8/8/8/8/8/P7/4K3 w - - 0 1", false},
		{"4k3/8/8/8/8/8/8/3RK3 w - - 0 1", false},
	}
	for _, tc := range tests {
		g := mustGame(t, tc.fen)
		st := g.Status()
		if st.Over != tc.dead || (tc.dead && (st.Reason != "dead-position" || st.Article != "5.2.2")) {
			t.Errorf("%s: %+v, want dead=%v", tc.fen, st, tc.dead)
		}
	}
}
