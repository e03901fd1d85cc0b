package rules

import "math/bits"

// Attack tables for the internal move generator. They are computed once when
// the package is initialised and only read afterwards.

// Ray directions, as square-index steps on the A1=0 … H8=63 board.
const (
	dirN = iota
	dirE
	dirNE
	dirNW
	dirS
	dirW
	dirSW
	dirSE
)

type attackTables struct {
	knight [64]uint64
	king   [64]uint64
	pawn   [3][64]uint64 // by chess.Color: squares a pawn of that colour on sq attacks
	ray    [8][64]uint64 // squares from sq (exclusive) to the edge in each direction
}

var tables = buildTables()

func buildTables() *attackTables {
	t := &attackTables{}
	df := [8]int{0, 1, 1, -1, 0, -1, -1, 1}
	dr := [8]int{1, 0, 1, 1, -1, 0, -1, -1}
	on := func(f, r int) bool { return f >= 0 && f < 8 && r >= 0 && r < 8 }
	for sq := 0; sq < 64; sq++ {
		f, r := sq%8, sq/8
		for _, d := range [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
			if on(f+d[0], r+d[1]) {
				t.knight[sq] |= 1 << uint((r+d[1])*8+f+d[0])
			}
		}
		for d := 0; d < 8; d++ {
			if on(f+df[d], r+dr[d]) {
				t.king[sq] |= 1 << uint((r+dr[d])*8+f+df[d])
			}
			for i := 1; on(f+i*df[d], r+i*dr[d]); i++ {
				t.ray[d][sq] |= 1 << uint((r+i*dr[d])*8+f+i*df[d])
			}
		}
		for _, c := range [2]int{1, 2} { // White, Black
			dir := 1
			if c == 2 {
				dir = -1
			}
			for _, ff := range [2]int{f - 1, f + 1} {
				if on(ff, r+dir) {
					t.pawn[c][sq] |= 1 << uint((r+dir)*8+ff)
				}
			}
		}
	}
	return t
}

// slide returns the squares a slider on sq reaches along direction d, up to and
// including the first occupied square.
func slide(d, sq int, occ uint64) uint64 {
	ray := tables.ray[d][sq]
	blockers := ray & occ
	if blockers == 0 {
		return ray
	}
	var b int
	if d < 4 { // increasing square index
		b = bits.TrailingZeros64(blockers)
	} else {
		b = 63 - bits.LeadingZeros64(blockers)
	}
	return ray &^ tables.ray[d][b]
}

func rookAttacks(sq int, occ uint64) uint64 {
	return slide(dirN, sq, occ) | slide(dirE, sq, occ) | slide(dirS, sq, occ) | slide(dirW, sq, occ)
}

func bishopAttacks(sq int, occ uint64) uint64 {
	return slide(dirNE, sq, occ) | slide(dirNW, sq, occ) | slide(dirSW, sq, occ) | slide(dirSE, sq, occ)
}
