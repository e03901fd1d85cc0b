package config

import (
	"strings"

	"github.com/arbiterd/arbiterd/internal/i18n"
)

// checkBackslashes finds a double-quoted string with a backslash that
// starts an escape sequence: in YAML and TOML "C:\Users\…" is an error
// about hexadecimal digits, and "C:\new folder" is silently a line break,
// so a Windows path written so is never read as written. The error names
// the line and the fix: single quotes, or forward slashes. \\, \" and
// Unicode escapes (\u00e9) are left alone.
func checkBackslashes(name string, data []byte, toml bool) error {
	block := -1 // inside a YAML block scalar: the indentation of the line that opened it
	for i, line := range strings.Split(string(data), "\n") {
		if !toml {
			indent := len(line) - len(strings.TrimLeft(line, " "))
			if block >= 0 && (strings.TrimSpace(line) == "" || indent > block) {
				continue // a block scalar's text is taken as it is: no escapes
			}
			block = -1
			if opensBlock(line) {
				block = indent
			}
		}
		s, esc, ok := quotedEscape(line)
		if !ok {
			continue
		}
		single := "'" + s + "'"
		if strings.Contains(s, "'") {
			single = "" // a quote inside: single quotes do not fit as they are
		}
		forward := strings.ReplaceAll(s, `\`, "/")
		format := "YAML"
		if toml {
			format = "TOML"
		}
		err := i18n.Errorf("config.backslash", format, esc, s, forward)
		if single != "" {
			err = i18n.Errorf("config.backslash.single", format, esc, s, single, forward)
		}
		return &Error{File: name, Line: i + 1, Err: err}
	}
	return nil
}

// opensBlock reports whether a YAML line ends in a block scalar's
// indicator ("key: |", "- >-", "key: |2 # note"): the lines more indented
// below it are its text, taken literally.
func opensBlock(line string) bool {
	if i := strings.Index(line, " #"); i >= 0 {
		line = line[:i]
	}
	line = strings.TrimRight(line, " \t\r")
	j := strings.LastIndexAny(line, "|>")
	if j < 0 || strings.Trim(line[j+1:], "+-0123456789") != "" {
		return false
	}
	before := strings.TrimRight(line[:j], " \t")
	return before == "" || strings.HasSuffix(before, ":") || strings.HasSuffix(before, "-")
}

// quotedEscape finds the first double-quoted string on line (outside a
// comment and single quotes) with a backslash escape other than \\, \",
// \uXXXX, \UXXXXXXXX and \xXX: it returns the string as written between
// the quotes and the escape.
func quotedEscape(line string) (s, esc string, ok bool) {
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '#':
			return "", "", false
		case '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return "", "", false
			}
			i += j + 1
		case '"':
			end, e := scanDouble(line[i+1:])
			if e != "" {
				return line[i+1 : i+1+end], e, true
			}
			i += end + 1
		}
	}
	return "", "", false
}

// scanDouble reads a double-quoted string's body up to its closing quote
// (or the end of the line) and returns where it ends and its first
// suspicious escape ("" if none).
func scanDouble(body string) (end int, esc string) {
	for j := 0; j < len(body); j++ {
		switch body[j] {
		case '"':
			return j, esc
		case '\\':
			if j+1 >= len(body) {
				if esc == "" {
					esc = `\`
				}
				continue
			}
			c := body[j+1]
			switch {
			case c == '\\' || c == '"':
			case c == 'u' && hexRun(body[j+2:], 4), c == 'U' && hexRun(body[j+2:], 8), c == 'x' && hexRun(body[j+2:], 2):
			default:
				if esc == "" {
					esc = `\` + string(c)
				}
			}
			j++
		}
	}
	return len(body), esc
}

func hexRun(s string, n int) bool {
	if len(s) < n {
		return false
	}
	for i := range n {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}
