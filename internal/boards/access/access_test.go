package access

import (
	"net"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"github.com/arbiterd/arbiterd/internal/config"
)

func TestWeb(t *testing.T) {
	if a, err := Web(nil); a != nil || err != nil {
		t.Fatalf("no section: %v %v", a, err)
	}
	t.Setenv("ARBITERD_TEST_SECRET", "s3cret")
	hash, err := bcrypt.GenerateFromPassword([]byte("other"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	a, err := Web(&config.Access{Spectators: true, Arbiters: []config.Arbiter{
		{Name: "Ana", SecretEnv: "ARBITERD_TEST_SECRET"},
		{Name: "Luis", Hash: string(hash)},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !a.Spectators || len(a.Arbiters) != 2 {
		t.Fatalf("%+v", a)
	}
	if bcrypt.CompareHashAndPassword(a.Arbiters[0].Hash, []byte("s3cret")) != nil {
		t.Error("the secret from the environment is not what was hashed")
	}
	if bcrypt.CompareHashAndPassword(a.Arbiters[1].Hash, []byte("other")) != nil {
		t.Error("a hash given in the file is not kept")
	}
}

func TestListen(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if l, err := Listen(&config.Access{}, ln); err != nil || l != ln {
		t.Errorf("without TLS the listener is served as it is: %v", err)
	}
	_, err = Listen(&config.Access{TLS: &config.TLS{Cert: "/nonexistent/cert.pem", Key: "/nonexistent/key.pem"}}, ln)
	if err == nil || !strings.Contains(err.Error(), "access: tls") {
		t.Errorf("a missing certificate: %v", err)
	}
}

func TestWarning(t *testing.T) {
	if w := Warning(nil, "0.0.0.0"); !strings.Contains(w, "without arbiters' logins") {
		t.Errorf("no arbiters: %q", w)
	}
	a := &config.Access{Arbiters: []config.Arbiter{{Name: "Ana", Hash: "x"}}}
	if w := Warning(a, "0.0.0.0"); !strings.Contains(w, "without TLS") {
		t.Errorf("no TLS: %q", w)
	}
	a.TLS = &config.TLS{Cert: "c", Key: "k"}
	if w := Warning(a, "0.0.0.0"); w != "" {
		t.Errorf("arbiters and TLS: %q", w)
	}
}
