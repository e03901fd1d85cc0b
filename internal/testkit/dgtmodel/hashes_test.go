package dgtmodel_test

import (
	"bufio"
	"crypto/sha256"
	"fmt"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// TestModelHashes writes, with ARBITERD_MODEL_HASHES=FILE, one line per
// scenario: its seed, the SHA-256 of arbiterd's event stream for it and the
// number of problems the model found. Two revisions of arbiterd that give
// the same file reconcile these scenarios byte for byte alike. The first
// line says how many games the pgn dimension draws from: without the
// shared data every scenario plays a random game, and the file is not
// comparable with one written beside it.
//
//	ARBITERD_MODEL_HASHES=/tmp/a.txt ARBITERD_MODEL_SCENARIOS=10000 go test -count=1 -run TestModelHashes ./internal/testkit/dgtmodel/
func TestModelHashes(t *testing.T) {
	out := os.Getenv("ARBITERD_MODEL_HASHES")
	if out == "" {
		t.Skip("ARBITERD_MODEL_HASHES is not set")
	}
	s, err := loadSettings()
	if err != nil {
		t.Fatal(err)
	}
	pgnAbsence(t)
	n := envInt(t, "ARBITERD_MODEL_SCENARIOS", defaultScenarios)
	base := envInt(t, "ARBITERD_MODEL_BASE", 1)
	lines := make([]string, n)
	var next atomic.Uint64
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= n {
					return
				}
				o := runScenario(base+i, s)
				h := sha256.New()
				for _, e := range o.events {
					h.Write(reconcile.Marshal(e))
					h.Write([]byte{'\n'})
				}
				lines[i] = fmt.Sprintf("%d %x %d", base+i, h.Sum(nil), len(o.problems))
			}
		}()
	}
	wg.Wait()
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintf(w, "all=%v pgn-games=%d\n", s.all, len(pgnGames.games))
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
