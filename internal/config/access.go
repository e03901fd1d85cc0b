package config

import (
	"errors"
	"fmt"
	"os"
	"strings"
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
// once; nil for none (and for no section).
func (a *Access) Check() error {
	if a == nil {
		return nil
	}
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf("access: "+format, args...)) }
	seen := map[string]bool{}
	for i, ar := range a.Arbiters {
		name := strings.TrimSpace(ar.Name)
		switch {
		case name == "":
			bad("arbiters[%d]: no name (the name is what the records say)", i)
		case name != ar.Name || strings.ContainsAny(name, ":\r\n"):
			bad("arbiters[%d]: name %q: no spaces around it, no ':' and no line breaks in it", i, ar.Name)
		case seen[name]:
			bad("arbiters[%d]: the name %q is given twice", i, name)
		}
		seen[name] = true
		switch {
		case ar.Hash != "" && ar.SecretEnv != "":
			bad("arbiter %q: give hash or secret_env, not both", ar.Name)
		case ar.Hash != "":
			if !strings.HasPrefix(ar.Hash, "$2a$") && !strings.HasPrefix(ar.Hash, "$2b$") && !strings.HasPrefix(ar.Hash, "$2y$") {
				bad("arbiter %q: hash %.4q… is not a bcrypt hash ($2a$, $2b$ or $2y$…); make one with htpasswd -nbBC 12 '' SECRET | tr -d ':\\n'", ar.Name, ar.Hash)
			}
		case ar.SecretEnv != "":
			switch n := len(ar.Secret()); {
			case n == 0:
				bad("arbiter %q: the environment variable %s is not set or empty", ar.Name, ar.SecretEnv)
			case n > 72:
				bad("arbiter %q: the secret in %s is longer than 72 bytes, more than bcrypt takes", ar.Name, ar.SecretEnv)
			}
		default:
			bad("arbiter %q: no secret: give hash (bcrypt) or secret_env", ar.Name)
		}
	}
	if a.Spectators && len(a.Arbiters) == 0 {
		bad("spectators without arbiters: without arbiters nobody needs to log in; list the arbiters who may write")
	}
	if t := a.TLS; t != nil {
		for _, f := range [][2]string{{"cert", t.Cert}, {"key", t.Key}} {
			if f[1] == "" {
				bad("tls: no %s file", f[0])
			} else if _, err := os.Stat(f[1]); err != nil {
				bad("tls: %s file: %v", f[0], err)
			}
		}
	}
	return errors.Join(errs...)
}
