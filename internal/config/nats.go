package config

import (
	"fmt"
	"net"
	"net/url"
	"regexp"
	"strconv"

	"github.com/arbiterd/arbiterd/internal/i18n"
)

// NATS makes the daemon a venue of a larger event: it publishes every
// board's events and capture to NATS JetStream, for a hall that gathers
// every venue (internal/scaleout, docs/scale-out.md). Credentials are read
// from files or the environment, never from this file.
type NATS struct {
	// Venue names this PC's venue: its JetStream domain and the part of
	// every message id that tells venues apart (letters, digits, '_', '-').
	Venue string `yaml:"venue" toml:"venue"`
	// URL joins an existing NATS server (JetStream on, in the venue's
	// domain) instead of running one inside the daemon.
	URL string `yaml:"url" toml:"url"`
	// Store is the embedded server's JetStream directory (default
	// DATA/nats).
	Store string `yaml:"store" toml:"store"`
	// Listen is the embedded server's client address (host:port); empty:
	// no client port (the daemon talks to its server in-process).
	Listen string `yaml:"listen" toml:"listen"`
	// LeafListen accepts the hall's leaf-node connection (host:port).
	LeafListen string `yaml:"leaf_listen" toml:"leaf_listen"`
	// LeafNKey is the public NKey a connecting hall must sign with
	// (optional; a public key is no secret).
	LeafNKey string `yaml:"leaf_nkey" toml:"leaf_nkey"`
	// Hall lists the hall's leaf-node URLs to dial (nats-leaf://host:7422,
	// one per node of a hall cluster).
	Hall []string `yaml:"hall" toml:"hall"`
	// Credentials is a NATS user credentials file (.creds) for the hall
	// or the server at URL.
	Credentials string `yaml:"credentials" toml:"credentials"`
	// NKeySeedFile and NKeySeedEnv name where the NKey seed is: a file, or
	// an environment variable.
	NKeySeedFile string `yaml:"nkey_seed_file" toml:"nkey_seed_file"`
	NKeySeedEnv  string `yaml:"nkey_seed_env" toml:"nkey_seed_env"`
	// TLS secures the leaf-node and client connections (optional).
	TLS *NATSTLS `yaml:"tls" toml:"tls"`
}

// NATSTLS names the certificate files of the NATS connections.
type NATSTLS struct {
	Cert string `yaml:"cert" toml:"cert"` // this side's certificate (PEM)
	Key  string `yaml:"key" toml:"key"`   // its private key (PEM)
	CA   string `yaml:"ca" toml:"ca"`     // the CA that signed the other side's (PEM)
}

var natsName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

func (n *NATS) validate() []*Error {
	if n == nil {
		return nil
	}
	var errs []*Error
	bad := func(field, format string, a ...any) {
		errs = append(errs, &Error{Field: "nats." + field, Err: i18n.Errorf(format, a...)})
	}
	if !natsName.MatchString(n.Venue) {
		bad("venue", "config.nats.venue", n.Venue)
	} else if n.Venue == "hall" {
		bad("venue", "hall.config.venue.hall")
	}
	hostPort := func(field, v string) {
		if v == "" {
			return
		}
		if _, port, err := net.SplitHostPort(v); err != nil {
			bad(field, "config.listen", v, err)
		} else if p, err := strconv.Atoi(port); err != nil || p < 0 || p > 65535 {
			bad(field, "config.listen.port", port)
		}
	}
	hostPort("listen", n.Listen)
	hostPort("leaf_listen", n.LeafListen)
	if n.URL != "" {
		if u, err := url.Parse(n.URL); err != nil || u.Host == "" {
			bad("url", "config.nats.url", n.URL)
		}
		if n.Listen != "" || n.LeafListen != "" || len(n.Hall) > 0 || n.Store != "" {
			bad("url", "config.nats.url-only")
		}
	}
	for i, h := range n.Hall {
		if u, err := url.Parse(h); err != nil || u.Host == "" {
			bad(fmt.Sprintf("hall[%d]", i), "hall.config.venue.url", h)
		} else if u.User != nil {
			bad(fmt.Sprintf("hall[%d]", i), "config.nats.userinfo")
		}
	}
	if !AuthGivenOnce(n.Credentials, n.NKeySeedFile, n.NKeySeedEnv) {
		bad("credentials", "config.several-auth")
	}
	if t := n.TLS; t != nil && (t.Cert == "") != (t.Key == "") {
		bad("tls", "config.nats.tls")
	}
	return errs
}

// AuthGivenOnce reports whether at most one way to authenticate to NATS is
// given: a credentials file, an NKey seed file, an NKey seed in the
// environment.
func AuthGivenOnce(credentials, seedFile, seedEnv string) bool {
	set := 0
	for _, v := range []string{credentials, seedFile, seedEnv} {
		if v != "" {
			set++
		}
	}
	return set <= 1
}
