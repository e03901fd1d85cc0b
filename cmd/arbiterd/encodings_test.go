package main

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// utf16LE is s in UTF-16 little-endian with its byte-order mark, as
// Windows PowerShell 5.1's > writes it.
func utf16LE(s string) []byte {
	b := []byte{0xFF, 0xFE}
	for _, r := range s {
		b = append(b, byte(r), byte(r>>8)) // the tests' text is in the BMP
	}
	return b
}

// utf16BE is s in UTF-16 big-endian with its byte-order mark.
func utf16BE(s string) []byte {
	b := []byte{0xFE, 0xFF}
	for _, r := range s {
		b = append(b, byte(r>>8), byte(r))
	}
	return b
}

var bom = "\ufeff"

// unwinnable answers a FEN list saved with a byte-order mark or as
// UTF-16 as it answers the plain one.
func TestUnwinnableEncodings(t *testing.T) {
	const queries = "8/8/8/4k3/8/8/8/K6N b\r\n2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w white\r\n"
	want, _, err := runArgsIn(t, queries, "unwinnable", "--quick")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(want, "unwinnable") || strings.Count(want, "\n") != 2 {
		t.Fatalf("plain answers %q", want)
	}
	dir := t.TempDir()
	for name, data := range map[string][]byte{
		"bom.txt": []byte(bom + queries), "utf16le.txt": utf16LE(queries), "utf16be.txt": utf16BE(queries),
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		got, errOut, err := runArgsIn(t, "", "unwinnable", "--quick", path)
		if err != nil {
			t.Errorf("%s: %v\n%s", name, err, errOut)
			continue
		}
		if answers(got) != answers(want) {
			t.Errorf("%s: answers\n%s\nwant\n%s", name, got, want)
		}
	}
	// Standard input too.
	got, _, err := runArgsIn(t, string(utf16LE(queries)), "unwinnable", "--quick")
	if err != nil || answers(got) != answers(want) {
		t.Errorf("UTF-16 on standard input: %v\n%s", err, got)
	}
}

// answers drops the timings from unwinnable's output.
func answers(out string) string {
	var b strings.Builder
	for _, l := range strings.Split(out, "\n") {
		if i := strings.Index(l, " time "); i >= 0 {
			l = l[:i]
		}
		b.WriteString(l + "\n")
	}
	return b.String()
}

// audit reads a PGN saved with a byte-order mark, as UTF-16 or in
// Windows-1252 (its names decoded), and expands a wildcard itself.
func TestAuditEncodingsAndWildcards(t *testing.T) {
	dir := t.TempDir()
	named := strings.Replace(auditGame, `[White "A"]`, `[White "Réti, Richard"]`, 1)
	latin1 := []byte(strings.Replace(named, "é", "\xe9", 1))
	files := map[string][]byte{
		"a-bom.pgn": []byte(bom + named), "b-utf16le.pgn": utf16LE(named), "c-utf16be.pgn": utf16BE(named),
		"d-cp1252.pgn": latin1, "notes.txt": []byte("not a PGN"),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, errOut, err := runArgsIn(t, "", "audit", "--json", filepath.Join(dir, "*.pgn"))
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d games audited, want 4:\n%s\n%s", len(lines), out, errOut)
	}
	for _, l := range lines {
		var r map[string]any
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		if r["white"] != "Réti, Richard" || r["result"] != "1/2-1/2" {
			t.Errorf("game read as %v", l)
		}
	}
	// ? matches one character; a pattern that matches nothing is named.
	if out, _, err := runArgsIn(t, "", "audit", "--json", filepath.Join(dir, "?-bom.pgn")); err != nil || strings.Count(out, "\n") != 1 {
		t.Errorf("?-bom.pgn: %v %q", err, out)
	}
	_, _, err = runArgsIn(t, "", "audit", filepath.Join(dir, "*.pgn.gz"))
	if err == nil || !strings.Contains(err.Error(), "*.pgn.gz: no file matches") {
		t.Errorf("a pattern matching nothing: %v", err)
	}
}

// Windows API names in file errors are said in words; the error
// underneath is kept.
func TestPlainError(t *testing.T) {
	raw := &fs.PathError{Op: "CreateFile", Path: `C:\games\*.pgn`, Err: errors.New("The filename, directory name, or volume label syntax is incorrect.")}
	err := plainError(raw)
	if got := err.Error(); got != `open C:\games\*.pgn: The filename, directory name, or volume label syntax is incorrect.` {
		t.Errorf("got %q", got)
	}
	if !errors.Is(err, raw) {
		t.Error("the error underneath is lost")
	}
	stat := &fs.PathError{Op: "GetFileAttributesEx", Path: "x.pgn", Err: fs.ErrNotExist}
	if got := plainError(stat).Error(); strings.Contains(got, "GetFileAttributes") || !errors.Is(plainError(stat), fs.ErrNotExist) {
		t.Errorf("got %q", got)
	}
	plainErr := &fs.PathError{Op: "open", Path: "x.pgn", Err: fs.ErrNotExist}
	if plainError(plainErr) != error(plainErr) || plainError(nil) != nil {
		t.Error("an error without an API name was changed")
	}
}
