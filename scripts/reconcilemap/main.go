// Command reconcilemap measures how legible rules/reconcile is, from its
// source: the methods per type (promoted ones included), the cycles in its
// call graph, the boolean fields of the game's state, whether the stages
// are kept apart, and how often a reader following an
// input from its entry point through every branch has to go back to a
// file (docs/reconciliation.md, "State model", says how to read them).
//
//	go run ./scripts/reconcilemap [-dir rules/reconcile] [-v]
//
// The call graph is static and resolved by name: a call x.M() goes to the
// package's method M when only one type has one, and to the receiver's
// own type's M when x is the receiver; otherwise to every method M (an
// over-estimate). Calls made inside function literals count as calls of
// the function that holds them.
//
// The readings follow the rules of reconciletrace: the orchestrator's files
// (-spine) are reported apart from the others, and a short file of pure
// helpers (-whole) is read whole when it is first entered.
//
// It also checks, with the package type-checked, the rule that keeps the
// stages apart: a stage is a function of the values the Game hands it. A
// part is one of the package's unexported types of the Game's fields that
// has a method with a pointer receiver; the value types it embeds (what it
// says to the other stages: the ledger's record, the absence's awayFacts)
// are its own too. No method of the package's types but the Game's, and no
// function, calls a method of another part's types (the pure helpers of the
// -whole files excepted) or reads a field of another part itself (the
// fields of the value a part hands over are the reader's): what it needs
// of another part the Game reads and hands it, as that part's value or as
// the answer of that part's question. The emitter, the event stream every stage is handed to write
// its events to, and the loop's work are reported apart. It lists too the
// Game's methods outside the spine's files: a stage decides, and only the
// spine applies.
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

type fn struct {
	key   string // "Type.Method" or "func"
	file  string
	recv  string // receiver type name, "" for a function
	calls []string
}

func main() {
	dir := flag.String("dir", "rules/reconcile", "the package's folder")
	verbose := flag.Bool("v", false, "list the cycles' members, each call or read from one part into another, and each entry's file sequence")
	spineFlag := flag.String("spine", "game.go,loop.go", "the orchestrator's files, comma-separated: reported apart")
	wholeFlag := flag.String("whole", "stamp.go", "files of small pure helpers read whole when first entered, comma-separated")
	flag.Parse()
	spine, whole := set(*spineFlag), set(*wholeFlag)
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, *dir, func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var files []*ast.File
	var names []string
	for _, p := range pkgs {
		for name, f := range p.Files {
			files = append(files, f)
			names = append(names, filepath.Base(name))
		}
	}
	funcs := map[string]*fn{}
	byMethod := map[string][]string{} // method name → keys
	var decls []*ast.FuncDecl
	var declFile []string
	for i, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			k := &fn{key: fd.Name.Name, file: names[i]}
			if fd.Recv != nil && len(fd.Recv.List) > 0 {
				k.recv = typeName(fd.Recv.List[0].Type)
				k.key = k.recv + "." + fd.Name.Name
				byMethod[fd.Name.Name] = append(byMethod[fd.Name.Name], k.key)
			}
			funcs[k.key] = k
			decls = append(decls, fd)
			declFile = append(declFile, names[i])
		}
	}
	for _, fd := range decls {
		key := fd.Name.Name
		recvName := ""
		if fd.Recv != nil && len(fd.Recv.List) > 0 {
			key = typeName(fd.Recv.List[0].Type) + "." + key
			if len(fd.Recv.List[0].Names) > 0 {
				recvName = fd.Recv.List[0].Names[0].Name
			}
		}
		self := funcs[key]
		if fd.Body == nil {
			continue
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			switch f := c.Fun.(type) {
			case *ast.Ident:
				if t, ok := funcs[f.Name]; ok && t.recv == "" {
					self.calls = append(self.calls, t.key)
				}
			case *ast.SelectorExpr:
				cands := byMethod[f.Sel.Name]
				if id, ok := f.X.(*ast.Ident); ok && id.Name == recvName && self.recv != "" {
					if _, ok := funcs[self.recv+"."+f.Sel.Name]; ok {
						cands = []string{self.recv + "." + f.Sel.Name}
					}
				}
				self.calls = append(self.calls, cands...)
			}
			return true
		})
	}

	// Methods per type: its own, and those promoted from the package's
	// types it embeds (the method set a reader of the type faces).
	own := map[string]map[string]bool{}
	for _, f := range funcs {
		if f.recv != "" {
			if own[f.recv] == nil {
				own[f.recv] = map[string]bool{}
			}
			own[f.recv][strings.TrimPrefix(f.key, f.recv+".")] = true
		}
	}
	embeds := map[string][]string{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			if st, ok := ts.Type.(*ast.StructType); ok {
				for _, fl := range st.Fields.List {
					if len(fl.Names) == 0 {
						embeds[ts.Name.Name] = append(embeds[ts.Name.Name], typeName(fl.Type))
					}
				}
			}
			return true
		})
	}
	perType := map[string]int{}
	promoted := map[string]int{}
	for t, ms := range own {
		perType[t] = len(ms)
		for _, e := range embeds[t] {
			for m := range own[e] {
				if !ms[m] {
					perType[t]++
					promoted[t]++
				}
			}
		}
	}
	fmt.Println("methods per type, promoted ones included (most first):")
	for _, t := range sortedByCount(perType)[:min(5, len(perType))] {
		if promoted[t] > 0 {
			fmt.Printf("  %-20s %d (%d promoted from %s)\n", t, perType[t], promoted[t], strings.Join(embeds[t], ", "))
			continue
		}
		fmt.Printf("  %-20s %d\n", t, perType[t])
	}

	// Cycles: strongly connected components of more than two functions.
	sccs := tarjan(funcs)
	longest := 0
	var big [][]string
	for _, s := range sccs {
		longest = max(longest, len(s))
		if len(s) > 2 {
			big = append(big, s)
		}
	}
	fmt.Printf("call cycles: %d groups of more than two functions calling each other; the largest has %d\n", len(big), longest)
	if *verbose {
		for _, s := range big {
			sort.Strings(s)
			fmt.Printf("  %s\n", strings.Join(s, " "))
		}
	}

	// Booleans of the state: the bool fields of Game and of every struct
	// type of the package its fields hold, each type counted once.
	structs := map[string]*ast.StructType{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok {
				if st, ok := ts.Type.(*ast.StructType); ok {
					structs[ts.Name.Name] = st
				}
			}
			return true
		})
	}
	counted := map[string]int{}
	var walk func(name string, st *ast.StructType)
	walk = func(name string, st *ast.StructType) {
		if _, ok := counted[name]; ok {
			return
		}
		counted[name] = 0
		for _, fl := range st.Fields.List {
			n := max(1, len(fl.Names))
			if isBool(fl.Type) {
				counted[name] += n
			}
			for _, t := range structTypes(fl.Type, name+"."+fieldName(fl), structs) {
				walk(t.name, t.st)
			}
		}
	}
	if st, ok := structs["Game"]; ok {
		walk("Game", st)
	}
	total := 0
	for _, n := range counted {
		total += n
	}
	fmt.Printf("boolean fields of the state (Game and the structs it holds): %d\n", total)
	for _, t := range sortedByCount(counted) {
		if counted[t] > 0 {
			fmt.Printf("  %-24s %d\n", t, counted[t])
		}
	}

	// Stages apart: the calls into another part's methods and the reads
	// of its fields, by the type whose method (or the function) makes them.
	apart(fset, files, spine, whole, *verbose)

	// Following one input through every branch: a depth-first reading
	// from the entry point, each function read once, in the order of its
	// calls; a file is entered each time the reading moves into it from
	// another (also when it comes back after a call).
	for _, entry := range []string{"Game.Clock", "Game.Board", "Game.Dump"} {
		if _, ok := funcs[entry]; !ok {
			continue
		}
		seen := map[string]bool{}
		entries := map[string]int{}
		var seq []string
		cur := ""
		enter := func(file string) {
			if file != cur {
				entries[file]++
				seq = append(seq, file)
				cur = file
				if whole[file] {
					for k, f := range funcs {
						if f.file == file {
							seen[k] = true
						}
					}
				}
			}
		}
		var read func(k string)
		read = func(k string) {
			seen[k] = true
			f := funcs[k]
			enter(f.file)
			for _, c := range f.calls {
				if !seen[c] {
					read(c)
					enter(f.file)
				}
			}
		}
		read(entry)
		worst, worstFile := 0, ""
		var spineParts []string
		for f, n := range entries {
			if spine[f] {
				continue
			}
			if n > worst || (n == worst && f < worstFile) {
				worst, worstFile = n, f
			}
		}
		for f := range spine {
			if n := entries[f]; n > 0 {
				spineParts = append(spineParts, fmt.Sprintf("%s %d", f, n-1))
			}
		}
		sort.Strings(spineParts)
		fmt.Printf("%s through every branch: %d functions in %d files, %d file switches; most entered outside the spine: %s, %d times (returns: %d); the spine's returns: %s\n",
			entry, len(seen), len(entries), len(seq)-1, worstFile, worst, worst-1, strings.Join(spineParts, ", "))
		if *verbose {
			fmt.Printf("  %s\n", strings.Join(seq, " → "))
		}
	}
}

func typeName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return typeName(t.X)
	case *ast.Ident:
		return t.Name
	case *ast.IndexExpr:
		return typeName(t.X)
	}
	return "?"
}

func fieldName(f *ast.Field) string {
	if len(f.Names) > 0 {
		return f.Names[0].Name
	}
	return typeName(f.Type)
}

func isBool(e ast.Expr) bool {
	switch t := e.(type) {
	case *ast.Ident:
		return t.Name == "bool"
	case *ast.ArrayType:
		return isBool(t.Elt)
	}
	return false
}

type named struct {
	name string
	st   *ast.StructType
}

// structTypes returns the package's struct types a field of type e holds
// (through pointers, arrays, slices and maps), and an anonymous struct by
// the field's path.
func structTypes(e ast.Expr, path string, structs map[string]*ast.StructType) []named {
	switch t := e.(type) {
	case *ast.Ident:
		if st, ok := structs[t.Name]; ok {
			return []named{{t.Name, st}}
		}
	case *ast.StarExpr:
		return structTypes(t.X, path, structs)
	case *ast.ArrayType:
		return structTypes(t.Elt, path, structs)
	case *ast.MapType:
		return append(structTypes(t.Key, path, structs), structTypes(t.Value, path, structs)...)
	case *ast.StructType:
		return []named{{path, t}}
	}
	return nil
}

func sortedByCount(m map[string]int) []string {
	var l []string
	for k := range m {
		l = append(l, k)
	}
	sort.Slice(l, func(i, j int) bool {
		if m[l[i]] != m[l[j]] {
			return m[l[i]] > m[l[j]]
		}
		return l[i] < l[j]
	})
	return l
}

// tarjan returns the strongly connected components of the call graph.
func tarjan(funcs map[string]*fn) [][]string {
	index, low := map[string]int{}, map[string]int{}
	on := map[string]bool{}
	var stack []string
	var out [][]string
	n := 0
	var visit func(v string)
	visit = func(v string) {
		index[v], low[v] = n, n
		n++
		stack = append(stack, v)
		on[v] = true
		for _, w := range funcs[v].calls {
			if _, ok := index[w]; !ok {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if on[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var c []string
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				c = append(c, w)
				if w == v {
					break
				}
			}
			out = append(out, c)
		}
	}
	keys := make([]string, 0, len(funcs))
	for k := range funcs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if _, ok := index[k]; !ok {
			visit(k)
		}
	}
	return out
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

// apart reports, for each of the package's types (and its functions), the
// calls it makes into the methods of a part of another type and the reads
// of such a part's fields, the Game's excepted (it is the orchestrator),
// and the Game's methods declared outside the spine's files.
func apart(fset *token.FileSet, files []*ast.File, spine, whole map[string]bool, verbose bool) {
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	info := &types.Info{Selections: map[*ast.SelectorExpr]*types.Selection{}}
	pkg, err := conf.Check("reconcile", fset, files, info)
	if err != nil {
		fmt.Fprintln(os.Stderr, "type-checking:", err)
		os.Exit(1)
	}
	game, ok := pkg.Scope().Lookup("Game").Type().Underlying().(*types.Struct)
	if !ok {
		return
	}
	// parts: the unexported types of the Game's fields with a method that
	// may change them (a pointer receiver), and owner the part each of
	// their types and the types they embed belongs to; sinks: the event
	// stream and the loop's work, reported apart.
	parts, sinks := map[string]bool{}, map[string]bool{"emitter": true, "work": true}
	owner := map[string]string{}
	for i := 0; i < game.NumFields(); i++ {
		t := game.Field(i).Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		n, ok := t.(*types.Named)
		if !ok || n.Obj().Pkg() != pkg || n.Obj().Exported() {
			continue
		}
		for j := 0; j < n.NumMethods(); j++ {
			if _, ptr := n.Method(j).Type().(*types.Signature).Recv().Type().(*types.Pointer); ptr {
				parts[n.Obj().Name()] = true
				owner[n.Obj().Name()] = n.Obj().Name()
				break
			}
		}
		if st, ok := n.Underlying().(*types.Struct); ok && parts[n.Obj().Name()] {
			for j := 0; j < st.NumFields(); j++ {
				if e, ok := st.Field(j).Type().(*types.Named); ok && st.Field(j).Embedded() && e.Obj().Pkg() == pkg {
					owner[e.Obj().Name()] = n.Obj().Name()
				}
			}
		}
	}
	calls, reads, sunk := map[string]int{}, map[string]int{}, map[string]int{}
	var lines, outside []string
	for _, f := range files {
		file := filepath.Base(fset.Position(f.Pos()).Filename)
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			by := "(functions)"
			if fd.Recv != nil && len(fd.Recv.List) > 0 {
				by = typeName(fd.Recv.List[0].Type)
			}
			if by == "Game" {
				if !spine[file] {
					outside = append(outside, fmt.Sprintf("%s (%s)", fd.Name.Name, file))
				}
				continue
			}
			if _, ok := calls[by]; !ok {
				calls[by], reads[by] = 0, 0
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				se, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				sel := info.Selections[se]
				if sel == nil {
					return true
				}
				t := sel.Recv()
				if p, ok := t.(*types.Pointer); ok {
					t = p.Elem()
				}
				nt, ok := t.(*types.Named)
				if !ok || nt.Obj().Pkg() != pkg {
					return true
				}
				name := nt.Obj().Name()
				if sinks[name] {
					sunk[name]++
					return true
				}
				part := owner[name]
				if part == "" || part == owner[by] || part == by {
					return true
				}
				if sel.Kind() == types.FieldVal {
					if name != part {
						return true // a field of the value the part hands over
					}
				} else if whole[filepath.Base(fset.Position(sel.Obj().Pos()).Filename)] {
					return true // a pure helper read whole
				}
				what := "reads"
				if sel.Kind() == types.FieldVal {
					reads[by]++
				} else {
					what = "calls"
					calls[by]++
				}
				lines = append(lines, fmt.Sprintf("    %s.%s %s %s.%s (%s)", by, fd.Name.Name, what, name, se.Sel.Name, filepath.Base(fset.Position(se.Pos()).String())))
				return true
			})
		}
	}
	var names []string
	total := map[string]int{}
	for t := range calls {
		names = append(names, t)
		total[t] = calls[t] + reads[t]
	}
	sum := 0
	for _, t := range names {
		sum += total[t]
	}
	var ps []string
	for p := range parts {
		if !sinks[p] {
			ps = append(ps, p)
		}
	}
	sort.Strings(ps)
	fmt.Printf("stages apart: calls into another part's methods and reads of its fields, the Game's excepted: %d\n", sum)
	// by part (its own types together), then by any other type or the
	// functions that make them
	byPart := map[string][2]int{}
	for _, t := range names {
		k := owner[t]
		if k == "" {
			if total[t] == 0 {
				continue
			}
			k = t
		}
		c := byPart[k]
		byPart[k] = [2]int{c[0] + calls[t], c[1] + reads[t]}
	}
	var others []string
	for k := range byPart {
		if !parts[k] {
			others = append(others, k)
		}
	}
	sort.Strings(others)
	keys := append(append([]string(nil), ps...), others...)
	for _, k := range keys {
		var own []string
		for t, o := range owner {
			if o == k && t != k {
				own = append(own, t)
			}
		}
		sort.Strings(own)
		name := k
		if len(own) > 0 {
			name += " (with " + strings.Join(own, ", ") + ")"
		}
		fmt.Printf("  %-36s %d calls, %d reads\n", name, byPart[k][0], byPart[k][1])
	}
	if verbose {
		sort.Strings(lines)
		for _, l := range lines {
			fmt.Println(l)
		}
	}
	var ss []string
	for _, s := range sortedByCount(sunk) {
		ss = append(ss, fmt.Sprintf("%s %d", s, sunk[s]))
	}
	fmt.Printf("  written to, apart: %s\n", strings.Join(ss, ", "))
	sort.Strings(outside)
	fmt.Printf("the Game's methods outside the spine: %d", len(outside))
	if len(outside) > 0 {
		fmt.Printf(": %s", strings.Join(outside, ", "))
	}
	fmt.Println()
}
