package demo

import "strings"

// shellQuote quotes an argument for pasting into the shell of the system
// goos, when it needs quoting: single quotes for a POSIX shell (a single
// quote inside closes them, is escaped, and opens them again), double quotes for Windows' cmd.exe and
// PowerShell, where a path cannot hold a double quote.
func shellQuote(goos, arg string) string {
	if goos == "windows" {
		if arg != "" && !strings.ContainsAny(arg, " \t&()[]{}^=;!'+,`~%$@#") {
			return arg
		}
		return `"` + arg + `"`
	}
	if arg != "" && strings.Trim(arg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=+,@%") == "" {
		return arg
	}
	return "'" + strings.ReplaceAll(arg, "'", `'\''`) + "'"
}
