package unwinnable

import (
	"strings"

	bb "github.com/arbiterd/arbiterd/rules/bitboard"
)

const maxPly = 256

// searcher holds the state of one query: the position being searched
// (made and unmade in place), the side trying to mate, the budget.
type searcher struct {
	pos    bb.Position
	winner bb.Color
	w      weights // the heuristic's, by mode
	// byClass, in quick mode, holds the weights for each class of the
	// winner's material: w holds those of class, the class of the
	// position searched (weightsHere).
	byClass *[weightClasses]weights
	class   weightClass
	nodes   int64
	limit   int64 // node count at which the current phase stops
	abort   bool
	tt      table
	ldsT    ldsTable
	// corners are the corners the loser's king is driven to: those of the
	// winner's bishops' colour when the winner has only such bishops (and
	// perhaps knights), since they can only check on that colour.
	corners [4]bb.Square
	nCorner int
	// cornerD is the king-step distance from each square to the nearest
	// of the corners (one of the cornerTables).
	cornerD *[64]int8
	// goal, when set, directs the discrepancy search to a target square.
	goal *goal
	// plainDone is the number of allowances (0, 1, ...) of discrepancies
	// the plain heuristic search has searched to the end, without a mate,
	// in this query.
	plainDone int
	// plainDoneFull is plainDone for full mode's weights, in quick mode
	// (ldsWith).
	plainDoneFull int
	// goals are the targets of the goal-directed search, made on its
	// first call; goalRound says where it resumes.
	goals      []goal
	goalRound  int
	goalRound0 int64 // each goal's allowance in the first round
	here       goal  // the target of the short probe
	lineAt     lineIndex
	lineOcc    lineIndex
	undo       []bb.Undo
	// Scratch space kept from query to query, so that a query allocates
	// nothing per node: the confinement proof's, the walk's set of
	// positions seen and its stack, the goal-directed search's targets.
	cf        confinement
	seen      posSet
	walkStack []walkFrame
	goalBuf   []goal
	evasions  bb.MoveList // scratch space of the mate tests
	// At a node of the winner's in pickPlain, once its first check is
	// tested (safeKnown): the loser king's neighbour squares free of its
	// men that no man of the winner's attacks.
	safe      uint64
	safeKnown bool
	// quietFloor: at a node of pickPlain, a score the pick will reach,
	// which the pieces' quiet moves need to be scored at all.
	quietFloor int32
	picks      *[pickEntries]pickEntry
	pickStamp  uint32
	path       [maxPly]bb.Move
	movesOnly  bool           // Options.Moves applies: lines go to moves
	moves      []bb.Move      // the last line found, when movesOnly
	plainKeys  [maxPly]uint64 // plainFind's positions
	plainFrom  bb.Position    // plainFind's start, restored after its line
	// plainFind's repairs: how many it may make, the undo of each move of
	// its line, and the moves set aside at each ply.
	plainRepairs int
	plainEnd     plainEnd // how the last line ended
	plainUndo    [maxPly]bb.Undo
	plainAvoid   [maxPly][plainAvoidMax]bb.Move
	plainAvoidN  [maxPly]uint8
	lists        [maxPly]bb.MoveList
	scores       [maxPly][256]int32
}

func (s *searcher) reset(pos *bb.Position, winner bb.Color) {
	s.pos = *pos
	s.winner = winner
	if s.byClass != nil {
		s.class = weightClassOf(pos, winner)
		s.w = s.byClass[s.class]
	}
	s.setCorners()
	s.nodes = 0
	s.abort = false
	s.tt.newQuery()
	if s.picks == nil {
		s.picks = new([pickEntries]pickEntry)
	}
	s.pickStamp += 2 // the query's picks, and those of ldsWith (pickStamp+1)
	s.goals, s.goalRound, s.goalRound0 = nil, 0, fullGoalRound0
	s.plainDone, s.plainDoneFull = 0, 0
}

// weightsHere sets, in quick mode, the weights of the class of the
// winner's material in the position searched: they follow the material
// along a line, so that a pawn promoted to a queen brings the queen's.
// ldsFind calls it at every node; plainFind, the hotter loop, at its
// start and after the moves that can change the class.
func (s *searcher) weightsHere() {
	if s.byClass == nil {
		return
	}
	if c := weightClassOf(&s.pos, s.winner); c != s.class {
		s.class, s.w = c, s.byClass[c]
	}
}

func (s *searcher) line(n int) []string { return s.lineOf(s.path[:n]) }

// lineOf returns path in UCI notation, or, when only moves are wanted
// (movesOnly), keeps a copy of it in s.moves and returns nil.
func (s *searcher) lineOf(path []bb.Move) []string {
	if s.movesOnly {
		s.moves = append(s.moves[:0], path...)
		return nil
	}
	return uciLine(path)
}

// uciLine returns the moves in UCI notation in two allocations: the
// slice, and one string of which every move is a part.
func uciLine(path []bb.Move) []string {
	var sb strings.Builder
	sb.Grow(5 * len(path))
	for _, m := range path {
		for _, sq := range [2]bb.Square{m.From(), m.To()} {
			sb.WriteByte(byte('a' + sq.File()))
			sb.WriteByte(byte('1' + sq.Rank()))
		}
		if pr := m.Promotion(); pr != bb.NoPieceType {
			sb.WriteString(pr.String())
		}
	}
	all := sb.String()
	out := make([]string, len(path))
	at := 0
	for i, m := range path {
		n := 4
		if m.Promotion() != bb.NoPieceType {
			n = 5
		}
		out[i] = all[at : at+n]
		at += n
	}
	return out
}

// helpmate runs iterative deepening until a mate is found, the tree is
// exhausted (every line ends in mate of the winner, stalemate or a
// position the material rules prove dead), or budget nodes are spent.
func (s *searcher) helpmate(budget int64) (Result, bool) {
	if budget <= 0 {
		return Result{}, false
	}
	s.limit = s.nodes + budget
	s.abort = false
	// A mate ends with the winner's move: without forced-move extensions
	// only depths of one parity can end in it, so the other is skipped.
	for depth := s.firstDepth(); depth < maxPly-1; depth += 2 {
		found, complete, n := s.find(0, depth, 0)
		if found {
			return Result{Verdict: Winnable, Line: s.line(n), Nodes: s.nodes, Reason: "helpmate found"}, true
		}
		if s.abort {
			return Result{}, false
		}
		if complete {
			return Result{Verdict: Unwinnable, Nodes: s.nodes, Reason: "every line ends without mate"}, true
		}
	}
	return Result{}, false
}

// find searches for a mate by the winner within depth plies. It returns
// whether one was found (and the line length in s.path), and whether the
// search was complete (no line was cut by depth or budget).
func (s *searcher) find(ply, depth, ext int) (found, complete bool, n int) {
	s.nodes++
	if s.nodes >= s.limit {
		s.abort = true
		return false, false, 0
	}
	p := &s.pos
	ml := &s.lists[ply]
	p.LegalMoves(ml)
	if ml.N == 0 {
		return p.Side() != s.winner && p.InCheck(), true, ply
	}
	if s.cannotMate() {
		return false, true, 0
	}
	if depth <= 0 || ply >= maxPly-1 {
		return false, false, 0
	}
	key := p.Hash()
	if d, c, ok := s.tt.probe(key); ok && (c || d >= depth) {
		return false, c, 0
	}
	// A forced move does not count against the depth (bounded by ext).
	if ml.N == 1 && ext < 16 {
		depth++
		ext++
	}
	winnerToMove := p.Side() == s.winner
	complete = true
	s.order(ply, winnerToMove)
	var ci bb.CheckInfo
	if winnerToMove && depth == 1 {
		p.SetCheckInfo(&ci)
	}
	for i := 0; i < ml.N; i++ {
		m := ml.Moves[i]
		if winnerToMove && depth == 1 && !p.GivesCheckWith(m, &ci) {
			// The last ply must give mate, so it must give check.
			complete = false
			continue
		}
		u := p.Make(m)
		s.path[ply] = m
		f, c, ln := s.find(ply+1, depth-1, ext)
		p.Unmake(m, u)
		if f {
			return true, true, ln
		}
		if s.abort {
			return false, false, 0
		}
		complete = complete && c
	}
	s.tt.store(key, depth, complete)
	return false, complete, 0
}

// order sorts the moves at ply by a helpmate heuristic: the winner's men
// head for the loser's king, promote (to queen or knight) and avoid
// needless captures; the loser's king heads for a corner, its men crowd
// around their own king (to block its flight squares) and do not capture.
func (s *searcher) order(ply int, winnerToMove bool) {
	p := &s.pos
	ml := &s.lists[ply]
	sc := &s.scores[ply]
	lk := p.KingSquare(s.winner.Other())
	for i := 0; i < ml.N; i++ {
		m := ml.Moves[i]
		from, to := m.From(), m.To()
		pc := p.PieceAt(from)
		var v int32
		capt := p.PieceAt(to) != bb.NoPiece
		if winnerToMove {
			v = 8 * int32(dist(from, lk)-dist(to, lk))
			switch m.Promotion() {
			case bb.Queen:
				v += 400
			case bb.Knight:
				v += 200
			case bb.Rook, bb.Bishop:
				v -= 50
			}
			if capt {
				v -= 30
			}
			if pc.Type() == bb.Pawn {
				v += 10
			}
			if pc.Type() == bb.King {
				v -= 5
			}
		} else {
			if pc.Type() == bb.King {
				v = 8 * int32(s.cornerDist(from)-s.cornerDist(to))
			} else {
				v = 6 * int32(dist(from, lk)-dist(to, lk))
			}
			if capt {
				v -= 100
			}
			if m.Promotion() != bb.NoPieceType {
				v += 20
			}
		}
		sc[i] = v
	}
	// Insertion sort, stable, descending.
	for i := 1; i < ml.N; i++ {
		m, v := ml.Moves[i], sc[i]
		j := i - 1
		for ; j >= 0 && sc[j] < v; j-- {
			ml.Moves[j+1], sc[j+1] = ml.Moves[j], sc[j]
		}
		ml.Moves[j+1], sc[j+1] = m, v
	}
}

// cannotMate reports whether the material rules prove that the winner
// can never mate in s.pos (insufficient), checking first, cheaply, that
// the winner has none of the men (pawn, rook, queen) that rule them out.
func (s *searcher) cannotMate() bool {
	p, w := &s.pos, s.winner
	if p.Pieces(w, bb.Pawn)|p.Pieces(w, bb.Rook)|p.Pieces(w, bb.Queen) != 0 {
		return false
	}
	return insufficient(p, w) != ""
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// dist is the king-step (Chebyshev) distance between two squares.
func dist(a, b bb.Square) int { return int(distTable[a][b]) }

var distTable = func() (t [64][64]uint8) {
	for a := bb.Square(0); a < 64; a++ {
		for b := bb.Square(0); b < 64; b++ {
			t[a][b] = uint8(max(abs(a.File()-b.File()), abs(a.Rank()-b.Rank())))
		}
	}
	return t
}()

func (s *searcher) setCorners() {
	p := &s.pos
	w := s.winner
	s.corners = [4]bb.Square{0, 7, 56, 63}
	s.nCorner = 4
	s.cornerD = &cornerTables[0]
	if p.Pieces(w, bb.Rook)|p.Pieces(w, bb.Queen) != 0 {
		return
	}
	// The squares the other king can be mated on, where only bishops of
	// one colour can check it: without pawns, the bishops' colour (a
	// knight beside them mates in their corner too); with pawns that
	// stay blocked and no knight, the squares checkColours gives.
	var mating uint64
	switch b := p.Pieces(w, bb.Bishop); {
	case p.Pieces(w, bb.Pawn) != 0:
		if b != 0 && p.Pieces(w, bb.Knight) == 0 {
			if c := checkColours(p, w); c != ^uint64(0) && blockedForGood(p, w) {
				mating = c
			}
		}
	case b != 0 && b&^lightSquares == 0:
		mating = lightSquares
	case b != 0 && b&^darkSquares == 0:
		mating = darkSquares
	}
	const light, dark = 1<<7 | 1<<56, 1<<0 | 1<<63 // h1, a8; a1, h8
	switch mating & (light | dark) {
	case light:
		s.corners, s.nCorner = [4]bb.Square{7, 56}, 2
		s.cornerD = &cornerTables[1]
	case dark:
		s.corners, s.nCorner = [4]bb.Square{0, 63}, 2
		s.cornerD = &cornerTables[2]
	}
}

// blockedForGood reports, as far as a cheap look tells, whether the
// pawns blocking w's pawns stay there: w's king cannot come next to any
// of them that no pawn of the other side guards, walking on squares free
// of pawns and of the other side's pawns' attacks (a king that takes the
// blocker frees the pawn, which may promote). It only steers the search,
// it proves nothing.
func blockedForGood(p *bb.Position, w bb.Color) bool {
	pawns := p.Pieces(bb.White, bb.Pawn) | p.Pieces(bb.Black, bb.Pawn)
	mine := p.Pieces(w, bb.Pawn)
	blockers := mine << 8
	if w == bb.Black {
		blockers = mine >> 8
	}
	blockers &= p.Pieces(w.Other(), bb.Pawn)
	guarded := bb.PawnsAttack(w.Other(), p.Pieces(w.Other(), bb.Pawn))
	region := flood(1<<uint(p.KingSquare(w)), pawns|guarded, kingSteps)
	return kingSteps(region)&blockers&^guarded == 0
}

// cornerTables hold the king-step distance from each square to the
// nearest of the corners setCorners may choose: all four, h1 and a8, a1
// and h8.
var cornerTables = func() (t [3][64]int8) {
	sets := [3][]bb.Square{{0, 7, 56, 63}, {7, 56}, {0, 63}}
	for i, set := range sets {
		for sq := range t[i] {
			d := 8
			for _, c := range set {
				d = min(d, dist(bb.Square(sq), c))
			}
			t[i][sq] = int8(d)
		}
	}
	return t
}()

// cornerDist is the king-step distance to the nearest target corner.
func (s *searcher) cornerDist(sq bb.Square) int { return int(s.cornerD[sq]) }

// cornerDistSlow is cornerDist computed from the corners (TestCornerTables).
func (s *searcher) cornerDistSlow(sq bb.Square) int {
	d := 8
	for _, c := range s.corners[:s.nCorner] {
		d = min(d, dist(sq, c))
	}
	return d
}

// firstDepth is the smallest depth at which the full-width search can find
// a mate: 1 when the winner is to move, 2 otherwise.
func (s *searcher) firstDepth() int {
	if s.pos.Side() == s.winner {
		return 1
	}
	return 2
}
