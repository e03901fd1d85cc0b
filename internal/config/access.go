package config

import (
	"errors"
	"os"
	"strings"

	"github.com/arbiterd/arbiterd/internal/i18n"
)

// Access says who may use the dashboard's listener (listen): the arbiters
// who log in to write there (acknowledge alerts, record claims and
// decisions), whether spectators may watch without logging in, and the
// certificate it serves TLS with.
//
//	access:
//	  arbiters:
//	    - name: Anna Arbiter
//	      hash: $2y$10$…          # bcrypt hash of her secret
//	    - name: Bram Deputy
//	      secret_env: BRAM_SECRET # or the secret itself, in the environment
//	  spectators: true            # a read-only view open to anyone
//	  tls: {cert: /etc/arbiterd/cert.pem, key: /etc/arbiterd/key.pem}
type Access struct {
	Arbiters   []Arbiter `yaml:"arbiters" toml:"arbiters"`
	Spectators bool      `yaml:"spectators" toml:"spectators"`
	TLS        *TLS      `yaml:"tls" toml:"tls"`
}

// Arbiter is an arbiter who may write: a name (what the records say) and
// a secret, given as its bcrypt hash (Hash) or in an environment variable
// (SecretEnv), never in the file itself.
type Arbiter struct {
	Name      string `yaml:"name" toml:"name"`
	Hash      string `yaml:"hash" toml:"hash"`
	SecretEnv string `yaml:"secret_env" toml:"secret_env"`
}

// TLS names the certificate and key files (PEM) the listener serves with.
type TLS struct {
	Cert string `yaml:"cert" toml:"cert"`
	Key  string `yaml:"key" toml:"key"`
}

// Secret is the arbiter's secret from its environment variable ("" when
// the arbiter's secret is given as a hash).
func (a Arbiter) Secret() string {
	if a.SecretEnv == "" {
		return ""
	}
	return os.Getenv(a.SecretEnv)
}

// Check reports what is wrong with the access section, every problem at
// once ("access: " and the problem); nil for none (and for no section).
func (a *Access) Check() error {
	var errs []error
	for _, m := range a.Problems() {
		errs = append(errs, i18n.Errorf("config.access", m))
	}
	return errors.Join(errs...)
}

// Problems are what is wrong with the access section, each a sentence of
// the catalogs (a hall names the section itself); none for no section.
func (a *Access) Problems() []i18n.Message {
	if a == nil {
		return nil
	}
	var errs []i18n.Message
	bad := func(code string, args ...any) { errs = append(errs, i18n.M(code, args...)) }
	seen := map[string]bool{}
	for i, ar := range a.Arbiters {
		name := strings.TrimSpace(ar.Name)
		switch {
		case name == "":
			bad("config.access.no-name", i)
		case name != ar.Name || strings.ContainsAny(name, ":\r\n"):
			bad("config.access.name", i, ar.Name)
		case seen[name]:
			bad("config.access.twice", i, name)
		}
		seen[name] = true
		switch {
		case ar.Hash != "" && ar.SecretEnv != "":
			bad("config.access.both", ar.Name)
		case ar.Hash != "":
			if !strings.HasPrefix(ar.Hash, "$2a$") && !strings.HasPrefix(ar.Hash, "$2b$") && !strings.HasPrefix(ar.Hash, "$2y$") {
				bad("config.access.hash", ar.Name, ar.Hash)
			}
		case ar.SecretEnv != "":
			switch n := len(ar.Secret()); {
			case n == 0:
				bad("config.access.env-empty", ar.Name, ar.SecretEnv)
			case n > 72:
				bad("config.access.env-long", ar.Name, ar.SecretEnv)
			}
		default:
			bad("config.access.no-secret", ar.Name)
		}
	}
	if a.Spectators && len(a.Arbiters) == 0 {
		bad("config.access.spectators")
	}
	if t := a.TLS; t != nil {
		for _, f := range [][2]string{{"cert", t.Cert}, {"key", t.Key}} {
			if f[1] == "" {
				bad("config.access.tls.none", f[0])
			} else if _, err := os.Stat(f[1]); err != nil {
				bad("config.access.tls.file", f[0], err)
			}
		}
	}
	return errs
}
