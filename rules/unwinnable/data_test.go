package unwinnable

import (
	"bufio"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	bb "github.com/arbiterd/arbiterd/rules/bitboard"
)

// dataDir returns the shared unwinnability data directory (beside the
// repository root), skipping the test when it is absent.
func dataDir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("module root not found")
		}
		dir = parent
	}
	d := filepath.Join(dir, "..", "shared", "data", "unwinnability")
	if _, err := os.Stat(d); err != nil {
		t.Skipf("shared data absent: %v", err)
	}
	return d
}

// envCount returns the whole number in the environment variable name, or
// def when it is unset; a value that is not a number from least to most
// fails the test, naming the variable.
func envCount(t testing.TB, name string, def, least, most int) int {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	switch {
	case (err != nil || n < least) && most == math.MaxInt:
		t.Fatalf("%s=%q: want a whole number, %d or more", name, v, least)
	case err != nil || n < least || n > most:
		t.Fatalf("%s=%q: want a whole number from %d to %d", name, v, least, most)
	}
	return n
}

type labelled struct {
	line     int
	fen      string
	canMate  [2]bool // by colour
	labelTxt string
}

func readLabelled(t testing.TB, name string) []labelled {
	t.Helper()
	f, err := os.Open(filepath.Join(dataDir(t), name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []labelled
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		l := strings.TrimSpace(sc.Text())
		if l == "" || l[0] == '#' {
			continue
		}
		if len(l) < 4 || l[2] != ' ' {
			t.Fatalf("%s:%d: bad line %q", name, n, l)
		}
		out = append(out, labelled{line: n, fen: l[3:], canMate: [2]bool{l[0] == 'W', l[1] == 'B'}, labelTxt: l[:2]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// checkAgainstLabels runs both sides of every position and reports wrong
// answers (always a failure) and undetermined ones (counted).
func checkAgainstLabels(t *testing.T, set []labelled, opt Options) (agree, undetermined, wrong int) {
	a := NewAnalyzer(opt)
	for _, q := range set {
		pos, err := bb.ParseFEN(q.fen)
		if err != nil {
			t.Errorf("line %d: %v", q.line, err)
			continue
		}
		for _, side := range []bb.Color{bb.White, bb.Black} {
			r := a.Analyze(&pos, side)
			switch {
			case r.Verdict == Undetermined:
				undetermined++
				if opt.Mode == Full && opt.NodeBudget == 0 {
					t.Logf("line %d %s %s: undetermined for %s", q.line, q.labelTxt, q.fen, side)
				}
			case (r.Verdict == Winnable) == q.canMate[side]:
				agree++
				if r.Verdict == Winnable {
					assertMateLine(t, q.fen, side, r.Line)
				}
			default:
				wrong++
				t.Errorf("line %d %s %s: %s for %s (%s), label says otherwise", q.line, q.labelTxt, q.fen, r.Verdict, side, r.Reason)
			}
		}
	}
	return agree, undetermined, wrong
}
