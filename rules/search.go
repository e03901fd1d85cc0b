package rules

import (
	"math/bits"

	"github.com/notnil/chess"
)

// target is a snapshot prepared for comparison with positions.
type target struct {
	occOnly bool
	pieces  [13]uint64 // by chess.Piece (full snapshots)
	color   [3]uint64  // by chess.Color (full snapshots)
	occ     uint64
}

func targetOf(s Snapshot) target {
	t := target{occOnly: s.OccupancyOnly}
	for i, pc := range s.Squares {
		if pc == chess.NoPiece {
			continue
		}
		b := uint64(1) << uint(i)
		t.occ |= b
		if !t.occOnly {
			t.pieces[pc] |= b
			t.color[pieceColor(pc)] |= b
		}
	}
	return t
}

func (t *target) matches(p *position) bool {
	if t.occOnly {
		return p.occ() == t.occ
	}
	return p.pieces == t.pieces
}

// need returns, for colour c, the squares where the target has a piece of c
// that p does not have there. Only c's own moves can fill them: a normal move
// fills one, castling two (the king's and the rook's), so the count bounds how
// many moves c still has to make.
func (t *target) need(p *position, c chess.Color) uint64 {
	var n uint64
	base := chess.Piece(0)
	if c == chess.Black {
		base = 6
	}
	for pc := base + 1; pc <= base+6; pc++ {
		n |= t.pieces[pc] &^ p.pieces[pc]
	}
	return n
}

func castleRightsOf(p *position, c chess.Color) bool {
	if c == chess.White {
		return p.castle&(castleWK|castleWQ) != 0
	}
	return p.castle&(castleBK|castleBQ) != 0
}

// movesLeft is how many of the remaining r plies belong to colour c.
func movesLeft(p *position, c chess.Color, r int) int {
	if p.turn == c {
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
	from     int // ply of the record the sequences start from
	stack    []position
}

// search returns every legal sequence of exactly plies plies that leads from
// ply from of the record to the target and does not begin with exclude.
func (g *Game) search(from int, t *target, plies int, exclude []move) [][]move {
	if from == g.Ply() && g.status.Over {
		return nil
	}
	s := &searcher{g: g, t: t, exclude: exclude, checkRep: g.maxCount >= 4, from: from}
	// stack[r] holds the position with r plies left; one allocation per search.
	s.stack = make([]position, plies+1)
	s.stack[plies] = g.positions[from]
	s.dfs(plies)
	return s.found
}

// masks decides, before generating p's moves with r plies left, whether the
// target is still reachable and which origins and destinations can help.
func (s *searcher) masks(p *position, r int) (from, to uint64, ok bool) {
	t := s.t
	occ := p.occ()
	own := p.color[p.turn]
	castles := 0
	if castleRightsOf(p, chess.White) {
		castles++
	}
	if castleRightsOf(p, chess.Black) {
		castles++
	}
	// Every ply empties one origin square; castling empties two (once per
	// side), and en passant also the square of the pawn it takes, which among
	// the squares occupied now can only be the pawn that just advanced two.
	leave := occ &^ t.occ
	if p.ep >= 0 {
		victim := int(p.ep) + 8
		if p.turn == chess.White {
			victim = int(p.ep) - 8
		}
		leave &^= 1 << uint(victim)
	}
	if bits.OnesCount64(leave) > r+castles {
		return 0, 0, false
	}
	if t.occOnly {
		// A ply fills at most one empty square (castling two).
		if bits.OnesCount64(t.occ&^occ) > r+castles {
			return 0, 0, false
		}
		if r == 1 {
			// The last move must empty its origin and end on an occupied square.
			return own & (occ &^ t.occ), t.occ, true
		}
		return ^uint64(0), ^uint64(0), true
	}
	to = ^uint64(0)
	for _, c := range [2]chess.Color{chess.White, chess.Black} {
		need := t.need(p, c)
		n := bits.OnesCount64(need)
		if n >= 2 && castleRightsOf(p, c) {
			n-- // one castling fills two squares
		}
		left := movesLeft(p, c, r)
		if n > left {
			return 0, 0, false
		}
		if c == p.turn && n == left {
			// No move to spare: this one must put a piece where the target wants it.
			to = need
		}
	}
	if r == 1 {
		var diff uint64
		for pc := chess.WhiteKing; pc <= chess.BlackPawn; pc++ {
			diff |= t.pieces[pc] ^ p.pieces[pc]
		}
		if bits.OnesCount64(diff) > 4 {
			return 0, 0, false
		}
		return own & diff, to & diff, true
	}
	return ^uint64(0), to, true
}

func (s *searcher) dfs(r int) {
	p := &s.stack[r]
	if r == 0 {
		if s.t.matches(p) && !s.excluded() {
			s.found = append(s.found, append([]move(nil), s.path...))
		}
		return
	}
	from, to, ok := s.masks(p, r)
	if !ok || from == 0 || to == 0 {
		return
	}
	var buf [64]move
	for _, m := range p.genLegal(buf[:0], from, to) {
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
	}
}

// excluded reports whether the current path begins with the excluded moves
// (a forward continuation of the record, not a correction of it).
func (s *searcher) excluded() bool {
	if len(s.exclude) == 0 {
		return false
	}
	n := min(len(s.exclude), len(s.path))
	for i := 0; i < n; i++ {
		if s.path[i] != s.exclude[i] {
			return false
		}
	}
	return true
}

// ends reports whether the game would be over after m reached c, so that no
// further move of the sequence could be played: mate and stalemate leave no
// moves anyway; this catches 9.6.2, dead material (5.2.2) and 9.6.1.
func (s *searcher) ends(c *position, m move) bool {
	if c.half >= 150 {
		return true
	}
	if m.flags&flagCapture != 0 && deadByMaterial(c) {
		return true
	}
	if !s.checkRep {
		return false
	}
	var buf [8]move
	var epMoves []move
	if c.ep >= 0 {
		epMoves = c.genLegal(buf[:0], c.pieces[makePiece(chess.Pawn, c.turn)], uint64(1)<<uint(c.ep))
	}
	k := keyOf(c, epMoves)
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
