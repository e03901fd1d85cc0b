package config

import (
	"strings"
	"testing"
)

func TestNATSSection(t *testing.T) {
	base := "boards:\n  - number: 1\n    port: /dev/ttyUSB0\n    timecontrol: 40/5400+30:1800+30\n"
	c, err := Parse("a.yaml", []byte(base+"nats:\n  venue: north\n  leaf_listen: 0.0.0.0:7422\n  hall: [nats-leaf://hall:7422]\n  nkey_seed_env: ARBITERD_NKEY\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.NATS == nil || c.NATS.Venue != "north" || len(c.NATS.Hall) != 1 {
		t.Errorf("nats section: %+v", c.NATS)
	}
	if c, err := Parse("a.yaml", []byte(base)); err != nil || c.NATS != nil {
		t.Errorf("without nats: %v, %+v", err, c)
	}
	for _, tc := range []struct{ nats, want string }{
		{"  venue: \"a b\"\n", "nats.venue"},
		{"  venue: hall\n", "hall's own JetStream domain"},
		{"  venue: v\n  url: nats://x:4222\n  leaf_listen: :7422\n", "nats.url"},
		{"  venue: v\n  hall: [\"nats-leaf://user:pw@hall:7422\"]\n", "no user or password"},
		{"  venue: v\n  credentials: a.creds\n  nkey_seed_env: X\n", "not several"},
		{"  venue: v\n  leaf_listen: nowhere\n", "nats.leaf_listen"},
		{"  venue: v\n  tls: {cert: c.pem}\n", "cert and key go together"},
	} {
		_, err := Parse("a.yaml", []byte(base+"nats:\n"+tc.nats))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("nats:\n%s: error %v, want one naming %q", tc.nats, err, tc.want)
		}
	}
}
