package unwinnable

import (
	"math/rand/v2"
	"testing"

	bb "github.com/arbiterd/arbiterd/rules/bitboard"
)

// pickByList is what ldsFind did with no discrepancy left before
// pickPlain: every legal move in generation order, the winner's checks
// tested for mate on the way (the first mate wins), and otherwise the
// first of the highest moveDelta scores.
func (s *searcher) pickByList(lk bb.Square, ci *bb.CheckInfo, score bool) (m bb.Move, mate, ok bool) {
	p := &s.pos
	var ml bb.MoveList
	p.LegalMoves(&ml)
	var best choice
	for _, mv := range ml.Slice() {
		if ci != nil && p.GivesCheckWith(mv, ci) && s.mateBy(mv) {
			return mv, true, true
		}
		if score {
			best.offer(mv, s.moveDelta(mv, lk))
		}
	}
	return best.m, false, best.ok
}

// TestPickPlain checks that pickPlain, which ranks a piece's moves by set
// operations, returns the move of the list at every position of random
// games (pins, checks, castling, en passant and promotions among them),
// for both sides as the winner, with and without scoring.
func TestPickPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	starts := append([]string{
		"4k3/8/8/2pP4/8/8/8/4K2R w K c6 0 1",
		"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
		"8/1P4k1/8/8/8/8/1p4K1/8 w - - 0 1",
	}, randomGameStarts...)
	var s searcher
	var ml bb.MoveList
	n, mates := 0, 0
	for i := 0; i < 600; i++ {
		randomPlies(t, rng, starts[i%len(starts)], 100, func(p *bb.Position, _ bb.Move) {
			for _, w := range [2]bb.Color{bb.White, bb.Black} {
				s.reset(p, w)
				lk := p.KingSquare(w.Other())
				var ci bb.CheckInfo
				cip := &ci
				if p.Side() == w {
					ci = p.CheckInfo()
				} else {
					cip = nil
					s.kingHere = s.kingTerms(lk, lk)
				}
				for _, score := range [2]bool{true, false} {
					wm, wmate, wok := s.pickByList(lk, cip, score)
					gm, gmate, gok := s.pickPlain(lk, cip, score, &ml)
					if wm != gm || wmate != gmate || wok != gok {
						t.Fatalf("%s, winner %v, score %v: pickPlain = %v %v %v, want %v %v %v",
							p.FEN(), w, score, gm, gmate, gok, wm, wmate, wok)
					}
					n++
					if wmate {
						mates++
					}
				}
			}
		})
	}
	if mates == 0 {
		t.Fatal("no mate among the picks: the test proves less than it should")
	}
	t.Logf("%d picks, %d mates", n, mates)
}
