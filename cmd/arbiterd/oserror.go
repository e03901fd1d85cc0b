package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/arbiterd/arbiterd/internal/i18n"
)

// windowsOps are the Windows API names Go's file functions put in the Op
// of their errors on Windows, and what each means in words.
var windowsOps = map[string]string{
	"CreateFile":                 "open",
	"GetFileAttributesEx":        "cannot find",
	"GetFileAttributes":          "cannot find",
	"FindFirstFile":              "read directory",
	"FindNextFile":               "read directory",
	"GetFileType":                "open",
	"GetFileInformationByHandle": "read",
	"DeleteFile":                 "remove",
	"RemoveDirectory":            "remove",
	"MoveFileEx":                 "rename",
	"CreateDirectory":            "make directory",
}

// plainError is err with the Windows API names in its file errors said in
// words ("open *.pgn: The filename … is incorrect." for "CreateFile *.pgn:
// …"); errors.Is and errors.As see the same error underneath.
func plainError(err error) error {
	if err == nil {
		return nil
	}
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		return err
	}
	op, ok := windowsOps[pe.Op]
	if !ok {
		return err
	}
	return &plain{err: err, text: strings.Replace(err.Error(), pe.Op+" ", op+" ", 1)}
}

type plain struct {
	err  error
	text string
}

func (p *plain) Error() string { return p.text }
func (p *plain) Unwrap() error { return p.err }

// hasMeta reports whether a command-line argument holds a wildcard.
func hasMeta(arg string) bool { return strings.ContainsAny(arg, "*?[") }

// expandWildcards expands * and ? (and [...]) in file arguments, as a Unix
// shell does and Windows shells do not: "games/*.pgn" is every file it
// matches, in lexical order. An argument that names an existing file as
// written, or has no wildcard, is kept as it is; one that matches nothing
// is an error naming it.
func expandWildcards(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		if a == "-" || !hasMeta(a) {
			out = append(out, a)
			continue
		}
		if _, err := os.Stat(a); err == nil {
			out = append(out, a)
			continue
		}
		m, err := filepath.Glob(a)
		if err != nil {
			return nil, i18n.Errorf("cli.bad-pattern", a)
		}
		if len(m) == 0 {
			return nil, i18n.Errorf("cli.no-match", a)
		}
		out = append(out, m...)
	}
	return out, nil
}
