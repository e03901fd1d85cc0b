package main

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/arbiterd/arbiterd/rules/unwinnable"
)

// queryLines returns the numbers of the lines `arbiterd unwinnable` treats
// as queries (not blank, not a comment), as eachLine numbers them.
func queryLines(text string) map[int]bool {
	out := map[int]bool{}
	for i, l := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		l = strings.TrimSpace(l)
		if l != "" && l[0] != '#' {
			out[i+1] = true
		}
	}
	return out
}

var diagLine = regexp.MustCompile(`^in\.txt:(\d+): .+`)

// checkDiagnostics checks that every diagnostic names a query line of the
// input, at most once per line, and returns how many there were.
func checkDiagnostics(t *testing.T, text, errs string) int {
	t.Helper()
	lines := queryLines(text)
	seen := map[int]bool{}
	n := 0
	for _, d := range strings.Split(strings.TrimSuffix(errs, "\n"), "\n") {
		if d == "" {
			continue
		}
		m := diagLine.FindStringSubmatch(d)
		if m == nil {
			t.Fatalf("diagnostic %q does not name the file and line", d)
		}
		ln, _ := strconv.Atoi(m[1])
		if !lines[ln] || seen[ln] {
			t.Fatalf("diagnostic %q names line %d, not a query line of the input (or twice)", d, ln)
		}
		seen[ln] = true
		n++
	}
	return n
}

// FuzzUnwinnableQueries feeds arbitrary text to `arbiterd unwinnable` in query
// mode: no input may panic; every line is either answered (one output line)
// or rejected with a diagnostic naming it; the command fails exactly when a
// line was rejected.
func FuzzUnwinnableQueries(f *testing.F) {
	f.Add("8/8/8/4k3/8/8/8/4K2R w - - 0 1 white\n")
	f.Add("# comment\n\n8/8/8/4k3/8/8/8/4K3 w - -\nnot a fen\n")
	f.Add("2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1 black id123\r\n")
	f.Add("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n")
	f.Add("8/8/8/8/8/8/8/8 w\n")
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 4096 {
			return
		}
		var out, errs bytes.Buffer
		err := runQueries(strings.NewReader(text), "in.txt", &out, &errs, i18n.English, unwinnable.Options{Mode: unwinnable.Quick, NodeBudget: 200})
		bad := checkDiagnostics(t, text, errs.String())
		answered := strings.Count(out.String(), "\n")
		if answered+bad != len(queryLines(text)) {
			t.Fatalf("%d answers + %d diagnostics for %d query lines", answered, bad, len(queryLines(text)))
		}
		if (err != nil) != (bad > 0) {
			t.Fatalf("error %v with %d bad lines", err, bad)
		}
	})
}

// FuzzUnwinnableLabelled does the same for the labelled (test-set) mode.
func FuzzUnwinnableLabelled(f *testing.F) {
	f.Add("WB 8/8/8/4k3/8/8/8/4K2R w - -\n-- 8/8/8/4k3/8/8/8/4K3 w - -\n")
	f.Add("W- 8/8/8/4k3/8/8/8/4K2R w - -\nXB nonsense\n")
	f.Add("#\n--8/8/8/8/8/8/8/8 w\n")
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 4096 {
			return
		}
		var out, errs bytes.Buffer
		_ = runLabelled(strings.NewReader(text), "in.txt", &out, &errs, i18n.English, unwinnable.Options{Mode: unwinnable.Quick, NodeBudget: 200})
		checkDiagnostics(t, text, errs.String())
	})
}
