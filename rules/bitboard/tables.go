package bitboard

import "math/bits"

// Directions for ray tables: the first four increase the square index
// (N, NE, NW, E), the last four decrease it (S, SW, SE, W).
const (
	dirN = iota
	dirNE
	dirNW
	dirE
	dirS
	dirSW
	dirSE
	dirW
)

var dirDelta = [8][2]int{{0, 1}, {1, 1}, {-1, 1}, {1, 0}, {0, -1}, {-1, -1}, {1, -1}, {-1, 0}}

// tables holds every precomputed attack set. It is filled once by
// newTables at package initialisation and never written afterwards.
type tables struct {
	knight  [64]uint64
	king    [64]uint64
	pawn    [2][64]uint64 // squares a pawn of colour c on s attacks
	rays    [8][64]uint64
	diag    [64]uint64     // a bishop's attacks on an empty board
	orth    [64]uint64     // a rook's attacks on an empty board
	between [64][64]uint64 // squares strictly between two aligned squares
	line    [64][64]uint64 // the whole line through two aligned squares
	zPiece  [12][64]uint64
	zCastle [16]uint64
	zEP     [8]uint64
	zSide   uint64
}

var tbl = newTables()

func onBoard(f, r int) bool { return f >= 0 && f < 8 && r >= 0 && r < 8 }

func newTables() *tables {
	t := new(tables)
	for s := 0; s < 64; s++ {
		f, r := s&7, s>>3
		for _, d := range [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
			if onBoard(f+d[0], r+d[1]) {
				t.knight[s] |= 1 << uint((r+d[1])*8+f+d[0])
			}
		}
		for df := -1; df <= 1; df++ {
			for dr := -1; dr <= 1; dr++ {
				if (df != 0 || dr != 0) && onBoard(f+df, r+dr) {
					t.king[s] |= 1 << uint((r+dr)*8+f+df)
				}
			}
		}
		for _, df := range []int{-1, 1} {
			if onBoard(f+df, r+1) {
				t.pawn[White][s] |= 1 << uint((r+1)*8+f+df)
			}
			if onBoard(f+df, r-1) {
				t.pawn[Black][s] |= 1 << uint((r-1)*8+f+df)
			}
		}
		for d := 0; d < 8; d++ {
			for ff, rr := f+dirDelta[d][0], r+dirDelta[d][1]; onBoard(ff, rr); ff, rr = ff+dirDelta[d][0], rr+dirDelta[d][1] {
				t.rays[d][s] |= 1 << uint(rr*8+ff)
			}
			if dirDelta[d][0] != 0 && dirDelta[d][1] != 0 {
				t.diag[s] |= t.rays[d][s]
			} else {
				t.orth[s] |= t.rays[d][s]
			}
		}
	}
	for a := 0; a < 64; a++ {
		for d := 0; d < 8; d++ {
			opp := (d + 4) % 8
			for b := 0; b < 64; b++ {
				if t.rays[d][a]&(1<<uint(b)) != 0 {
					t.between[a][b] = t.rays[d][a] & t.rays[opp][b]
					t.line[a][b] = t.rays[d][a] | t.rays[opp][a] | 1<<uint(a)
				}
			}
		}
	}
	// Zobrist keys from a fixed splitmix64 stream, so hashes are stable
	// across runs and machines.
	var x uint64 = 0x9e3779b97f4a7c15
	next := func() uint64 {
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		return z ^ z>>31
	}
	for p := range t.zPiece {
		for s := range t.zPiece[p] {
			t.zPiece[p][s] = next()
		}
	}
	for i := range t.zCastle {
		t.zCastle[i] = next()
	}
	for i := range t.zEP {
		t.zEP[i] = next()
	}
	t.zSide = next()
	return t
}

// rayAttack is the ray from s in direction d up to and including its
// first blocker in occ.
func rayAttack(d int, s Square, occ uint64) uint64 {
	a := tbl.rays[d][s]
	if b := a & occ; b != 0 {
		var first int
		if d < 4 {
			first = bits.TrailingZeros64(b)
		} else {
			first = 63 - bits.LeadingZeros64(b)
		}
		a ^= tbl.rays[d][first]
	}
	return a
}

// BishopRays returns the squares a bishop on s attacks on an empty board:
// BishopAttacks(s, 0), looked up.
func BishopRays(s Square) uint64 { return tbl.diag[s] }

// RookRays returns the squares a rook on s attacks on an empty board:
// RookAttacks(s, 0), looked up.
func RookRays(s Square) uint64 { return tbl.orth[s] }

// PawnsAttack returns the squares that pawns of colour c on the squares
// of set attack, all at once: the union of PawnAttacks over set.
func PawnsAttack(c Color, set uint64) uint64 {
	const fileA, fileH = 0x0101010101010101, 0x8080808080808080
	if c == White {
		return (set&^fileA)<<7 | (set&^fileH)<<9
	}
	return (set&^fileA)>>9 | (set&^fileH)>>7
}

// KnightAttacks returns the squares a knight on s attacks.
func KnightAttacks(s Square) uint64 { return tbl.knight[s] }

// KingAttacks returns the squares a king on s attacks.
func KingAttacks(s Square) uint64 { return tbl.king[s] }

// PawnAttacks returns the squares a pawn of colour c on s attacks.
func PawnAttacks(c Color, s Square) uint64 { return tbl.pawn[c][s] }

// Between returns the squares strictly between a and b when they share a
// rank, file or diagonal, else 0.
func Between(a, b Square) uint64 { return tbl.between[a][b] }

// Line returns the full line through a and b when aligned, else 0.
func Line(a, b Square) uint64 { return tbl.line[a][b] }
