package unwinnable

import (
	"math"
	"math/bits"

	bb "github.com/arbiterd/arbiterd/rules/bitboard"
)

// The plain heuristic's best move without a move list. A node of the
// discrepancy search with no discrepancy left follows only the move the
// heuristic ranks first; most nodes of quick mode are such nodes. pickPlain
// finds that move by walking the legal moves piece by piece, in the order
// LegalMoves generates them, and ranking each piece's moves by set
// operations: a piece's quiet moves score by their distance to the loser's
// king alone, so the best of them is the first square of the nearest ring
// around that king that the piece reaches (of the farthest when the
// weight of that distance is negative). Its answer is the move the
// sorted list would put first (the first of the highest scores in
// generation order, TestPickPlain), at a fraction of the cost.

// ringAt[k][d] holds the squares d king steps from k.
var ringAt = func() (t [64][8]uint64) {
	for k := 0; k < 64; k++ {
		for s := 0; s < 64; s++ {
			t[k][distTable[k][s]] |= 1 << uint(s)
		}
	}
	return t
}()

// choice is the best move seen so far: replaced only by a higher score,
// so that among equal scores the first generated stays.
type choice struct {
	m  bb.Move
	v  int32
	ok bool
}

func (c *choice) offer(m bb.Move, v int32) {
	if !c.ok || v > c.v {
		c.m, c.v, c.ok = m, v, true
	}
}

// mateBy reports whether the winner's checking move m mates. Most checks
// leave the king a flight square, which is looked for before the move is
// played (flightAfter).
func (s *searcher) mateBy(m bb.Move) bool {
	// No flight square: mated unless a man can take the checker or
	// block the check.
	return !s.flightAfter(m) && s.noEvasion(m)
}

// noEvasion reports whether the checking move m leaves the other side
// without a legal move (the legal move generator, which looks at the
// king's steps again, answers).
func (s *searcher) noEvasion(m bb.Move) bool {
	p := &s.pos
	u := p.Make(m)
	mate := !p.HasLegalMoveIn(&s.evasions)
	p.Unmake(m, u)
	return mate
}

// blockOrCapture reports whether, after the side to move's knight,
// bishop, rook or queen (pt) goes from from to to and checks the king on
// ck, a man of the king's side other than the king can take the
// checker or step between: the answers to a check but the king's own
// steps. Two checkers leave none; a pinned man is never one (it moves
// along its pin, which meets the line of the check only at the king).
// There is no en passant after a piece's move.
func (s *searcher) blockOrCapture(from, to bb.Square, pt bb.PieceType, ck bb.Square) bool {
	p := &s.pos
	us := p.Side()
	them := us.Other()
	fromBit, toBit := uint64(1)<<uint(from), uint64(1)<<uint(to)
	occ := p.All()&^fromBit | toBit
	var set [bb.King]uint64 // the mover's side's men after the move
	for t := bb.Knight; t < bb.King; t++ {
		set[t] = p.Pieces(us, t)
	}
	set[pt] = set[pt]&^fromBit | toBit
	diag, orth := set[bb.Bishop]|set[bb.Queen], set[bb.Rook]|set[bb.Queen]
	checkers := bb.KnightAttacks(ck)&set[bb.Knight] | bb.BishopAttacks(ck, occ)&diag | bb.RookAttacks(ck, occ)&orth
	if checkers == 0 || checkers&(checkers-1) != 0 {
		return checkers == 0 // no check: any move answers
	}
	c := bb.Square(bits.TrailingZeros64(checkers))
	block := bb.Between(ck, c)
	men := p.Occupied(them) &^ p.Pieces(them, bb.King) &^ toBit
	for sn := bb.BishopRays(ck)&diag | bb.RookRays(ck)&orth; sn != 0; sn &= sn - 1 {
		if b := bb.Between(ck, bb.Square(bits.TrailingZeros64(sn))) & occ; b&(b-1) == 0 {
			men &^= b // pinned
		}
	}
	if men == 0 {
		return false
	}
	targets := block | checkers
	for b := men & p.Pieces(them, bb.Knight); b != 0; b &= b - 1 {
		if bb.KnightAttacks(bb.Square(bits.TrailingZeros64(b)))&targets != 0 {
			return true
		}
	}
	for b := men & (p.Pieces(them, bb.Bishop) | p.Pieces(them, bb.Queen)); b != 0; b &= b - 1 {
		if bb.BishopAttacks(bb.Square(bits.TrailingZeros64(b)), occ)&targets != 0 {
			return true
		}
	}
	for b := men & (p.Pieces(them, bb.Rook) | p.Pieces(them, bb.Queen)); b != 0; b &= b - 1 {
		if bb.RookAttacks(bb.Square(bits.TrailingZeros64(b)), occ)&targets != 0 {
			return true
		}
	}
	pawns := men & p.Pieces(them, bb.Pawn)
	if bb.PawnAttacks(us, c)&pawns != 0 {
		return true
	}
	// Pushes onto the squares between: one step, or two from the
	// pawns' first rank over an empty square.
	if them == bb.White {
		one := block >> 8 & pawns
		two := ((block & 0xff000000) >> 8 &^ occ) >> 8 & pawns
		return one|two != 0
	}
	one := block << 8 & pawns
	two := ((block & 0xff00000000) << 8 &^ occ) << 8 & pawns
	return one|two != 0
}

// pickPlain returns, at a node of the plain heuristic (s.goal nil), the
// move ldsFind would search first with no discrepancy left. When the
// winner is to move, its checks are tested for mate first, in generation
// order, and a mating move is returned with mate set (ci is the node's
// CheckInfo, nil when the loser is to move). Without score, only the
// mate tests are done. ok is false when no move is returned. ml is
// scratch space for castling moves.
func (s *searcher) pickPlain(lk bb.Square, ci *bb.CheckInfo, score bool, ml *bb.MoveList) (m bb.Move, mate, ok bool) {
	p := &s.pos
	winnerToMove := ci != nil
	us := p.Side()
	them := us.Other()
	own, opp := p.Occupied(us), p.Occupied(them)
	occ := own | opp
	k := p.KingSquare(us)
	occNoKing := occ &^ (1 << uint(k))
	// The loser's king steps are scored only where legal: on the squares
	// the winner's men do not attack (att), which also tell whether the
	// king is in check.
	loserSteps := !winnerToMove && score
	var att uint64
	if loserSteps {
		att = p.AttackMap(them, occNoKing)
	}
	var checkers uint64
	if !loserSteps || att&(1<<uint(k)) != 0 {
		checkers = p.AttackersOf(k, them, occ)
	}
	var best choice
	var checkSq, blockers uint64
	var ck bb.Square
	if winnerToMove {
		blockers, ck = ci.Blockers(), ci.King()
		s.safeKnown = false
	}

	// King steps. They come first in generation order, so one wins
	// over every other move of its score or less. When a king step may
	// uncover a check (mate tests are made in generation order), they
	// are handled at once. Otherwise the loser's legal steps (att) are
	// scored here, and the winner's at the end, only when one could
	// still be chosen; their legality (an attack test per square) is
	// asked then, best first.
	ks := kingStepList{top: noKey, legal: loserSteps}
	if winnerToMove && blockers&(1<<uint(k)) != 0 {
		for t := bb.KingAttacks(k) &^ own; t != 0; t &= t - 1 {
			to := bb.Square(bits.TrailingZeros64(t))
			if p.AttackedWith(to, them, occNoKing) {
				continue
			}
			mv := bb.NewMove(k, to)
			if p.GivesCheckWith(mv, ci) && s.mateBy(mv) {
				return mv, true, true
			}
			if score {
				best.offer(mv, s.moveDelta(mv, lk))
			}
		}
	} else if score && winnerToMove {
		// The winner's king steps are scored last, and only when one
		// could still be chosen (kingOrBest).
		ks.later = true
	} else if score {
		s.scoreKingSteps(&ks, k, lk, bb.KingAttacks(k)&^own&^att, opp)
		if p.Castling() == 0 && ks.top != noKey {
			// A legal step of the loser's king that scores as much as
			// any other move of the loser's can comes first.
			if bound := s.w.loserMenBound(); int32(ks.top>>4) >= bound {
				if m, _, _ := s.kingOrBest(&ks, k, them, occNoKing, choice{v: bound, ok: true}); m != 0 {
					return m, false, true
				}
			}
		}
	}
	if checkers&(checkers-1) != 0 {
		return s.kingOrBest(&ks, k, them, occNoKing, best)
	}
	target := ^own
	if checkers != 0 {
		target = bb.Between(k, bb.Square(bits.TrailingZeros64(checkers))) | checkers
	} else if p.Castling() != 0 {
		ml.N = 0
		p.AppendCastling(ml)
		for _, mv := range ml.Slice() {
			if winnerToMove && p.GivesCheckWith(mv, ci) && s.mateBy(mv) {
				return mv, true, true
			}
			if score {
				best.offer(mv, s.moveDelta(mv, lk))
			}
		}
	}
	pins := p.Pinned()
	// A quiet move of the winner's pieces that scores less than a step
	// of one of its pawns is never the pick: the pawns' best step (one
	// of the most and least advanced, whichever pawnRank favours), found
	// by sets, is a floor for them (pieceMoves).
	s.quietFloor = math.MinInt32
	if winnerToMove && score {
		pawns := p.Pieces(us, bb.Pawn) &^ pins
		steps := pawns << 8 &^ occ & target &^ 0xff00000000000000
		if us == bb.Black {
			steps = pawns >> 8 &^ occ & target &^ 0xff
		}
		if steps != 0 {
			a := relativeRank(us, bb.Square(bits.TrailingZeros64(steps)))
			b := relativeRank(us, bb.Square(63-bits.LeadingZeros64(steps)))
			s.quietFloor = s.w.pawn + max(s.w.pawnRank*int32(a), s.w.pawnRank*int32(b))
		}
	}
	// At a node of the loser's, a man whose moves cannot score more
	// than a move before it in generation order is passed over.
	floor := int32(math.MinInt32)
	if !loserSteps {
		floor = math.MaxInt32 // none is
	} else if ks.top != noKey {
		floor = int32(ks.top >> 4)
	}

	// Knights, then bishops and queens along diagonals, then rooks and
	// queens along lines, as LegalMoves generates them.
	if winnerToMove {
		checkSq = ci.Squares(bb.Knight)
	}
	for b := p.Pieces(us, bb.Knight) &^ pins; b != 0; b &= b - 1 {
		from := bb.Square(bits.TrailingZeros64(b))
		if floor != math.MaxInt32 && passed(s.w.loserManBound(int32(dist(from, lk))), floor, &best) {
			continue
		}
		t := bb.KnightAttacks(from) & target
		if mv, ok := s.pieceMoves(from, t, checkSq, blockers, ck, lk, opp, winnerToMove, score, &best); ok {
			return mv, true, true
		}
	}
	for _, rook := range [2]bool{false, true} { // along diagonals, then along lines
		movers := p.Pieces(us, bb.Bishop)
		if rook {
			movers = p.Pieces(us, bb.Rook)
		}
		for b := movers | p.Pieces(us, bb.Queen); b != 0; b &= b - 1 {
			from := bb.Square(bits.TrailingZeros64(b))
			if floor != math.MaxInt32 && passed(s.w.loserManBound(int32(dist(from, lk))), floor, &best) {
				continue
			}
			t := bb.BishopAttacks(from, occ)
			if rook {
				t = bb.RookAttacks(from, occ)
			}
			t &= target
			if pins&(1<<uint(from)) != 0 {
				t &= bb.Line(k, from)
			}
			if winnerToMove {
				checkSq = ci.Squares(p.PieceAt(from).Type())
			}
			if mv, ok := s.pieceMoves(from, t, checkSq, blockers, ck, lk, opp, winnerToMove, score, &best); ok {
				return mv, true, true
			}
		}
	}

	// Pawns, move by move: push, double push, captures, en passant.
	fwd, rank3, promoRank := bb.Square(8), uint64(0xff0000), uint64(0xff00000000000000)
	if us == bb.Black {
		fwd, rank3, promoRank = -8, 0xff0000000000, 0xff
	}
	ep := p.EnPassant()
	pawns := p.Pieces(us, bb.Pawn)
	if floor != math.MaxInt32 && passed(s.w.loserPawnBound(), floor, &best) {
		pawns = 0
	}
	for b := pawns; b != 0; b &= b - 1 {
		from := bb.Square(bits.TrailingZeros64(b))
		var pinLine uint64 = ^uint64(0)
		if pins&(1<<uint(from)) != 0 {
			pinLine = bb.Line(k, from)
		}
		var tos [4]bb.Move
		n := 0
		one := from + fwd
		if occ&(1<<uint(one)) == 0 {
			if target&pinLine&(1<<uint(one)) != 0 {
				tos[n] = bb.NewMove(from, one)
				n++
			}
			two := one + fwd
			if rank3&(1<<uint(one)) != 0 && occ&(1<<uint(two)) == 0 && target&pinLine&(1<<uint(two)) != 0 {
				tos[n] = bb.NewMove(from, two) | bb.FlagDouble
				n++
			}
		}
		for t := bb.PawnAttacks(us, from) & opp & target & pinLine; t != 0; t &= t - 1 {
			tos[n] = bb.NewMove(from, bb.Square(bits.TrailingZeros64(t)))
			n++
		}
		if ep != bb.NoSquare && p.EnPassantMoveLegal(from) {
			tos[n] = bb.NewMove(from, ep) | bb.FlagEnPassant
			n++
		}
		for _, mv := range tos[:n] {
			if promoRank&(1<<uint(mv.To())) != 0 {
				for _, pt := range [...]bb.PieceType{bb.Queen, bb.Rook, bb.Bishop, bb.Knight} {
					pm := mv | bb.Move(pt)<<12
					if winnerToMove && p.GivesCheckWith(pm, ci) && s.mateBy(pm) {
						return pm, true, true
					}
					if score {
						best.offer(pm, s.moveDelta(pm, lk))
					}
				}
				continue
			}
			if winnerToMove && p.GivesCheckWith(mv, ci) && s.mateBy(mv) {
				return mv, true, true
			}
			if score {
				best.offer(mv, s.pawnDelta(mv, lk, winnerToMove))
			}
		}
	}
	return s.kingOrBest(&ks, k, them, occNoKing, best)
}

// pawnDelta is moveDelta for a pawn's move that does not promote, by the
// side to move (the winner when winnerToMove).
func (s *searcher) pawnDelta(m bb.Move, lk bb.Square, winnerToMove bool) int32 {
	from, to := m.From(), m.To()
	c := s.pos.PieceAt(to) // none for en passant, as in moveDelta
	dt := int32(dist(to, lk))
	if winnerToMove {
		v := s.w.pawn + s.w.pawnRank*int32(relativeRank(s.winner, to))
		if c != bb.NoPiece {
			v += s.w.capture + s.w.captureNear*dt
		}
		return v
	}
	v := s.w.menStep * (int32(dist(from, lk)) - dt)
	if c != bb.NoPiece {
		v -= s.w.lossMat*materialValue[c.Type()] - s.w.lossNear*dt
	}
	return v
}

// kingStepList holds the king's steps to squares free of its own men, in
// generation order, each as a key: its score times 16 plus 15 less its
// index, so that the greatest key is the first step of the highest
// score; a step found illegal gets noKey.
type kingStepList struct {
	key   [8]int64
	to    [8]bb.Square
	n     int
	top   int64 // the greatest key (noKey when none is left), kept up to date
	legal bool  // every step listed is known to be legal
	later bool  // the winner's steps, not scored yet (kingOrBest scores them)
}

const noKey = -1 << 62

// scoreKingSteps scores the steps of the side to move's king on k to the
// squares of steps (free of its own men) into ks: moveDelta's terms, the
// position's parts of them computed once for all the steps.
func (s *searcher) scoreKingSteps(ks *kingStepList, k, lk bb.Square, steps, opp uint64) {
	p := &s.pos
	n := 0
	ks.top = noKey
	if p.Side() == s.winner {
		dk := int32(dist(k, lk))
		for t := steps; t != 0; t &= t - 1 {
			to := bb.Square(bits.TrailingZeros64(t))
			d := int32(dist(to, lk))
			v := -s.w.kingApproach * (d - dk)
			if opp&(1<<uint(to)) != 0 {
				v += s.w.capture + s.w.captureNear*d
			}
			key := int64(v)<<4 | int64(15-n)
			ks.key[n], ks.to[n] = key, to
			ks.top = max(ks.top, key)
			n++
		}
		ks.n = n
		return
	}
	// The loser's king (k is lk): kingStep's terms.
	w, l := s.winner, s.winner.Other()
	wk := p.KingSquare(w)
	pieces := p.Occupied(w) &^ p.Pieces(w, bb.King) &^ p.Pieces(w, bb.Pawn)
	men := p.Occupied(l) &^ p.Pieces(l, bb.King)
	free := ^(p.All() &^ (1 << uint(k)))
	base := s.w.corner*int32(s.cornerD[k]) + s.w.kingNear*int32(dist(wk, k)) + s.w.kingFree*int32(bits.OnesCount64(bb.KingAttacks(k)&free))
	sets := &kingStepSets[k]
	for t := steps; t != 0; t &= t - 1 {
		to := bb.Square(bits.TrailingZeros64(t))
		st := &sets[stepIndexOf[int(to)-int(k)+9]]
		v := base - s.w.corner*int32(s.cornerD[to]) - s.w.kingNear*int32(dist(wk, to)) -
			s.w.piecesNear*int32(bits.OnesCount64(pieces&st.farther)-bits.OnesCount64(pieces&st.nearer)) -
			s.w.menNear*int32(bits.OnesCount64(men&st.farther)-bits.OnesCount64(men&st.nearer)) -
			s.w.kingFree*int32(bits.OnesCount64(bb.KingAttacks(to)&free))
		if opp&(1<<uint(to)) != 0 {
			v -= s.w.lossMat*materialValue[p.PieceAt(to).Type()] - s.w.lossNear // dist(to, lk) is 1
		}
		key := int64(v)<<4 | int64(15-n)
		ks.key[n], ks.to[n] = key, to
		ks.top = max(ks.top, key)
		n++
	}
	ks.n = n
}

// loserMenBound is the most that moveDelta scores a move of the loser's
// men but its king: a step towards its king (menStep per step, six at
// most), and the taking of a man of the winner's (lossMat per unit of
// its material against, lossNear per step of distance from the king).
func (w *weights) loserMenBound() int32 {
	return 6*max(w.menStep, -w.menStep) + w.loserTake()
}

// loserTake is the most that the taking of a man of the winner's adds to
// a move of the loser's (lossMat per unit of its material against,
// lossNear per step of distance from the king), or 0.
func (w *weights) loserTake() int32 {
	return max(max(-w.lossMat, -9*w.lossMat)+max(7*w.lossNear, w.lossNear), 0)
}

// loserManBound is loserMenBound for a man of the loser's df steps from
// its king: a move brings it df-1 steps nearer at most, or takes it
// 7-df steps farther.
func (w *weights) loserManBound(df int32) int32 {
	if w.menStep >= 0 {
		return w.menStep*(df-1) + w.loserTake()
	}
	return -w.menStep*(7-df) + w.loserTake()
}

// loserPawnBound is loserMenBound for a pawn of the loser's: a pawn's
// move changes its distance to the king by two steps at most.
func (w *weights) loserPawnBound() int32 {
	return 2*max(w.menStep, -w.menStep) + w.loserTake()
}

// passed reports, at a node of the loser's in pickPlain, whether a move
// scoring bound at most can be passed over: a move before it in
// generation order scores as much (the best legal king step, scoring
// floor, or the best of the men's moves so far).
func passed(bound, floor int32, best *choice) bool {
	return bound <= floor || best.ok && bound <= best.v
}

// kingOrBest returns the king step of ks that generation order would
// choose over best (the first legal step of the highest score, when that
// score is at least best's), or else best. The steps it finds illegal
// stay marked in ks for a later call.
func (s *searcher) kingOrBest(ks *kingStepList, k bb.Square, them bb.Color, occNoKing uint64, best choice) (bb.Move, bool, bool) {
	if ks.later {
		// The winner's steps: none scores more than kingApproach
		// (a step nearer the loser's king) without a capture.
		ks.later = false
		p := &s.pos
		opp := p.Occupied(them)
		if best.ok && opp&bb.KingAttacks(k) == 0 && best.v > max(s.w.kingApproach, -s.w.kingApproach) {
			return best.m, false, true
		}
		s.scoreKingSteps(ks, k, p.KingSquare(them), bb.KingAttacks(k)&^p.Occupied(p.Side()), opp)
	}
	for ks.top != noKey {
		if best.ok && int32(ks.top>>4) < best.v {
			break
		}
		i := 15 - int(ks.top&15)
		if ks.legal || !s.pos.AttackedWith(ks.to[i], them, occNoKing) {
			return bb.NewMove(k, ks.to[i]), false, true
		}
		ks.key[i] = noKey // illegal
		ks.top = noKey
		for _, key := range ks.key[:ks.n] {
			ks.top = max(ks.top, key)
		}
	}
	return best.m, false, best.ok
}

// pieceMoves handles the legal moves of the knight, bishop, rook or
// queen on from to the squares of t: when the winner moves, its checks
// (onto checkSq, or off the line of a slider it uncovers) are tested for
// mate in order, and a mating move is returned; with score, the piece's
// best move by moveDelta (the first square among equal scores) is
// offered to best.
func (s *searcher) pieceMoves(from bb.Square, t, checkSq, blockers uint64, ck, lk bb.Square, opp uint64,
	winnerToMove, score bool, best *choice) (bb.Move, bool) {
	if t == 0 {
		return 0, false
	}
	if winnerToMove {
		checks := t & checkSq
		if blockers&(1<<uint(from)) != 0 {
			checks |= t &^ bb.Line(from, ck)
		}
		if checks != 0 {
			// mateBy for each check, with the piece's part of
			// flightAfter worked out once: the occupancy without the
			// piece and the checked king (base), the king's neighbour
			// squares free of its own men (free).
			p := &s.pos
			pt := p.PieceAt(from).Type()
			fromBit := uint64(1) << uint(from)
			occ0 := p.All() &^ (1 << uint(ck))
			base := occ0 &^ fromBit
			free := bb.KingAttacks(ck) &^ p.Occupied(p.Side().Other())
			if !s.safeKnown {
				s.safe = free &^ p.AttackMap(p.Side(), occ0)
				s.safeKnown = true
			}
			// A square safe now stays safe after the move unless the
			// piece attacks it from to, or it is in line with from (a
			// line the move opens): such a square is a flight square.
			safe := s.safe &^ bb.BishopAttacks(from, occ0) &^ bb.RookAttacks(from, occ0)
			// So a check mates only from a square the piece attacks
			// every square of safe from, on an empty board first of
			// all: one it attacks on an empty board from each of them
			// (its moves are symmetric). Most checks fail that test
			// without a look at the men in between.
			for b := safe; b != 0; b &= b - 1 {
				checks &= emptyAttacks(pt, bb.Square(bits.TrailingZeros64(b)))
			}
			for c := checks; c != 0; c &= c - 1 {
				to := bb.Square(bits.TrailingZeros64(c))
				occ := base | 1<<uint(to)
				a := attacks(pt, to, occ)
				if safe&^a != 0 {
					continue
				}
				// The king may also take the checker where the piece took
				// one of the king's men (free leaves their squares out).
				f := (free | bb.KingAttacks(ck)&(1<<uint(to))) &^ a
				if !s.flightLeft(f, occ, fromBit) && !s.blockOrCapture(from, to, pt, ck) {
					return bb.NewMove(from, to), true
				}
			}
		}
	}
	if !score {
		return 0, false
	}
	df := int32(dist(from, lk))
	// Quiet moves score by their distance to the loser's king alone,
	// times step (piece for the winner's, menStep for the loser's): the
	// nearest ring first when step is positive (the farthest when it is
	// negative), the first square on it; with step 0, the first square.
	step := s.w.menStep
	if winnerToMove {
		step = s.w.piece
	}
	var bv int32
	bto := bb.Square(64)
	if q := t &^ opp; q != 0 && quietMost(step, df) >= s.quietFloor {
		if step == 0 {
			bto = bb.Square(bits.TrailingZeros64(q))
		}
		for i := 1; i < 8 && step != 0; i++ {
			d := i
			if step < 0 {
				d = 8 - i
			}
			if x := q & ringAt[lk][d]; x != 0 {
				bto = bb.Square(bits.TrailingZeros64(x))
				bv = step * (df - int32(d))
				break
			}
		}
	}
	// Captures, one by one (moveDelta's terms, written out).
	for c := t & opp; c != 0; c &= c - 1 {
		to := bb.Square(bits.TrailingZeros64(c))
		d := int32(dist(to, lk))
		var v int32
		if winnerToMove {
			v = step*(df-d) + s.w.captureNear*d + s.w.capture
		} else {
			v = step*(df-d) + s.w.lossNear*d - s.w.lossMat*materialValue[s.pos.PieceAt(to).Type()]
		}
		if bto == 64 || v > bv || (v == bv && to < bto) {
			bv, bto = v, to
		}
	}
	if bto != 64 {
		best.offer(bb.NewMove(from, bto), bv)
	}
	return 0, false
}

// emptyAttacks returns the squares a knight, bishop, rook or queen (pt)
// on sq attacks on an empty board.
func emptyAttacks(pt bb.PieceType, sq bb.Square) uint64 {
	switch pt {
	case bb.Knight:
		return bb.KnightAttacks(sq)
	case bb.Bishop:
		return bb.BishopRays(sq)
	case bb.Rook:
		return bb.RookRays(sq)
	}
	return bb.BishopRays(sq) | bb.RookRays(sq)
}

// quietMost is the most a quiet move of a piece df steps from the loser's
// king scores, step per step nearer.
func quietMost(step, df int32) int32 {
	if step >= 0 {
		return step * (df - 1)
	}
	return step * (df - 7)
}

// flightAfter reports whether, after the side to move plays the legal
// move m (not a king step, castling or en passant, for which it answers
// false), the other king has a neighbour square free of its own men that
// no man of the side to move attacks: the square the king would step to
// after m, computed without playing it. The occupancy after m is exact
// (the man leaves from and stands on to, a man taken there was there
// already); the moving man is left out of the others' attacks and its
// own from to are added.
func (s *searcher) flightAfter(m bb.Move) bool {
	p := &s.pos
	if m&(bb.FlagCastle|bb.FlagEnPassant) != 0 {
		return false
	}
	us := p.Side()
	from, to := m.From(), m.To()
	pt := p.PieceAt(from).Type()
	if pt == bb.King {
		return false
	}
	if pr := m.Promotion(); pr != bb.NoPieceType {
		pt = pr
	}
	lk := p.KingSquare(us.Other())
	fromBit := uint64(1) << uint(from)
	occ := (p.All()&^fromBit | 1<<uint(to)) &^ (1 << uint(lk))
	var own uint64
	if pt == bb.Pawn {
		own = bb.PawnAttacks(us, to)
	} else {
		own = attacks(pt, to, occ)
	}
	return s.flightLeft(bb.KingAttacks(lk)&^p.Occupied(us.Other())&^own, occ, fromBit)
}

// flightLeft reports whether one of the squares of f is attacked by no
// man of the side to move but the one on fromBit, with the board's men on
// occ: the other king's flight squares after a move, given its neighbour
// squares free of its own men that the moving man does not attack (f)
// and the occupancy after the move, without the king.
func (s *searcher) flightLeft(f, occ, fromBit uint64) bool {
	p := &s.pos
	us := p.Side()
	for ; f != 0; f &= f - 1 {
		if !p.AttackedExcept(bb.Square(bits.TrailingZeros64(f)), us, occ, fromBit) {
			return true
		}
	}
	return false
}
