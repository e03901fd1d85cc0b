package scaleout

import (
	"crypto/tls"
	"fmt"
	"net"

	"golang.org/x/crypto/bcrypt"

	"github.com/arbiterd/arbiterd/internal/boards/config"
	"github.com/arbiterd/arbiterd/internal/output/web"
)

// The hall's listener takes the same access section as the daemon's
// (docs/api.md): the arbiters who log in to write (acknowledge, claim,
// decide), whether spectators may watch, and a certificate for TLS. The
// rules are the web server's own (web.Access); a claim or decision the
// hall takes then goes to the board's venue to be recorded.

// webAccess is the hall listener's access: the arbiters' logins (a secret
// from the environment hashed here) and the spectators. nil without an
// access section.
func webAccess(a *config.Access) (*web.Access, error) {
	if a == nil {
		return nil, nil
	}
	if err := a.Check(); err != nil {
		return nil, err
	}
	out := &web.Access{Spectators: a.Spectators}
	for _, ar := range a.Arbiters {
		hash := []byte(ar.Hash)
		if ar.SecretEnv != "" {
			var err error
			if hash, err = bcrypt.GenerateFromPassword([]byte(ar.Secret()), bcrypt.DefaultCost); err != nil {
				return nil, fmt.Errorf("access: arbiter %q: %s: %w", ar.Name, ar.SecretEnv, err)
			}
		}
		out.Arbiters = append(out.Arbiters, web.Login{Name: ar.Name, Hash: hash})
	}
	return out, nil
}

// secure serves ln with TLS when the access section names a certificate.
func secure(a *config.Access, ln net.Listener) (net.Listener, error) {
	if a == nil || a.TLS == nil {
		return ln, nil
	}
	cert, err := tls.LoadX509KeyPair(a.TLS.Cert, a.TLS.Key)
	if err != nil {
		return nil, fmt.Errorf("hall: access: tls: %w", err)
	}
	return tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}), nil
}

// accessWarning is what the hall says at start about who can write on its
// listener at addr ("" when it listens on this computer only, or nothing
// is to be said).
func accessWarning(a *config.Access, addr net.Addr) string {
	host, _, err := net.SplitHostPort(addr.String())
	if ip := net.ParseIP(host); err != nil || ip != nil && ip.IsLoopback() {
		return ""
	}
	switch {
	case a == nil || len(a.Arbiters) == 0:
		return "listening on " + host + ", reachable from the network, without arbiters' logins: anyone who reaches it can watch the games; " +
			"acknowledgements, claims and decisions are taken from this computer only. List the arbiters under access (docs/api.md)"
	case a.TLS == nil:
		return "listening on " + host + ", reachable from the network, without TLS: arbiters' writes from other computers are refused, " +
			"as their secrets would travel in clear text. Set access: tls (docs/api.md)"
	}
	return ""
}
