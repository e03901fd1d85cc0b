package broadcastsim

import (
	"math/rand/v2"
	"sync"

	"github.com/notnil/chess"
)

// A pool of random legal games, made once per process from fixed seeds so
// that a round depends on its seed alone. Playing random moves is the
// slowest part of a round; a pool keeps thousands of rounds cheap.

const (
	poolSize  = 192
	poolPlies = 250
)

// line is one random game: its moves in SAN and how it ended.
type line struct {
	sans []string
	// outcome is the game's result when it ended by itself (mate,
	// stalemate, a dead position, fivefold, 75 moves): "1-0", "0-1",
	// "1/2-1/2"; "" when it was still going after poolPlies.
	outcome string
}

var pool struct {
	sync.Mutex
	lines map[int]*line
}

// poolLine returns the pool's game i.
func poolLine(i int) *line {
	pool.Lock()
	defer pool.Unlock()
	if pool.lines == nil {
		pool.lines = map[int]*line{}
	}
	if l, ok := pool.lines[i]; ok {
		return l
	}
	l := randomLine(uint64(i))
	pool.lines[i] = l
	return l
}

// randomLine plays random legal moves, preferring quiet ones (no capture,
// no check) nine times in ten so that both sides keep material for long,
// and pawn moves now and then so that the 75-move rule comes late.
func randomLine(seed uint64) *line {
	rng := rand.New(rand.NewPCG(seed, 0x6272))
	pos := chess.StartingPosition()
	l := &line{}
	seen := map[[16]byte]int{}
	for len(l.sans) < poolPlies {
		moves := pos.ValidMoves()
		if len(moves) == 0 {
			if pos.Status() == chess.Checkmate {
				l.outcome = "1-0"
				if pos.Turn() == chess.White {
					l.outcome = "0-1"
				}
			} else {
				l.outcome = "1/2-1/2"
			}
			break
		}
		// the automatic draws: fivefold repetition, 75 moves, and the bare
		// kings a random game can reach (other dead positions are left to
		// the audit; the games are random, not judged)
		seen[pos.Hash()]++
		if seen[pos.Hash()] >= 5 || pos.HalfMoveClock() >= 150 || bareKings(pos) {
			l.outcome = "1/2-1/2"
			break
		}
		var quiet, pawn []*chess.Move
		for _, m := range moves {
			if m.HasTag(chess.Capture) || m.HasTag(chess.Check) {
				continue
			}
			quiet = append(quiet, m)
			if pos.Board().Piece(m.S1()).Type() == chess.Pawn {
				pawn = append(pawn, m)
			}
		}
		switch r := rng.IntN(20); {
		case r < 3 && len(pawn) > 0:
			moves = pawn
		case r < 18 && len(quiet) > 0:
			moves = quiet
		}
		m := moves[rng.IntN(len(moves))]
		l.sans = append(l.sans, chess.AlgebraicNotation{}.Encode(pos, m))
		pos = pos.Update(m)
	}
	return l
}

// bareKings says whether only the kings are left.
func bareKings(pos *chess.Position) bool {
	for _, p := range pos.Board().SquareMap() {
		if p.Type() != chess.King {
			return false
		}
	}
	return true
}
