package unwinnable

import (
	"fmt"
	"math/bits"
	"slices"

	bb "github.com/arbiterd/arbiterd/rules/bitboard"
)

// Goal-directed helpmate search. The plain heuristic drives the loser's
// king to the nearest corner, which fails when the mate can only happen
// elsewhere: bishops of one colour mate only on their colour, a king
// walled in by its own pawns may have a single square where it can be
// checked, a knight needs the king boxed in by men that do not guard the
// knight's square. The goal-directed search picks a target square for the
// loser's king (every square the king can reach, ranked by how easily a
// mate there looks to come about) and drives the men towards a mating net
// around it, with distances computed on the actual obstacles:
//
//   - the loser's king walks to the target by the shortest route that
//     avoids pawns and the squares the winner's pawns attack;
//   - the loser's other men walk to the target's neighbours (to take
//     away the king's flight squares), bishops only to squares of their
//     colour, knights by knight moves, pawns forward to promote;
//   - the winner's men come within reach of the target, and the winner's
//     pawns advance and promote.
//
// When the winner's pawns are all blocked, one more search aims at a
// pawn break: a man of the winner walks to a square where a pawn of the
// loser takes it and a pawn of the winner takes back, then stands free to
// walk on and promote (see breakSquares).
//
// The same limited discrepancy search (lds.go) follows that score; the
// targets share the budget round by round, each round allowing one more
// discrepancy.

// goal is a target square for the loser's king and the distance maps
// that drive the men towards a mate there.
type goal struct {
	t    bb.Square
	zone uint64   // the target's neighbours
	near uint64   // the squares within two king steps of the target
	kd   [64]int8 // loser's king steps from each square to t
	nd   [64]int8 // knight moves from each square to the zone
	bd   [64]int8 // bishop moves from each square to the zone, pawns in the way
	// within[d] holds the squares at most d king steps from t.
	within [unreachable + 1]uint64
	cost   int // rank among the targets (lower first)
	// plain marks the plain heuristic of lds.go (nearest corner),
	// searched in the rounds alongside the targets.
	plain bool
	// offers, when not empty, makes this a pawn-break search: the
	// squares where a man of the winner offered to a pawn of the loser
	// is retaken by a pawn of the winner that can then walk on.
	offers uint64
	// disc is the allowance of the next search, spent the nodes spent.
	disc  int
	spent int64
}

// unreachable marks a square from which the target cannot be reached.
const unreachable = 32

// kingDistances fills d with the king steps from every square to t,
// through squares free of pawns and not attacked by the enemy's pawns
// (enemy = the winner: the loser's king cannot stand there).
func kingDistances(d *[64]int8, t bb.Square, blocked uint64) {
	distances(d, 1<<uint(t), blocked, bb.King, 0)
}

// bishopDistances fills d with the bishop moves from every square to the
// nearest square of set not holding a pawn, on a board where only pawns
// stand in the way (unreachable for the squares of the other colour).
func bishopDistances(d *[64]int8, set, pawns uint64) {
	distances(d, set&^pawns, pawns, bb.Bishop, pawns)
}

// knightDistances fills d with the knight moves from every square to the
// nearest square of set (on an empty board).
func knightDistances(d *[64]int8, set uint64) {
	distances(d, set, 0, bb.Knight, 0)
}

// distances fills d with the moves a man of type pt (not a pawn) needs
// from every square to the nearest of start, never through blocked, with
// occ in the way of a slider; unreachable where there is no way.
func distances(d *[64]int8, start, blocked uint64, pt bb.PieceType, occ uint64) {
	for i := range d {
		d[i] = unreachable
	}
	front, seen := start, start
	for b := start; b != 0; b &= b - 1 {
		d[bits.TrailingZeros64(b)] = 0
	}
	for n := int8(1); front != 0 && n < unreachable; n++ {
		var next uint64
		for b := front; b != 0; b &= b - 1 {
			next |= attacks(pt, bb.Square(bits.TrailingZeros64(b)), occ)
		}
		next &^= seen | blocked
		seen |= next
		for b := next; b != 0; b &= b - 1 {
			d[bits.TrailingZeros64(b)] = n
		}
		front = next
	}
}

// pawnAttacksOf returns the squares the pawns of c attack.
func pawnAttacksOf(p *bb.Position, c bb.Color) uint64 {
	var a uint64
	for b := p.Pieces(c, bb.Pawn); b != 0; b &= b - 1 {
		a |= bb.PawnAttacks(c, bb.Square(bits.TrailingZeros64(b)))
	}
	return a
}

// checkColours returns the squares on which the winner could ever give
// check, as far as a cheap look tells: with only bishops (and pawns that
// stand blocked by a pawn, and no other pieces) that is the bishops'
// colours; otherwise every square. It only ranks targets, it proves
// nothing.
func checkColours(p *bb.Position, w bb.Color) uint64 {
	if p.Pieces(w, bb.Knight)|p.Pieces(w, bb.Rook)|p.Pieces(w, bb.Queen) != 0 {
		return ^uint64(0)
	}
	all := p.Pieces(bb.White, bb.Pawn) | p.Pieces(bb.Black, bb.Pawn)
	pawns := p.Pieces(w, bb.Pawn)
	var ahead uint64
	if w == bb.White {
		ahead = pawns << 8
	} else {
		ahead = pawns >> 8
	}
	if ahead&^all != 0 {
		return ^uint64(0) // a pawn that can walk may promote
	}
	var c uint64
	b := p.Pieces(w, bb.Bishop)
	if b&lightSquares != 0 {
		c |= lightSquares
	}
	if b&darkSquares != 0 {
		c |= darkSquares
	}
	// A blocked pawn's captures are the other way to check.
	return c | pawnAttacksOf(p, w)
}

// makeGoals ranks the squares the loser's king can reach as targets and
// appends the best n of them to out.
func (s *searcher) makeGoals(out []goal, n int) []goal {
	p := &s.pos
	w, l := s.winner, s.winner.Other()
	k := p.KingSquare(l)
	pawns := p.Pieces(bb.White, bb.Pawn) | p.Pieces(bb.Black, bb.Pawn)
	blocked := pawns | pawnAttacksOf(p, w)
	var fromKing [64]int8
	kingDistances(&fromKing, k, blocked&^(1<<uint(k)))
	colours := checkColours(p, w)
	lmen := p.Occupied(l) &^ p.Pieces(l, bb.King)
	type target struct {
		t    bb.Square
		cost int
	}
	var buf [64]target
	cand := buf[:0]
	for t := bb.Square(0); t < 64; t++ {
		if fromKing[t] >= unreachable || (1<<uint(t))&pawns != 0 {
			continue
		}
		zone := bb.KingAttacks(t)
		free := zone &^ pawns
		cost := 3*int(fromKing[t]) + 4*bits.OnesCount64(free)
		// Flight squares the loser's men could never fill (more than
		// they are) must all be covered by the winner: costly.
		if short := bits.OnesCount64(free) - bits.OnesCount64(lmen); short > 0 {
			cost += 2 * short
		}
		if colours&(1<<uint(t)) == 0 {
			cost += 100
		}
		cand = append(cand, target{t, cost})
	}
	slices.SortStableFunc(cand, func(a, b target) int { return a.cost - b.cost })
	if len(cand) > n {
		cand = cand[:n]
	}
	first := len(out)
	for _, c := range cand {
		out = append(out, goal{t: c.t, zone: bb.KingAttacks(c.t), cost: c.cost})
		out[len(out)-1].fill(blocked&^(1<<uint(k)), pawns)
	}
	if offers := breakSquares(p, w); offers != 0 && len(cand) > 0 {
		b := out[first]
		b.offers = offers
		out = append(out, b)
	}
	return out
}

// breakSquares returns the squares where the winner, whose pawns are all
// blocked, could break the pawn structure open: a square that a pawn of
// the loser attacks (it takes a man offered there) and a pawn of the
// winner attacks too (it takes back, and stands free in front: it may
// walk on to promote). Empty when a pawn of the winner can still push.
// It only adds a search, it proves nothing.
func breakSquares(p *bb.Position, w bb.Color) uint64 {
	l := w.Other()
	pawns := p.Pieces(bb.White, bb.Pawn) | p.Pieces(bb.Black, bb.Pawn)
	wp := p.Pieces(w, bb.Pawn)
	ahead := func(b uint64) uint64 {
		if w == bb.White {
			return b << 8
		}
		return b >> 8
	}
	if wp == 0 || ahead(wp)&^pawns != 0 {
		return 0
	}
	var offers uint64
	cand := pawnAttacksOf(p, l) & pawnAttacksOf(p, w) &^ pawns
	for b := cand; b != 0; b &= b - 1 {
		sq := bb.Square(bits.TrailingZeros64(b))
		if ahead(1<<uint(sq))&pawns == 0 {
			offers |= 1 << uint(sq)
		}
	}
	return offers
}

// offerReach estimates the moves a piece of the winner of type pt on sq
// needs to stand on a square of set (occ the occupied squares).
func offerReach(pt bb.PieceType, sq bb.Square, set, occ uint64) int32 {
	switch {
	case set&(1<<uint(sq)) != 0:
		return 0
	case pt == bb.Bishop && colourOf(sq)&set == 0:
		return 3 // can never stand there
	case attacks(pt, sq, occ)&set != 0:
		return 1
	}
	return 2
}

// fill computes the distance maps of g (g.t and g.zone set) with blocked
// the squares the loser's king cannot walk through.
func (g *goal) fill(blocked, pawns uint64) {
	g.near = g.zone
	for z := g.zone; z != 0; z &= z - 1 {
		g.near |= bb.KingAttacks(bb.Square(bits.TrailingZeros64(z)))
	}
	kingDistances(&g.kd, g.t, blocked)
	knightDistances(&g.nd, g.zone)
	bishopDistances(&g.bd, g.zone, pawns)
	g.within = [unreachable + 1]uint64{}
	for sq, d := range g.kd {
		g.within[d] |= 1 << uint(sq)
	}
	for d := 1; d <= unreachable; d++ {
		g.within[d] |= g.within[d-1]
	}
}

// setGoalHere makes g the target of the loser's king's own square: a
// mate where the king stands, by the men around it.
func (s *searcher) setGoalHere(g *goal) {
	p := &s.pos
	k := p.KingSquare(s.winner.Other())
	pawns := p.Pieces(bb.White, bb.Pawn) | p.Pieces(bb.Black, bb.Pawn)
	*g = goal{t: k, zone: bb.KingAttacks(k)}
	g.fill((pawns|pawnAttacksOf(p, s.winner))&^(1<<uint(k)), pawns)
}

// goalLDS runs the discrepancy search towards each target (and, with
// plain, the plain heuristic's first) until a mate is found, every search
// has run up to maxDisc discrepancies, or budget nodes are spent. The
// searches share the nodes fairly, whatever each costs: in round r each
// may spend up to goalRound0<<r nodes in all, going up one discrepancy at
// a time; a search cut off by its allowance starts again in the next
// round. A later call resumes where the last one ran out of budget (the
// searches are those of the query's first call, whatever plain says).
func (s *searcher) goalLDS(budget int64, targets, maxDisc int, plain bool) (Result, bool) {
	if budget <= 0 {
		return Result{}, false
	}
	if s.goals == nil {
		if s.goalBuf == nil {
			s.goalBuf = make([]goal, 0, targets+2)
		}
		s.goals = s.goalBuf[:0]
		if plain {
			// The plain heuristic resumes past the allowances lds
			// searched to the end.
			s.goals = append(s.goals, goal{plain: true, disc: s.plainDone})
		}
		s.goals = s.makeGoals(s.goals, targets)
		s.goalBuf = s.goals[:0]
	}
	defer func() { s.goal = nil }()
	limit := s.nodes + budget
	for ; ; s.goalRound++ {
		allowance := s.goalRound0 << min(s.goalRound, 40)
		active := false
		for i := range s.goals {
			g := &s.goals[i]
			s.goal = g
			if g.plain {
				s.goal = nil
			}
			for g.disc <= maxDisc && g.spent < allowance {
				active = true
				start := s.nodes
				s.limit = min(limit, s.nodes+allowance-g.spent)
				s.abort = false
				s.ldsT.stamp++
				found, n := s.ldsFind(0, plainDepth, g.disc)
				g.spent += s.nodes - start
				if found {
					why := "helpmate found"
					if !g.plain {
						why = fmt.Sprintf("helpmate found, the king driven to %v (target %d, %d discrepancies)", g.t, i, g.disc)
					}
					return Result{Verdict: Winnable, Line: s.line(n), Nodes: s.nodes, Reason: why}, true
				}
				if s.nodes >= limit {
					return Result{}, false
				}
				if s.abort {
					break
				}
				g.disc++
			}
		}
		if !active {
			return Result{}, false
		}
	}
}

// Each search's allowance in the first round: fullGoalRound0 nodes in
// full mode, quickGoalRound0 in quick mode (see searcher.goalRound0).
const (
	fullGoalRound0  int64 = 2_000
	quickGoalRound0 int64 = 300
)

// reach estimates the moves a man of the loser of type pt on sq needs to
// stand on a square of set (occ the occupied squares).
func (g *goal) reach(pt bb.PieceType, sq bb.Square, set, occ uint64) int32 {
	if set&(1<<uint(sq)) != 0 {
		return 0
	}
	switch pt {
	case bb.Knight:
		return int32(g.nd[sq])
	case bb.Bishop:
		if colourOf(sq)&set == 0 {
			return 0 // can never help: indifferent
		}
		if bb.BishopAttacks(sq, occ)&set != 0 {
			return 1
		}
		// The moves it needs round the pawns, the men aside.
		return int32(min(max(g.bd[sq], 2), 6))
	case bb.Rook:
		if bb.RookAttacks(sq, occ)&set != 0 {
			return 1
		}
		return 2
	case bb.Queen:
		if (bb.RookAttacks(sq, occ)|bb.BishopAttacks(sq, occ))&set != 0 {
			return 1
		}
		return 2
	}
	return 0
}

// colourOf returns the squares of sq's colour.
func colourOf(sq bb.Square) uint64 {
	if lightSquares&(1<<uint(sq)) != 0 {
		return lightSquares
	}
	return darkSquares
}

// goalDelta estimates how much m changes the goal-directed score.
func (s *searcher) goalDelta(m bb.Move, lk bb.Square) int32 {
	g := s.goal
	p := &s.pos
	from, to := m.From(), m.To()
	pc := p.PieceAt(from)
	occ := p.All() &^ (1 << uint(from))
	var v int32
	if c := p.PieceAt(to); c != bb.NoPiece {
		if c.Color() == s.winner {
			// Spare men may go, a scarce one is kept.
			if bits.OnesCount64(p.Occupied(s.winner)) > 4 {
				v -= 4 * materialValue[c.Type()]
			} else {
				v -= 24 * materialValue[c.Type()]
			}
			if g.offers&(1<<uint(to)) != 0 && pc.Type() == bb.Pawn {
				v += 40 // the offer taken: the break opens
			}
		} else {
			v -= 4
			if g.offers&(1<<uint(to)) != 0 && pc.Type() == bb.Pawn && c.Type() == bb.Pawn {
				v += 24 // taking back: the winner's pawn is free
			}
			if g.zone&(1<<uint(to)) != 0 {
				v -= 8 // a blocker lost
			}
			// A man that guards the squares around the target is in
			// the way of a mate there: taking it helps.
			if c.Type() != bb.Pawn {
				v += 2 * int32(bits.OnesCount64(attacks(c.Type(), to, occ)&g.near))
			}
		}
	}
	w := s.winner
	// The winner's men should leave the loser's king a free way to the
	// target (no square nearer to it attacked), and once it is there
	// take the flight squares its own men do not fill.
	var avoid, cover uint64
	if kd := g.kd[lk]; kd > 0 {
		avoid = g.within[kd-1]
	} else {
		cover = g.zone &^ p.Occupied(w.Other())
	}
	switch {
	case pc.Color() != w && pc.Type() == bb.King:
		v += 16 * int32(g.kd[from]-g.kd[to])
		v -= 2*int32(bits.OnesCount64(bb.KingAttacks(to)&^occ)) - 2*int32(bits.OnesCount64(bb.KingAttacks(from)&^p.All()))
	case pc.Color() != w && pc.Type() == bb.Pawn:
		v += 1
		if pr := m.Promotion(); pr != bb.NoPieceType {
			v += 10 - int32(pr) // knights first, then bishops: they guard less
		}
	case pc.Color() != w:
		// Only the flight squares not yet filled are worth walking to.
		set := g.zone &^ p.Occupied(pc.Color())
		set |= g.zone & (1 << uint(from))
		v += 4 * (g.reach(pc.Type(), from, set, occ) - g.reach(pc.Type(), to, set, occ))
	case pc.Type() == bb.King:
		v -= 3 * int32(abs(dist(to, g.t)-2)-abs(dist(from, g.t)-2))
	case pc.Type() == bb.Pawn:
		v += 4
		if pr := m.Promotion(); pr != bb.NoPieceType {
			v += 24*(materialValue[pr]-1) - 2*int32(dist(to, g.t))
		}
	default:
		v -= 2 * int32(dist(to, g.t)-dist(from, g.t))
		// The target is the square the king is to be mated on: a man
		// of the winner's standing there is in its way.
		if to == g.t {
			v -= 8
		} else if from == g.t {
			v += 8
		}
		if g.offers != 0 {
			v += 12 * (offerReach(pc.Type(), from, g.offers, occ) - offerReach(pc.Type(), to, g.offers, occ))
		}
		a0, a1 := attacks(pc.Type(), from, occ), attacks(pc.Type(), to, occ)
		v -= 3 * int32(bits.OnesCount64(a1&avoid)-bits.OnesCount64(a0&avoid))
		v += 3 * int32(bits.OnesCount64(a1&cover)-bits.OnesCount64(a0&cover))
	}
	return v
}

// attacks returns the squares a piece of type pt on sq attacks with occ
// blocking (none for a pawn, whose attacks depend on its colour).
func attacks(pt bb.PieceType, sq bb.Square, occ uint64) uint64 {
	switch pt {
	case bb.Knight:
		return bb.KnightAttacks(sq)
	case bb.Bishop:
		return bb.BishopAttacks(sq, occ)
	case bb.Rook:
		return bb.RookAttacks(sq, occ)
	case bb.Queen:
		return bb.BishopAttacks(sq, occ) | bb.RookAttacks(sq, occ)
	case bb.King:
		return bb.KingAttacks(sq)
	}
	return 0
}
