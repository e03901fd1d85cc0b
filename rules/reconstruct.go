package rules

import "github.com/notnil/chess"

type Kind int

const (
	NoChange Kind = iota
	Forward
	Ambiguous
	TakeBack
	Correction
	ResultSignal
	Unexplained
	UnknownPieces
)

type Options struct {
	MaxPlies    int
	Retractable int
}

type Result struct {
	Kind       Kind
	From       int
	Moves      []*chess.Move
	Candidates [][]*chess.Move
	Signal     string
	Unknown    []chess.Square
}

func search(pos *chess.Position, s Snapshot, depth int, path []*chess.Move, out *[][]*chess.Move) {
	if depth == 0 {
		if SnapshotOf(pos).matches(s) {
			*out = append(*out, append([]*chess.Move(nil), path...))
		}
		return
	}
	for _, m := range pos.ValidMoves() {
		search(pos.Update(m), s, depth-1, append(path, m), out)
	}
}

// Reconstruct explains a snapshot by legal move sequences (provisional implementation).
func Reconstruct(g *Game, s Snapshot, opt Options) Result {
	if opt.MaxPlies <= 0 {
		opt.MaxPlies = 4
	}
	if s.Unknown != 0 {
		var r Result
		r.Kind = UnknownPieces
		for i := 0; i < 64; i++ {
			if s.Unknown&(1<<uint(i)) != 0 {
				r.Unknown = append(r.Unknown, chess.Square(i))
			}
		}
		return r
	}
	for d := 0; d <= opt.MaxPlies; d++ {
		var out [][]*chess.Move
		search(g.Position(), s, d, nil, &out)
		switch {
		case len(out) == 1 && d == 0:
			return Result{Kind: NoChange, From: g.Ply()}
		case len(out) == 1:
			return Result{Kind: Forward, From: g.Ply(), Moves: out[0]}
		case len(out) > 1:
			return Result{Kind: Ambiguous, From: g.Ply(), Candidates: out}
		}
	}
	for p := g.Ply() - 1; p >= 0; p-- {
		if SnapshotOf(g.PositionAt(p)).matches(s) {
			return Result{Kind: TakeBack, From: p}
		}
	}
	return Result{Kind: Unexplained, From: g.Ply()}
}
