package unwinnable

import (
	bb "github.com/arbiterd/arbiterd/rules/bitboard"
)

// maxWalk bounds the depth of the exhaustive walk; a walk that would go
// deeper gives up (a proof needs every reachable position visited). A
// depth-first walk of a large region goes deep, so frames are small: a
// node's moves are generated again when the walk comes back to it, once
// per child it descended into.
const maxWalk = 1 << 23

// keepSeen is the most positions a walk's set may hold and be kept for
// the next walk.
const keepSeen = 1 << 16

type walkFrame struct {
	move bb.Move // the move to the child being walked
	next int32   // index of the next move to try in the node's legal moves
	undo bb.Undo
}

// exhaust walks every position reachable from the query position, depth
// first with a visited set, the plain heuristic's best move first at
// every node (walkOrder), closing positions where the winner is mated
// or stalemated or which the material rules or the frozen-pawn proof show
// dead. Meeting a mate by the winner proves Winnable (the walk's path is
// the line); finishing the walk proves Unwinnable. It gives up when the
// budget runs out.
func (s *searcher) exhaust(budget int64) (Result, bool) {
	return s.walk(budget, true)
}

// walk is exhaust; with proofs false it closes only positions where the
// game has ended, so that a test can make it visit every position.
func (s *searcher) walk(budget int64, proofs bool) (Result, bool) {
	if budget <= 0 {
		return Result{}, false
	}
	limit := s.nodes + budget
	p := &s.pos
	// The set and the stack are the searcher's, kept from walk to walk
	// (but not after a walk that grew them large).
	seen := &s.seen
	seen.reset()
	stack := s.walkStack[:0]
	defer func() {
		if seen.n > keepSeen {
			*seen, s.walkStack = posSet{}, nil
		} else {
			s.walkStack = stack[:0]
		}
	}()
	// cur holds the legal moves of the node on top of the stack; a child
	// is generated into tmp, and the two are swapped when it is expanded.
	var lists [2]bb.MoveList
	cur, tmp := &lists[0], &lists[1]
	// visit expands the current position; it returns false when the walk
	// must stop (mate found, budget, depth).
	// The static proofs depend on the pieces only through the regions
	// they can reach, which a quiet move of a piece does not change: after
	// such a move the proofs that failed for the parent fail again, so
	// they are tried only after pawn moves and captures.
	visit := func(static bool) (mate, stop bool) {
		s.nodes++
		if s.nodes >= limit || len(stack) >= maxWalk {
			return false, true
		}
		p.LegalMoves(tmp)
		if tmp.N == 0 {
			return p.Side() != s.winner && p.InCheck(), false
		}
		if static && proofs && (insufficient(p, s.winner) != "" || frozenUnwinnable(p, s.winner) || confinedIn(&s.cf, p, s.winner)) {
			return false, false
		}
		s.walkOrder(tmp)
		cur, tmp = tmp, cur
		stack = append(stack, walkFrame{})
		return false, false
	}
	seen.add(p.Hash())
	if mate, stop := visit(true); mate || stop {
		return Result{}, false // the helpmate search handles the root
	}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if int(f.next) == cur.N {
			stack = stack[:len(stack)-1]
			if len(stack) > 0 {
				top := &stack[len(stack)-1]
				p.Unmake(top.move, top.undo)
				p.LegalMoves(cur)
				s.walkOrder(cur)
			}
			continue
		}
		m := cur.Moves[f.next]
		f.next++
		static := p.PieceAt(m.From()).Type() == bb.Pawn || p.PieceAt(m.To()) != bb.NoPiece ||
			p.EnPassant() != bb.NoSquare // the frozen-pawn proof refuses positions with a target
		u := p.Make(m)
		if !seen.add(p.Hash()) {
			p.Unmake(m, u)
			continue
		}
		f.move, f.undo = m, u
		depth := len(stack)
		mate, stop := visit(static)
		if mate {
			path := make([]bb.Move, len(stack))
			for i := range stack {
				path[i] = stack[i].move
			}
			s.unwind(stack)
			path = s.cutDetours(path) // the walk wanders
			return Result{Verdict: Winnable, Line: s.lineOf(path), Nodes: s.nodes, Reason: "mate found by exhaustive walk"}, true
		}
		if stop {
			s.unwind(stack)
			return Result{}, false
		}
		if len(stack) == depth {
			// The child was closed without being expanded: take the move back.
			p.Unmake(m, u)
		}
	}
	return Result{Verdict: Unwinnable, Nodes: s.nodes, Reason: "every reachable position was visited without mate"}, true
}

// unwind takes back the move made from every node on the walk's stack,
// restoring s.pos to the query position.
func (s *searcher) unwind(stack []walkFrame) {
	for i := len(stack) - 1; i >= 0; i-- {
		s.pos.Unmake(stack[i].move, stack[i].undo)
	}
}

// walkOrder puts the plain heuristic's best move first (the first of
// the highest scores in generation order), the others after it in the
// order they were generated, so that a walk through a winnable position
// meets the mate sooner.
func (s *searcher) walkOrder(ml *bb.MoveList) {
	lk := s.pos.KingSquare(s.winner.Other())
	best, bv := 0, int32(0)
	for i := 0; i < ml.N; i++ {
		if v := s.moveDelta(ml.Moves[i], lk); i == 0 || v > bv {
			best, bv = i, v
		}
	}
	m := ml.Moves[best]
	copy(ml.Moves[1:best+1], ml.Moves[:best])
	ml.Moves[0] = m
}

// posSet is the walk's set of positions seen, by their keys: open
// addressing with linear probing in one flat array of 8-byte slots,
// which doubles when three quarters full. Against a map it spares the
// hashing of keys that are hashes already and a lookup before each
// insertion: a walk of 9.4 M nodes takes a quarter less time, in about
// as much memory (docs/PERFORMANCE.md). Keys are Zobrist hashes, random
// in their low bits, which index the array as they are; 0 marks an empty
// slot, so the key 0 is kept apart.
type posSet struct {
	slots []uint64
	n     int  // keys held
	zero  bool // whether the key 0 is held
}

// reset empties the set, keeping its array.
func (t *posSet) reset() {
	clear(t.slots)
	t.n, t.zero = 0, false
}

// add puts k in the set and reports whether it was not there yet.
func (t *posSet) add(k uint64) bool {
	if k == 0 {
		if t.zero {
			return false
		}
		t.zero = true
		t.n++
		return true
	}
	if 4*(t.n+1) > 3*len(t.slots) {
		t.grow()
	}
	mask := uint64(len(t.slots) - 1)
	for i := k & mask; ; i = (i + 1) & mask {
		switch t.slots[i] {
		case 0:
			t.slots[i] = k
			t.n++
			return true
		case k:
			return false
		}
	}
}

// grow doubles the array (1,024 slots at first) and puts the keys back.
func (t *posSet) grow() {
	old := t.slots
	t.slots = make([]uint64, max(2*len(old), 1024))
	mask := uint64(len(t.slots) - 1)
	for _, k := range old {
		if k == 0 {
			continue
		}
		i := k & mask
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = k
	}
}
