package unwinnable

import (
	"math/bits"

	bb "github.com/arbiterd/arbiterd/rules/bitboard"
)

// confinedUnwinnable is the confinement proof. Every man is put in one
// class, the greatest consistent classes being found by starting with
// every man confined and demoting men until none fails:
//
//   - fixed: never moves nor is taken. A pawn needs a fixed man on the
//     square ahead; a king needs every neighbour to hold one of its own
//     fixed men or to be attacked for good by the enemy's fixed men (and
//     no castling rights); a piece needs every first square of its lines
//     to hold one of its own fixed men.
//   - bounded: a pawn that walks its file up to an opposing confined pawn
//     (which only walks towards it and never leaves the file) or up to a
//     fixed man, and never reaches the last rank.
//   - stuck: never moves but may be taken (its moves are blocked as for a
//     fixed man, or it is jammed in a group of its own pieces and king
//     that can only move onto each other's squares).
//   - free: anything else. Its squares are over-approximated with fixed
//     men as the only obstacles (the others can always be moved away,
//     the opponent cooperating): pieces by flood fill of their moves,
//     kings also avoiding squares attacked for good, pawns by pushes
//     (never past an opposing confined pawn) and captures onto squares
//     some enemy man other than the king can ever stand on (a least
//     fixed point over both colours); a pawn that can reach the last
//     rank may become any piece, which then roams from there.
//
// A confined pawn may never capture (no enemy man but the king may ever
// stand where it attacks) and neither it nor a fixed man may be taken
// (no enemy man may ever attack it; an enemy king only when no fixed man
// guards it, and not when taking it always stalemates the owner, see
// kingTakingEndsGame). By induction over any series of legal moves every
// man then stays within its class and squares.
//
// Side can then mate only by checking the other king on a square that
// king can reach, with every neighbour attacked by side or filled by a
// distinct man, of either colour, able to stand there (the matching of
// canBlock), side's king covering only the neighbours next to one square
// it can reach that is not next to the mated king; when the other side can only ever move its king, its last
// move before the mate must also be possible (lastKingMove). When no
// square passes, mate is impossible.
func confinedUnwinnable(pos *bb.Position, side bb.Color) bool {
	return confinedIn(new(confinement), pos, side)
}

// confinedIn is confinedUnwinnable with cf as its scratch space (the
// searcher's own, so that a proof tried at many nodes allocates nothing).
func confinedIn(cf *confinement, pos *bb.Position, side bb.Color) bool {
	cf.fill(pos, side)
	return cf.ok && !cf.canMate(pos, side)
}

// confMan is one man of the fixed-men analysis that may move.
type confMan struct {
	c      bb.Color
	pt     bb.PieceType
	sq     int
	reach  uint64 // squares it can ever stand on (a pawn: promotion squares too)
	att    uint64 // squares it can ever attack
	promo  uint64 // a pawn: squares the piece it promotes to can stand on
	promoA uint64 // and attack
	stuck  bool   // it never moves but may be taken: reach is its square
}

// confinement is the result of the fixed-men analysis.
type confinement struct {
	ok      bool   // false when the analysis does not apply (no fixed men)
	fixed   uint64 // men that never move
	fixedOf [2]uint64
	path    [64]uint64 // a confined pawn's squares, by its square now
	pathOf  [2]uint64  // all confined pawns' squares, by colour
	permAtt [2]uint64  // squares attacked for good by each colour's fixed men
	kings   uint64     // both kings' squares
	pawns   uint64     // all pawns' squares
	pawnsOf [2]uint64  // the confined pawns, by colour
	stuck   uint64     // men that never move but may be taken
	jam     [64]uint64 // a stuck piece's jammed group (see jammed), by its square
	men     []confMan
	mem     [32]confMan
	pos     *bb.Position
	side    bb.Color // the side whose mate is in question
}

// kingReach returns the squares the king of colour c can ever stand on.
func (cf *confinement) kingReach(c bb.Color) uint64 {
	for _, m := range cf.men {
		if m.c == c && m.pt == bb.King {
			return m.reach
		}
	}
	return cf.fixedOf[c] & cf.kings
}

// sliders reports whether colour c has, or may promote to, men moving
// along ranks and files (rook) or diagonals (bishop).
func (cf *confinement) sliders(c bb.Color) (rook, bishop bool) {
	p := cf.pos
	rook = p.Pieces(c, bb.Rook)|p.Pieces(c, bb.Queen) != 0
	bishop = p.Pieces(c, bb.Bishop)|p.Pieces(c, bb.Queen) != 0
	for _, m := range cf.men {
		if m.c == c && m.promo != 0 {
			rook, bishop = true, true
		}
	}
	return rook, bishop
}

// kingTakingEndsGame reports whether the enemy king taking the fixed man
// of colour c on s would end the game without a mate by cf.side, so that
// no mate by cf.side ever follows such a capture. It holds when c has no
// other man that can ever move and, wherever c's king stands when s is
// left undefended, every square next to it holds one of c's other fixed
// men or is attacked for good by the enemy, or by the capturing king on
// s: c is then stalemated, or mated if the capture uncovered a check,
// which only matters when c is the side that must not be mated (then no
// enemy slider may line up through s or the king's square before it).
// When c's king always defends s, the capture never happens at all.
func (cf *confinement) kingTakingEndsGame(s int, c bb.Color) bool {
	p, o := cf.pos, c.Other()
	sb := uint64(1) << uint(s)
	if p.Castling()&castleRights(c) != 0 || p.Occupied(c)&^cf.kings&^cf.fixed&^cf.stuck != 0 {
		return false
	}
	rs := cf.kingReach(c) &^ bb.KingAttacks(bb.Square(s))
	guard := (cf.fixedOf[c] &^ sb) | cf.permAtt[o] | bb.KingAttacks(bb.Square(s))
	rook, bishop := cf.sliders(o)
	from := kingSteps(sb) & cf.kingReach(o) // where the capturing king comes from
	for b := rs; b != 0; b &= b - 1 {
		r := bb.Square(bits.TrailingZeros64(b))
		if bb.KingAttacks(r)&^guard != 0 {
			return false
		}
		if c != cf.side {
			lines := from | sb
			if rook && bb.RookAttacks(r, cf.fixed)&lines != 0 || bishop && bb.BishopAttacks(r, cf.fixed)&lines != 0 {
				return false
			}
		}
	}
	return true
}

// jammed reports whether the piece of colour c on s can never move while
// it stands there. That holds when it belongs to a group of its side's
// pieces and king, each of which has all its moves (first squares of its
// lines, with the group and the fixed men blocking; for the king, its
// neighbours not attacked for good) onto its own fixed men or the
// group's squares, and none of which but the piece itself can ever be
// taken (attO and kingAttO are what the enemy can attack): no member can
// move first, and none vacates its square otherwise. It also returns the
// group's squares.
func (cf *confinement) jammed(s int, c bb.Color, attO, kingAttO uint64) (bool, uint64) {
	p, o := cf.pos, c.Other()
	sb := uint64(1) << uint(s)
	group := p.Occupied(c) &^ cf.pawns &^ cf.fixed
	for {
		next := group
		for b := group; b != 0; b &= b - 1 {
			q := bb.Square(bits.TrailingZeros64(b))
			qb := uint64(1) << uint(q)
			pt := p.PieceAt(q).Type()
			if qb != sb && (pt != bb.King && (attO&qb != 0 || kingAttO&qb&^cf.permAtt[c] != 0)) {
				next &^= qb // may be taken, vacating its square
				continue
			}
			var moves uint64
			if pt == bb.King {
				moves = bb.KingAttacks(q) &^ cf.permAtt[o]
			} else {
				moves = attacks(pt, q, cf.fixed|group)
			}
			if moves&^(cf.fixedOf[c]|group) != 0 {
				next &^= qb
			}
		}
		if next&sb == 0 {
			return false, 0
		}
		if next == group {
			return true, group
		}
		group = next
	}
}

func lastRank(c bb.Color) uint64 {
	if c == bb.White {
		return 0xff00000000000000
	}
	return 0xff
}

func castleRights(c bb.Color) uint8 {
	if c == bb.White {
		return bb.WhiteKingside | bb.WhiteQueenside
	}
	return bb.BlackKingside | bb.BlackQueenside
}

func confine(pos *bb.Position, side bb.Color) *confinement {
	cf := new(confinement)
	cf.fill(pos, side)
	return cf
}

// fill is confine into cf, which it overwrites (so that a caller can keep
// it off the heap). It starts with every man a candidate for confinement
// and narrows the candidates, round by round, until a round drops none.
func (cf *confinement) fill(pos *bb.Position, side bb.Color) {
	*cf = confinement{pos: pos, side: side}
	var r fillRound
	cf.startFill(&r)
	for {
		r.cand = cf.stretches(pos, r.cand)
		r.fixed = cf.fixed
		if (r.cand|cf.stuck)&cf.pawns == 0 {
			return // without confined or stuck pawns nothing is confined
		}
		cf.fixedAttacks(&r)
		cf.placeMen(&r)
		// The squares where a pawn may capture a man of colour c (prey).
		// When side has one man besides its king, taking it leaves a bare
		// king that can never mate: in a mating line it is never taken.
		r.lone = loneMan(cf.pos, cf.side)
		cf.spreadFreePawns(&r)
		// Squares a closed group of free pieces guards in every arrangement
		// count as attacked for good.
		for c := bb.White; c <= bb.Black; c++ {
			cf.permAtt[c] |= cf.groupGuard(c, r.fixed)
		}
		// Drop every confined man that could leave its squares or be taken.
		r.attBy, r.kingAttBy = [2]uint64{}, [2]uint64{}
		for _, m := range cf.men {
			if m.pt == bb.King {
				r.kingAttBy[m.c] |= m.att
			} else {
				r.attBy[m.c] |= m.att | m.promoA
			}
		}
		drop, stuck := cf.dropCandidates(&r)
		drop |= cf.unstick(&r)
		if drop == 0 && stuck == 0 {
			cf.ok = true
			return
		}
		r.cand &^= drop | stuck
		cf.stuck |= stuck
	}
}

// fillRound is what fill's steps share besides cf: the position's men,
// the candidates for confinement, and what one round finds out about the
// men that are not (or no longer) candidates.
type fillRound struct {
	pawnsOf, kingOf  [2]uint64
	all              uint64 // every man
	cand             uint64 // the men that may still be confined
	epPawn, epSq     uint64 // a pawn that may be taken en passant, and the square it passed
	fixed            uint64 // cf.fixed as this round's stretches left it
	occ              [2]uint64
	lone             bb.PieceType // loneMan(cf.pos, cf.side)
	attBy, kingAttBy [2]uint64    // what each colour's men but its king, and its king, can ever attack
}

// prey returns the squares where a pawn may capture a man of colour c:
// those c's men but its king can ever stand on, none when c is the side
// with a lone man besides its king.
func (r *fillRound) prey(c, side bb.Color) uint64 {
	if c == side && r.lone != bb.NoPieceType {
		return 0
	}
	return r.occ[c]
}

// startFill sets the kings and pawns of cf and the first candidates:
// every man, pieces too (a piece hemmed in by its own fixed men), but a
// king that may still castle and a pawn that may be taken en passant.
func (cf *confinement) startFill(r *fillRound) {
	pos := cf.pos
	for c := bb.White; c <= bb.Black; c++ {
		r.pawnsOf[c] = pos.Pieces(c, bb.Pawn)
		r.kingOf[c] = pos.Pieces(c, bb.King)
	}
	cf.kings = r.kingOf[0] | r.kingOf[1]
	cf.pawns = r.pawnsOf[0] | r.pawnsOf[1]
	r.all = pos.All()
	r.cand = r.all
	for c := bb.White; c <= bb.Black; c++ {
		if pos.Castling()&castleRights(c) != 0 {
			r.cand &^= r.kingOf[c]
		}
	}
	// A pawn that has just made a double step may be taken en passant on
	// the square it passed: it is not confined, and that square counts as
	// one it stands on.
	if ep := pos.EnPassant(); ep != bb.NoSquare {
		r.epSq = 1 << uint(ep)
		if ep.Rank() == 2 {
			r.epPawn = r.epSq << 8
		} else {
			r.epPawn = r.epSq >> 8
		}
		r.cand &^= r.epPawn
	}
}

// fixedAttacks sets each colour's fixed men and the squares they attack
// for good.
func (cf *confinement) fixedAttacks(r *fillRound) {
	pos, fixed := cf.pos, r.fixed
	for c := bb.White; c <= bb.Black; c++ {
		cf.fixedOf[c] = fixed & pos.Occupied(c)
		cf.permAtt[c] = bb.PawnsAttack(c, fixed&r.pawnsOf[c]) | kingSteps(fixed&r.kingOf[c])
		for b := cf.fixedOf[c] &^ cf.pawns &^ cf.kings; b != 0; b &= b - 1 {
			// Only the squares next to it along its lines: a fixed
			// piece whose moves all mate the other side (matesSide)
			// has first squares that other men may enter.
			cf.permAtt[c] |= attacks(pos.PieceAt(bb.Square(bits.TrailingZeros64(b))).Type(), bb.Square(bits.TrailingZeros64(b)), ^uint64(0))
		}
	}
}

// placeMen lists the men that are not candidates, with the squares each
// can ever stand on and attack (a free pawn's pushes and captures come
// later, from spreadFreePawns), and sets r.occ: the squares each colour's
// men but its king can ever stand on.
func (cf *confinement) placeMen(r *fillRound) {
	pos, fixed := cf.pos, r.fixed
	cf.men = cf.mem[:0]
	r.occ = [2]uint64{}
	for b := r.all &^ r.cand; b != 0; b &= b - 1 {
		s := bits.TrailingZeros64(b)
		pc := pos.PieceAt(bb.Square(s))
		m := confMan{c: pc.Color(), pt: pc.Type(), sq: s, reach: 1 << uint(s)}
		switch {
		case cf.stuck&m.reach != 0:
			m.stuck = true
			if m.pt == bb.Pawn {
				m.att = bb.PawnsAttack(m.c, m.reach)
			} else {
				m.att = attacks(m.pt, bb.Square(s), fixed|cf.jam[s])
			}
		case m.pt == bb.Pawn:
			if m.reach == r.epPawn {
				m.reach |= r.epSq
			}
			m.att = bb.PawnsAttack(m.c, m.reach)
		case m.pt == bb.King:
			m.reach = flood(m.reach, fixed|cf.permAtt[m.c.Other()], kingSteps)
			m.att = kingSteps(m.reach)
		default:
			m.reach, m.att = pieceReach(m.pt, m.reach, fixed)
		}
		if m.pt != bb.King {
			r.occ[m.c] |= m.reach
		}
		cf.men = append(cf.men, m)
	}
	for c := bb.White; c <= bb.Black; c++ {
		r.occ[c] |= cf.pathOf[c] | cf.fixedOf[c]&^cf.kings
	}
}

// spreadFreePawns gives the free pawns their pushes and captures, and the
// pieces they promote to, to a least fixed point over both colours.
func (cf *confinement) spreadFreePawns(r *fillRound) {
	fixed := r.fixed
	for changed := true; changed; {
		changed = false
		for i := range cf.men {
			m := &cf.men[i]
			if m.pt != bb.Pawn || m.stuck {
				continue
			}
			rc := pawnFlood(m.c, m.reach, fixed|r.cand&r.pawnsOf[m.c.Other()], fixed, r.prey(m.c.Other(), cf.side))
			if rc == m.reach {
				continue
			}
			changed = true
			m.reach = rc
			m.att = bb.PawnsAttack(m.c, rc&^lastRank(m.c))
			if pr := rc & lastRank(m.c); pr != 0 {
				q, qa := pieceReach(bb.Queen, pr, fixed)
				n, na := pieceReach(bb.Knight, pr, fixed)
				m.promo, m.promoA = q|n, qa|na
			}
			r.occ[m.c] |= m.reach | m.promo
		}
	}
}

// dropCandidates returns the candidates that could leave their squares
// or be taken (drop), and those that may be taken but never move (stuck).
func (cf *confinement) dropCandidates(r *fillRound) (drop, stuck uint64) {
	pos, side := cf.pos, cf.side
	// What side's men other than its king can ever attack (its fixed
	// pieces guard the own fixed men next to them, which a move of the
	// other side may take), and the squares where its only man, if it
	// has one, takes a fixed man only to be taken back.
	sideAtt := r.attBy[side] | bb.PawnsAttack(side, cf.pathOf[side]) | cf.fixedGuard(side, cf.kings)
	var recapture uint64
	if r.lone != bb.NoPieceType {
		for b := r.attBy[side] & cf.fixedOf[side.Other()] &^ cf.kings; b != 0; b &= b - 1 {
			x := bb.Square(bits.TrailingZeros64(b))
			if cf.recaptured(r.lone, x) {
				recapture |= 1 << uint(x)
			}
		}
	}
	for b := r.cand; b != 0; b &= b - 1 {
		s := bits.TrailingZeros64(b)
		sb := uint64(1) << uint(s)
		pc := pos.PieceAt(bb.Square(s))
		c, o := pc.Color(), pc.Color().Other()
		path := sb
		if pc.Type() == bb.Pawn {
			path = cf.path[s]
		}
		switch {
		case pc.Type() == bb.King: // never taken; fixed while it has no move
			if bb.KingAttacks(bb.Square(s))&^cf.fixedOf[c]&^cf.permAtt[o] == 0 {
				continue
			}
		case r.attBy[o]&path&^recapture != 0,
			(r.kingAttBy[o]|kingSteps(cf.fixedOf[o]&r.kingOf[o]))&path&^cf.permAtt[c] != 0 &&
				(path != sb || !cf.kingTakingEndsGame(s, c)):
			if path == sb { // it never moves, but may be taken
				stuck |= sb
				continue
			}
		case pc.Type() == bb.Pawn && bb.PawnsAttack(c, path)&r.prey(o, side) != 0:
		case pc.Type() != bb.King && pc.Type() != bb.Pawn && cf.pieceMoves(pc.Type(), s, sideAtt) != 0:
			if jammed, group := cf.jammed(s, c, r.attBy[o], r.kingAttBy[o]); jammed {
				stuck |= sb
				cf.jam[s] = group
				continue
			}
		default:
			continue
		}
		drop |= sb
	}
	return drop, stuck
}

// unstick frees, and returns to be dropped, the stuck men that have a
// move after all. A man that may be taken stays where it is as long as it
// has no move: the square ahead of a pawn holds a fixed man and nothing
// of the enemy can stand where it takes; a piece is jammed (every first
// square of its lines holds one of its own fixed men, or its group can
// only move onto its own squares), or every move it has mates side's
// fixed king (pieceMoves), after which side never mates.
func (cf *confinement) unstick(r *fillRound) (drop uint64) {
	sideAtt := r.attBy[cf.side] | bb.PawnsAttack(cf.side, cf.pathOf[cf.side]) | cf.fixedGuard(cf.side, cf.kings)
	for _, m := range cf.men {
		if !m.stuck {
			continue
		}
		sb := uint64(1) << uint(m.sq)
		var moves bool
		if m.pt == bb.Pawn {
			moves = ahead(m.c, sb)&r.fixed == 0 || m.att&r.prey(m.c.Other(), cf.side) != 0
		} else {
			var jammed bool
			jammed, cf.jam[m.sq] = cf.jammed(m.sq, m.c, r.attBy[m.c.Other()], r.kingAttBy[m.c.Other()])
			moves = !jammed && cf.pieceMoves(m.pt, m.sq, sideAtt) != 0
		}
		if moves {
			cf.stuck &^= sb
			drop |= sb
		}
	}
	return drop
}

// stretches sets, for every confined pawn of cand, the stretch of its
// file it can ever stand on: forward up to the square before an opposing
// confined pawn or a confined king (neither ever leaves the way), or up
// to one square short of the stretch of an own confined pawn ahead. A
// pawn whose stretch reaches the last rank may promote: it is taken out
// of cand, which is returned. cf.fixed gets the confined kings and the
// pawns that can never move, cf.pathOf every confined pawn's squares.
func (cf *confinement) stretches(pos *bb.Position, cand uint64) uint64 {
	cf.fixed = cand &^ cf.pawns
	cf.pathOf, cf.pawnsOf = [2]uint64{}, [2]uint64{}
	for c := bb.White; c <= bb.Black; c++ {
		step, s0, ds := 8, 63, -1 // front to back: the pawn ahead first
		if c == bb.Black {
			step, s0, ds = -8, 0, 1
		}
		for s := s0; s >= 0 && s < 64; s += ds {
			sb := uint64(1) << uint(s)
			if cand&sb == 0 || pos.PieceAt(bb.Square(s)) != bb.MakePiece(c, bb.Pawn) {
				continue
			}
			path, t, promotes := sb, s+step, false
			for {
				if t < 0 || t > 63 {
					promotes = true
					break
				}
				tb := uint64(1) << uint(t)
				if cand&tb != 0 {
					if pos.PieceAt(bb.Square(t)) == bb.MakePiece(c, bb.Pawn) {
						// Own confined pawn ahead: stop one short of its stretch.
						path = ownFollow(c, sb, cf.path[t])
					}
					break
				}
				path |= tb
				t += step
			}
			if promotes || path&lastRank(c) != 0 {
				cand &^= sb
				continue
			}
			cf.path[s] = path
			cf.pathOf[c] |= path
			cf.pawnsOf[c] |= sb
			if path == sb {
				cf.fixed |= sb
			}
		}
	}
	return cand
}

// ownFollow returns the squares a pawn of colour c on from can stand on
// behind an own pawn whose squares are ahead: from up to one square short
// of the front of ahead.
func ownFollow(c bb.Color, from, front0 uint64) uint64 {
	var front uint64
	if c == bb.White {
		front = uint64(1) << uint(63-bits.LeadingZeros64(front0))
	} else {
		front = front0 & -front0
	}
	var path uint64
	for b := from; b != front && b != 0; b = ahead(c, b) {
		path |= b
	}
	return path
}

func ahead(c bb.Color, b uint64) uint64 {
	if c == bb.White {
		return b << 8
	}
	return b >> 8
}

// pawnFlood extends the squares a pawn of colour c can stand on by its
// pushes (never onto a square of block) and its captures (onto squares
// in prey, never onto a fixed man: taking one is ruled out separately),
// until nothing changes. Squares on the last rank are kept (the pawn
// promotes there) but not moved on from. block holds the fixed men and
// the opposing confined pawns where they stand now: such a pawn only
// ever walks towards this one and never leaves its file, so this one
// can never get past it.
func pawnFlood(c bb.Color, reach, block, fixed, prey uint64) uint64 {
	for {
		from := reach &^ lastRank(c)
		next := reach | ahead(c, from)&^block | bb.PawnsAttack(c, from)&prey&^fixed
		if next == reach {
			return reach
		}
		reach = next
	}
}

// canMate reports whether the confinement leaves side any way to mate:
// a square the other king can reach that side can attack, whose other
// neighbours side can all attack or have occupied. A neighbour no man of
// side can ever attack must hold a man, of either side, that can stand
// there: one man a square (a matching).
func (cf *confinement) canMate(pos *bb.Position, side bb.Color) bool {
	loser := side.Other()
	var kingReach uint64
	// Confined pawns attack from their stretches; a fixed piece attacks
	// only its own fixed men, so never checks.
	attacks := bb.PawnsAttack(side, cf.pathOf[side])
	cover := kingSteps(cf.fixedOf[side] & cf.kings)
	var sideKing uint64 // the squares of side's king, when it may move
	var men []uint64    // the squares each man that may fill a neighbour can stand on
	for c := bb.White; c <= bb.Black; c++ {
		for b := cf.pawnsOf[c] &^ cf.fixed; b != 0; b &= b - 1 {
			men = append(men, cf.path[bits.TrailingZeros64(b)])
		}
	}
	for _, m := range cf.men {
		switch {
		case m.c == loser && m.pt == bb.King:
			kingReach = m.reach
		case m.pt == bb.King:
			sideKing = m.reach
		default:
			men = append(men, m.reach|m.promo)
			if m.c == side {
				attacks |= m.att | m.promoA
			}
		}
	}
	if kingReach == 0 { // the loser's king is fixed
		kingReach = cf.fixedOf[loser] & cf.kings
	} else if k0 := pos.Pieces(loser, bb.King); pos.Side() == loser && k0&cf.fixedGuard(side, 0) != 0 && !pos.IsCheckmate() {
		// The loser's king is in check from side's fixed men, which are
		// never taken and check from next to it or as pawns (no block):
		// it steps away now and never comes back, so it is never mated
		// where it stands.
		kingReach &^= k0
	}
	cover |= attacks | cf.fixed
	if pos.Castling()&castleRights(loser) == 0 && pos.Occupied(loser)&^cf.fixed&^cf.stuck == 0 {
		// The mated side can never move: the game ends at its next turn.
		return mateNow(pos, side)
	}
	tempo := cf.onlyKingMoves(pos, loser)
	if tempo && mateNow(pos, side) {
		return true
	}
	for b := attacks & kingReach; b != 0; b &= b - 1 {
		k := bb.Square(bits.TrailingZeros64(b))
		if tempo && !cf.lastKingMove(k, side, kingReach, attacks) {
			continue
		}
		if sideKing == 0 {
			if canBlock(bb.KingAttacks(k)&^cover, men) {
				return true
			}
			continue
		}
		// side's king stands on one square, never next to k, and covers
		// only the neighbours of k next to that square.
		for q := sideKing &^ bb.KingAttacks(k) &^ (uint64(1) << uint(k)); q != 0; q &= q - 1 {
			at := bb.KingAttacks(bb.Square(bits.TrailingZeros64(q)))
			if canBlock(bb.KingAttacks(k)&^(cover|at), men) {
				return true
			}
		}
	}
	return false
}

// onlyKingMoves reports whether the king is the only man of colour c
// that can ever move (c has no castling rights and every other man of c
// is fixed).
func (cf *confinement) onlyKingMoves(pos *bb.Position, c bb.Color) bool {
	return pos.Castling()&castleRights(c) == 0 && pos.Occupied(c)&^cf.kings&^cf.fixed&^cf.stuck == 0 && cf.fixedOf[c]&cf.kings == 0
}

// mateNow reports whether side has mated already, or mates with its
// next move when it is to move.
func mateNow(pos *bb.Position, side bb.Color) bool {
	if pos.Side() != side {
		return pos.IsCheckmate()
	}
	var ml bb.MoveList
	pos.LegalMoves(&ml)
	for _, m := range ml.Slice() {
		q := *pos
		q.Make(m)
		if q.IsCheckmate() {
			return true
		}
	}
	return false
}

// lastKingMove is the last-move test of a mate on k when the mated side
// can only ever move its king: its last move before the mate brought the
// king to k from a neighbour r, which in the mate is empty (or holds the
// mating man) and must be attacked. If some man of side other than its
// king can ever attack or reach r, the test passes. Otherwise only the
// mating king covers r: it cannot have stood next to r while the other
// king was there, so its mating move went from a square a (not next to r
// nor to k) to one next to r, and uncovered the check along a line
// through a. lastKingMove reports whether any r allows that.
func (cf *confinement) lastKingMove(k bb.Square, side bb.Color, loserReach, attacks uint64) bool {
	var reach uint64 // squares side's men other than its king can stand on
	for _, m := range cf.men {
		if m.c == side && m.pt != bb.King {
			reach |= m.reach | m.promo
		}
	}
	reach |= cf.pathOf[side]
	wk := cf.kingReach(side)
	fixedKing := cf.fixedOf[side]&cf.kings != 0
	rook, bishop := cf.sliders(side)
	var lines uint64
	if rook {
		lines |= bb.RookAttacks(k, cf.fixed)
	}
	if bishop {
		lines |= bb.BishopAttacks(k, cf.fixed)
	}
	near := bb.KingAttacks(k) | uint64(1)<<uint(k)
	for rb := bb.KingAttacks(k) & loserReach; rb != 0; rb &= rb - 1 {
		r := bb.Square(bits.TrailingZeros64(rb))
		if (attacks|reach)&(uint64(1)<<uint(r)) != 0 {
			return true
		}
		if fixedKing {
			continue
		}
		for bs := bb.KingAttacks(r) & wk &^ near; bs != 0; bs &= bs - 1 {
			b := bb.Square(bits.TrailingZeros64(bs))
			if bb.KingAttacks(b)&wk&^near&^bb.KingAttacks(r)&lines != 0 {
				return true
			}
		}
	}
	return false
}

// maxArrangements bounds the arrangements groupGuard enumerates.
const maxArrangements = 1 << 12

// groupGuard returns the squares that the free pieces of colour c guard
// whatever the series of moves, when they form closed groups. A group is
// every free piece of c of one type whose squares (flood fill around the
// fixed men) form one region R that no other man of either colour, kings
// included, can ever stand on. The group's members then never leave R and
// are never taken, so at every moment they stand on some k of its n
// squares; a square attacked from every such arrangement (lines blocked
// by the arrangement itself and by every square outside R, where other
// men may stand) is attacked for good. Its members being interchangeable,
// the C(n, k) arrangements cover every position the group can take.
func (cf *confinement) groupGuard(c bb.Color, fixed uint64) uint64 {
	var guard uint64
	for _, pt := range [...]bb.PieceType{bb.Knight, bb.Bishop, bb.Rook, bb.Queen} {
		var done uint64 // regions already handled
		for i := range cf.men {
			g := &cf.men[i]
			if g.c != c || g.pt != pt || g.stuck || g.reach&done != 0 || g.reach&fixed != 0 {
				continue
			}
			r := g.reach
			done |= r
			var members, others uint64
			for j := range cf.men {
				m := &cf.men[j]
				if m.c == c && m.pt == pt && !m.stuck && m.reach == r {
					members |= 1 << uint(m.sq)
					continue
				}
				others |= m.reach | m.promo
			}
			others |= cf.fixed | cf.pathOf[0] | cf.pathOf[1]
			if others&r != 0 {
				continue
			}
			guard |= arrangementGuard(pt, r, bits.OnesCount64(members))
		}
	}
	return guard
}

// arrangementGuard returns the squares attacked by k pieces of type pt in
// every arrangement on the squares of region, lines stopping at the
// arrangement's own squares and at every square outside region; it
// returns 0 when the arrangements are too many to enumerate.
func arrangementGuard(pt bb.PieceType, region uint64, k int) uint64 {
	n := bits.OnesCount64(region)
	if k == 0 || k > n || n > 32 {
		return 0
	}
	// C(n, k), stopping once past the bound.
	count := 1
	for i := 0; i < k && i < n-k; i++ {
		count = count * (n - i) / (i + 1)
		if count > maxArrangements {
			return 0
		}
	}
	var sqs [64]bb.Square
	for b, i := region, 0; b != 0; b, i = b&(b-1), i+1 {
		sqs[i] = bb.Square(bits.TrailingZeros64(b))
	}
	guard := ^uint64(0)
	// Every k-subset of the n squares, as a bit pattern (Gosper's hack).
	for pat := uint64(1)<<uint(k) - 1; pat < uint64(1)<<uint(n); {
		var arr uint64
		for b := pat; b != 0; b &= b - 1 {
			arr |= 1 << uint(sqs[bits.TrailingZeros64(b)])
		}
		blockers := arr | ^region
		var att uint64
		for b := arr; b != 0; b &= b - 1 {
			att |= attacks(pt, bb.Square(bits.TrailingZeros64(b)), blockers)
		}
		guard &= att
		if guard == 0 {
			return 0
		}
		low := pat & -pat
		next := pat + low
		pat = next | ((pat^next)>>2)/low
	}
	return guard
}
