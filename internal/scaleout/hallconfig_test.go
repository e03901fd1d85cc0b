package scaleout

import (
	"strings"
	"testing"

	"github.com/nats-io/nkeys"
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
		{"venues: [{name: a}]\nlang: fr\n", `lang: "fr": not a language arbiterd speaks (it speaks en, es)`},
		{"venues: [{name: a, boards: [1, x]}]\n", "hall.yaml:1: venues[0].boards[1]"},
		{"venues: [{name: a}]\nnats: {url: \"nats://x:4222\", leaf_listen: \":7422\"}\n", "nats.url"},
		{"venues: [{name: a}]\nnats: {cluster: {name: c}}\n", "nats.cluster.listen"},
	} {
		if _, err := ParseHallConfig("hall.yaml", []byte(tc.text)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one naming %q", tc.text, err, tc.want)
		}
	}
}

// What cannot work is refused at start, each mistake named with its file,
// line and setting, in words; TOML as YAML.
func TestHallConfigRefused(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"hall.yaml", "venues:\n  - {name: north, boards: [1, 2]}\n  - name: south\n    boards: [3, 2]\n",
			"hall.yaml:4: venues[1].boards[1]: board 2 is venue north's already"},
		{"hall.yaml", "venues:\n  - {name: north, boards: [1, 1]}\n", "hall.yaml:2: venues[0].boards[1]: board 1 is listed twice"},
		{"hall.yaml", "venues:\n  - name: north\n    url: http://10.1.0.11:7422\n",
			"hall.yaml:3: venues[0].url: \"http://10.1.0.11:7422\": http:// is not a leaf-node connection"},
		{"hall.yaml", "nats:\n  leaf_listen: 0.0.0.0:7422\n  leaf_nkey: NOTAKEY\nvenues: [{name: north}]\n",
			"hall.yaml:3: nats.leaf_nkey: \"NOTAKEY\" is not a public user NKey"},
		{"hall.yaml", "nats:\n  replicas: 0\nvenues: [{name: north}]\n", "hall.yaml:2: nats.replicas: 0: the hall's streams are kept 1 to 5 times"},
		{"hall.yaml", "nats: {replicas: 7}\nvenues: [{name: north}]\n", "hall.yaml:1: nats.replicas: 7"},
		{"hall.yaml", "venues: [{name: north}]\naccess:\n  arbiters: [{name: Anna}]\n", "hall.yaml:3: access: arbiter \"Anna\": no secret"},
		{"hall.toml", "[nats]\nreplicas = 0\n\n[[venues]]\nname = \"north\"\nurl = \"http://x:7422\"\n",
			"hall.toml:2: nats.replicas: 0"},
		{"hall.toml", "[[venues]]\nname = \"north\"\nurl = \"http://x:7422\"\n", "hall.toml:3: venues[0].url"},
		{"hall.toml", "[[venues]]\nname = \"north\"\nboards = [1]\n[[venues]]\nname = \"south\"\nboards = [1]\n",
			"hall.toml:6: venues[1].boards[0]: board 1 is venue north's already"},
		{"hall.toml", "listen = 8080\n[[venues]]\nname = \"north\"\n", "hall.toml:1: listen: a number where text belongs: put it in double quotes"},
		{"hall.toml", "[[venues]]\nname = 5\n", "hall.toml:2: venues.name: a number where text belongs"},
		{"hall.toml", "[nats]\nreplicas = \"three\"\n[[venues]]\nname = \"a\"\n", "hall.toml:2: nats.replicas: \"three\" where a whole number belongs"},
	} {
		_, err := ParseHallConfig(tc.name, []byte(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %q: error %v, want one saying %q", tc.name, tc.text, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "TOML value has type") {
			t.Errorf("%s %q: the TOML decoder's words: %v", tc.name, tc.text, err)
		}
	}
	// A public NKey, replicas 3 and venue URLs of every leaf scheme are taken.
	kp, err := nkeys.CreateUser()
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := kp.PublicKey()
	ok := "nats:\n  leaf_nkey: " + pub + "\n  replicas: 3\n" +
		"venues:\n  - {name: a, url: \"tls://a:7422\"}\n  - {name: b, url: \"nats-leaf://b:7422\"}\n"
	c, err := ParseHallConfig("hall.yaml", []byte(ok))
	if err != nil {
		t.Fatal(err)
	}
	if o, err := HallOptionsFrom(c); err != nil || o.Replicas != 3 {
		t.Errorf("options %+v, %v", o, err)
	}
}
