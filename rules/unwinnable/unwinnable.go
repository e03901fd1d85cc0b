package unwinnable

import (
	"fmt"
	"math/bits"

	"github.com/arbiterd/arbiterd/rules/bitboard"
)

// Verdict is the answer to "can this side still checkmate?".
type Verdict int

// The three verdicts.
const (
	// Winnable: a legal series of moves ends in mate by the side (Result.Line).
	Winnable Verdict = iota
	// Unwinnable: proven that no series of legal moves ends in mate by the side.
	Unwinnable
	// Undetermined: the node budget ran out before a proof either way.
	Undetermined
)

// String returns "winnable", "unwinnable" or "undetermined".
func (v Verdict) String() string {
	switch v {
	case Winnable:
		return "winnable"
	case Unwinnable:
		return "unwinnable"
	case Undetermined:
		return "undetermined"
	}
	return fmt.Sprintf("Verdict(%d)", int(v))
}

// Mode selects the default node budget.
type Mode int

// The two modes.
const (
	// Quick is bounded for the live daemon: it answers in tens of
	// microseconds on typical flag-fall positions, with the mate line as
	// found, and may say Undetermined.
	Quick Mode = iota
	// Full spends a large budget for an arbiter's ruling.
	Full
)

// String returns "quick" or "full".
func (m Mode) String() string {
	if m == Full {
		return "full"
	}
	return "quick"
}

// Default node budgets. QuickLineBudget is what the live daemon spends
// on shortening a quick mode's mate line for the arbiter to read.
const (
	QuickBudget     int64 = 4_000
	FullBudget      int64 = 4_000_000
	QuickLineBudget int64 = QuickBudget / 4
)

// Options tune an analysis.
type Options struct {
	Mode       Mode
	NodeBudget int64 // 0 = the mode's default (QuickBudget or FullBudget)
	// LineBudget is the node budget for shortening a mate line found,
	// beyond NodeBudget: 0 = the mode's default (none in quick mode; in
	// full mode up to 20,000 nodes, and 180,000 more for a line still
	// over 30 plies, each at most half NodeBudget), negative = none.
	LineBudget int64
	// Moves asks for the mate line as moves (Result.Moves), not as
	// strings (Result.Line stays nil), when the line is not shortened
	// (quick mode without a line budget, or a negative LineBudget): a
	// batch of queries that prints the lines allocates nothing for them.
	Moves bool
}

func (o Options) budget() int64 {
	if o.NodeBudget > 0 {
		return o.NodeBudget
	}
	if o.Mode == Full {
		return FullBudget
	}
	return QuickBudget
}

// Result is the outcome of an analysis.
type Result struct {
	Verdict Verdict
	// Line holds, when Winnable, UCI moves from the queried position that
	// end with the side's checkmating move.
	Line []string
	// Moves holds the same line as moves instead, when Options.Moves
	// applies (Line is then nil). It belongs to the Analyzer and is
	// valid until its next query.
	Moves []bitboard.Move
	Nodes int64 // positions visited
	// Reason says in words how the verdict was reached.
	Reason string
}

// CanMate reports whether side can still checkmate in the position given
// in FEN by any series of legal moves. The error, only for a malformed or
// impossible FEN, is a *bitboard.FENError naming the field at fault.
// For many queries, an Analyzer reuses its tables.
func CanMate(fen string, side bitboard.Color, opt Options) (Result, error) {
	pos, err := bitboard.ParseFEN(fen)
	if err != nil {
		return Result{}, err
	}
	return NewAnalyzer(opt).Analyze(&pos, side), nil
}

// Analyzer answers many queries with the same options, reusing its
// transposition table. It is not safe for concurrent use.
type Analyzer struct {
	opt Options
	s   searcher
}

// NewAnalyzer returns an Analyzer for the options.
func NewAnalyzer(opt Options) *Analyzer {
	a := &Analyzer{opt: opt}
	if first, _ := a.shortBudgets(); opt.Moves && first == 0 {
		a.s.movesOnly = true
	}
	a.s.byClass, a.s.plainRepairs = &quickWeights, quickRepairs
	if opt.Mode == Full {
		a.s.w, a.s.byClass, a.s.plainRepairs = fullWeights, nil, 0
	}
	// Tables sized to the budget, as a query never stores more positions
	// than it visits (2^12 entries of 16 bytes for the quick budget), but
	// kept small enough to stay mostly in the processor's caches: 2^18
	// entries at most for the full-width search's, 2^16 for the
	// discrepancy search's, whose entries only matter within one
	// allowance. Larger tables save a fraction of a percent of the nodes
	// and cost a fifth of full mode's time in cache misses
	// (docs/PERFORMANCE.md).
	bitsTT := min(max(bits.Len64(uint64(opt.budget())), 12), 18)
	a.s.tt = newTable(bitsTT)
	a.s.ldsT = newLDSTable(min(bitsTT, 16))
	return a
}

// Analyze answers for side in pos. pos is left unchanged.
func (a *Analyzer) Analyze(pos *bitboard.Position, side bitboard.Color) Result {
	if why := insufficient(pos, side); why != "" {
		return Result{Verdict: Unwinnable, Reason: why}
	}
	s := &a.s
	s.reset(pos, side)
	r := a.analyze()
	if s.movesOnly && r.Verdict == Winnable {
		r.Moves = s.moves
	}
	return r
}

// analyze is Analyze after the material rules, on the position set by
// reset (the searcher's own copy: the caller's never leaves the stack for
// the heap).
func (a *Analyzer) analyze() Result {
	s := &a.s
	// A lone knight or bishop mates only a king its own men box in: the
	// goal-directed search, which leads the loser's king to a target,
	// finds such mates where the plain heuristic rarely does, so in quick
	// mode it comes first (search).
	lone := loneMan(&s.pos, s.winner)
	goalFirst := a.opt.Mode == Quick && (lone == bitboard.Knight || lone == bitboard.Bishop)
	if a.verdictOnly() && !goalFirst {
		// Most flag-fall positions have a mate the heuristic search
		// finds in a few dozen nodes: look for it before the structure
		// proofs, which cost as much and almost never apply.
		if r, ok := s.lds(min(firstLook, a.opt.budget()/4), 0); ok {
			return r
		}
	}
	if r, ok := structureVerdictIn(&s.cf, &s.pos, s.winner); ok {
		r.Nodes = s.nodes
		return r
	}
	r := a.search(goalFirst)
	if first, more := a.shortBudgets(); r.Verdict == Winnable && first > 0 {
		r.Line = s.improveLine(r.Line, first)
		if len(r.Line) > longLine {
			r.Line = s.improveLine(r.Line, more)
		}
		r.Nodes = s.nodes
	}
	return r
}

// The heuristic search allows up to ldsMaxDisc discrepancies; the probe
// for the shortest mates has probeBudget nodes and probeDisc
// discrepancies; the goal-directed search tries goalTargets targets, with
// up to goalMaxDisc discrepancies.
const (
	ldsMaxDisc        = 8
	probeBudget int64 = 120
	probeDisc         = 4
	goalTargets       = 12
	goalMaxDisc       = 40
)

// verdictOnly reports whether the query wants the verdict as fast as
// possible, its mate line as found: quick mode with no line budget. The
// probe for the shortest mates is then skipped, and the structure proofs
// wait for a first look of firstLook nodes of the heuristic search.
func (a *Analyzer) verdictOnly() bool {
	return a.opt.Mode == Quick && a.opt.LineBudget <= 0
}

// firstLook is the budget of quick mode's first look, and of its plain
// line with full mode's weights; quickRepairs is how many dead ends quick
// mode's plain lines may mend (plainFind).
const (
	firstLook    int64 = 300
	quickRepairs       = 32
)

// Shortening budgets: a found mate line is shortened with a first budget
// and, when it is still longer than longLine plies, with a second, larger
// one; each is half the query's budget at most.
const (
	longLine       = 30
	fullShortFirst = 20_000
	fullShortMore  = 180_000
)

// search runs the phases of the analysis on the position set by reset;
// goalFirst puts the goal-directed search first.
func (a *Analyzer) search(goalFirst bool) Result {
	s := &a.s
	// Budget split: a probe for the shortest mates, the heuristic deep
	// helpmate search (which finds most mates in a few dozen nodes), short
	// full-width helpmates (which also prove dead positions whose every
	// line ends), the goal-directed search (half of quick mode's budget,
	// in small rounds), the exhaustive walk (in full mode all that is
	// left but a tenth of the budget), then whatever is left for the
	// goal-directed search (full mode) and full-width searches. The
	// shares are of what the probe, or quick mode's first looks, left.
	total := a.opt.budget()
	if !a.verdictOnly() {
		if r, ok := s.probeShort(min(probeBudget, total/4), probeDisc); ok {
			return r
		}
	}
	if a.opt.Mode == Quick && s.plainDone > 0 {
		// The first look found nothing: the plain line again, with full
		// mode's weights, on a first look's budget.
		if r, ok := s.ldsWith(&fullWeights, &s.plainDoneFull, min(firstLook, (total-s.nodes)/4), 0); ok {
			return r
		}
	}
	budget := total - s.nodes
	ldsShare, goalShare, walkShare := budget*35/100, budget/2, budget/10
	s.goalRound0 = quickGoalRound0
	if a.opt.Mode == Full {
		ldsShare, goalShare, walkShare = budget*15/100, budget/5, budget*45/100
		s.goalRound0 = fullGoalRound0
	}
	// With goalFirst (quick mode, a lone knight or bishop), the
	// goal-directed search takes its share first, on its targets alone:
	// the plain heuristic, which rarely mates with a lone minor piece,
	// would take the first allowance of every round.
	if goalFirst {
		if r, ok := s.goalLDS(goalShare, goalTargets, goalMaxDisc, false); ok {
			return r
		}
	}
	if a.opt.Mode == Quick {
		// Quick mode's weights follow the shorter lines on most
		// positions, full mode's find mates they miss (a lone minor
		// piece or pawn against men that must box their own king in):
		// the heuristic search spends half its share with each, the
		// second half only when the first did not search every
		// allowance to the end (a tree that small is left to the
		// searches after it, as before).
		half := ldsShare / 2
		if r, ok := s.lds(half, ldsMaxDisc); ok {
			return r
		}
		if s.plainDone <= ldsMaxDisc {
			if r, ok := s.ldsWith(&fullWeights, &s.plainDoneFull, ldsShare-half, ldsMaxDisc); ok {
				return r
			}
		}
	} else if r, ok := s.lds(ldsShare, ldsMaxDisc); ok {
		return r
	}
	if r, ok := s.helpmate(budget / 20); ok {
		return r
	}
	if !goalFirst {
		if r, ok := s.goalLDS(goalShare, goalTargets, goalMaxDisc, true); ok {
			return r
		}
	}
	if a.opt.Mode == Full {
		// The walk is what proves the hardest dead positions (locked
		// chains, bishops bound to one colour) and finds the mates the
		// searches before it missed: it takes what they left, but for a
		// tenth of the budget kept for the searches after it.
		walkShare = max(walkShare, total-s.nodes-budget/10)
	}
	if r, ok := s.exhaust(walkShare); ok {
		return r
	}
	// What is left: in full mode two thirds to the goal-directed search
	// (resumed); the rest to deeper full-width helpmates.
	if rest := total - s.nodes; rest > 0 && a.opt.Mode == Full {
		if r, ok := s.goalLDS(rest*2/3, goalTargets, goalMaxDisc, true); ok {
			return r
		}
	}
	if rest := total - s.nodes; rest > 0 {
		if r, ok := s.helpmate(rest); ok {
			return r
		}
	}
	return Result{Verdict: Undetermined, Nodes: s.nodes, Reason: "node budget exhausted"}
}

// structureVerdict applies the frozen-pawn and confinement proofs.
func structureVerdict(pos *bitboard.Position, side bitboard.Color) (Result, bool) {
	return structureVerdictIn(new(confinement), pos, side)
}

// structureVerdictIn is structureVerdict with cf as the confinement
// proof's scratch space.
func structureVerdictIn(cf *confinement, pos *bitboard.Position, side bitboard.Color) (Result, bool) {
	if frozenUnwinnable(pos, side) {
		return Result{Verdict: Unwinnable, Reason: "the pawns are frozen and no piece can ever check the king's squares"}, true
	}
	if confinedIn(cf, pos, side) {
		return Result{Verdict: Unwinnable, Reason: "men that can never move confine the others, and no mating net fits in what is left"}, true
	}
	return Result{}, false
}

// shortBudgets returns the two budgets for shortening a found mate line
// (see Options.LineBudget): a line still longer than longLine plies after
// the first gets the second.
func (a *Analyzer) shortBudgets() (first, more int64) {
	switch lb := a.opt.LineBudget; {
	case lb < 0:
		return 0, 0
	case lb > 0:
		first = min(lb, fullShortFirst)
		return first, lb - first
	case a.opt.Mode == Quick:
		return 0, 0
	}
	half := a.opt.budget() / 2
	return min(half, fullShortFirst), min(half, fullShortMore)
}
