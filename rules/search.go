package rules

import (
	"cmp"
	"math/bits"
	"slices"
	"sync"

	"github.com/arbiterd/arbiterd/rules/bitboard"
	"github.com/notnil/chess"
)

// target is a snapshot prepared for comparison with positions.
type target struct {
	occOnly bool
	pieces  [2][6]uint64 // by bitboard colour and piece type (full snapshots)
	occ     uint64
}

// bbKindOf gives bitboard's colour and piece type of each notnil piece.
var bbKindOf = func() (t [chess.BlackPawn + 1]struct {
	c bitboard.Color
	t bitboard.PieceType
}) {
	for pc := chess.WhiteKing; pc <= chess.BlackPawn; pc++ {
		t[pc].c, t[pc].t = bbColor[pieceColor(pc)], bbType[pieceType(pc)]
	}
	return t
}()

// targetOf prepares s, which must hold only chess pieces and chess.NoPiece
// unless it is occupancy-only.
func targetOf(s Snapshot) target {
	t := target{occOnly: s.OccupancyOnly}
	for i, pc := range s.Squares {
		if pc == chess.NoPiece {
			continue
		}
		b := uint64(1) << uint(i)
		t.occ |= b
		if !t.occOnly {
			k := bbKindOf[pc]
			t.pieces[k.c][k.t] |= b
		}
	}
	return t
}

func (t *target) matches(p *position) bool {
	if p.All() != t.occ {
		return false
	}
	if t.occOnly {
		return true
	}
	for c := bitboard.White; c <= bitboard.Black; c++ {
		for pt := bitboard.Pawn; pt < bitboard.NoPieceType; pt++ {
			if p.Pieces(c, pt) != t.pieces[c][pt] {
				return false
			}
		}
	}
	return true
}

// need returns, for colour c, the squares where the target has a piece of c
// that p does not have there. Only c's own moves can fill them: a normal move
// fills one, castling two (the king's and the rook's), so the count bounds how
// many moves c still has to make.
func (t *target) need(p *position, c bitboard.Color) uint64 {
	var n uint64
	for pt := bitboard.Pawn; pt < bitboard.NoPieceType; pt++ {
		n |= t.pieces[c][pt] &^ p.Pieces(c, pt)
	}
	return n
}

func castleRightsOf(p *position, c bitboard.Color) bool {
	if c == bitboard.White {
		return p.Castling()&(bitboard.WhiteKingside|bitboard.WhiteQueenside) != 0
	}
	return p.Castling()&(bitboard.BlackKingside|bitboard.BlackQueenside) != 0
}

// movesLeft is how many of the remaining r plies belong to colour c.
func movesLeft(p *position, c bitboard.Color, r int) int {
	if p.Side() == c {
		return (r + 1) / 2
	}
	return r / 2
}

// searcher finds every legal sequence of an exact length that reaches a target.
type searcher struct {
	g        *Game
	t        *target
	exclude  []move // sequences starting with these moves are not reported
	path     []move
	found    [][]move
	keys     []repKey // keys along path, only when fivefold is within reach
	checkRep bool
	from     int        // ply of the record the sequences start from
	stack    []position // stack[r]: the position with r plies left
	moves    [][]move   // moves[r]: the moves tried from stack[r]
	ml       bitboard.MoveList
	budget   *int // positions the search may still make (nil: no limit)
	spent    bool // the budget ran out: the sequences found are not all
}

// searchers keeps searchers' buffers between searches (Reconstruct runs
// several, and only reads the record, so they are not kept in the Game).
var searchers = sync.Pool{New: func() any { return new(searcher) }}

// search returns every legal sequence of exactly plies plies that leads from
// ply from of the record to the target and does not begin with exclude, in
// the record's move order (the order of a depth-first enumeration with each
// position's moves in the order of genLegal).
func (g *Game) search(from int, t *target, plies int, exclude []move) [][]move {
	found, _ := g.searchWithin(from, t, plies, exclude, nil)
	return found
}

// searchWithin is search making at most *budget positions (nil: no
// limit), which it decreases; complete is false when the budget ran out
// before every sequence was tried.
func (g *Game) searchWithin(from int, t *target, plies int, exclude []move, budget *int) (found [][]move, complete bool) {
	if from == g.Ply() && g.status.Over {
		return nil, true
	}
	s := searchers.Get().(*searcher)
	s.g, s.t, s.exclude, s.checkRep, s.from = g, t, exclude, g.maxCount >= 4, from
	s.budget, s.spent = budget, false
	s.path, s.keys = s.path[:0], s.keys[:0]
	if cap(s.stack) < plies+1 {
		s.stack = make([]position, plies+1)
		s.moves = append(s.moves, make([][]move, plies+1-len(s.moves))...)
	}
	s.stack = s.stack[:plies+1]
	s.stack[plies] = g.positions[from]
	if t.occOnly || s.materialReachable(&s.stack[plies], plies) { // an occupancy-only board names no pieces
		s.dfs(plies)
	}
	found, complete = s.found, !s.spent
	s.g, s.t, s.exclude, s.found, s.budget = nil, nil, nil, nil, nil
	searchers.Put(s)
	// The moves were tried in bitboard's order: sort the sequences into the
	// record's (ord orders the moves of one position; sequences that differ
	// first at ply i share the position before it).
	slices.SortFunc(found, func(a, b []move) int {
		for i := range a {
			if c := cmp.Compare(a[i].ord, b[i].ord); c != 0 {
				return c
			}
		}
		return 0
	})
	return found, complete
}

// masks decides, before generating p's moves with r plies left, whether the
// target is still reachable and which origins and destinations can help.
func (s *searcher) masks(p *position, r int) (from, to uint64, ok bool) {
	t := s.t
	castles := 0
	if castleRightsOf(p, bitboard.White) {
		castles++
	}
	if castleRightsOf(p, bitboard.Black) {
		castles++
	}
	if bits.OnesCount64(emptied(p, t.occ)) > r+castles {
		return 0, 0, false
	}
	if t.occOnly {
		return occupancyMasks(p, t.occ, r, castles)
	}
	if to, ok = t.destinations(p, r); !ok {
		return 0, 0, false
	}
	if r == 1 {
		return t.lastMove(p, to)
	}
	return ^uint64(0), to, true
}

// emptied is the squares occupied in p that the target has empty: each
// needs a ply to empty it. Every ply empties one origin square; castling
// empties two (once per side), and en passant also the square of the pawn
// it takes, which among the squares occupied now can only be the pawn that
// just advanced two (not counted).
func emptied(p *position, target uint64) uint64 {
	leave := p.All() &^ target
	if ep := p.EnPassant(); ep != bitboard.NoSquare {
		victim := ep + 8
		if p.Side() == bitboard.White {
			victim = ep - 8
		}
		leave &^= 1 << uint(victim)
	}
	return leave
}

// occupancyMasks are the masks towards a target known by occupancy only
// (target): a ply fills at most one empty square (castling two), and the
// last move must empty its origin and end on an occupied square.
func occupancyMasks(p *position, target uint64, r, castles int) (from, to uint64, ok bool) {
	occ := p.All()
	if bits.OnesCount64(target&^occ) > r+castles {
		return 0, 0, false
	}
	if r == 1 {
		return p.Occupied(p.Side()) & (occ &^ target), target, true
	}
	return ^uint64(0), ^uint64(0), true
}

// destinations checks that each side has the moves left in r plies to put
// a piece on every square where the target has one of its men and p does
// not (one castling fills two); when the side to move has no move to
// spare, its move must land on one of them (to).
func (t *target) destinations(p *position, r int) (to uint64, ok bool) {
	to = ^uint64(0)
	for c := bitboard.White; c <= bitboard.Black; c++ {
		need := t.need(p, c)
		n := bits.OnesCount64(need)
		if n >= 2 && castleRightsOf(p, c) {
			n-- // one castling fills two squares
		}
		left := movesLeft(p, c, r)
		if n > left {
			return 0, false
		}
		if c == p.Side() && n == left {
			to = need
		}
	}
	return to, true
}

// lastMove gives the masks of the last ply: the squares where p and the
// target differ, which one move changes two of (en passant three, the
// pawn taken too; castling four, the rook too).
func (t *target) lastMove(p *position, to uint64) (from, dest uint64, ok bool) {
	var diff uint64
	for c := bitboard.White; c <= bitboard.Black; c++ {
		for pt := bitboard.Pawn; pt < bitboard.NoPieceType; pt++ {
			diff |= t.pieces[c][pt] ^ p.Pieces(c, pt)
		}
	}
	switch bits.OnesCount64(diff) {
	case 2:
	case 3:
		if p.EnPassant() == bitboard.NoSquare {
			return 0, 0, false
		}
	case 4:
		if !castleRightsOf(p, p.Side()) {
			return 0, 0, false
		}
	default:
		return 0, 0, false
	}
	return p.Occupied(p.Side()) & diff, to & diff, true
}

// materialReachable checks the target's material against p's with r plies
// left: pieces are only ever taken off, a pawn gone may come back as one
// promoted piece, and every piece taken costs the other side a move. A
// piece put down on the board (a spare queen, a knocked piece set back on
// the wrong side) is ruled out once, at the search's start, instead of by
// searching every sequence (checked at every position it cost 4 % of an
// ordinary search and pruned little more).
func (s *searcher) materialReachable(p *position, r int) bool {
	t := s.t
	for c := bitboard.White; c <= bitboard.Black; c++ {
		now := bits.OnesCount64(p.Pieces(c, bitboard.Pawn))
		then := bits.OnesCount64(t.pieces[c][bitboard.Pawn])
		promoted := now - then // at most this many pawns promoted
		if promoted < 0 {
			return false
		}
		taken := now - then
		for pt := bitboard.Knight; pt <= bitboard.Queen; pt++ {
			d := bits.OnesCount64(t.pieces[c][pt]) - bits.OnesCount64(p.Pieces(c, pt))
			if d > 0 {
				if promoted -= d; promoted < 0 {
					return false
				}
			}
			taken -= d
		}
		if taken > movesLeft(p, c.Other(), r) {
			return false
		}
	}
	return true
}

func (s *searcher) dfs(r int) {
	p := &s.stack[r]
	if r == 0 {
		if s.t.matches(p) && !s.excluded() {
			s.record()
		}
		return
	}
	from, to, ok := s.masks(p, r)
	if !ok || from == 0 || to == 0 {
		return
	}
	s.moves[r] = p.appendLegal(s.moves[r][:0], &s.ml, from, to)
	for _, m := range s.moves[r] {
		if s.budget != nil {
			// counted per position made, each of which the search
			// also checks for a game's end
			if *s.budget <= 0 {
				s.spent = true
				return
			}
			*s.budget--
		}
		c := &s.stack[r-1]
		*c = *p
		c.apply(m)
		if s.checkRep {
			s.keys = s.keys[:len(s.path)]
		}
		if r > 1 && s.ends(c, m) {
			continue
		}
		s.path = append(s.path, m)
		s.dfs(r - 1)
		s.path = s.path[:len(s.path)-1]
		if s.spent {
			return
		}
	}
}

// record adds the current path to the sequences found, with flagCheck set
// on the moves that give check (the generator leaves it out: most sequences
// tried are never reported).
func (s *searcher) record() {
	seq := make([]move, len(s.path))
	plies := len(s.stack) - 1
	for i, m := range s.path {
		if s.stack[plies-i].GivesCheck(m.bm) {
			m.flags |= flagCheck
		}
		seq[i] = m
	}
	s.found = append(s.found, seq)
}

// excluded reports whether the current path begins with the excluded moves
// (a forward continuation of the record, not a correction of it).
func (s *searcher) excluded() bool {
	if len(s.exclude) == 0 {
		return false
	}
	n := min(len(s.exclude), len(s.path))
	for i := 0; i < n; i++ {
		if s.path[i].bm != s.exclude[i].bm {
			return false
		}
	}
	return true
}

// ends reports whether the game would be over after m reached c, so that no
// further move of the sequence could be played: mate and stalemate leave no
// moves anyway; this catches 9.6.2, dead material (5.2.2) and 9.6.1.
func (s *searcher) ends(c *position, m move) bool {
	if c.HalfmoveClock() >= 150 {
		return true
	}
	if m.flags&flagCapture != 0 && deadByMaterial(c) {
		return true
	}
	if !s.checkRep {
		return false
	}
	k := keyOf(c)
	n := s.g.counts[k] + 1
	for _, pk := range s.g.keys[s.from+1:] { // plies a correction replaces
		if pk == k {
			n--
		}
	}
	for _, pk := range s.keys {
		if pk == k {
			n++
		}
	}
	s.keys = append(s.keys, k)
	return n >= 5
}
