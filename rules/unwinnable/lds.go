package unwinnable

import (
	"math/bits"
	"slices"

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
	if budget <= 0 {
		return Result{}, false
	}
	s.limit = s.nodes + budget
	s.abort = false
	// The allowances an earlier call of this query searched to the end
	// would find nothing again: start past them.
	for disc := s.plainDone; disc <= maxDisc; disc++ {
		s.ldsT.stamp++
		find := s.ldsFind
		if disc == 0 && s.goal == nil {
			find = s.plainFind
		}
		if found, n := find(0, plainDepth, disc); found {
			return Result{Verdict: Winnable, Line: s.line(n), Nodes: s.nodes, Reason: "helpmate found"}, true
		}
		if s.abort {
			break
		}
		s.plainDone = disc + 1
	}
	return Result{}, false
}

// ldsWith is lds with the weights w instead of the query's (at every
// node: quick mode's weights by class are set aside too): the
// allowances it searches to the end are its own (the query's plainDone is
// set aside, and restored after; done keeps them from call to call of the
// query), and so are the plain picks it keeps (they depend on the
// weights): they carry the query's other stamp, pickStamp+1, which no
// other query uses.
func (s *searcher) ldsWith(w *weights, done *int, budget int64, maxDisc int) (Result, bool) {
	keep, keepDone, keepBy := s.w, s.plainDone, s.byClass
	s.w, s.plainDone, s.byClass = *w, *done, nil
	s.pickStamp++
	defer func() {
		*done = s.plainDone
		s.w, s.plainDone, s.byClass = keep, keepDone, keepBy
		s.pickStamp--
	}()
	return s.lds(budget, maxDisc)
}

// plainDepth is the depth of the plain heuristic search.
const plainDepth = 120

func (s *searcher) ldsFind(ply, depth, disc int) (bool, int) {
	s.nodes++
	if s.nodes >= s.limit {
		s.abort = true
		return false, 0
	}
	p := &s.pos
	s.weightsHere()
	winnerToMove := p.Side() == s.winner
	// A mate needs a move of the winner within the depth: the loser needs
	// two plies left, the winner one (and three for more than a mate in
	// one, below).
	if depth <= 0 || (!winnerToMove && depth < 2) || s.cannotMate() {
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
	deeper := !winnerToMove || depth >= 3
	lk := p.KingSquare(s.winner.Other())
	var ci bb.CheckInfo
	if winnerToMove {
		p.SetCheckInfo(&ci)
	}
	if disc == 0 && s.goal == nil {
		// Only the best move is searched: find it without the list.
		cip := &ci
		if !winnerToMove {
			cip = nil
		}
		// The later allowances of a search come back to the nodes of
		// the earlier ones: their pick is kept (pickKept).
		pe := &s.picks[key&(pickEntries-1)]
		var m bb.Move
		var mate, ok bool
		if pe.key == key && pe.stamp == s.pickStamp && pe.deeper == deeper {
			m, mate, ok = pe.m, pe.mate, pe.ok
		} else {
			m, mate, ok = s.pickPlain(lk, cip, deeper, ml)
			// Field by field: a composite literal is built on the stack
			// and copied, which costs more.
			pe.key, pe.stamp, pe.m, pe.deeper, pe.mate, pe.ok = key, s.pickStamp, m, deeper, mate, ok
		}
		if !ok {
			return false, 0
		}
		s.path[ply] = m
		if mate {
			return true, ply + 1
		}
		u := p.Make(m)
		found, ln := s.ldsFind(ply+1, depth-1, 0)
		p.Unmake(m, u)
		return found, ln
	}
	p.LegalMoves(ml)
	sc := &s.scores[ply]
	n := 0
	for i := 0; i < ml.N; i++ {
		m := ml.Moves[i]
		if winnerToMove && p.GivesCheckWith(m, &ci) && s.mateBy(m) {
			// A mate in one among the winner's checks.
			s.path[ply] = m
			return true, ply + 1
		}
		if !deeper {
			continue
		}
		if s.goal != nil {
			sc[n] = s.goalDelta(m, lk)
		} else {
			sc[n] = s.moveDelta(m, lk)
		}
		ml.Moves[n] = m
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

// plainFind is ldsFind(0, depth, 0) with s.goal nil at the root of a
// search (the table holds nothing of the current allowance): a single
// line, the heuristic's best move at every node, followed in a loop.
// A position the line comes back to ends it, as the table would: the
// line keeps its own positions' keys (plainKeys) and looks back as far
// as the last capture or pawn move, which no position before it can
// repeat, instead of probing the table.
//
// With s.plainRepairs > 0 (quick mode's plain lines), a line that comes
// to a dead end is mended instead, that many times at most: a position
// already on the line, the loser stalemated or the winner mated, or the
// winner left without the men to mate are each the outcome of the move
// before, which is set aside (up to plainAvoidMax at a node) and the node
// before picks again, without it. A line with no mate searches every
// allowance of none, and more: the next allowances need not search it
// again (TestPlainRepairs).
func (s *searcher) plainFind(ply, depth, _ int) (bool, int) {
	p := &s.pos
	moved, found := false, false
	s.plainFrom = *p
	s.weightsHere() // a search before may have left those of another position
	root, repairs := ply, s.plainRepairs
	s.plainAvoidN[ply] = 0
	for {
		s.nodes++
		if s.nodes >= s.limit {
			s.abort = true
			s.plainEnd = endBudget
			break
		}
		winnerToMove := p.Side() == s.winner
		if depth <= 0 || (!winnerToMove && depth < 2) {
			s.plainEnd = endDepth
			break
		}
		deeper := !winnerToMove || depth >= 3
		var m bb.Move
		var mate bool
		end := endMate // none yet
		if s.cannotMate() {
			end = endLostMen
		} else if key := p.Hash(); s.plainRepeats(ply, key) {
			end = endRepeat
		} else {
			s.plainKeys[ply] = key
			lk := p.KingSquare(s.winner.Other())
			var cip *bb.CheckInfo
			var ci bb.CheckInfo
			if winnerToMove {
				p.SetCheckInfo(&ci)
				cip = &ci
			}
			var ok bool
			if s.plainAvoidN[ply] == 0 {
				m, mate, ok = s.pickPlain(lk, cip, deeper, &s.lists[ply])
			} else {
				m, mate, ok = s.pickAvoiding(lk, cip, deeper, &s.lists[ply], s.plainAvoid[ply][:s.plainAvoidN[ply]])
			}
			switch {
			case ok:
			case !deeper:
				end = endNoMateInOne
			case winnerToMove:
				end = endWinnerStuck
			default:
				end = endLoserStuck
			}
		}
		if end != endMate {
			// A dead end the move before led to: that move is set
			// aside and the node before picks again.
			if repairs > 0 && ply > root && deeper && s.plainAvoidN[ply-1] < plainAvoidMax {
				repairs--
				ply, depth = ply-1, depth+1
				p.Unmake(s.path[ply], s.plainUndo[ply])
				s.weightsHere()
				s.plainAvoid[ply][s.plainAvoidN[ply]] = s.path[ply]
				s.plainAvoidN[ply]++
				continue
			}
			s.plainEnd = end
			break
		}
		s.path[ply] = m
		if mate {
			found = true
			s.plainEnd = endMate
			break
		}
		// Only the winner's promotions and the loser's captures change
		// the class of the winner's material (weightsHere).
		shift := m.Promotion() != bb.NoPieceType || (!winnerToMove && p.PieceAt(m.To()) != bb.NoPiece)
		s.plainUndo[ply] = p.Make(m)
		if shift {
			s.weightsHere()
		}
		moved = true
		ply, depth = ply+1, depth-1
		s.plainAvoidN[ply] = 0
	}
	if moved {
		*p = s.plainFrom // the line taken back at once
		s.weightsHere()
	}
	if found {
		return true, ply + 1
	}
	return false, 0
}

// plainEnd says how plainFind's last line ended (s.plainEnd): with a
// mate, out of budget or depth, or at a dead end.
type plainEnd uint8

const (
	endMate        plainEnd = iota
	endBudget               // the node budget ran out
	endDepth                // the line reached its depth
	endRepeat               // a position the line had passed
	endLostMen              // the winner left without the men to mate
	endLoserStuck           // the loser without a legal move: stalemated
	endWinnerStuck          // the winner without a legal move: mated or stalemated
	endNoMateInOne          // the winner's last move within the depth, and no mate in one
)

// plainAvoidMax is the most moves plainFind sets aside at one node.
const plainAvoidMax = 8

// pickAvoiding is pickPlain with the moves of avoid left out, from the
// list of legal moves: every legal move in generation order, the winner's
// checks tested for mate on the way (the first mate wins; ci is nil when
// the loser moves), and otherwise, with score, the first of the highest
// moveDelta scores among the moves not avoided. With nothing to avoid it
// is the definition pickPlain answers as (TestPickPlain).
func (s *searcher) pickAvoiding(lk bb.Square, ci *bb.CheckInfo, score bool, ml *bb.MoveList, avoid []bb.Move) (bb.Move, bool, bool) {
	p := &s.pos
	p.LegalMoves(ml)
	var best choice
	for _, m := range ml.Slice() {
		if ci != nil && p.GivesCheckWith(m, ci) && s.mateBy(m) {
			return m, true, true
		}
		if !score || slices.Contains(avoid, m) {
			continue
		}
		best.offer(m, s.moveDelta(m, lk))
	}
	return best.m, false, best.ok
}

// plainRepeats reports whether the position of key stood on the line of
// plainFind before ply, since the last capture or pawn move.
func (s *searcher) plainRepeats(ply int, key uint64) bool {
	for i := ply - 2; i >= 0 && i >= ply-s.pos.HalfmoveClock(); i -= 2 {
		if s.plainKeys[i] == key {
			return true
		}
	}
	return false
}

var materialValue = [...]int32{1, 3, 3, 5, 9, 0}

// mated reports whether the side to move in s.pos, in check, is mated.
// A king step to a square no enemy man attacks answers most checks and
// is looked for first, before the legal moves.
func (s *searcher) mated() bool {
	p := &s.pos
	us := p.Side()
	k := p.KingSquare(us)
	occ := p.All() &^ (1 << uint(k))
	for t := bb.KingAttacks(k) &^ p.Occupied(us); t != 0; t &= t - 1 {
		if !p.AttackedWith(bb.Square(bits.TrailingZeros64(t)), us.Other(), occ) {
			return false
		}
	}
	return !p.HasLegalMoveIn(&s.evasions)
}

// The helpmate heuristic scores a position higher the closer it looks to
// mate by the winner: the loser's king near a corner and hemmed in by its
// own men, the winner's men (king included) near it, the winner's pawns
// advancing, its material kept and grown by promotion (weights, which
// quick and full mode set differently). Moves are
// ranked by the change they make to that score, estimated without
// playing them.

// moveDelta estimates how much m changes the heuristic score; a move of
// the loser's king needs s.kingHere, the king terms where it stands.
func (s *searcher) moveDelta(m bb.Move, lk bb.Square) int32 {
	p := &s.pos
	from, to := m.From(), m.To()
	pc := p.PieceAt(from)
	var v int32
	if c := p.PieceAt(to); c != bb.NoPiece {
		if c.Color() == s.winner {
			v -= s.w.lossMat*materialValue[c.Type()] - s.w.lossNear*int32(dist(to, lk))
		} else {
			v += s.w.capture + s.w.captureNear*int32(dist(to, lk))
		}
	}
	switch {
	case pc.Color() != s.winner && pc.Type() == bb.King:
		v += s.kingStep(from, to)
	case pc.Color() != s.winner:
		v += s.w.menStep * int32(dist(from, lk)-dist(to, lk))
	case pc.Type() == bb.King:
		v -= s.w.kingApproach * int32(dist(to, lk)-dist(from, lk))
	case pc.Type() == bb.Pawn:
		v += s.w.pawn + s.w.pawnRank*int32(relativeRank(s.winner, to))
		if pr := m.Promotion(); pr != bb.NoPieceType {
			v += s.w.promoMat*(materialValue[pr]-1) - s.w.promoNear*int32(dist(to, lk))
		}
	default:
		v -= s.w.piece * int32(dist(to, lk)-dist(from, lk))
	}
	return v
}

// weights are the helpmate heuristic's weights, set by mode (and in
// quick mode by the class of the mating side's material; moveDelta,
// kingStep, kingTerms, and pickPlain's scorers, which restate them): the
// winner's capture of a man of the loser (capture + captureNear times
// its distance to the loser's king), a pawn's push (pawn + pawnRank per
// rank of its destination, counted from the winner's side), a promotion
// (promoMat times the material gained, less promoNear times the
// distance to the loser's king), a step of a piece towards the loser's
// king (piece), of the winner's king (kingApproach); for a step of that
// king, one towards its corner (corner), towards the winner's pieces
// (piecesNear, each), towards its own men (menNear, each), towards the
// winner's king (kingNear), and the free squares around it (kingFree,
// each, against); a step of another man of the loser's towards its king
// (menStep); the loss of a man of the winner's (lossMat times its
// material, less lossNear times its distance to the loser's king).
type weights struct {
	capture, pawn, pawnRank, piece, corner, piecesNear, menNear,
	kingNear, kingFree, kingApproach, lossMat, lossNear, promoMat, promoNear, captureNear, menStep int32
}

// The weights of the two modes. Full mode keeps those its node budget
// was set with (every query of positions.txt answered). Quick mode's
// follow shorter lines on flag-fall positions, with one set for each
// class of the mating side's material, the class of the position at each
// node (weightClassOf, weightsHere): the lines that mate soonest differ
// with it. The winner's captures and pawn pushes rank above its pieces'
// steps, the most advanced pawn goes first and promotes sooner, and the
// loser's taking a man of the winner's weighs far more than anything
// else. Where the winner has a queen, the loser's king walks out, away
// from its own men and towards the winner's king and pieces; with a
// rook, a minor piece or pawns only, it stays among its own men and away
// from the winner's king and pieces, which follow it to an edge
// (TestQuickCensus: less than half the nodes of full mode's weights on
// timeouts-30k and lichess-65k, and far fewer undetermined answers;
// docs/PERFORMANCE.md has how the values were searched, class by class,
// on node counts, and checked on sets the search never saw).
var (
	fullWeights = weights{capture: -6, pawn: 12, pawnRank: 0, piece: 2, corner: 12, piecesNear: 2, menNear: 1,
		kingNear: 3, kingFree: 2, kingApproach: 5, lossMat: 24, lossNear: 2, promoMat: 24, promoNear: 2, captureNear: 1, menStep: 1}
	quickWeights = [weightClasses]weights{
		queenClass: {capture: 9, pawn: 9, pawnRank: 1, piece: 1, corner: 1, piecesNear: 5, menNear: -5,
			kingNear: 3, kingFree: 6, kingApproach: 11, lossMat: 378, lossNear: -2, promoMat: 11, promoNear: 10, captureNear: 1, menStep: 0},
		rookClass: {capture: 7, pawn: 11, pawnRank: 1, piece: 1, corner: 4, piecesNear: -15, menNear: 9,
			kingNear: -20, kingFree: 1, kingApproach: 10, lossMat: 378, lossNear: -4, promoMat: 4, promoNear: -8, captureNear: 1, menStep: 0},
		minorClass: {capture: 6, pawn: 10, pawnRank: 1, piece: 1, corner: 0, piecesNear: 1, menNear: 21,
			kingNear: -17, kingFree: 4, kingApproach: 7, lossMat: 378, lossNear: -7, promoMat: 0, promoNear: -7, captureNear: 1, menStep: 6},
		pawnClass: {capture: 9, pawn: 11, pawnRank: 1, piece: 1, corner: -8, piecesNear: -35, menNear: 7,
			kingNear: -18, kingFree: 2, kingApproach: 6, lossMat: 378, lossNear: -2, promoMat: 2, promoNear: -10, captureNear: 1, menStep: 5},
	}
)

// weightClass is the class of the mating side's material that chooses
// quick mode's weights: its strongest piece.
type weightClass uint8

const (
	queenClass weightClass = iota // a queen
	rookClass                     // a rook, no queen
	minorClass                    // a bishop or a knight, no rook or queen
	pawnClass                     // pawns only
	weightClasses
)

// weightClassOf returns the class of w's material in p.
func weightClassOf(p *bb.Position, w bb.Color) weightClass {
	switch {
	case p.Pieces(w, bb.Queen) != 0:
		return queenClass
	case p.Pieces(w, bb.Rook) != 0:
		return rookClass
	case p.Pieces(w, bb.Bishop)|p.Pieces(w, bb.Knight) != 0:
		return minorClass
	}
	return pawnClass
}

// kingStep is kingTerms(to, from) - kingTerms(from, from): the change a
// move of the loser's king from from to to makes to the score. For a
// step to a neighbour square it is computed from the change of each
// distance, which is one at most: the men for which to is one step
// farther or nearer than from are looked up (kingStepSets).
func (s *searcher) kingStep(from, to bb.Square) int32 {
	i := stepIndex(from, to)
	if i < 0 {
		return s.kingTerms(to, from) - s.kingTerms(from, from)
	}
	p := &s.pos
	w, l := s.winner, s.winner.Other()
	wk := p.KingSquare(w)
	v := -s.w.corner*int32(s.cornerD[to]-s.cornerD[from]) - s.w.kingNear*int32(dist(wk, to)-dist(wk, from))
	pieces := p.Occupied(w) &^ p.Pieces(w, bb.King) &^ p.Pieces(w, bb.Pawn)
	men := p.Occupied(l) &^ p.Pieces(l, bb.King)
	st := &kingStepSets[from][i]
	v -= s.w.piecesNear*int32(bits.OnesCount64(pieces&st.farther)-bits.OnesCount64(pieces&st.nearer)) +
		s.w.menNear*int32(bits.OnesCount64(men&st.farther)-bits.OnesCount64(men&st.nearer))
	free := ^(p.All() &^ (1 << uint(from)))
	v -= s.w.kingFree * int32(bits.OnesCount64(bb.KingAttacks(to)&free)-bits.OnesCount64(bb.KingAttacks(from)&free))
	return v
}

// stepIndex returns the index (0 to 7) of the king step from from to
// to, or -1 when to is not a neighbour of from.
func stepIndex(from, to bb.Square) int {
	if dist(from, to) != 1 {
		return -1
	}
	return int(stepIndexOf[int(to)-int(from)+9])
}

// stepIndexOf maps to - from + 9 of a king step to its index.
var stepIndexOf = [19]int8{0, 1, 2, -1, -1, -1, -1, -1, 3, -1, 4, -1, -1, -1, -1, -1, 5, 6, 7}

// kingStepSets[from][i] holds, for the king step i from from, the squares
// one step farther from its destination than from from, and those one
// step nearer.
var kingStepSets = func() (t [64][8]struct{ farther, nearer uint64 }) {
	for from := bb.Square(0); from < 64; from++ {
		for to := bb.Square(0); to < 64; to++ {
			i := stepIndex(from, to)
			if i < 0 {
				continue
			}
			for x := bb.Square(0); x < 64; x++ {
				switch dist(x, to) - dist(x, from) {
				case 1:
					t[from][i].farther |= 1 << uint(x)
				case -1:
					t[from][i].nearer |= 1 << uint(x)
				}
			}
		}
	}
	return t
}()

// relativeRank is sq's rank counted from c's side of the board: 0 for
// its first rank, 7 for the rank where its pawns promote.
func relativeRank(c bb.Color, sq bb.Square) int {
	if c == bb.Black {
		return 7 - sq.Rank()
	}
	return sq.Rank()
}

// kingTerms is the part of the score that depends on the loser's king standing
// on k (ignoring a man on skip, the king's present square).
func (s *searcher) kingTerms(k, skip bb.Square) int32 {
	p := &s.pos
	w, l := s.winner, s.winner.Other()
	v := -s.w.corner*int32(s.cornerDist(k)) - s.w.kingNear*int32(dist(p.KingSquare(w), k))
	// The sums of the distances from k to the winner's pieces and to
	// the loser's men, ring by ring around k.
	pieces := p.Occupied(w) &^ p.Pieces(w, bb.King) &^ p.Pieces(w, bb.Pawn)
	men := p.Occupied(l) &^ p.Pieces(l, bb.King)
	v += 6 * int32(bits.OnesCount64(men))
	ring := &ringAt[k]
	for d := 1; d < 8; d++ {
		v -= int32(d) * (s.w.piecesNear*int32(bits.OnesCount64(pieces&ring[d])) + s.w.menNear*int32(bits.OnesCount64(men&ring[d])))
	}
	v -= s.w.kingFree * int32(bits.OnesCount64(bb.KingAttacks(k)&^(p.All()&^(1<<uint(skip)))))
	return v
}

// probeShort looks for the shortest helpmates, those where the winner
// moves at most twice, before anything else: most flag-fall positions
// have one, and a line found here needs no shortening. The search is the
// discrepancy search capped at that depth, up to maxDisc discrepancies,
// run twice on half the budget each: with the plain score (the king to a
// corner) and with the loser's king's own square as the target (a mate
// where it stands, its men around it).
func (s *searcher) probeShort(budget int64, maxDisc int) (Result, bool) {
	defer func() { s.goal = nil }()
	// Four plies when the loser moves first, three when the winner does
	// (a mate ends with the winner's move).
	depth := 4
	if s.pos.Side() == s.winner {
		depth = 3
	}
	for pass := 0; pass < 2; pass++ {
		if pass == 1 {
			s.setGoalHere(&s.here)
			s.goal = &s.here
		}
		s.limit = s.nodes + budget/2
		s.abort = false
		for disc := 0; disc <= maxDisc; disc++ {
			s.ldsT.stamp++
			if found, n := s.ldsFind(0, depth, disc); found {
				return Result{Verdict: Winnable, Line: s.line(n), Nodes: s.nodes, Reason: "short helpmate found"}, true
			}
			if s.abort {
				break
			}
		}
	}
	return Result{}, false
}

// pickEntry keeps pickPlain's answer at a node of the discrepancy search
// with no discrepancy left (s.goal nil), for the query of stamp: the
// search's later allowances, and the rounds of the goal-directed search
// that resume the plain heuristic, come back to the same nodes (about a
// quarter of such nodes on lichess-65k). The answer depends on the
// position (key), on whether the moves are ranked (deeper) and on the
// query's winner, weights and corners, fixed by the stamp.
type pickEntry struct {
	key    uint64
	stamp  uint32
	m      bb.Move
	deeper bool
	mate   bool
	ok     bool
}

const pickEntries = 1 << 12
