package unwinnable

import (
	"testing"
	"time"
)

func TestPositionsQuickProbe(t *testing.T) {
	set := readLabelled(t, "positions.txt")
	for _, mode := range []Mode{Quick, Full} {
		start := time.Now()
		agree, und, wrong := checkAgainstLabels(t, set, Options{Mode: mode})
		t.Logf("%s: %d agree, %d undetermined, %d wrong of %d queries in %v", mode, agree, und, wrong, 2*len(set), time.Since(start))
	}
}
