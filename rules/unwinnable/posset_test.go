package unwinnable

import (
	"math/rand/v2"
	"testing"
)

// TestPosSet holds the walk's set of positions against a map: keys
// drawn from a small range (so that many come again) and from the whole
// range, the key 0 among them, through several growths and a reset.
func TestPosSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var set posSet
	for round := 0; round < 3; round++ {
		want := map[uint64]bool{}
		for i := 0; i < 50000; i++ {
			var k uint64
			switch rng.IntN(4) {
			case 0:
				k = uint64(rng.IntN(3000)) // small keys: collide in the low bits, and 0
			case 1:
				k = uint64(rng.IntN(3000)) << 40 // equal low bits: long probe runs
			default:
				k = rng.Uint64()
			}
			added := set.add(k)
			if added == want[k] {
				t.Fatalf("round %d, key %#x: add says new %v, the map has it %v", round, k, added, want[k])
			}
			want[k] = true
			if set.n != len(want) {
				t.Fatalf("round %d: %d keys held, want %d", round, set.n, len(want))
			}
		}
		if !want[0] {
			t.Fatal("the key 0 was never drawn")
		}
		set.reset()
	}
}
