package unwinnable

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	bb "github.com/arbiterd/arbiterd/rules/bitboard"
)

// pickByList is what ldsFind did with no discrepancy left before
// pickPlain: pickAvoiding with nothing to avoid.
func (s *searcher) pickByList(lk bb.Square, ci *bb.CheckInfo, score bool) (m bb.Move, mate, ok bool) {
	var ml bb.MoveList
	return s.pickAvoiding(lk, ci, score, &ml, nil)
}

// modeWeights are the heuristic's weights of the two modes (quick
// mode's, one set for each class of material, then full mode's), which
// the tests of the move picking alternate.
var modeWeights = slices.Concat(quickWeights[:], []weights{fullWeights})

// winnerCheckInfo is the CheckInfo pickPlain takes at a node of p: the
// position's when the winner w is to move, nil when the loser is.
func winnerCheckInfo(p *bb.Position, w bb.Color) *bb.CheckInfo {
	if p.Side() != w {
		return nil
	}
	ci := p.CheckInfo()
	return &ci
}

// TestPickPlainAnySteps is TestPickPlain with the weights of a piece's
// and a loser's man's steps towards the loser's king (piece, menStep) set
// to zero and below as well as above: pickPlain then ranks a piece's
// quiet moves from the farthest ring, or by square alone, and must still
// return the move the sorted list puts first. No mode's weights have a
// step weight below zero (quick mode's for a queen have menStep 0), so
// only this test reaches the branch for a negative one.
func TestPickPlainAnySteps(t *testing.T) {
	steps := [...]int32{-3, -1, 0, 1, 4}
	var ml bb.MoveList
	n, far := 0, 0
	forRandomNodes(t, 23, 120, 80, randomGameStarts, func(s *searcher, p *bb.Position, w bb.Color) {
		base := s.w
		defer func() { s.w = base }()
		s.w.piece, s.w.menStep = steps[n%len(steps)], steps[(n/len(steps))%len(steps)]
		if s.w.piece <= 0 || s.w.menStep <= 0 {
			far++
		}
		n++
		lk := p.KingSquare(w.Other())
		cip := winnerCheckInfo(p, w)
		wm, wmate, wok := s.pickByList(lk, cip, true)
		gm, gmate, gok := s.pickPlain(lk, cip, true, &ml)
		if wm != gm || wmate != gmate || wok != gok {
			t.Fatalf("%s, winner %v, piece %d, menStep %d: pickPlain = %v %v %v, want %v %v %v",
				p.FEN(), w, s.w.piece, s.w.menStep, gm, gmate, gok, wm, wmate, wok)
		}
	})
	if far == 0 {
		t.Fatal("no pick with a step weight of zero or below")
	}
	t.Logf("%d picks, %d with a step weight of zero or below", n, far)
}

// TestPickPlain checks that pickPlain, which ranks a piece's moves by set
// operations, returns the move of the list at every position of random
// games (pins, checks, castling, en passant and promotions among them),
// for both sides as the winner, with and without scoring.
func TestPickPlain(t *testing.T) {
	starts := append([]string{
		"4k3/8/8/2pP4/8/8/8/4K2R w K c6 0 1",
		"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
		"8/1P4k1/8/8/8/8/1p4K1/8 w - - 0 1",
		"8/8/4ppp1/4pkp1/5bp1/8/4P3/K3R3 w - - 0 1", // a double push mates (e4#)
		"k3r3/4p3/8/5BP1/4PKP1/4PPP1/8/8 b - - 0 1", // and for Black (e5#)
	}, randomGameStarts...)
	var ml bb.MoveList
	n, mates := 0, 0
	forRandomNodes(t, 17, 600, 100, starts, func(s *searcher, p *bb.Position, w bb.Color) {
		lk := p.KingSquare(w.Other())
		cip := winnerCheckInfo(p, w)
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
	})
	if mates == 0 {
		t.Fatal("no mate among the picks: the test proves less than it should")
	}
	t.Logf("%d picks, %d mates", n, mates)
}

// TestCornerTables checks the corner distances looked up against those
// computed from the corners setCorners chose, for every material it
// tells apart.
func TestCornerTables(t *testing.T) {
	var s searcher
	for _, fen := range []string{
		"4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
		"4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", // dark bishop: a1, h8
		"4k3/8/8/8/8/8/8/3BK3 w - - 0 1",  // light bishop: h1, a8
		"4k3/8/8/8/8/8/8/2BBK3 w - - 0 1",
		"4k3/8/8/8/8/8/8/1N2K3 w - - 0 1",
	} {
		p, err := bb.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		s.reset(&p, bb.White)
		for sq := bb.Square(0); sq < 64; sq++ {
			if got, want := s.cornerDist(sq), s.cornerDistSlow(sq); got != want {
				t.Fatalf("%s: cornerDist(%v) = %d, want %d", fen, sq, got, want)
			}
		}
	}
}

// TestKingTerms checks kingTerms, which sums distances ring by ring,
// against the sums taken man by man, at every position of random games.
func TestKingTerms(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	var s searcher
	for i := 0; i < 100; i++ {
		s.w = modeWeights[i%len(modeWeights)]
		randomPlies(t, rng, randomGameStarts[i%len(randomGameStarts)], 80, func(p *bb.Position, _ bb.Move) {
			for _, w := range [2]bb.Color{bb.White, bb.Black} {
				s.reset(p, w)
				l := w.Other()
				for k := bb.Square(0); k < 64; k++ {
					skip := p.KingSquare(l)
					want := -s.w.corner*int32(s.cornerDistSlow(k)) - s.w.kingNear*int32(dist(p.KingSquare(w), k))
					for b := p.Occupied(w) &^ p.Pieces(w, bb.King) &^ p.Pieces(w, bb.Pawn); b != 0; b &= b - 1 {
						want -= s.w.piecesNear * int32(dist(bb.Square(bits.TrailingZeros64(b)), k))
					}
					for b := p.Occupied(l) &^ p.Pieces(l, bb.King); b != 0; b &= b - 1 {
						want += 6 - s.w.menNear*int32(dist(bb.Square(bits.TrailingZeros64(b)), k))
					}
					want -= s.w.kingFree * int32(bits.OnesCount64(bb.KingAttacks(k)&^(p.All()&^(1<<uint(skip)))))
					if got := s.kingTerms(k, skip); got != want {
						t.Fatalf("%s, winner %v, king on %v: kingTerms = %d, want %d", p.FEN(), w, k, got, want)
					}
				}
			}
		})
	}
}

// TestFlightAfter checks the flight square found before a check is
// played against the position after it, at every check of random games:
// whenever flightAfter finds one, the king has a legal step there.
func TestFlightAfter(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	var s searcher
	found, checks := 0, 0
	for i := 0; i < 400; i++ {
		randomPlies(t, rng, randomGameStarts[i%len(randomGameStarts)], 120, func(p *bb.Position, m bb.Move) {
			if !p.GivesCheck(m) {
				return
			}
			checks++
			s.pos = *p
			got := s.flightAfter(m)
			q := *p
			q.Make(m)
			var ml bb.MoveList
			q.LegalMoves(&ml)
			kingSteps := false
			for _, r := range ml.Slice() {
				if r.From() == q.KingSquare(q.Side()) && !r.IsCastle() {
					kingSteps = true
				}
			}
			if got && !kingSteps {
				t.Fatalf("%s, %v: flightAfter found a flight square, but the king has no legal step", p.FEN(), m)
			}
			if got {
				found++
			}
		})
	}
	if found == 0 {
		t.Fatalf("%d checks, no flight square found: the test proves nothing", checks)
	}
	t.Logf("%d checks, a flight square found before the move for %d", checks, found)
}

// TestKingStep checks kingStep, which sums the changes of the distances
// from the sets of squares one step farther or nearer, against the
// difference of kingTerms, for every neighbour square of every square
// (the king placed there, men on the squares or not) at every position
// of random games.
func TestKingStep(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 28))
	var s searcher
	n := 0
	for i := 0; i < 100; i++ {
		s.w = modeWeights[i%len(modeWeights)]
		randomPlies(t, rng, randomGameStarts[i%len(randomGameStarts)], 80, func(p *bb.Position, _ bb.Move) {
			for _, w := range [2]bb.Color{bb.White, bb.Black} {
				s.reset(p, w)
				for from := bb.Square(0); from < 64; from++ {
					for b := bb.KingAttacks(from); b != 0; b &= b - 1 {
						to := bb.Square(bits.TrailingZeros64(b))
						want := s.kingTerms(to, from) - s.kingTerms(from, from)
						if got := s.kingStep(from, to); got != want {
							t.Fatalf("%s, winner %v, %v to %v: kingStep = %d, want %d", p.FEN(), w, from, to, got, want)
						}
						n++
					}
				}
				// Castling: not a step, computed from kingTerms.
				if got, want := s.kingStep(4, 6), s.kingTerms(6, 4)-s.kingTerms(4, 4); got != want {
					t.Fatalf("%s: kingStep(e1, g1) = %d, want %d", p.FEN(), got, want)
				}
			}
		})
	}
	t.Logf("%d steps", n)
}

// TestPlainFind checks that plainFind, the single line of the plain
// heuristic followed in a loop with its own cycle test, ends where
// ldsFind with no discrepancy ends, in as many nodes, from every 16th
// query of timeouts-30k (-short every 64th, under the race detector every
// 512th) with the first look's budget and with a larger one, with each
// mode's weights (quick mode's class by class, and by the class at each
// node, as quick mode searches), and leaves the position as it was.
func TestPlainFind(t *testing.T) {
	qs := timeoutQueries(t)
	step := 16
	switch {
	case raceEnabled:
		step = 512
	case testing.Short():
		step = 64
	}
	var s, r searcher
	r.ldsT, s.ldsT = newLDSTable(12), newLDSTable(12)
	checked := 0
	for i := 0; i < len(qs); i += step {
		// Each set of weights, then quick mode's by the class at each
		// node.
		for k := 0; k <= len(modeWeights); k++ {
			for _, budget := range []int64{firstLook, 3000} {
				for _, x := range []*searcher{&s, &r} {
					x.byClass = nil
					if k < len(modeWeights) {
						x.w = modeWeights[k]
					} else {
						x.byClass = &quickWeights
					}
					x.reset(&qs[i].pos, qs[i].side)
					x.limit = budget
					x.ldsT.stamp++
				}
				got, gotN := s.plainFind(0, plainDepth, 0)
				want, wantN := r.ldsFind(0, plainDepth, 0)
				if got != want || gotN != wantN || s.nodes != r.nodes || s.abort != r.abort {
					t.Fatalf("%s for %s, budget %d: plainFind %v %d in %d nodes, ldsFind %v %d in %d nodes",
						qs[i].pos.FEN(), qs[i].side, budget, got, gotN, s.nodes, want, wantN, r.nodes)
				}
				if got && !slices.Equal(s.path[:gotN], r.path[:wantN]) {
					t.Fatalf("%s for %s: lines differ", qs[i].pos.FEN(), qs[i].side)
				}
				if s.pos != qs[i].pos {
					t.Fatalf("%s: plainFind left the position changed", qs[i].pos.FEN())
				}
				checked++
			}
		}
	}
	t.Logf("%d lines compared", checked)
}

// TestPickScoresAsMoveDelta checks the two scorers pickPlain uses instead
// of moveDelta for speed against moveDelta itself, at every position of
// random games, both sides as the winner, both modes' weights: a king's
// steps as scoreKingSteps keys them (score times 16 plus 15 less the
// index), and a pawn's moves that do not promote by pawnDelta. They
// restate moveDelta's terms, so a change to one must reach the others.
func TestPickScoresAsMoveDelta(t *testing.T) {
	var ml bb.MoveList
	kings, pawns := 0, 0
	forRandomNodes(t, 37, 200, 100, randomGameStarts, func(s *searcher, p *bb.Position, w bb.Color) {
		lk := p.KingSquare(w.Other())
		k := p.KingSquare(p.Side())
		var ks kingStepList
		s.scoreKingSteps(&ks, k, lk, bb.KingAttacks(k)&^p.Occupied(p.Side()), p.Occupied(p.Side().Other()))
		for i := 0; i < ks.n; i++ {
			if got, want := int32(ks.key[i]>>4), s.moveDelta(bb.NewMove(k, ks.to[i]), lk); got != want {
				t.Fatalf("%s, winner %v: the king's step to %v scored %d, moveDelta %d", p.FEN(), w, ks.to[i], got, want)
			}
			if 15-int(ks.key[i]&15) != i {
				t.Fatalf("%s: step %d keyed as index %d", p.FEN(), i, 15-int(ks.key[i]&15))
			}
			kings++
		}
		p.LegalMoves(&ml)
		for _, m := range ml.Moves[:ml.N] {
			if p.PieceAt(m.From()).Type() != bb.Pawn || m.Promotion() != bb.NoPieceType {
				continue
			}
			if got, want := s.pawnDelta(m, lk, p.Side() == w), s.moveDelta(m, lk); got != want {
				t.Fatalf("%s, winner %v: pawn move %v scored %d, moveDelta %d", p.FEN(), w, m, got, want)
			}
			pawns++
		}
	})
	if kings == 0 || pawns == 0 {
		t.Fatalf("%d king steps and %d pawn moves compared", kings, pawns)
	}
	t.Logf("%d king steps, %d pawn moves", kings, pawns)
}

// forRandomNodes calls visit at every position of games random games of up
// to plies plies from starts (in turn), for each side as the winner, with
// a searcher reset there and the modes' weights (modeWeights) alternating
// by game.
func forRandomNodes(t *testing.T, seed uint64, games, plies int, starts []string, visit func(s *searcher, p *bb.Position, w bb.Color)) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, seed+1))
	var s searcher
	for i := 0; i < games; i++ {
		s.w = modeWeights[i%len(modeWeights)]
		randomPlies(t, rng, starts[i%len(starts)], plies, func(p *bb.Position, _ bb.Move) {
			for _, w := range [2]bb.Color{bb.White, bb.Black} {
				s.reset(p, w)
				visit(&s, p, w)
			}
		})
	}
}

// TestBlockOrCapture checks blockOrCapture against the move generator:
// at every position of random games (with pins, discovered and double
// checks among them), for each checking move of a knight, bishop, rook or
// queen, it must say whether the checked side has a legal move of a man
// other than its king, which is what a capture of the checker or a
// block is when in check.
func TestBlockOrCapture(t *testing.T) {
	starts := append([]string{
		"4k3/8/8/8/1b6/8/3N4/R3K2R w - - 0 1",  // a pinned knight
		"r3k3/8/8/8/8/8/4p3/R2QK1NR b - - 0 1", // a promotion blocks
		"k7/8/8/8/7K/8/4P3/r7 b - - 0 1",       // a double push blocks (Ra4+ e4)
		"8/4p3/8/7k/8/8/8/R5K1 w - - 0 1",      // and for Black (Ra5+ e5)
		"rnb1kbnr/pppp1ppp/8/4p3/4P2q/5P2/PPPP2PP/RNBQKBNR w KQkq - 0 1",
	}, randomGameStarts...)
	var ml bb.MoveList
	checks, answered := 0, 0
	forRandomNodes(t, 41, 400, 120, starts, func(s *searcher, p *bb.Position, w bb.Color) {
		if p.Side() != w {
			return // each position once: the side to move is the winner
		}
		p.LegalMoves(&ml)
		for _, m := range ml.Moves[:ml.N] {
			pt := p.PieceAt(m.From()).Type()
			if pt == bb.Pawn || pt == bb.King {
				continue
			}
			ck := p.KingSquare(w.Other())
			s.pos = *p
			u := s.pos.Make(m)
			if !s.pos.InCheck() {
				s.pos.Unmake(m, u)
				continue
			}
			var replies bb.MoveList
			s.pos.LegalMoves(&replies)
			want := false
			for _, r := range replies.Moves[:replies.N] {
				if r.From() != ck {
					want = true
				}
			}
			s.pos.Unmake(m, u)
			if got := s.blockOrCapture(m.From(), m.To(), pt, ck); got != want {
				t.Fatalf("%s: after %v, blockOrCapture = %v, want %v", p.FEN(), m, got, want)
			}
			checks++
			if want {
				answered++
			}
		}
	})
	if answered == 0 || answered == checks {
		t.Fatalf("%d checks, %d answered by a man: the test proves less than it should", checks, answered)
	}
	t.Logf("%d checks, %d answered by a man", checks, answered)
}
