package bitboard

import (
	"math/bits"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
)

// TestMagicMasks checks the relevance masks: a slider's rays without the
// edge square of each ray, and the table sizes they imply.
func TestMagicMasks(t *testing.T) {
	const edges = 0xff000000000000ff | 0x8181818181818181
	rookSize, bishopSize := 0, 0
	for s := Square(0); s < 64; s++ {
		f, r := int(s)&7, int(s)>>3
		var rook, bishop uint64
		for sq := Square(0); sq < 64; sq++ {
			ff, rr := int(sq)&7, int(sq)>>3
			if sq == s {
				continue
			}
			if (ff == f && rr != 0 && rr != 7) || (rr == r && ff != 0 && ff != 7) {
				rook |= 1 << sq
			}
			if (ff-f == rr-r || ff-f == r-rr) && uint64(1)<<sq&edges == 0 {
				bishop |= 1 << sq
			}
		}
		if got := rookMagics[s].mask; got != rook {
			t.Errorf("rook mask of square %d = %#x, want %#x", s, got, rook)
		}
		if got := bishopMagics[s].mask; got != bishop {
			t.Errorf("bishop mask of square %d = %#x, want %#x", s, got, bishop)
		}
		rookSize += 1 << bits.OnesCount64(rook)
		bishopSize += 1 << bits.OnesCount64(bishop)
	}
	if rookSize != rookTableSize || bishopSize != bishopTableSize {
		t.Errorf("table sizes %d, %d; want %d, %d", rookSize, bishopSize, rookTableSize, bishopTableSize)
	}
}

// TestMagicAttacksEqualRayScan compares the magic lookups with the ray
// scan for every subset of every relevance mask (with and without the
// squares outside the mask occupied) and for random full-board
// occupancies.
func TestMagicAttacksEqualRayScan(t *testing.T) {
	check := func(s Square, occ uint64) {
		t.Helper()
		if got, want := RookAttacks(s, occ), slideAttacks(s, occ, rookDirs); got != want {
			t.Fatalf("RookAttacks(%d, %#x) = %#x, want %#x", s, occ, got, want)
		}
		if got, want := rookAttacksMagic(s, occ), slideAttacks(s, occ, rookDirs); got != want {
			t.Fatalf("rookAttacksMagic(%d, %#x) = %#x, want %#x", s, occ, got, want)
		}
		if got, want := BishopAttacks(s, occ), slideAttacks(s, occ, bishopDirs); got != want {
			t.Fatalf("BishopAttacks(%d, %#x) = %#x, want %#x", s, occ, got, want)
		}
	}
	n := 0
	for s := Square(0); s < 64; s++ {
		for _, mask := range []uint64{rookMagics[s].mask, bishopMagics[s].mask} {
			sub := uint64(0)
			for {
				check(s, sub)
				check(s, sub|^mask) // the rest of the board full must not matter
				n++
				sub = (sub - mask) & mask
				if sub == 0 {
					break
				}
			}
		}
	}
	if n != rookTableSize+bishopTableSize {
		t.Fatalf("checked %d subsets, want %d", n, rookTableSize+bishopTableSize)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		// Sparse and dense boards alike.
		occ := rng.Uint64()
		switch i % 3 {
		case 1:
			occ &= rng.Uint64()
		case 2:
			occ &= rng.Uint64() & rng.Uint64()
		}
		for s := Square(0); s < 64; s++ {
			check(s, occ)
		}
	}
}

// TestSlideAttacksReference pins the reference ray scan and the magic
// lookups on hand-made positions, so the comparison above cannot pass
// with both sides wrong.
func TestSlideAttacksReference(t *testing.T) {
	sq := func(name string) Square { return Square(int(name[1]-'1')*8 + int(name[0]-'a')) }
	set := func(names ...string) uint64 {
		var b uint64
		for _, n := range names {
			b |= 1 << sq(n)
		}
		return b
	}
	cases := []struct {
		name   string
		rook   bool
		from   string
		occ    uint64
		attack uint64
	}{
		{"rook a1 empty", true, "a1", 0,
			set("a2", "a3", "a4", "a5", "a6", "a7", "a8", "b1", "c1", "d1", "e1", "f1", "g1", "h1")},
		{"rook d4 blocked", true, "d4", set("d4", "d6", "b4", "d2", "h4", "a1"),
			set("d5", "d6", "c4", "b4", "e4", "f4", "g4", "h4", "d3", "d2")},
		{"rook h8 hemmed in", true, "h8", set("h7", "g8", "a1"), set("h7", "g8")},
		{"bishop c1 start", false, "c1", set("b2", "d2"), set("b2", "d2")},
		{"bishop e5 blocked", false, "e5", set("g7", "c3", "f4", "d6"),
			set("f6", "g7", "d4", "c3", "f4", "d6")},
		{"bishop h8 empty", false, "h8", 0,
			set("g7", "f6", "e5", "d4", "c3", "b2", "a1")},
	}
	for _, c := range cases {
		s := sq(c.from)
		ref, magic := slideAttacks(s, c.occ, bishopDirs), BishopAttacks(s, c.occ)
		if c.rook {
			ref, magic = slideAttacks(s, c.occ, rookDirs), RookAttacks(s, c.occ)
		}
		if ref != c.attack {
			t.Errorf("%s: ray scan gives %#x, want %#x", c.name, ref, c.attack)
		}
		if magic != c.attack {
			t.Errorf("%s: magic lookup gives %#x, want %#x", c.name, magic, c.attack)
		}
	}
}

func BenchmarkMagicInit(b *testing.B) {
	for b.Loop() {
		newMagics()
	}
}

func BenchmarkSliderAttacks(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	var occs [256]uint64
	for i := range occs {
		occs[i] = rng.Uint64() & rng.Uint64()
	}
	for _, m := range []struct {
		name string
		rook func(Square, uint64) uint64
		bish func(Square, uint64) uint64
	}{
		{"magic", rookAttacksMagic, BishopAttacks},
		{"computed rook", RookAttacks, BishopAttacks},
		{"rayscan", func(s Square, occ uint64) uint64 { return slideAttacks(s, occ, rookDirs) },
			func(s Square, occ uint64) uint64 { return slideAttacks(s, occ, bishopDirs) }},
	} {
		b.Run(m.name, func(b *testing.B) {
			var sink uint64
			i := 0
			for b.Loop() {
				occ := occs[i&255]
				s := Square(i & 63)
				sink ^= m.rook(s, occ) ^ m.bish(s, occ)
				i++
			}
			_ = sink
		})
	}
}

// TestTuneMagicSeeds looks for the seeds of magicSeeds: for each slider
// and rank, the seed among the first ARBITERD_MAGIC_TUNE thousand whose
// candidates reach the magics of the rank's eight squares with the least
// work. It only prints; it runs when ARBITERD_MAGIC_TUNE is set.
func TestTuneMagicSeeds(t *testing.T) {
	k, err := strconv.Atoi(os.Getenv("ARBITERD_MAGIC_TUNE"))
	if err != nil || k <= 0 {
		t.Skip("set ARBITERD_MAGIC_TUNE=<thousands of seeds> to tune the magic seeds")
	}
	var ms magicSearch
	var best [2][8]uint64
	for p, dirs := range [2][4]int{rookDirs, bishopDirs} {
		for r := 0; r < 8; r++ {
			bestWork := -1
			for seed := uint64(1); seed <= uint64(k)*1000; seed++ {
				rng := magicRNG{state: seed}
				work := 0
				for f := 0; f < 8; f++ {
					var m magicSquare
					n := ms.prepare(&m, Square(8*r+f), dirs)
					limit := -1
					if bestWork >= 0 {
						limit = bestWork - work
					}
					work += ms.search(&m, &rng, n, limit)
					if bestWork >= 0 && work >= bestWork {
						break
					}
				}
				if bestWork < 0 || work < bestWork {
					bestWork, best[p][r] = work, seed
				}
			}
			t.Logf("slider %d rank %d: seed %d, work %d", p, r+1, best[p][r], bestWork)
		}
	}
	t.Logf("magicSeeds = %#v", best)
}

// TestKnownMagics checks that initialisation took every magic from
// knownMagics (none failed and was searched for) and that the search from
// magicSeeds finds exactly those magics, so that the two stay in step.
func TestKnownMagics(t *testing.T) {
	for s := 0; s < 64; s++ {
		if rookMagics[s].magic != knownMagics[0][s] || bishopMagics[s].magic != knownMagics[1][s] {
			t.Fatalf("square %d: magics %#x, %#x in use, known %#x, %#x", s,
				rookMagics[s].magic, bishopMagics[s].magic, knownMagics[0][s], knownMagics[1][s])
		}
	}
	var rook, bishop [64]magicSquare
	var ms magicSearch
	ms.build(&rook, rookTableSize, rookDirs, &magicSeeds[0], nil)
	ms.build(&bishop, bishopTableSize, bishopDirs, &magicSeeds[1], nil)
	for s := 0; s < 64; s++ {
		if rook[s].magic != knownMagics[0][s] || bishop[s].magic != knownMagics[1][s] {
			t.Errorf("square %d: the search finds %#x, %#x, known %#x, %#x", s,
				rook[s].magic, bishop[s].magic, knownMagics[0][s], knownMagics[1][s])
		}
	}
}

// TestRays checks the empty-board rays looked up against the attacks
// computed on an empty board, on every square.
func TestRays(t *testing.T) {
	for s := Square(0); s < 64; s++ {
		if got, want := BishopRays(s), BishopAttacks(s, 0); got != want {
			t.Errorf("BishopRays(%v) = %#x, want %#x", s, got, want)
		}
		if got, want := RookRays(s), RookAttacks(s, 0); got != want {
			t.Errorf("RookRays(%v) = %#x, want %#x", s, got, want)
		}
	}
}

// TestPawnsAttack checks the pawns' attacks by sets against the union of
// each pawn's looked up, for every single square, both colours, and
// random sets of squares.
func TestPawnsAttack(t *testing.T) {
	sets := []uint64{^uint64(0), 0x5a5a5a5a5a5a5a5a, 0x8100000000000081, 0x00ff00000000ff00}
	for s := 0; s < 64; s++ {
		sets = append(sets, 1<<uint(s))
	}
	for _, set := range sets {
		for c := White; c <= Black; c++ {
			var want uint64
			for b := set; b != 0; b &= b - 1 {
				want |= PawnAttacks(c, Square(bits.TrailingZeros64(b)))
			}
			if got := PawnsAttack(c, set); got != want {
				t.Errorf("PawnsAttack(%v, %#x) = %#x, want %#x", c, set, got, want)
			}
		}
	}
}
