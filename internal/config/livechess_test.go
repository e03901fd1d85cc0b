package config

import (
	"slices"
	"strings"
	"testing"
)

const oneBoard = "boards:\n  - number: 1\n    port: /dev/ttyUSB0\n    timecontrol: 40/5400+30:1800+30\n"

func TestLiveChessSection(t *testing.T) {
	// Left out: no listener.
	c, err := Parse("c.yaml", []byte(oneBoard))
	if err != nil {
		t.Fatal(err)
	}
	if c.LiveChess != nil {
		t.Errorf("no livechess section, but %+v", c.LiveChess)
	}
	// An empty section: the defaults.
	c, err = Parse("c.yaml", []byte("livechess: {}\n"+oneBoard))
	if err != nil {
		t.Fatal(err)
	}
	if c.LiveChess == nil || c.LiveChess.Addr() != "127.0.0.1:1982" ||
		!slices.Equal(c.LiveChess.AllowedOrigins(), []string{"https://lichess.org"}) {
		t.Errorf("livechess: {}: %+v, addr %s, origins %v", c.LiveChess, c.LiveChess.Addr(), c.LiveChess.AllowedOrigins())
	}
	// No browser page at all, another address; TOML alike.
	c, err = Parse("c.yaml", []byte("livechess:\n  listen: 0.0.0.0:1983\n  origins: []\n"+oneBoard))
	if err != nil {
		t.Fatal(err)
	}
	if c.LiveChess.Addr() != "0.0.0.0:1983" || c.LiveChess.AllowedOrigins() == nil || len(c.LiveChess.AllowedOrigins()) != 0 {
		t.Errorf("origins []: %v", c.LiveChess.AllowedOrigins())
	}
	c, err = Parse("c.toml", []byte("[livechess]\norigins = [\"https://lichess.org\", \"http://localhost:8000\"]\n\n[[boards]]\nnumber = 1\nport = \"/dev/ttyUSB0\"\ntimecontrol = \"40/5400+30:1800+30\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.LiveChess.AllowedOrigins()) != 2 {
		t.Errorf("TOML origins: %v", c.LiveChess.AllowedOrigins())
	}
	for _, tt := range []struct{ yaml, want string }{
		{"livechess:\n  listen: nowhere\n", "livechess.listen"},
		{"livechess:\n  listen: 127.0.0.1:99999\n", "livechess.listen"},
		{"livechess:\n  origins: [lichess.org]\n", "livechess.origins[0]"},
		{"livechess:\n  origins: [\"https://lichess.org/dgt\"]\n", "is not an origin"},
		{"livechess:\n  port: 1982\n", "livechess"},
	} {
		_, err := Parse("c.yaml", []byte(tt.yaml+oneBoard))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: %v, want an error naming %s", tt.yaml, err, tt.want)
		}
	}
}
