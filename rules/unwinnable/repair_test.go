package unwinnable

import (
	"slices"
	"testing"

	bb "github.com/arbiterd/arbiterd/rules/bitboard"
)

// plainLine runs plainFind from p for side with the given number of
// repairs and budget, and returns whether it found a mate, the line,
// the nodes spent and whether the budget ran out. It checks that the
// position is given back as it was.
func plainLine(t *testing.T, s *searcher, p *bb.Position, side bb.Color, repairs int, budget int64) (bool, []string, int64, bool) {
	t.Helper()
	s.reset(p, side)
	s.plainRepairs = repairs
	s.limit, s.abort = budget, false
	found, n := s.plainFind(0, plainDepth, 0)
	if s.pos != *p {
		t.Fatalf("%s for %s: plainFind with %d repairs changed the position to %s", p.FEN(), side, repairs, s.pos.FEN())
	}
	if !found {
		return false, nil, s.nodes, s.abort
	}
	return true, uciLine(s.path[:n]), s.nodes, s.abort
}

// TestPlainRepairs checks quick mode's mended plain lines (plainFind with
// plainRepairs): on positions where the plain line stops short without
// mate at each kind of dead end (lichess-65k), the mended line mates;
// and, on positions of random games with both modes' weights, a plain
// line that mates is the mended line too (it has no dead end to mend), so
// that a mended line without mate has searched the plain line to its end.
func TestPlainRepairs(t *testing.T) {
	var s searcher
	s.byClass = &quickWeights
	for _, c := range []struct {
		fen  string
		side bb.Color
		end  plainEnd // where the plain line stops
	}{
		{"7Q/5K2/8/3k4/6q1/8/8/8 b - - 6 52", bb.Black, endLostMen},
		{"3k4/1K6/4Q3/3P1p2/5p2/5P2/8/8 w - - 0 56", bb.White, endLoserStuck},
		{"3K4/1k6/2r5/3r4/8/8/5P2/8 w - - 6 46", bb.Black, endRepeat},
		{"8/8/8/6R1/8/3k4/6rK/8 w - - 0 61", bb.Black, endLoserStuck},
		{"4q2K/8/7P/3p4/8/3k4/6r1/8 w - - 2 59", bb.White, endWinnerStuck},
		{"8/8/8/2K5/3p1kPP/3B4/8/8 w - - 3 57", bb.Black, endLoserStuck},
	} {
		p, err := bb.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		if found, line, _, _ := plainLine(t, &s, &p, c.side, 0, firstLook); found || s.plainEnd != c.end {
			t.Fatalf("%s for %s: the plain line should stop at dead end %d, got found %v %v, end %d", c.fen, c.side, c.end, found, line, s.plainEnd)
		}
		found, line, nodes, _ := plainLine(t, &s, &p, c.side, quickRepairs, firstLook)
		if !found {
			t.Fatalf("%s for %s: the mended line found no mate in %d nodes", c.fen, c.side, nodes)
		}
		assertMateLineFast(t, p, c.side, line)
	}

	checked, mended := 0, 0
	forRandomNodes(t, 31, 60, 80, randomGameStarts, func(s *searcher, p *bb.Position, side bb.Color) {
		if insufficient(p, side) != "" {
			return
		}
		found0, line0, _, abort0 := plainLine(t, s, p, side, 0, firstLook)
		found1, line1, _, _ := plainLine(t, s, p, side, quickRepairs, firstLook)
		if found0 && (!found1 || !slices.Equal(line0, line1)) {
			t.Fatalf("%s for %s: the plain line mates with %v, the mended one gives %v %v", p.FEN(), side, line0, found1, line1)
		}
		if found1 {
			assertMateLineFast(t, *p, side, line1)
		}
		if !found0 && !abort0 && found1 {
			mended++
		}
		checked++
	})
	if mended == 0 {
		t.Fatalf("no mended line mated where the plain line stopped short (%d positions)", checked)
	}
	t.Logf("%d positions, %d mated only when mended", checked, mended)
}

// TestPickAvoiding checks that pickAvoiding leaves out the moves it is
// told to avoid, and only those: at positions of random games, avoiding
// the move it picks gives the first of the highest scores among the
// others (or a mate, which is never avoided: a mate ends the line).
func TestPickAvoiding(t *testing.T) {
	var ml bb.MoveList
	n := 0
	forRandomNodes(t, 37, 80, 80, randomGameStarts, func(s *searcher, p *bb.Position, w bb.Color) {
		lk := p.KingSquare(w.Other())
		cip := winnerCheckInfo(p, w)
		first, mate, ok := s.pickAvoiding(lk, cip, true, &ml, nil)
		if !ok || mate {
			return
		}
		second, mate2, ok2 := s.pickAvoiding(lk, cip, true, &ml, []bb.Move{first})
		p.LegalMoves(&ml)
		var want choice
		for _, m := range ml.Slice() {
			if m != first {
				want.offer(m, s.moveDelta(m, lk))
			}
		}
		if mate2 || ok2 != want.ok || (ok2 && second != want.m) {
			t.Fatalf("%s, winner %v: avoiding %v gives %v (mate %v, ok %v), want %v", p.FEN(), w, first, second, mate2, ok2, want.m)
		}
		n++
	})
	if n == 0 {
		t.Fatal("no pick checked")
	}
	t.Logf("%d picks", n)
}
