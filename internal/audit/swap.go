package audit

import "time"

// A clock set the wrong way round.
//
// A broadcast gives each move the mover's clock as the board's software
// understands the clock's sides. Where the clock stands the other way round
// from that setting, each move gets the opponent's display instead, which
// just after the press shows what the opponent had left after their own
// last move: White's reading after move k is Black's clock after Black's
// move k-1, and Black's after move k is White's after White's move k. Read
// so, a player's clock keeps the opponent's time: a flag of Black's would
// be charged to White a move later. Each side's readings then move with
// the other side's %emt, not its own, and that is how it shows.

// unswap returns the game's moves with each reading put back on the side
// whose clock it is, where the game's %emt show its readings swapped: taken
// as published, they agree with the moves' %emt on under half the moves;
// taken as the opponent's, on three in four, over at least minSwapMoves.
func unswap(s [2][]sideMove) ([2][]sideMove, bool) {
	// Taken as published first: most games end here.
	plain, nPlain := 0, 0
	for _, ms := range s {
		res := emtResiduals(ms, func(b sideMove) time.Duration { return b.emt })
		plain += emtAgreeing(res)
		nPlain += len(res)
	}
	if nPlain < minSwapMoves || 2*plain >= nPlain {
		return s, false
	}
	n := len(s[0]) + len(s[1])
	emtAt := make([]time.Duration, n+1) // a ply's %emt
	clkAt := make([]time.Duration, n+1) // a ply's reading
	for i := range emtAt {
		emtAt[i], clkAt[i] = Unknown, Unknown
	}
	for _, ms := range s {
		for _, m := range ms {
			emtAt[m.ply], clkAt[m.ply] = m.emt, m.clk
		}
	}
	// Taken as the opponent's clock, the step into b is the opponent's
	// move just before b.
	swapped, nSwapped := 0, 0
	for _, ms := range s {
		res := emtResiduals(ms, func(b sideMove) time.Duration { return emtAt[b.ply-1] })
		swapped += emtAgreeing(res)
		nSwapped += len(res)
	}
	if nSwapped < minSwapMoves || 4*swapped < 3*nSwapped {
		return s, false
	}
	// Each move's own clock is the reading the opponent's next move got.
	var out [2][]sideMove
	for side, ms := range s {
		out[side] = make([]sideMove, len(ms))
		for i, m := range ms {
			m.clk = clkAt[m.ply+1]
			out[side][i] = m
		}
	}
	return out, true
}

// minSwapMoves is how many moves with a reading and a %emt the two sides
// need between them for their readings to be judged swapped.
const minSwapMoves = 20
