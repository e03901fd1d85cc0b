// Command reconciletrace measures, by running it, how far a reader of
// rules/reconcile has to travel to follow one input from its entry point to
// its event: one press, one press read while a piece slides, and one board
// reading, each fed through a Game (docs/reconciliation.md, "State model").
//
//	go run ./scripts/reconciletrace [-v]
//
// It builds the package's tests with an overlay (go test -overlay): every
// function of the package's source, tests left out, starts by recording
// its entry and its return, and a test added by the overlay feeds the
// inputs and writes the record. The tree is not changed. From the record it
// counts, per input, the calls, the functions and files they reach, and
// how often the reader moves from one file to another: on a call into
// another file, and on the return to the caller's file. A file entered n
// times was returned to n−1 times. Two readings are counted: every call
// (a function called twice is read twice), and each function read once (a
// call of a function already read is not followed again, the calls it
// makes are).
//
// Three rules say what a reader does that a record of calls alone does not:
//
//   - The reading follows the input from the Game's entry points: a call the
//     test makes itself, outside them (to look at an event's text), is no
//     part of it.
//   - The orchestrator (-spine, game.go and loop.go) is where the reader
//     comes back to after each stage, by design: its files' returns are
//     counted, and reported apart from those of the stages' files, to which
//     the aim (no file returned to more than twice) applies.
//   - A file of small pure helpers that every stage uses (-whole, stamp.go)
//     is read whole the first time it is opened: its functions count as
//     read from then on. Such a file must be short (at most 120 lines) and
//     change nothing (no method with a pointer receiver); the command
//     refuses one that is not.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// record is one line the instrumented package writes: a function entered
// (Fn, File) or left (Fn empty), or the start of an input (Input).
type record struct {
	Input string `json:",omitempty"`
	Fn    string `json:",omitempty"`
	File  string `json:",omitempty"`
}

func main() {
	dir := flag.String("dir", "rules/reconcile", "the package's folder, from the module root")
	verbose := flag.Bool("v", false, "print each input's file sequence and its functions in order")
	spine := flag.String("spine", "game.go,loop.go", "the orchestrator's files, comma-separated: their returns are reported apart")
	whole := flag.String("whole", "stamp.go", "files of small pure helpers read whole when first opened, comma-separated")
	flag.Parse()
	if err := run(*dir, *verbose, set(*spine), set(*whole)); err != nil {
		fmt.Fprintln(os.Stderr, "reconciletrace:", err)
		os.Exit(1)
	}
}

// set is the comma-separated names in s.
func set(s string) map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Split(s, ",") {
		if n = strings.TrimSpace(n); n != "" {
			m[n] = true
		}
	}
	return m
}

func run(dir string, verbose bool, spine, whole map[string]bool) error {
	pkgDir, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "reconciletrace")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	overlay := map[string]string{}
	inFile := map[string][]string{} // file → the functions it declares
	fset := token.NewFileSet()
	ents, err := os.ReadDir(pkgDir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(pkgDir, name), nil, parser.ParseComments)
		if err != nil {
			return err
		}
		if whole[name] {
			if err := checkWhole(fset, f, name); err != nil {
				return err
			}
		}
		inFile[name] = instrument(f, name)
		var b bytes.Buffer
		if err := printer.Fprint(&b, fset, f); err != nil {
			return err
		}
		out := filepath.Join(tmp, name)
		if err := os.WriteFile(out, b.Bytes(), 0o644); err != nil {
			return err
		}
		overlay[filepath.Join(pkgDir, name)] = out
	}
	for name, src := range map[string]string{"zz_trace.go": recorderSrc, "zz_trace_test.go": driverSrc} {
		out := filepath.Join(tmp, name)
		if err := os.WriteFile(out, []byte(src), 0o644); err != nil {
			return err
		}
		overlay[filepath.Join(pkgDir, name)] = out
	}
	ov, err := json.Marshal(map[string]any{"Replace": overlay})
	if err != nil {
		return err
	}
	ovPath := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(ovPath, ov, 0o644); err != nil {
		return err
	}
	recPath := filepath.Join(tmp, "trace.jsonl")
	cmd := exec.Command("go", "test", "-count=1", "-overlay", ovPath, "-run", "^TestReconcileTrace$", "./"+filepath.ToSlash(dir))
	cmd.Env = append(os.Environ(), "RECONCILE_TRACE_OUT="+recPath)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%v\n%s", err, out)
	}
	recs, err := readRecords(recPath)
	if err != nil {
		return err
	}
	var order []string
	byInput := map[string][]record{}
	cur := ""
	for _, r := range recs {
		if r.Input != "" {
			cur = r.Input
			if _, ok := byInput[cur]; !ok {
				order = append(order, cur)
			}
			byInput[cur] = append(byInput[cur], record{})[:len(byInput[cur])]
			continue
		}
		byInput[cur] = append(byInput[cur], r)
	}
	for _, in := range order {
		fmt.Printf("%s:\n", in)
		for _, once := range []bool{false, true} {
			m := measure(byInput[in], once, whole, inFile)
			how := "every call      "
			if once {
				how = "each fn read once"
			}
			fmt.Printf("  %s: %4d calls, %3d functions, %2d files, %3d file switches; returns to a file left: most %d (%s); the spine: %s\n",
				how, m.calls, len(m.fns), len(m.entries), m.switches, m.maxReturns(spine), m.returns(func(f string) bool { return !spine[f] }), m.returns(func(f string) bool { return spine[f] }))
			if verbose {
				fmt.Printf("    %s\n", strings.Join(m.seq, " → "))
				if once {
					fmt.Printf("    functions: %s\n", strings.Join(m.fnOrder, ", "))
				}
			}
		}
	}
	return nil
}

// instrument makes every function with a body record its entry and
// return, and lists them.
func instrument(f *ast.File, file string) []string {
	var keys []string
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		key := fd.Name.Name
		if fd.Recv != nil && len(fd.Recv.List) > 0 {
			key = recvName(fd.Recv.List[0].Type) + "." + key
		}
		call := &ast.CallExpr{Fun: ast.NewIdent("traceEnter"), Args: []ast.Expr{
			&ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(file)},
			&ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(key)},
		}}
		fd.Body.List = append([]ast.Stmt{&ast.DeferStmt{Call: &ast.CallExpr{Fun: call}}}, fd.Body.List...)
		keys = append(keys, key)
	}
	return keys
}

// checkWhole refuses, as a file read whole, one that is long or that has a
// method with a pointer receiver (one that may change what it is called on).
func checkWhole(fset *token.FileSet, f *ast.File, name string) error {
	if n := fset.Position(f.End()).Line; n > 120 {
		return fmt.Errorf("%s is read whole but has %d lines (at most 120)", name, n)
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && len(fd.Recv.List) > 0 {
			if _, ptr := fd.Recv.List[0].Type.(*ast.StarExpr); ptr {
				return fmt.Errorf("%s is read whole but %s has a pointer receiver", name, fd.Name.Name)
			}
		}
	}
	return nil
}

func recvName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return recvName(t.X)
	case *ast.Ident:
		return t.Name
	case *ast.IndexExpr:
		return recvName(t.X)
	case *ast.IndexListExpr:
		return recvName(t.X)
	}
	return "?"
}

func readRecords(path string) ([]record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var recs []record
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, err
		}
		recs = append(recs, r)
	}
	return recs, sc.Err()
}

type metrics struct {
	calls    int
	fns      map[string]bool
	fnOrder  []string
	entries  map[string]int // file → times the reading entered it
	switches int
	seq      []string
}

// maxReturns is the most a file outside the spine was returned to.
func (m *metrics) maxReturns(spine map[string]bool) int {
	most := 0
	for f, n := range m.entries {
		if !spine[f] {
			most = max(most, n-1)
		}
	}
	return most
}

// returns lists the files of which keep says true, most returned to first.
func (m *metrics) returns(keep func(file string) bool) string {
	var files []string
	for f := range m.entries {
		if keep(f) {
			files = append(files, f)
		}
	}
	sort.Slice(files, func(i, j int) bool {
		if m.entries[files[i]] != m.entries[files[j]] {
			return m.entries[files[i]] > m.entries[files[j]]
		}
		return files[i] < files[j]
	})
	var parts []string
	for _, f := range files {
		parts = append(parts, fmt.Sprintf("%s %d", f, m.entries[f]-1))
	}
	return strings.Join(parts, ", ")
}

// measure follows the records of one input. The reader is in a file; a
// call moves it to the callee's file, a return to the caller's. When the
// input's outermost call returns the reader stays where it was, so that
// two calls of the API for one input (a press, then the time at which its
// wait ends) are one reading; an outermost call that is not one of the
// Game's methods is the test's own, and is skipped with the calls it makes.
// With once, a function already read is not read again: the reader stays
// in the caller's file while it follows the calls it makes; and a file
// read whole (whole, with its functions in inFile) counts all its functions
// as read once it is opened.
func measure(recs []record, once bool, whole map[string]bool, inFile map[string][]string) *metrics {
	m := &metrics{fns: map[string]bool{}, entries: map[string]int{}}
	read := map[string]bool{} // the functions read (in a file read whole, all of its)
	var stack []string        // the file the reader is in at each depth
	cur := ""
	skip := 0 // depth inside a call the test makes itself
	move := func(file string) {
		if file != cur {
			m.switches++
			m.entries[file]++
			m.seq = append(m.seq, file)
			cur = file
		}
	}
	for _, r := range recs {
		if skip > 0 || (len(stack) == 0 && r.Fn != "" && !strings.HasPrefix(r.Fn, "Game.")) {
			if r.Fn == "" {
				skip--
			} else {
				skip++
			}
			continue
		}
		if r.Fn == "" { // a return
			if len(stack) == 0 {
				continue
			}
			stack = stack[:len(stack)-1]
			if len(stack) > 0 {
				move(stack[len(stack)-1])
			}
			continue
		}
		m.calls++
		file := r.File
		if read[r.Fn] && once && len(stack) > 0 {
			file = stack[len(stack)-1]
		}
		read[r.Fn] = true
		if !m.fns[r.Fn] {
			m.fns[r.Fn] = true
			m.fnOrder = append(m.fnOrder, r.Fn)
		}
		stack = append(stack, file)
		move(file)
		if once && whole[file] {
			for _, fn := range inFile[file] {
				read[fn] = true
			}
		}
	}
	if m.switches > 0 { // the first entry is no switch
		m.switches--
	}
	return m
}

const recorderSrc = `package reconcile

import (
	"encoding/json"
	"os"
)

// traceOut receives the records while it is set (see zz_trace_test.go).
var traceOut *json.Encoder

func traceEnter(file, fn string) func() {
	if traceOut == nil {
		return func() {}
	}
	traceOut.Encode(map[string]string{"Fn": fn, "File": file})
	return func() { traceOut.Encode(struct{}{}) }
}

func traceInput(name string) {
	traceOut.Encode(map[string]string{"Input": name})
}

var _ = os.Stdout
`

const driverSrc = `package reconcile

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/clockd"
)

func TestReconcileTrace(t *testing.T) {
	f, err := os.Create(os.Getenv("RECONCILE_TRACE_OUT"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	on := func(name string) { traceOut = enc; traceInput(name) }
	off := func() { traceOut = nil }
	W, B := clockd.White, clockd.Black

	// One board reading: Black's reply on the board, after 1.e4 pressed.
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(5, "e4")
	h.press(5.3, W)
	h.advance(8)
	on("one board reading (1...e5 shown: move)")
	h.play(9, "e5")
	off()
	h.wantAnomalies()

	// One press: 1.e4 on the board, then White's press, judged a scan lag later.
	h = newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(5, "e4")
	on("one press (White's for 1.e4: press, then complete at the scan lag)")
	h.press(5.3, W)
	h.advance(7)
	off()
	h.wantCompleted(1, 0)

	// One press read while the piece slides: the queen on g5 on her way to
	// h4 when Black presses; the board then shows h4, and the press is judged.
	h = newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(5, "e4")
	h.press(5.3, W)
	h.play(9, "e5")
	h.press(9.3, B)
	h.play(14.4, "Bc4")
	h.press(14.6, W)
	h.advance(17)
	h.put(20.0, "d8", chess.NoPiece)
	h.put(20.1, "f6", chess.BlackQueen)
	h.put(20.2, "f6", chess.NoPiece)
	h.put(20.3, "g5", chess.BlackQueen)
	on("one press with a slide (Black's, queen on g5 for ...Qh4: press, board h4, complete)")
	h.press(20.35, B)
	h.put(20.4, "g5", chess.NoPiece)
	h.play(20.6, "Qh4")
	h.advance(22.5)
	off()
	h.wantAnomalies()
	h.wantCompleted(2, 2)
}
`
