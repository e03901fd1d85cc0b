package rules

import (
	"math/bits"

	"github.com/notnil/chess"
)

// Kind classifies what a snapshot shows relative to the game record.
type Kind int

const (
	NoChange      Kind = iota // the snapshot shows the current position
	Forward                   // exactly one legal sequence from the current position reaches it
	Ambiguous                 // several sequences of the shortest length reach it (Candidates)
	TakeBack                  // it is an earlier position of the record (From)
	Correction                // one sequence from an earlier, not yet completed ply reaches it
	ResultSignal              // both kings stand in the centre: a result, not moves (Signal)
	Unexplained               // nothing within the search limits explains it
	UnknownPieces             // the board reported codes it could not identify (Unknown)
)

var kindNames = [...]string{"no-change", "forward", "ambiguous", "take-back", "correction", "result-signal", "unexplained", "unknown-pieces"}

func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return "kind(?)"
	}
	return kindNames[k]
}

// Options bound the search.
type Options struct {
	// MaxPlies is the longest sequence searched; 0 means 4. Any value works;
	// the cost grows with it (from middlegame positions 5 and 6 plies take
	// about 0.1 ms, 1 ms on occupancy-only boards).
	MaxPlies int
	// Retractable is how many trailing plies of the record are not yet
	// completed and may be replaced by a Correction.
	Retractable int
	// MaxNodes bounds the positions the search makes; 0 means
	// DefaultMaxNodes. A board back from an absence can show a position
	// far from the record, and a deep search of every sequence that might
	// lead there can take minutes: past the bound the snapshot is
	// Unexplained, with Exhausted set.
	MaxNodes int
}

// DefaultMaxNodes is the search bound when Options.MaxNodes is 0: under a
// second here, and a hundred times what a search of eight plies back from
// an absence usually makes.
const DefaultMaxNodes = 1 << 20

// Result is the explanation of a snapshot.
type Result struct {
	Kind       Kind
	From       int             // ply the Moves start from: Ply() for Forward; earlier for TakeBack/Correction
	Moves      []*chess.Move   // Forward/Correction: the unique sequence from position From
	Candidates [][]*chess.Move // Ambiguous: every shortest sequence that explains the snapshot, all from From
	Signal     string          // ResultSignal: "1-0", "0-1" or "1/2-1/2"
	Unknown    []chess.Square  // UnknownPieces: the squares holding unidentified codes
	Exhausted  bool            // Unexplained: the search stopped at Options.MaxNodes
	// Least (Unexplained): no forward sequence of fewer plies reaches s
	// from the record's position — those were all searched. MaxPlies+1
	// when the search was complete; less when the node budget stopped it.
	Least int
}

// Reconstruct explains snapshot s (already in White-at-the-bottom frame) from
// the record g:
//
//  1. both kings in the centre: ResultSignal (never moves);
//  2. unidentified codes: UnknownPieces;
//  3. the current position: NoChange;
//  4. otherwise the explanation that changes the fewest plies of the record.
//     A forward sequence of d plies costs d; a take-back to ply j costs
//     Ply()-j; a correction that replaces the last k (≤ Retractable) plies by
//     a different sequence of L plies costs k+L. Costs are tried from 1
//     upwards and, at equal cost, Forward before TakeBack before Correction
//     (smaller k first). Several sequences at the cost found give Ambiguous
//     (with From telling forward from correction);
//  5. nothing within MaxPlies (and Retractable): Unexplained; also when
//     the search visited MaxNodes positions first (Exhausted).
//
// The cost order is what makes a slid piece (Bc4 recorded, then slid on to
// b5) a one-ply Correction rather than a three-ply forward sequence in which
// the opponent moves a knight out and back, and a piece put back a
// TakeBack. Likewise only the shortest forward sequences are listed: a rook
// going a1-a2-a3 instead of a1-a3, while the other side does the same, looks
// identical on the board.
//
// Candidates come in a fixed order, so that a caller that has to pick one
// picks the same one every time: by the first move where two sequences differ,
// moves ordered by origin square, one piece's moves by destination, except
// that a king's castlings follow its steps (kingside first) and a pawn's
// single push, double push, captures and en-passant capture come in that
// order, each promotion as queen, rook, bishop, knight.
//
// Positions are compared by piece placement only (a board cannot show the
// side to move); an occupancy-only snapshot compares occupied squares, so
// promotions to different pieces are all listed as candidates.
func Reconstruct(g *Game, s Snapshot, opt Options) Result {
	if opt.MaxPlies <= 0 {
		opt.MaxPlies = 4
	}
	opt.Retractable = max(0, opt.Retractable)
	if sig, ok := resultSignal(s); ok {
		return Result{Kind: ResultSignal, From: g.Ply(), Signal: sig}
	}
	if unk := unknownSquares(s); len(unk) > 0 {
		return Result{Kind: UnknownPieces, From: g.Ply(), Unknown: unk}
	}
	t := targetOf(s)
	n := g.Ply()
	if t.matches(&g.positions[n]) {
		return Result{Kind: NoChange, From: n}
	}
	retract := min(opt.Retractable, n)
	budget := opt.MaxNodes
	if budget <= 0 {
		budget = DefaultMaxNodes
	}
	for c := 1; c <= max(opt.MaxPlies, n, retract+opt.MaxPlies); c++ {
		if c <= opt.MaxPlies {
			seqs, complete := g.searchWithin(n, &t, c, nil, &budget)
			if !complete {
				return Result{Kind: Unexplained, From: n, Exhausted: true, Least: c}
			}
			if len(seqs) > 0 {
				return g.result(Forward, n, seqs)
			}
		}
		if c <= n && t.matches(&g.positions[n-c]) {
			return Result{Kind: TakeBack, From: n - c}
		}
		for k := 1; k <= retract && k < c; k++ {
			if c-k > opt.MaxPlies {
				continue
			}
			seqs, complete := g.searchWithin(n-k, &t, c-k, g.moves[n-k:n], &budget)
			if !complete {
				return Result{Kind: Unexplained, From: n, Exhausted: true, Least: c}
			}
			if len(seqs) > 0 {
				return g.result(Correction, n-k, seqs)
			}
		}
	}
	return Result{Kind: Unexplained, From: n, Least: opt.MaxPlies + 1}
}

func (g *Game) result(kind Kind, from int, seqs [][]move) Result {
	conv := func(seq []move) []*chess.Move {
		out := make([]*chess.Move, len(seq))
		for i, m := range seq {
			out[i] = toChessMove(m)
		}
		return out
	}
	if len(seqs) == 1 {
		return Result{Kind: kind, From: from, Moves: conv(seqs[0])}
	}
	r := Result{Kind: Ambiguous, From: from, Candidates: make([][]*chess.Move, len(seqs))}
	for i, s := range seqs {
		r.Candidates[i] = conv(s)
	}
	return r
}

// resultSignal recognises the DGT convention of both kings placed on the
// centre squares: on the dark squares (d4, e5) Black won, on the light squares
// (d5, e4) White won, one on each colour a draw. The four centre squares are
// mutually adjacent, so two kings there never occur in play.
func resultSignal(s Snapshot) (string, bool) {
	if s.OccupancyOnly {
		return "", false
	}
	wk, bk := -1, -1
	for i, pc := range s.Squares {
		switch pc {
		case chess.WhiteKing:
			if wk >= 0 {
				return "", false
			}
			wk = i
		case chess.BlackKing:
			if bk >= 0 {
				return "", false
			}
			bk = i
		}
	}
	const centre = 1<<chess.D4 | 1<<chess.E4 | 1<<chess.D5 | 1<<chess.E5
	if wk < 0 || bk < 0 || centre&(uint64(1)<<uint(wk)) == 0 || centre&(uint64(1)<<uint(bk)) == 0 ||
		s.Unknown&(uint64(1)<<uint(wk)|uint64(1)<<uint(bk)) != 0 {
		return "", false
	}
	dark := bits.OnesCount64((uint64(1)<<uint(wk) | uint64(1)<<uint(bk)) & darkSquares)
	switch dark {
	case 2:
		return "0-1", true
	case 0:
		return "1-0", true
	}
	return "1/2-1/2", true
}

// unknownSquares lists the squares the board marked unknown, and (for a
// piece-reading board) squares holding a value that is not a chess piece.
func unknownSquares(s Snapshot) []chess.Square {
	var out []chess.Square
	for i, pc := range s.Squares {
		bad := s.Unknown&(uint64(1)<<uint(i)) != 0
		if !s.OccupancyOnly && (pc < chess.NoPiece || pc > chess.BlackPawn) {
			bad = true
		}
		if bad {
			out = append(out, chess.Square(i))
		}
	}
	return out
}
