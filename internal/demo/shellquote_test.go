package demo

import "testing"

// The replay command the demo prints pastes into the shell as it is.
func TestShellQuote(t *testing.T) {
	for _, c := range []struct{ goos, in, want string }{
		{"linux", "/tmp/arbiterd-demo/game.capture", "/tmp/arbiterd-demo/game.capture"},
		{"linux", "/tmp/my demo/game.capture", "'/tmp/my demo/game.capture'"},
		{"darwin", "/Users/o'neil/game.capture", `'/Users/o'\''neil/game.capture'`},
		{"linux", "", "''"},
		{"windows", `C:\arbiterd\game.capture`, `C:\arbiterd\game.capture`},
		{"windows", `C:\arbiterd demo\game 1\game.capture`, `"C:\arbiterd demo\game 1\game.capture"`},
		{"windows", `C:\Users\d'Artagnan\game.capture`, `"C:\Users\d'Artagnan\game.capture"`},
	} {
		if got := shellQuote(c.goos, c.in); got != c.want {
			t.Errorf("%s %q: %s, want %s", c.goos, c.in, got, c.want)
		}
	}
}
