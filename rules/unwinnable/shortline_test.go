package unwinnable

import (
	"slices"
	"testing"

	bb "github.com/arbiterd/arbiterd/rules/bitboard"
)

// flagPositions are typical flag-fall positions: final positions of
// online games lost on time (every 250th of timeouts-30k.txt), asked
// about the side still on time, as the daemon asks at a flag fall.
var flagPositions = []string{
	"5k2/5r2/Q1pb4/3p1R2/8/1RN5/P5PP/6K1 b - - 0 37",
	"1r2n2k/p2b2p1/1b1p1r1R/3B1PQ1/3N4/P1B5/1P5R/7K b - - 0 35",
	"q1k4r/pp2nQpp/4p3/1Bb5/2R5/1P6/P3K1PP/7R b - - 0 25",
	"8/pp6/2n5/2k5/8/4r3/PPKR4/8 b - - 1 39",
	"8/p2p1pkp/6p1/1p6/2K2P2/4PBP1/P6P/8 w - - 0 34",
	"8/5R2/p1p1p3/3pP3/2pP4/1PP3P1/k4PK1/8 w - - 0 40",
	"4r1k1/p1b2pp1/1qp5/8/PBQ1nP2/2P1P1pP/4R1B1/6K1 w - - 2 35",
	"8/p7/2p1p3/1k2Pp2/1P1P1Pp1/P1K2bN1/8/8 b - - 10 49",
	"3q1knr/3n1p2/p2Np1p1/1p1pP2p/3b1P2/PP6/4Q1PP/1RB2R1K b - - 0 23",
	"8/p6p/1p3p2/6p1/6P1/2Pk3P/PP3K2/8 w - - 4 40",
	"3r4/1p6/2r1qnk1/2Pp1ppp/3Qp3/1BR3PP/P5K1/4R3 w - - 0 44",
	"8/pp3p1p/8/4p3/2k5/6PK/7P/5R2 w - - 0 32",
	"n7/2N3kp/5p2/4p1p1/1p2P3/5PP1/5K1P/8 w - - 0 45",
	"8/2p1R3/2k1p1r1/2Pp1b2/8/1P6/7K/8 w - - 0 45",
	"8/p7/4k3/3R4/2p1K3/8/P7/8 w - - 0 54",
	"8/7K/2k5/6P1/8/5p2/8/8 b - - 1 52",
	"8/8/6K1/5B1P/2bp1P2/8/3k4/8 b - - 0 46",
	"6k1/1R5p/p2p2p1/q2Pp1P1/3rP3/4K2P/1P2Q3/2R5 b - - 8 40",
	"5rk1/5pp1/4p2p/3nP3/8/5BKN/6PP/5R2 b - - 6 37",
	"8/6p1/r6p/p4k2/R3p1P1/1p2KP1P/1Bb5/8 b - - 0 42",
	"r1r5/5ppk/4p2p/p3P1qP/2Q3P1/8/PP3P2/1K4R1 w - - 1 27",
	"8/8/4pk2/pq1p1p2/2p5/2P5/2R2P2/3K4 w - - 6 45",
	"8/1kp5/p1b2R2/1p3pBp/4r2P/2P2K2/PP6/3R4 b - - 9 42",
	"Q7/7p/6p1/8/3Q3k/3P4/1P4PP/6K1 b - - 2 41",
	"3k4/p1pp1p1p/1p4pb/3Pr3/3N4/1Q2p3/P3K3/RN3B2 w - - 1 26",
	"8/5k1p/5p2/3Q1p1b/1P6/4r2P/7K/R4R2 b - - 1 45",
	"1r4k1/5p1p/3p2p1/4pb2/8/2B2P1P/P2R1KP1/1r6 w - - 4 31",
	"rnb2rk1/ppp2ppp/3p4/2bN4/2B2Q2/5P2/PPPP1qKP/R1B5 w - - 0 14",
	"r4rk1/p5pp/1p1p3q/PPpPp3/2P5/3B4/4QPPP/R5K1 b - - 0 27",
	"2r2rk1/pp1np1b1/6p1/q4bN1/2P2P2/P2Bp3/1PQ5/1K4R1 w - - 2 27",
	"r2b1rk1/1p1b1ppp/1pn1p3/1B1pP3/3P4/P1N1PN2/1P4PP/R3R1K1 w - - 3 17",
	"8/k1b3Q1/1p4p1/p3r2p/P2K4/1P5P/6P1/8 b - - 5 56",
	"2kb4/8/2p5/8/3r4/2N1q3/PPP3Q1/3K4 w - - 9 37",
	"2r4k/pp4pp/1q1p4/3P4/6Q1/7P/P4r2/5R1K w - - 0 30",
	"8/p4k2/P7/qP3Q2/4P1K1/6P1/8/8 b - - 2 43",
	"3r2k1/6bp/p1q5/8/3p4/1PnQpN1P/P5P1/2B1R1K1 w - - 4 34",
	"8/5Bpk/7p/2N5/p1P3KP/4rP2/8/8 w - - 4 43",
	"r5k1/5p1p/4p1p1/1K1p4/1P6/P7/8/1R6 w - - 3 43",
}

// Bounds on the length of the mate line of a winnable answer, in plies.
// Measured: quick mode gives lines of 2 to 56 plies on flagPositions
// (12.6 on average); full mode at most 20 on the endgames of fullLines.
const (
	maxQuickLine    = 60
	maxQuickAverage = 14
	maxFullLine     = 24
)

// flagOptions are the options of the live daemon's first analysis at a
// flag fall (internal/pipeline.DefaultOracle): quick, with the line
// shortened for the arbiter.
var flagOptions = Options{Mode: Quick, LineBudget: QuickLineBudget}

// TestFlagLinesShort checks that the mate line shown to the arbiter at a
// flag fall is short, legal, ends in mate, and is the same on every run
// (the event stream must replay identically).
func TestFlagLinesShort(t *testing.T) {
	total, n := 0, 0
	shared := NewAnalyzer(flagOptions)
	for _, fen := range flagPositions {
		pos, err := bb.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		side := pos.Side().Other()
		r, err := CanMate(fen, side, flagOptions)
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != Winnable {
			t.Errorf("%s for %s: %s, want winnable", fen, side, r.Verdict)
			continue
		}
		assertMateLine(t, fen, side, r.Line)
		t.Logf("%s: %d plies, %d nodes", fen, len(r.Line), r.Nodes)
		if len(r.Line) > maxQuickLine {
			t.Errorf("%s for %s: quick line of %d plies, want at most %d: %v", fen, side, len(r.Line), maxQuickLine, r.Line)
		}
		again, _ := CanMate(fen, side, flagOptions)
		if !slices.Equal(again.Line, r.Line) || again.Nodes != r.Nodes {
			t.Errorf("%s: second run gave %v (%d nodes), first %v (%d nodes)", fen, again.Line, again.Nodes, r.Line, r.Nodes)
		}
		// An Analyzer that answered other queries before answers the same.
		reused := shared.Analyze(&pos, side)
		if !slices.Equal(reused.Line, r.Line) || reused.Nodes != r.Nodes {
			t.Errorf("%s: a reused Analyzer gave %v (%d nodes), a fresh one %v (%d nodes)", fen, reused.Line, reused.Nodes, r.Line, r.Nodes)
		}
		total += len(r.Line)
		n++
	}
	t.Logf("%d quick lines, %.1f plies on average", n, float64(total)/float64(max(n, 1)))
	if n > 0 && total > maxQuickAverage*n {
		t.Errorf("quick lines average %.1f plies, want at most %d", float64(total)/float64(n), maxQuickAverage)
	}
}

// fullLines are endgames whose first mate found is long (the heuristic
// search or the exhaustive walk wanders): the ruling's line must still be
// short.
var fullLines = []struct {
	fen  string
	side bb.Color
}{
	{"8/1k6/8/8/8/8/r7/2K4N b - - 0 1", bb.White}, // 130 plies before shortening
	{"1r4k1/5ppp/8/3Q4/2P5/1q3P2/4BKPP/4R3 b - - 2 25", bb.White},
	{"8/p7/2p1p3/1k2Pp2/1P1P1Pp1/P1K2bN1/8/8 b - - 10 49", bb.White},
	{"8/5Bpk/7p/2N5/p1P3KP/4rP2/8/8 w - - 4 43", bb.Black},
}

func TestFullLinesShort(t *testing.T) {
	if testing.Short() {
		t.Skip("full-mode searches take seconds")
	}
	a := NewAnalyzer(Options{Mode: Full})
	for _, tc := range fullLines {
		pos, err := bb.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		r := a.Analyze(&pos, tc.side)
		if r.Verdict != Winnable {
			t.Errorf("%s for %s: %s, want winnable", tc.fen, tc.side, r.Verdict)
			continue
		}
		assertMateLine(t, tc.fen, tc.side, r.Line)
		t.Logf("%s: %d plies, %d nodes", tc.fen, len(r.Line), r.Nodes)
		if len(r.Line) > maxFullLine {
			t.Errorf("%s for %s: full line of %d plies, want at most %d: %v", tc.fen, tc.side, len(r.Line), maxFullLine, r.Line)
		}
	}
}
