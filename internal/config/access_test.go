package config

import (
	"strings"
	"testing"
)

// The access section in YAML and TOML, and what Check says of it.
func TestAccessSection(t *testing.T) {
	const hash = "$2y$10$abcdefghijklmnopqrstuuv5H0O6zD7yq1K8Zr0mQ0L0a1b2c3d4e"
	yaml := `
boards:
  - {number: 1, port: /dev/ttyACM0, timecontrol: "40/5400+30:1800+30"}
access:
  spectators: true
  arbiters:
    - {name: Anna Arbiter, hash: "` + hash + `"}
    - {name: Bram Deputy, secret_env: ARBITERD_TEST_BRAM}
`
	toml := `
[[boards]]
number = 1
port = "/dev/ttyACM0"
timecontrol = "40/5400+30:1800+30"
[access]
spectators = true
[[access.arbiters]]
name = "Anna Arbiter"
hash = "` + hash + `"
[[access.arbiters]]
name = "Bram Deputy"
secret_env = "ARBITERD_TEST_BRAM"
`
	t.Setenv("ARBITERD_TEST_BRAM", "bram's secret")
	for name, text := range map[string]string{"arbiterd.yaml": yaml, "arbiterd.toml": toml} {
		c, err := Parse(name, []byte(text))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		a := c.Access
		if a == nil || !a.Spectators || len(a.Arbiters) != 2 || a.Arbiters[0].Hash != hash || a.Arbiters[1].Secret() != "bram's secret" {
			t.Fatalf("%s: access %+v", name, a)
		}
		if err := a.Check(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, c := range []struct {
		a    Access
		says string
	}{
		{Access{Arbiters: []Arbiter{{Name: "", Hash: hash}}}, "no name"},
		{Access{Arbiters: []Arbiter{{Name: " Anna", Hash: hash}}}, "no spaces around it"},
		{Access{Arbiters: []Arbiter{{Name: "Anna:1", Hash: hash}}}, "no ':'"},
		{Access{Arbiters: []Arbiter{{Name: "Anna", Hash: hash}, {Name: "Anna", Hash: hash}}}, "given twice"},
		{Access{Arbiters: []Arbiter{{Name: "Anna", Hash: hash, SecretEnv: "X"}}}, "not both"},
		{Access{Arbiters: []Arbiter{{Name: "Anna", Hash: "plain"}}}, "not a bcrypt hash"},
		{Access{Arbiters: []Arbiter{{Name: "Anna", SecretEnv: "ARBITERD_TEST_UNSET_VAR"}}}, "not set or empty"},
		{Access{Spectators: true}, "spectators without arbiters"},
		{Access{TLS: &TLS{Cert: "cert.pem"}}, "no key file"},
	} {
		if err := c.a.Check(); err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%+v: %v, want %q", c.a, err, c.says)
		}
	}
	t.Setenv("ARBITERD_TEST_LONG", strings.Repeat("x", 73))
	if err := (&Access{Arbiters: []Arbiter{{Name: "Anna", SecretEnv: "ARBITERD_TEST_LONG"}}}).Check(); err == nil || !strings.Contains(err.Error(), "72 bytes") {
		t.Errorf("a secret too long for bcrypt: %v", err)
	}
}
