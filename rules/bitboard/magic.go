package bitboard

import "math/bits"

// Sliding attacks by "fancy" magic bitboards (a bishop's; a rook's are
// computed by RookAttacks, the rook's table being kept as a reference). For a slider on square s only
// the occupancy of its relevant squares matters: the squares on its rays,
// without the last square of each ray (a piece there cannot hide anything
// behind it). Multiplying that masked occupancy by a per-square magic
// number and keeping the top bits gives a dense index into the square's
// block of a shared attack table. The magic numbers were found by a
// search with a fixed-seed generator (magicSeeds); package initialisation
// checks the known ones (knownMagics) and fills the tables, searching
// only for a square whose known magic fails, so the tables are the same on
// every run and machine.

// magicSquare is the lookup data of one slider on one square.
type magicSquare struct {
	mask    uint64   // relevant occupancy squares
	magic   uint64   // multiplier mapping mask subsets to distinct indices
	attacks []uint64 // this square's block of the shared attack table
	shift   uint8    // 64 minus the number of index bits
}

func (m *magicSquare) index(occ uint64) uint64 {
	return ((occ & m.mask) * m.magic) >> m.shift
}

// Table sizes: the sum over squares of 2^popcount(mask).
const (
	rookTableSize   = 102400
	bishopTableSize = 5248
)

// The magic tables are filled once, after tbl (their reference attacks
// come from its rays), and never written afterwards.
var rookMagics, bishopMagics = newMagics()

var (
	rookDirs   = [4]int{dirN, dirE, dirS, dirW}
	bishopDirs = [4]int{dirNE, dirNW, dirSW, dirSE}
)

// magicSeeds seed the candidate generator afresh at the start of every
// rank, for rooks (0) and bishops (1). Any seeds give correct tables, only
// the time to find them differs; these are, for each rank, the seed among
// 1..4000 that reaches the rank's eight magics with the least work, as
// found by TestTuneMagicSeeds (ARBITERD_MAGIC_TUNE=4). They keep the
// search near 15 ms, against about 90 ms for arbitrary seeds. Retune them
// after any change to the generator, the candidate filter or the order in
// which subsets are checked, and update knownMagics.
var magicSeeds = [2][8]uint64{
	{2948, 1385, 1865, 2310, 2609, 2558, 3282, 114},
	{2197, 361, 114, 2796, 711, 2176, 99, 2997},
}

func newMagics() (rook, bishop [64]magicSquare) {
	var ms magicSearch
	ms.build(&rook, rookTableSize, rookDirs, &magicSeeds[0], &knownMagics[0])
	ms.build(&bishop, bishopTableSize, bishopDirs, &magicSeeds[1], &knownMagics[1])
	return rook, bishop
}

// knownMagics are the magics the search finds with magicSeeds, for rooks
// (0) and bishops (1), as TestKnownMagics checks. build tries each first
// and searches only when it fails, so that package initialisation is a
// few milliseconds, not the search's 15 (every process of the CLI pays
// it). Update them with the seeds.
var knownMagics = [2][64]uint64{
	{
		0x288000400010802a, 0x00c0300020004000, 0x0900200008410010, 0x4080080010000680,
		0x0100020500080010, 0x0100020400080100, 0x0080008001000200, 0x01800026c4800100,
		0x0800800040008022, 0x1400808020004000, 0x0a02801000802000, 0x0642002008104200,
		0x0241800c00080180, 0x1041000804010002, 0x0001010401000200, 0x0020800051000080,
		0x0040008000902040, 0x1240008040802001, 0x8020004040100800, 0x8000090010010020,
		0x100c010100100800, 0x0144008002000480, 0x002644001008734a, 0x14000a0008409104,
		0x0120248380024000, 0x0400200440100440, 0x0030080020040021, 0x2010000808010080,
		0x5518008080040008, 0x0002002200083104, 0x0600020080800100, 0x0022204200009904,
		0x0000400022800281, 0x0018401000402000, 0x0280401101002000, 0x2000402202000810,
		0x1008800400800802, 0x0250020080800400, 0x0505000401000200, 0x2800206086000104,
		0xb300800040018021, 0x0440028020018040, 0x7502001040820020, 0xe010080010008080,
		0x0401000800850010, 0x0090020004008080, 0x0080410208840010, 0x0000008849020004,
		0x0806902100420200, 0x0040102080410100, 0x8c00801000a00680, 0x5020800800100080,
		0x1402002084100a00, 0x8244000480020080, 0x0a00800200010080, 0x0008240a80451200,
		0x00015a0020410282, 0x4000281040008101, 0x0000400880102202, 0x00011000a0880501,
		0x0282001008042002, 0x5a0a0001a8045002, 0x2840021001008804, 0x00400880204c0902,
	},
	{
		0x8008080144140010, 0x02a01c1400584800, 0x0010440080208004, 0x40022a0200001000,
		0x0c840b0804802020, 0x0005130840000200, 0x0002061520080008, 0x0004240200842008,
		0x402120c841014402, 0x03020484008a0212, 0x1000100400902208, 0x100904404085600c,
		0x8006108820004020, 0x4010209010081005, 0x408a005818082890, 0x0084108245101022,
		0x4062400454100200, 0x0810010822008c00, 0x0048000400440808, 0x0008104404109010,
		0x0014001210140010, 0x0a16000301008202, 0x1054801c02180206, 0x402100044400c420,
		0x0804204810200104, 0x0010100004241080, 0x2448022004040510, 0x0801040004c40080,
		0x5001004004004042, 0x2019010402004100, 0x01048f0042082220, 0x000085010024021d,
		0x010242a000404802, 0x001208040020010c, 0x8240104810100080, 0x2010a08020080200,
		0x0440010100101040, 0x8085100300418049, 0x00102121010a0080, 0x40808b0200034204,
		0x0042082008c60500, 0x000411082220682c, 0x0020082804000800, 0x0002ab4012001040,
		0x2020015020800400, 0x8082020c4900c201, 0x0808080100402424, 0x0a8800a400402080,
		0x0000444220700001, 0x0048404410085001, 0x1054204208040001, 0x0200000042020000,
		0x0000042020410900, 0x0020420821010001, 0x4041103401004064, 0x0010010810a08000,
		0x0201041042080400, 0x202020560090080b, 0x0402480104010482, 0x40c0420000840421,
		0x1008c40410821203, 0x10002810c2080840, 0x000020245000a100, 0x8420040108010010,
	},
}

// magicRNG is splitmix64, enough to draw candidate multipliers. Its
// state advances by a constant, so the three draws of a candidate do not
// wait on one another.
type magicRNG struct{ state uint64 }

func (r *magicRNG) next() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// sparse draws a candidate with few bits set, which makes good magics
// far more likely than uniform draws.
func (r *magicRNG) sparse() uint64 { return r.next() & r.next() & r.next() }

// magicSearch holds the scratch buffers of the search, reused for every
// square: the subsets of the mask, their reference attacks, and the
// entries written by the current candidate, stamped with the attempt
// number so that nothing is cleared between attempts.
type magicSearch struct {
	occ   [4096]uint64
	ref   [4096]uint64
	used  [4096]magicSlot
	epoch uint64
}

// magicSlot is one entry written by a candidate: the attacks stored there
// and the attempt that stored them.
type magicSlot struct {
	attacks, epoch uint64
}

// build finds a magic for every square for the slider moving along the
// four directions dirs into out, laying the squares' blocks one after
// the other in one table of the given size.
func (ms *magicSearch) build(out *[64]magicSquare, size int, dirs [4]int, seeds *[8]uint64, known *[64]uint64) {
	table := make([]uint64, size)
	offset := 0
	var rng magicRNG
	for sq := Square(0); sq < 64; sq++ {
		if sq%8 == 0 {
			rng.state = seeds[sq/8]
		}
		m := &out[sq]
		n := ms.prepare(m, sq, dirs)
		if known == nil || known[sq] == 0 {
			ms.search(m, &rng, n, -1)
		} else if ok, _ := ms.try(m, known[sq], n); ok {
			m.magic = known[sq]
		} else {
			ms.search(m, &rng, n, -1) // not a magic for this mask: search
		}
		m.attacks = table[offset : offset+n : offset+n]
		offset += n
		for i := 0; i < n; i++ {
			m.attacks[m.index(ms.occ[i])] = ms.ref[i]
		}
	}
	if offset != size {
		panic("bitboard: magic table size mismatch")
	}
}

// prepare sets the mask and shift of m for a slider on sq and lists the
// n subsets of the mask with their attacks, returning n. The subsets come
// in order of increasing size: small occupancies have the most distinct
// attack sets, so a failing candidate is found out after few of them.
func (ms *magicSearch) prepare(m *magicSquare, sq Square, dirs [4]int) int {
	m.mask = 0
	for _, d := range dirs {
		m.mask |= relevantRay(d, sq)
	}
	nbits := bits.OnesCount64(m.mask)
	n := 1 << nbits
	m.shift = uint8(64 - nbits)
	// Counting sort by population count over the Carry-Rippler
	// enumeration of the subsets.
	var start [14]int
	sub := uint64(0)
	for i := 0; i < n; i++ {
		start[bits.OnesCount64(sub)+1]++
		sub = (sub - m.mask) & m.mask
	}
	for k := 1; k < len(start); k++ {
		start[k] += start[k-1]
	}
	for i := 0; i < n; i++ {
		k := bits.OnesCount64(sub)
		ms.occ[start[k]] = sub
		ms.ref[start[k]] = slideAttacks(sq, sub, dirs)
		start[k]++
		sub = (sub - m.mask) & m.mask
	}
	return n
}

// search draws candidates until one is a magic for m's n subsets and
// stores it in m. It returns the work done (candidates drawn plus subsets
// checked); with limit >= 0 it gives up, leaving m.magic unset, once the
// work exceeds limit.
func (ms *magicSearch) search(m *magicSquare, rng *magicRNG, n int, limit int) int {
	work := 0
	for limit < 0 || work <= limit {
		magic := rng.sparse()
		work++
		// A good magic spreads the mask over the top byte.
		if bits.OnesCount64((m.mask*magic)>>56) < 6 {
			continue
		}
		ok, checked := ms.try(m, magic, n)
		work += checked
		if ok {
			m.magic = magic
			return work
		}
	}
	return work
}

// try reports whether magic maps the n subsets so that two subsets share
// an index only when their attacks agree, and how many subsets it
// checked: it stops at the first clash.
func (ms *magicSearch) try(m *magicSquare, magic uint64, n int) (bool, int) {
	ms.epoch++
	shift := m.shift & 63
	occ := ms.occ[:n]
	ref := ms.ref[:len(occ)]
	for i, o := range occ {
		// The index has at most 12 bits; the mask only spares the
		// bounds check.
		slot := &ms.used[(o*magic)>>shift&4095]
		if slot.epoch != ms.epoch {
			slot.epoch = ms.epoch
			slot.attacks = ref[i]
		} else if slot.attacks != ref[i] {
			return false, i + 1
		}
	}
	return true, n
}

// relevantRay is the ray from s in direction d without its last square
// (the board edge).
func relevantRay(d int, s Square) uint64 {
	r := tbl.rays[d][s]
	if r == 0 {
		return 0
	}
	var last int
	if d < 4 {
		last = 63 - bits.LeadingZeros64(r)
	} else {
		last = bits.TrailingZeros64(r)
	}
	return r &^ (1 << uint(last))
}

// slideAttacks is the reference computation of a slider's attacks: the
// union of the four rays dirs, each cut at its first blocker.
func slideAttacks(s Square, occ uint64, dirs [4]int) uint64 {
	var a uint64
	for _, d := range dirs {
		a |= rayAttack(d, s, occ)
	}
	return a
}

// BishopAttacks returns the squares a bishop on s attacks given the occupancy.
func BishopAttacks(s Square, occ uint64) uint64 {
	m := &bishopMagics[s]
	return m.attacks[m.index(occ)]
}

// RookAttacks returns the squares a rook on s attacks given the occupancy.
// It is computed, not looked up in the rook's magic table (800 KB, mostly
// out of the processor's nearest caches during a search): the file by
// subtraction on the occupancy and its byte-reversed image (the slider's
// bit borrows through the empty squares up to the first blocker), the
// rank from a 512-byte table indexed by the rank's inner occupancy.
// TestMagicAttacksEqualRayScan checks it, and the magic table, against
// the ray scan.
func RookAttacks(s Square, occ uint64) uint64 {
	mask := fileMask[s]
	b := uint64(1) << uint(s)
	up := occ & mask
	down := bits.ReverseBytes64(up)
	up -= b
	down -= bits.ReverseBytes64(b)
	file := (up ^ bits.ReverseBytes64(down)) & mask
	sh := uint(s) &^ 7
	return file | uint64(rankAttacks[s&7][occ>>sh>>1&63])<<sh
}

// rookAttacksMagic is the magic table's answer for a rook on s.
func rookAttacksMagic(s Square, occ uint64) uint64 {
	m := &rookMagics[s]
	return m.attacks[m.index(occ)]
}

// fileMask[s] is the file of s without s. rankAttacks[f][o] holds the
// squares of a rank that a rook on file f attacks when the bits of o are
// the occupancy of files b to g.
var fileMask, rankAttacks = func() (fm [64]uint64, ra [8][64]uint8) {
	for s := 0; s < 64; s++ {
		fm[s] = 0x0101010101010101 << uint(s&7) &^ (1 << uint(s))
	}
	for f := 0; f < 8; f++ {
		for o := 0; o < 64; o++ {
			occ := o << 1
			var a uint8
			for g := f + 1; g < 8; g++ {
				a |= 1 << uint(g)
				if occ&(1<<uint(g)) != 0 {
					break
				}
			}
			for g := f - 1; g >= 0; g-- {
				a |= 1 << uint(g)
				if occ&(1<<uint(g)) != 0 {
					break
				}
			}
			ra[f][o] = a
		}
	}
	return fm, ra
}()
