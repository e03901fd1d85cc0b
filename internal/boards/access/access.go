// Package access turns the configuration's access section (the arbiters
// who log in to write, whether spectators may watch, a certificate for
// TLS; docs/api.md) into what a dashboard's listener needs. It serves
// `arbiterd serve` and `arbiterd hall` alike, so both listeners follow
// one set of rules (web.Access).
package access

import (
	"crypto/tls"
	"fmt"
	"net"

	"golang.org/x/crypto/bcrypt"

	"github.com/arbiterd/arbiterd/internal/config"
	"github.com/arbiterd/arbiterd/internal/output/web"
)

// Web is the listener's access: the arbiters' logins (a secret given in
// the environment is hashed here) and the spectators. nil without an
// access section.
func Web(a *config.Access) (*web.Access, error) {
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

// Listen serves ln with TLS when the access section names a certificate,
// and as it is otherwise.
func Listen(a *config.Access, ln net.Listener) (net.Listener, error) {
	if a == nil || a.TLS == nil {
		return ln, nil
	}
	cert, err := tls.LoadX509KeyPair(a.TLS.Cert, a.TLS.Key)
	if err != nil {
		return nil, fmt.Errorf("access: tls: %w", err)
	}
	return tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}), nil
}

// Warning is what to say at start about who can write on a listener on
// host, reachable from the network ("" when there is nothing to say).
func Warning(a *config.Access, host string) string {
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
