package unwinnable

import (
	bb "github.com/arbiterd/arbiterd/rules/bitboard"
)

// The arbiter reads the mate line of a winnable answer as the proof that
// a helpmate exists, so it should be short. The phases that find mates
// care about finding one at all: the heuristic search follows its score
// wherever it leads and the exhaustive walk wanders, so their lines can
// run to a hundred plies while a helpmate of a dozen exists. improve
// shortens a found line, on its own node budget (never wall time, so the
// same query always gives the same line):
//
//  1. detours are cut: a position of the line that reaches a later one
//     in a single move skips the moves in between (cutDetours);
//  2. a full-width helpmate search of growing depth, from the query
//     position, finds the shortest line if it is short (within an eighth
//     of the budget);
//  3. the heuristic search is run again from the query position with a
//     depth cap two plies below the line's length (a mate by the same
//     side always has the same parity of length), with a few
//     discrepancies; every shorter line found lowers the cap;
//  4. the same is tried from the positions along the line, replacing the
//     suffix when a shorter mate is found from there.

// shortEnough is the length of a line (in plies) not worth shortening: an
// arbiter checks six moves each at a glance.
const shortEnough = 12

// maxShortDisc is the largest number of discrepancies the capped searches
// allow.
const maxShortDisc = 8

// improve returns a line no longer than path (a mating line from s.pos),
// spending at most budget nodes. s.pos is left unchanged.
func (s *searcher) improve(path []bb.Move, budget int64) []bb.Move {
	path = s.cutDetours(path)
	if budget <= 0 || len(path) <= shortEnough {
		return path
	}
	s.limit = s.nodes + budget
	s.abort = false
	if p, ok := s.shortestFullWidth(len(path)-2, budget/8); ok {
		path = p
	}
	s.limit = s.nodes + budget - budget/8
	path = s.cappedFrom(path, 0, budget)
	// Suffixes: from each position of the line, look for a shorter mate
	// than the rest of the line, with what is left shared equally.
	var undo [maxPly]bb.Undo
	made := 0
	for i := 0; i+shortEnough < len(path) && i < maxPly-4 && !s.abort; i++ {
		undo[i] = s.pos.Make(path[i])
		made = i + 1
		left := s.limit - s.nodes
		per := left / int64(len(path)-i)
		if per < 50 {
			break
		}
		rest := s.cappedFrom(path[i+1:], i+1, per)
		path = append(path[:i+1:i+1], rest...)
	}
	for i := made - 1; i >= 0; i-- {
		s.pos.Unmake(path[i], undo[i])
	}
	path = s.cutDetours(path)
	// A line still very long (the walk's) gets two-ply shortcuts, with a
	// quarter of the budget more.
	s.limit = s.nodes + budget/4
	for len(path) > 2*longLine && s.nodes < s.limit {
		n := len(path)
		if path = s.shortcut2(path); len(path) == n {
			break
		}
	}
	return path
}

// cappedFrom looks for mating lines shorter than path from the current
// position (at ply base of s.path) with at most budget nodes, and returns
// the shortest line known. The overall limit s.limit still applies.
func (s *searcher) cappedFrom(path []bb.Move, base int, budget int64) []bb.Move {
	limit := s.limit
	s.limit = min(limit, s.nodes+budget)
	defer func() { s.limit = limit; s.abort = s.nodes >= limit }()
	s.abort = false
	for disc := 0; disc <= maxShortDisc && len(path) > shortEnough; {
		depth := min(len(path)-2, maxPly-2-base)
		if depth <= 0 {
			break
		}
		s.ldsT.stamp++
		found, n := s.ldsFind(base, depth, disc)
		if s.abort {
			break
		}
		if !found {
			disc++
			continue
		}
		path = append([]bb.Move(nil), s.path[base:n]...)
	}
	return path
}

// improveLine shortens line, UCI moves from s.pos, with improve.
func (s *searcher) improveLine(line []string, budget int64) []string {
	if budget < 0 {
		return line
	}
	path := make([]bb.Move, 0, len(line))
	undo := make([]bb.Undo, 0, len(line))
	for _, u := range line {
		m, ok := s.pos.ParseMove(u)
		if !ok {
			break // cannot happen: the line was generated from s.pos
		}
		path = append(path, m)
		undo = append(undo, s.pos.Make(m))
	}
	for i := len(path) - 1; i >= 0; i-- {
		s.pos.Unmake(path[i], undo[i])
	}
	if len(path) != len(line) {
		return line
	}
	path = s.improve(path, budget)
	out := make([]string, len(path))
	for i, m := range path {
		out[i] = m.UCI()
	}
	return out
}

// shortestFullWidth runs the full-width helpmate search from s.pos with
// depths 1 to maxDepth and returns the first (so the shortest) line it
// finds within budget nodes.
func (s *searcher) shortestFullWidth(maxDepth int, budget int64) ([]bb.Move, bool) {
	s.limit = s.nodes + budget
	s.abort = false
	for depth := s.firstDepth(); depth <= min(maxDepth, maxPly-2); depth += 2 {
		found, complete, n := s.find(0, depth, 0)
		if found {
			return append([]bb.Move(nil), s.path[:n]...), true
		}
		if s.abort || complete {
			break
		}
	}
	return nil, false
}

// shortcut2 cuts detours of a line that one or two plies can skip: from
// each position of the line it tries every move and every reply, and
// jumps to the latest position of the line so reached, when that saves
// plies. It is meant for the long lines of the exhaustive walk, which
// wanders; each position tried counts as a node, and when s.limit is
// reached the rest of the line is kept as it is. s.pos is restored.
func (s *searcher) shortcut2(path []bb.Move) []bb.Move {
	p := &s.pos
	s.indexLine(path)
	at := &s.lineAt
	ml1, ml2 := &s.lists[maxPly-2], &s.lists[maxPly-1]
	var out []bb.Move
	var outUndo []bb.Undo
	for i := 0; i < len(path); {
		if s.nodes >= s.limit {
			for _, m := range path[i:] {
				outUndo = append(outUndo, p.Make(m))
				out = append(out, m)
			}
			break
		}
		// Progress of a choice: the index reached minus the plies spent.
		next, moves, gain := i+1, []bb.Move{path[i]}, i
		p.LegalMoves(ml1)
		for _, m1 := range ml1.Slice() {
			u1 := p.Make(m1)
			s.nodes++
			if j, ok := at.get(p.Hash()); ok && j-1 > gain {
				next, moves, gain = j, []bb.Move{m1}, j-1
			}
			p.LegalMoves(ml2)
			for _, m2 := range ml2.Slice() {
				u2 := p.Make(m2)
				s.nodes++
				if j, ok := at.get(p.Hash()); ok && j-2 > gain {
					next, moves, gain = j, []bb.Move{m1, m2}, j-2
				}
				p.Unmake(m2, u2)
			}
			p.Unmake(m1, u1)
		}
		for _, m := range moves {
			outUndo = append(outUndo, p.Make(m))
			out = append(out, m)
		}
		i = next
	}
	for i := len(out) - 1; i >= 0; i-- {
		p.Unmake(out[i], outUndo[i])
	}
	return out
}

// lineIndex finds the index of a position (by hash, or by occupancy)
// among those of a line: a small open-addressing table kept by the searcher, so that
// shortening allocates nothing on the usual line lengths.
type lineIndex struct {
	keys  []uint64
	at    []int32 // index+1; 0 marks a free slot
	mask  uint64
	shift uint
}

func (x *lineIndex) reset(n int) {
	size, shift := 64, uint(58)
	for size < 2*n {
		size, shift = size*2, shift-1
	}
	if len(x.keys) < size {
		x.keys, x.at = make([]uint64, size), make([]int32, size)
	} else {
		x.keys, x.at = x.keys[:size], x.at[:size]
		clear(x.at)
	}
	x.mask, x.shift = uint64(size-1), shift
}

// slot is the first slot tried for key: its bits mixed (an occupancy's
// low bits are much alike from one position to the next).
func (x *lineIndex) slot(key uint64) uint64 {
	return key * 0x9e3779b97f4a7c15 >> x.shift
}

// put records position i of the line; a repeated position keeps its
// latest index.
func (x *lineIndex) put(key uint64, i int) {
	for h := x.slot(key); ; h = (h + 1) & x.mask {
		if x.at[h] == 0 || x.keys[h] == key {
			x.keys[h], x.at[h] = key, int32(i+1)
			return
		}
	}
}

func (x *lineIndex) get(key uint64) (int, bool) {
	for h := x.slot(key); x.at[h] != 0; h = (h + 1) & x.mask {
		if x.keys[h] == key {
			return int(x.at[h]) - 1, true
		}
	}
	return 0, false
}

// cutDetours removes detours from a mating path from s.pos: whenever a
// position on the path can reach a later one in a single move, the moves
// in between are cut. s.pos is restored.
func (s *searcher) cutDetours(path []bb.Move) []bb.Move {
	if len(path) < 3 {
		return path
	}
	p := &s.pos
	// x finds a position of the line, y the last one with a given
	// occupancy: a move is played (to look its position up) only if the
	// squares it leaves and enters give the occupancy of a later one.
	s.indexLine(path)
	x, y := &s.lineAt, &s.lineOcc
	undo := s.undoBuf(len(path))
	ml := &s.lists[maxPly-1]
	out := make([]bb.Move, 0, len(path))
	for i := 0; i < len(path); {
		p.LegalMoves(ml)
		best, bestMove := i+1, path[i]
		occ := p.All()
		for _, m := range ml.Slice() {
			if m&(bb.FlagCastle|bb.FlagEnPassant) == 0 {
				after := occ&^(1<<uint(m.From())) | 1<<uint(m.To())
				if j, ok := y.get(after); !ok || j <= best {
					continue
				}
			}
			u := p.Make(m)
			if j, ok := x.get(p.Hash()); ok && j > best {
				best, bestMove = j, m
			}
			p.Unmake(m, u)
		}
		undo[len(out)] = p.Make(bestMove)
		out = append(out, bestMove)
		i = best
	}
	for i := len(out) - 1; i >= 0; i-- {
		p.Unmake(out[i], undo[i])
	}
	return out
}

// indexLine records the positions of a line from s.pos, the query's
// position first: by hash in s.lineAt, by occupancy in s.lineOcc (a
// repeated one under its latest index). s.pos is restored.
func (s *searcher) indexLine(path []bb.Move) {
	p := &s.pos
	x, y := &s.lineAt, &s.lineOcc
	x.reset(len(path) + 1)
	y.reset(len(path) + 1)
	undo := s.undoBuf(len(path))
	for i, m := range path {
		x.put(p.Hash(), i)
		y.put(p.All(), i)
		undo[i] = p.Make(m)
	}
	x.put(p.Hash(), len(path))
	y.put(p.All(), len(path))
	for i := len(path) - 1; i >= 0; i-- {
		p.Unmake(path[i], undo[i])
	}
}

// undoBuf returns a scratch slice of n undo records.
func (s *searcher) undoBuf(n int) []bb.Undo {
	if cap(s.undo) < n {
		s.undo = make([]bb.Undo, n)
	}
	return s.undo[:n]
}
