package unwinnable

// table is a transposition table for the helpmate search. An entry says
// that no mate by the winner exists within depth plies of the position
// (and, when complete, within any number of plies). Entries of an earlier
// query are ignored by their stamp, so the table is never cleared.
type table struct {
	e     []ttEntry
	mask  uint64
	stamp uint32
}

type ttEntry struct {
	key      uint64
	stamp    uint32
	depth    int16
	complete bool
}

func newTable(bits int) table {
	n := 1 << bits
	return table{e: make([]ttEntry, n), mask: uint64(n - 1)}
}

func (t *table) newQuery() { t.stamp++ }

func (t *table) probe(key uint64) (depth int, complete, ok bool) {
	e := &t.e[key&t.mask]
	if e.key != key || e.stamp != t.stamp {
		return 0, false, false
	}
	return int(e.depth), e.complete, true
}

func (t *table) store(key uint64, depth int, complete bool) {
	e := &t.e[key&t.mask]
	if e.stamp == t.stamp && e.key != key && e.depth > int16(depth) && !complete {
		return // keep the deeper result of another position
	}
	*e = ttEntry{key: key, stamp: t.stamp, depth: int16(depth), complete: complete}
}
