package rules

import "github.com/notnil/chess"

// Helpers the tests use to look at the record's positions.

// perft counts leaf nodes at depth d through the record's own conversions
// (genLegal and apply), for tests against known move counts.
func (p *position) perft(d int) int {
	if d == 0 {
		return 1
	}
	ms := p.genLegal(nil)
	if d == 1 {
		return len(ms)
	}
	n := 0
	for _, m := range ms {
		c := *p
		c.apply(m)
		n += c.perft(d - 1)
	}
	return n
}

// sq yields every square of p, a1 first, with its piece in notnil's
// encoding (chess.NoPiece when empty).
func (p *position) sq(yield func(int, chess.Piece) bool) {
	for i := 0; i < 64; i++ {
		if !yield(i, p.piece(i)) {
			return
		}
	}
}
