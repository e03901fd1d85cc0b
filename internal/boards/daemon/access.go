package daemon

import (
	"crypto/tls"
	"fmt"
	"net"

	"golang.org/x/crypto/bcrypt"

	"github.com/arbiterd/arbiterd/internal/output/web"
)

// webAccess is the dashboard listener's access (config access): the
// arbiters' logins, a secret from the environment hashed here, and
// whether spectators may watch. nil without an access section.
func (d *Daemon) webAccess() (*web.Access, error) {
	a := d.cfg.Access
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
func (d *Daemon) secure(ln net.Listener) (net.Listener, error) {
	a := d.cfg.Access
	if a == nil || a.TLS == nil {
		return ln, nil
	}
	cert, err := tls.LoadX509KeyPair(a.TLS.Cert, a.TLS.Key)
	if err != nil {
		return nil, fmt.Errorf("daemon: access: tls: %w", err)
	}
	return tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}), nil
}

// accessWarning is what the daemon says at start about who can write on
// the dashboard's listener at addr, reachable from the network (""
// nothing to say).
func (d *Daemon) accessWarning(host string) string {
	a := d.cfg.Access
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
