// Package sentence holds what the packages of rules that keep their
// sentences as codes share: the English format of each code, and the
// rendering of a code and its arguments in English. A program renders the
// same code in its reader's language from its own catalogs; the package
// only says it the way the package's errors and events write it.
package sentence

import (
	"fmt"
	"slices"
)

// Formats are a package's English formats (of package fmt), by code.
type Formats map[string]string

// Format is code's English format, and whether the package has the code.
func (f Formats) Format(code string) (string, bool) {
	s, ok := f[code]
	return s, ok
}

// Codes lists the package's codes, sorted.
func (f Formats) Codes() []string {
	out := make([]string, 0, len(f))
	for c := range f {
		out = append(out, c)
	}
	slices.Sort(out)
	return out
}

// nested is an argument that is itself a sentence: it is written in
// English as its String says.
type nested interface {
	SentenceCode() string
	String() string
}

// Render is code with args in English ("" for a code f lacks); an
// argument that is a sentence is written as its English.
func (f Formats) Render(code string, args []any) string {
	format, ok := f[code]
	if !ok {
		return ""
	}
	a := make([]any, len(args))
	for i, x := range args {
		if s, ok := x.(nested); ok {
			x = s.String()
		}
		a[i] = x
	}
	return fmt.Sprintf(format, a...)
}
