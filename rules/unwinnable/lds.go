package unwinnable

import (
	"math/bits"

	bb "github.com/arbiterd/arbiterd/rules/bitboard"
)

// Limited discrepancy search for helpmates. Full-width iterative deepening
// finds only short helpmates; typical flag-fall positions need a dozen or
// more moves (drive the king to a corner, promote a pawn, bring the
// pieces). A good heuristic almost knows the way, so the search follows
// its best move everywhere and allows only a few deviations
// ("discrepancies") along a line: with k deviations, a line of n plies
// with b moves per node has about (n·b)^k variations, not b^n.

// ldsEntry records that a position was searched with at least depth plies
// and disc discrepancies left in the current iteration, without mate.
type ldsEntry struct {
	key   uint64
	stamp uint32
	depth int16
	disc  int16
}

type ldsTable struct {
	e     []ldsEntry
	mask  uint64
	stamp uint32
}

func newLDSTable(bits int) ldsTable {
	n := 1 << bits
	return ldsTable{e: make([]ldsEntry, n), mask: uint64(n - 1)}
}

// lds runs discrepancy-limited searches of growing allowance until a mate
// is found or budget nodes are spent.
func (s *searcher) lds(budget int64, maxDisc int) (Result, bool) {
	s.limit = s.nodes + budget
	s.abort = false
	for disc := 0; disc <= maxDisc; disc++ {
		s.ldsT.stamp++
		depth := 120
		if found, n := s.ldsFind(0, depth, disc); found {
			return Result{Verdict: Winnable, Line: s.line(n), Nodes: s.nodes, Reason: "helpmate found"}, true
		}
		if s.abort {
			break
		}
	}
	return Result{}, false
}

func (s *searcher) ldsFind(ply, depth, disc int) (bool, int) {
	s.nodes++
	if s.nodes >= s.limit {
		s.abort = true
		return false, 0
	}
	p := &s.pos
	if depth <= 0 || insufficient(p, s.winner) != "" {
		return false, 0
	}
	key := p.Hash()
	e := &s.ldsT.e[key&s.ldsT.mask]
	if e.key == key && e.stamp == s.ldsT.stamp && int(e.depth) >= depth && int(e.disc) >= disc {
		return false, 0
	}
	// Mark the position before searching it, so that a line coming back
	// to it (a cycle) is cut at once.
	*e = ldsEntry{key: key, stamp: s.ldsT.stamp, depth: int16(depth), disc: int16(disc)}
	ml := &s.lists[ply]
	p.LegalMoves(ml)
	sc := &s.scores[ply]
	winnerToMove := p.Side() == s.winner
	n := 0
	for i := 0; i < ml.N; i++ {
		m := ml.Moves[i]
		u := p.Make(m)
		if p.InCheck() && !p.HasLegalMove() {
			if winnerToMove {
				p.Unmake(m, u)
				s.path[ply] = m
				return true, ply + 1
			}
			p.Unmake(m, u)
			continue // mating the winner ends the game: useless
		}
		v := s.eval()
		p.Unmake(m, u)
		ml.Moves[n], sc[n] = m, v
		n++
	}
	// Selection of the best moves, one at a time: usually only the first
	// one or two are needed.
	for i := 0; i < n && i <= disc; i++ {
		best := i
		for j := i + 1; j < n; j++ {
			if sc[j] > sc[best] {
				best = j
			}
		}
		ml.Moves[i], ml.Moves[best] = ml.Moves[best], ml.Moves[i]
		sc[i], sc[best] = sc[best], sc[i]
		m := ml.Moves[i]
		u := p.Make(m)
		s.path[ply] = m
		found, ln := s.ldsFind(ply+1, depth-1, disc-i)
		p.Unmake(m, u)
		if found {
			return true, ln
		}
		if s.abort {
			return false, 0
		}
	}
	return false, 0
}

var materialValue = [...]int32{1, 3, 3, 5, 9, 0}

// eval scores a position for the helpmate heuristic (higher = closer to
// mate by the winner): the loser's king near a corner and surrounded by
// its own men, the winner's men (king included) near it, the winner's
// pawns advanced, the winner's material kept and grown by promotion.
func (s *searcher) eval() int32 {
	p := &s.pos
	w, l := s.winner, s.winner.Other()
	lk := p.KingSquare(l)
	v := -12 * int32(cornerDist(lk))
	v -= 3 * int32(dist(p.KingSquare(w), lk))
	for pt := bb.Pawn; pt <= bb.Queen; pt++ {
		for b := p.Pieces(w, pt); b != 0; b &= b - 1 {
			sq := bb.Square(bits.TrailingZeros64(b))
			v += 24 * materialValue[pt]
			if pt == bb.Pawn {
				r := sq.Rank()
				if w == bb.Black {
					r = 7 - r
				}
				v += 4 * int32(r)
			} else {
				v -= 2 * int32(dist(sq, lk))
			}
		}
		for b := p.Pieces(l, pt); b != 0; b &= b - 1 {
			sq := bb.Square(bits.TrailingZeros64(b))
			v += 6 - int32(dist(sq, lk))
		}
	}
	// Fewer free squares around the loser's king.
	v -= 2 * int32(bits.OnesCount64(bb.KingAttacks(lk)&^p.All()))
	return v
}
