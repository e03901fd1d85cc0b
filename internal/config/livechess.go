package config

import (
	"net"
	"net/url"
	"strconv"
	"strings"

	"github.com/arbiterd/arbiterd/internal/i18n"
)

// The LiveChess-compatible listener's defaults: the address DGT LiveChess
// serves on (clients written for it connect there), and the one browser
// origin let in, lichess's DGT board page.
const (
	DefaultLiveChessListen = "127.0.0.1:1982"
	DefaultLiveChessOrigin = "https://lichess.org"
)

// LiveChess is the optional LiveChess-compatible listener: the DGT LiveChess
// local API on an address of its own, with LiveChess's meaning of the
// moves (every move the board shows), for clients that play from the board
// (docs/feeds.md). The section turns it on; `livechess: {}` takes the
// defaults.
type LiveChess struct {
	// Listen is the listener's address (default 127.0.0.1:1982, where
	// LiveChess clients look for it).
	Listen string `yaml:"listen" toml:"listen"`
	// Origins are the browser origins (https://host[:port]) whose pages
	// may use it. Left out: https://lichess.org. An empty list lets no
	// browser page in.
	Origins []string `yaml:"origins" toml:"origins"`
}

// Addr is the address the listener listens on.
func (l *LiveChess) Addr() string {
	if l.Listen == "" {
		return DefaultLiveChessListen
	}
	return l.Listen
}

// AllowedOrigins are the browser origins let in.
func (l *LiveChess) AllowedOrigins() []string {
	if l.Origins == nil {
		return []string{DefaultLiveChessOrigin}
	}
	return l.Origins
}

func (l *LiveChess) validate() []*Error {
	if l == nil {
		return nil
	}
	var errs []*Error
	bad := func(field, code string, a ...any) {
		errs = append(errs, &Error{Field: "livechess." + field, Err: i18n.Errorf(code, a...)})
	}
	if _, port, err := net.SplitHostPort(l.Addr()); err != nil {
		bad("listen", "config.listen", l.Listen, err)
	} else if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		bad("listen", "config.listen.port", port)
	}
	for i, o := range l.Origins {
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || strings.Trim(u.Path, "/") != "" ||
			u.RawQuery != "" || u.Fragment != "" || u.User != nil {
			bad("origins["+strconv.Itoa(i)+"]", "config.livechess.origin", o)
		}
	}
	return errs
}
