package web

import (
	"context"
	"crypto/sha256"
	"net"
	"net/http"
	"sync"

	"golang.org/x/crypto/bcrypt"
)

// Login is an arbiter who may write: the name the records give, and the
// bcrypt hash of the arbiter's secret.
type Login struct {
	Name string
	Hash []byte
}

// Access says who may use a Server. With arbiters, every write (an
// acknowledgement, a claim, a decision) needs an arbiter's login (HTTP
// Basic authentication: the name and the secret), and so does every read
// unless Spectators is set; a write that comes over the network in clear
// text is refused, since the secret would travel with it (serve TLS).
// Without arbiters, writes are taken from this computer only (a loopback
// address), as a server listening beyond it cannot tell who writes.
type Access struct {
	Arbiters   []Login
	Spectators bool // a read-only view open to anyone who reaches the server
}

// realm is the Basic authentication realm a browser shows when it asks for
// the login.
const realm = `Basic realm="arbiterd", charset="UTF-8"`

// guard applies the server's Access to every request before next.
type guard struct {
	s    *Server
	next http.Handler

	mu   sync.Mutex
	good map[[32]byte]string // logins already checked against their hash: the name
}

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a := g.s.opt.Access
	write := r.Method != http.MethodGet && r.Method != http.MethodHead && r.Method != http.MethodOptions
	local := loopback(r.RemoteAddr)
	if a == nil || len(a.Arbiters) == 0 {
		if write && !local {
			writeError(w, http.StatusForbidden, "%s %s from %s refused: without arbiters in the configuration (access: arbiters) "+
				"this server takes writes only from this computer (docs/api.md)", r.Method, r.URL.Path, r.RemoteAddr)
			return
		}
		g.next.ServeHTTP(w, r)
		return
	}
	if write && !local && r.TLS == nil {
		writeError(w, http.StatusForbidden, "%s %s refused: a write over the network in clear text would carry the arbiter's secret "+
			"unprotected; serve TLS (access: tls) and use https (docs/api.md)", r.Method, r.URL.Path)
		return
	}
	if name, ok := g.login(r); ok {
		r = r.WithContext(context.WithValue(r.Context(), arbiterKey{}, name))
	}
	if write || !a.Spectators {
		if _, ok := r.Context().Value(arbiterKey{}).(string); !ok {
			w.Header().Set("WWW-Authenticate", realm)
			what := "writing"
			if !write {
				what = "this server (no spectators' view)"
			}
			writeError(w, http.StatusUnauthorized, "%s needs an arbiter's login: the arbiter's name and secret (HTTP Basic authentication)", what)
			return
		}
	}
	g.next.ServeHTTP(w, r)
}

// arbiterKey is the request context's key of the logged-in arbiter's name.
type arbiterKey struct{}

// ArbiterName returns the name of the arbiter logged in for a request the
// server's Access let through: "" without arbiters in the configuration
// (writes from this computer only, by no name).
func ArbiterName(r *http.Request) string {
	name, _ := r.Context().Value(arbiterKey{}).(string)
	return name
}

// login checks the request's Basic authentication against the arbiters;
// it returns the arbiter's name. A login once checked against its bcrypt
// hash is remembered (by a digest of name and secret), so that a page's
// every request does not pay bcrypt's cost again.
func (g *guard) login(r *http.Request) (string, bool) {
	name, secret, ok := r.BasicAuth()
	if !ok {
		return "", false
	}
	key := sha256.Sum256([]byte(name + "\x00" + secret))
	g.mu.Lock()
	known, ok := g.good[key]
	g.mu.Unlock()
	if ok {
		return known, true
	}
	for _, l := range g.s.opt.Access.Arbiters {
		if l.Name == name && bcrypt.CompareHashAndPassword(l.Hash, []byte(secret)) == nil {
			g.mu.Lock()
			g.good[key] = name
			g.mu.Unlock()
			return name, true
		}
	}
	return "", false
}

// loopback reports whether a request's remote address is this computer's.
func loopback(remote string) bool {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
