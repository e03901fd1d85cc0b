package serve

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/arbiterd/arbiterd/internal/config"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// selfSigned writes a certificate for 127.0.0.1 and its key into dir, and
// returns their paths and a pool that trusts it.
func selfSigned(t *testing.T, dir string) (cert, key string, pool *x509.CertPool) {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "arbiterd test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	cert, key = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(key, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool = x509.NewCertPool()
	pool.AddCert(c)
	return cert, key, pool
}

// The daemon with arbiters and a certificate: it serves TLS, spectators
// read without logging in, a claim needs an arbiter's login (one arbiter's
// secret a bcrypt hash in the file, the other's in the environment), and
// the claim made with it is recorded.
func TestDaemonAccess(t *testing.T) {
	sans := immortal(t)
	e1 := startEmu(t, emulator.Config{Game: sans, Seed: 4})
	cert, key, pool := selfSigned(t, t.TempDir())
	hash, err := bcrypt.GenerateFromPassword([]byte("anna's secret"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("ARBITERD_TEST_BRAM", "bram's secret")
	c := testConfig(t.TempDir(), e1.path)
	c.Access = &config.Access{Spectators: true, TLS: &config.TLS{Cert: cert, Key: key},
		Arbiters: []config.Arbiter{{Name: "Anna Arbiter", Hash: string(hash)}, {Name: "Bram Deputy", SecretEnv: "ARBITERD_TEST_BRAM"}}}
	w := newWatcher()
	d, stop := runDaemon(t, c, w)
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}, Timeout: 10 * time.Second}
	w.waitFor(t, "a move", 60*time.Second, func() bool { return completed(w.stream("1")).White >= 1 })
	base := "https://" + d.Addr().String()
	send := func(method, path, body, user, pw string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		if user != "" {
			req.SetBasicAuth(user, pw)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := send("GET", "/api/boards", "", "", ""); code != 200 {
		t.Fatalf("a spectator's read over TLS: %d %s", code, body)
	}
	// plain HTTP gets the TLS server's refusal, not the boards
	if resp, err := http.Get("http://" + d.Addr().String() + "/api/boards"); err == nil {
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			t.Error("the listener served the boards over plain HTTP")
		}
	}
	for _, c := range []struct{ user, pw string }{{"", ""}, {"Anna Arbiter", "wrong"}, {"Bram Deputy", "anna's secret"}} {
		if code, body := send("POST", "/api/boards/1/claims", `{"side":"black"}`, c.user, c.pw); code != http.StatusUnauthorized {
			t.Errorf("a claim by %q with %q: %d %s, want 401", c.user, c.pw, code, body)
		}
	}
	if code, body := send("POST", "/api/boards/1/claims", `{"side":"black"}`, "Bram Deputy", "bram's secret"); code != http.StatusAccepted {
		t.Fatalf("a claim with Bram's login: %d %s", code, body)
	}
	var claim reconcile.Event
	w.waitFor(t, "the claim event", 30*time.Second, func() bool {
		return has(w.stream("1"), func(e reconcile.Event) bool { claim = e; return e.Type == reconcile.TypeClaim })
	})
	if claim.Arbiter != "Bram Deputy" {
		t.Errorf("the claim event %s: want it to name Bram Deputy", reconcile.Marshal(claim))
	}
	b, _ := d.Hub().Board("1")
	alert := b.Alerts[len(b.Alerts)-1]
	if code, body := send("POST", fmt.Sprintf("/api/boards/1/alerts/%d/ack", alert.ID), "", "Anna Arbiter", "anna's secret"); code != http.StatusOK {
		t.Errorf("an acknowledgement with Anna's login: %d %s", code, body)
	}
	if code, body := send("POST", fmt.Sprintf("/api/boards/1/claims/%d/decision", claim.Seq), `{"decision":"postponed"}`, "Anna Arbiter", "anna's secret"); code != http.StatusAccepted {
		t.Fatalf("a decision with Anna's login: %d %s", code, body)
	}
	w.waitFor(t, "the decision event", 30*time.Second, func() bool {
		return has(w.stream("1"), func(e reconcile.Event) bool { return e.Type == reconcile.TypeDecision && e.Arbiter == "Anna Arbiter" })
	})
	stop()
	capt := readFile(t, capturePath(d.dir, "1"))
	for _, want := range []string{" claim black by Bram%20Deputy\n",
		fmt.Sprintf(" ack %d %s by Anna%%20Arbiter\n", alert.Seq, alert.Kind),
		fmt.Sprintf(" decide %d postponed by Anna%%20Arbiter\n", claim.Seq)} {
		if !strings.Contains(capt, want) {
			t.Errorf("the capture lacks %q", want)
		}
	}
	// The events journalled name the arbiters as replay of the capture does.
	sameStream(t, d.dir, "1", false)
}

// An access section that cannot work stops the daemon before anything is
// written, saying why.
func TestDaemonAccessRefused(t *testing.T) {
	for _, c := range []struct {
		access config.Access
		says   string
	}{
		{config.Access{Arbiters: []config.Arbiter{{Name: "Anna", Hash: "s3cret"}}}, "not a bcrypt hash"},
		{config.Access{Arbiters: []config.Arbiter{{Name: "Anna", SecretEnv: "ARBITERD_TEST_UNSET"}}}, "not set"},
		{config.Access{Arbiters: []config.Arbiter{{Name: "Anna"}}}, "no secret"},
		{config.Access{Spectators: true}, "spectators without arbiters"},
		{config.Access{TLS: &config.TLS{Cert: "/nonexistent/cert.pem", Key: "/nonexistent/key.pem"}}, "cert file"},
	} {
		dir := t.TempDir()
		cfg := testConfig(dir, filepath.Join(dir, "no-board"))
		cfg.Access = &c.access
		_, err := New(Options{Config: cfg})
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%+v: %v, want an error saying %q", c.access, err, c.says)
		}
		if _, serr := os.Stat(filepath.Join(dir, "round-1")); serr == nil {
			t.Errorf("%+v: the journal was started", c.access)
		}
	}
}
