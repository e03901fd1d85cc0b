package scaleout

import (
	"strings"
	"testing"
)

func TestHallConfig(t *testing.T) {
	c, err := ParseHallConfig("hall.yaml", []byte(`
listen: 127.0.0.1:8090
round: "3"
nats:
  name: hall-1
  leaf_listen: 0.0.0.0:7422
  nkey_seed_file: /etc/arbiterd/hall.nk
venues:
  - {name: north, url: "nats-leaf://10.1.0.11:7422", boards: [1, 2]}
  - {name: south}
`))
	if err != nil {
		t.Fatal(err)
	}
	o, err := HallOptionsFrom(c)
	if err != nil {
		t.Fatal(err)
	}
	if c.Data != "hall-data" || len(o.Venues) != 2 || len(o.Server.Remotes) != 1 || o.Server.Remotes[0][0] != "nats-leaf://10.1.0.11:7422" ||
		strings.Join(o.Venues[0].Boards, ",") != "1,2" || o.Auth.NKeySeedFile != "/etc/arbiterd/hall.nk" || o.Round != "3" {
		t.Errorf("hall options %+v from %+v", o, c)
	}
	for _, tc := range []struct{ text, want string }{
		{"venues: []\n", "no venues"},
		{"venues: [{name: a}, {name: a}]\n", "listed twice"},
		{"venues: [{name: hall}]\n", "hall's own"},
		{"venues: [{name: a, url: \"nats-leaf://u:p@x:7422\"}]\n", "no user or password"},
		{"venues: [{name: a}]\ntypo: 1\n", "hall.yaml:2: typo: unknown setting"},
		{"venues: [{name: a, boards: [1, x]}]\n", "hall.yaml:1: venues[0].boards[1]"},
		{"venues: [{name: a}]\nnats: {url: \"nats://x:4222\", leaf_listen: \":7422\"}\n", "nats.url"},
		{"venues: [{name: a}]\nnats: {cluster: {name: c}}\n", "nats.cluster.listen"},
	} {
		if _, err := ParseHallConfig("hall.yaml", []byte(tc.text)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one naming %q", tc.text, err, tc.want)
		}
	}
}
