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
	var plain, swapped int // residuals that agree
	var nPlain, nSwapped int
	for _, ms := range s {
		var asRead, asOther []time.Duration
		for i := 2; i < len(ms)-1; i++ {
			a, b := ms[i-1], ms[i]
			if a.clk == Unknown || b.clk == Unknown || b.clk-a.clk > 5*time.Minute || b.clk <= tolRound || a.clk <= tolRound {
				continue
			}
			if b.emt != Unknown {
				asRead = append(asRead, (b.clk - a.clk + b.emt).Round(time.Second))
			}
			// As the opponent's clock, the step from a to b is the
			// opponent's move just before b.
			if e := emtAt[b.ply-1]; e != Unknown && b.ply-1 > a.ply {
				asOther = append(asOther, (b.clk - a.clk + e).Round(time.Second))
			}
		}
		plain += emtAgreeing(asRead)
		nPlain += len(asRead)
		swapped += emtAgreeing(asOther)
		nSwapped += len(asOther)
	}
	if nSwapped < minSwapMoves || 4*swapped < 3*nSwapped || 2*plain >= nPlain {
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
