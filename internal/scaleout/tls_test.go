package scaleout

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nkeys"

	"github.com/arbiterd/arbiterd/internal/config"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// testPKI is a certificate authority made for one test and certificates
// it signs for 127.0.0.1, written as PEM files.
type testPKI struct {
	t    *testing.T
	dir  string
	ca   *x509.Certificate
	key  *ecdsa.PrivateKey
	CA   string // the CA certificate's file
	next int64
}

func newPKI(t *testing.T, name string) *testPKI {
	t.Helper()
	p := &testPKI{t: t, dir: t.TempDir(), next: 2}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	if p.ca, err = x509.ParseCertificate(der); err != nil {
		t.Fatal(err)
	}
	p.key = key
	p.CA = p.write(name+"-ca.pem", "CERTIFICATE", der)
	return p
}

func (p *testPKI) write(name, typ string, der []byte) string {
	p.t.Helper()
	path := filepath.Join(p.dir, name)
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
		p.t.Fatal(err)
	}
	return path
}

// issue signs a certificate for 127.0.0.1, good for a server and a client
// (each side of a leaf connection is both); it returns the certificate's
// and the key's files.
func (p *testPKI) issue(name string) (cert, key string) {
	p.t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		p.t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(p.next), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, DNSNames: []string{"localhost"},
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth}}
	p.next++
	der, err := x509.CreateCertificate(rand.Reader, tmpl, p.ca, &k.PublicKey, p.key)
	if err != nil {
		p.t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(k)
	if err != nil {
		p.t.Fatal(err)
	}
	return p.write(name+".pem", "CERTIFICATE", der), p.write(name+"-key.pem", "EC PRIVATE KEY", kder)
}

// A venue whose leaf listener takes TLS only, with client certificates of
// the event's CA (nats.tls in its configuration): a hall with a
// certificate of that CA gets every board; a hall without TLS, and a hall
// whose certificate another CA signed, get no connection.
func TestLeafTLS(t *testing.T) {
	if testing.Short() {
		t.Skip("NATS servers and venue processes (tens of seconds on two cores): not in -short")
	}
	pki := newPKI(t, "event")
	vc, vk := pki.issue("venue-north")
	hc, hk := pki.issue("hall")
	v := newVenueWith(t, "north", []int{101}, func(c *config.NATS) {
		c.TLS = &config.NATSTLS{Cert: vc, Key: vk, CA: pki.CA}
	})

	other := newPKI(t, "other")
	oc, ok := other.issue("intruder")
	otherTLS, err := TLSConfig(oc, ok, pki.CA) // trusts the venue, but is not trusted by it
	if err != nil {
		t.Fatal(err)
	}
	for name, so := range map[string]ServerOptions{
		"without TLS":                   {Remotes: [][]string{{"nats-leaf://" + v.proxy.addr()}}},
		"with another CA's certificate": {Remotes: [][]string{{"nats-leaf://" + v.proxy.addr()}}, TLS: otherTLS},
	} {
		bad := &tHall{t: t, data: t.TempDir(), events: map[string][][]byte{}}
		bad.opts = HallOptions{Data: bad.data, Venues: []VenueRef{{Name: "north"}}, Server: so}
		bad.start()
		time.Sleep(3 * time.Second)
		if n := bad.hall.Server().NumLeafNodes(); n != 0 || bad.hall.Status().Applied != 0 {
			t.Errorf("a hall %s: %d leaf connections, %d events", name, n, bad.hall.Status().Applied)
		}
		bad.stop()
	}

	hallTLS, err := TLSConfig(hc, hk, pki.CA)
	if err != nil {
		t.Fatal(err)
	}
	h := &tHall{t: t, data: t.TempDir(), events: map[string][][]byte{}}
	h.opts = HallOptions{Data: h.data, Venues: []VenueRef{{Name: "north"}}, OnEvent: h.onEvent,
		Server: ServerOptions{Remotes: [][]string{{"nats-leaf://" + v.proxy.addr()}}, TLS: hallTLS}}
	h.start()
	t.Cleanup(h.stop)
	waitGames(t, h, []*tVenue{v}, 4*time.Minute)
	checkHall(t, h, []*tVenue{v}, false)
}

// operator is an operator-mode NATS deployment made for one test: an
// operator, a system account, and the event's account with JetStream,
// whose users sign in with .creds files.
type operator struct {
	t        *testing.T
	okp, akp nkeys.KeyPair
	oc       *jwt.OperatorClaims
	sysPub   string
	accPub   string
	sysJWT   string
	accJWT   string
}

func newOperator(t *testing.T) *operator {
	t.Helper()
	o := &operator{t: t}
	var err error
	if o.okp, err = nkeys.CreateOperator(); err != nil {
		t.Fatal(err)
	}
	opub, _ := o.okp.PublicKey()
	o.oc = jwt.NewOperatorClaims(opub)
	o.oc.Name = "event"
	account := func(name string, js bool) (nkeys.KeyPair, string, string) {
		kp, err := nkeys.CreateAccount()
		if err != nil {
			t.Fatal(err)
		}
		pub, _ := kp.PublicKey()
		ac := jwt.NewAccountClaims(pub)
		ac.Name = name
		if js {
			ac.Limits.JetStreamLimits = jwt.JetStreamLimits{MemoryStorage: -1, DiskStorage: -1, Streams: -1, Consumer: -1}
		}
		tok, err := ac.Encode(o.okp)
		if err != nil {
			t.Fatal(err)
		}
		return kp, pub, tok
	}
	_, o.sysPub, o.sysJWT = account("SYS", false)
	o.akp, o.accPub, o.accJWT = account("ARBITERD", true)
	return o
}

// creds writes a user's credentials file, signed by the event's account.
func (o *operator) creds(name string) string {
	o.t.Helper()
	ukp, err := nkeys.CreateUser()
	if err != nil {
		o.t.Fatal(err)
	}
	upub, _ := ukp.PublicKey()
	seed, _ := ukp.Seed()
	uc := jwt.NewUserClaims(upub)
	uc.Name = name
	tok, err := uc.Encode(o.akp)
	if err != nil {
		o.t.Fatal(err)
	}
	data, err := jwt.FormatUserConfig(tok, seed)
	if err != nil {
		o.t.Fatal(err)
	}
	path := filepath.Join(o.t.TempDir(), name+".creds")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		o.t.Fatal(err)
	}
	return path
}

// server starts a NATS server of the deployment with JetStream in the
// venue's domain: client and leaf ports on 127.0.0.1.
func (o *operator) server(domain string) (*server.Server, string) {
	o.t.Helper()
	res := &server.MemAccResolver{}
	res.Store(o.sysPub, o.sysJWT)
	res.Store(o.accPub, o.accJWT)
	opts := &server.Options{ServerName: "ops-" + domain, Host: "127.0.0.1", Port: server.RANDOM_PORT, NoSigs: true, NoLog: true,
		JetStream: true, JetStreamDomain: domain, StoreDir: o.t.TempDir(),
		TrustedOperators: []*jwt.OperatorClaims{o.oc}, SystemAccount: o.sysPub, AccountResolver: res}
	leaf, err := freePort("127.0.0.1:0")
	if err != nil {
		o.t.Fatal(err)
	}
	_, opts.LeafNode.Port, _ = splitHostPort(leaf)
	opts.LeafNode.Host = "127.0.0.1"
	s, err := server.NewServer(opts)
	if err != nil {
		o.t.Fatal(err)
	}
	go s.Start()
	if !s.ReadyForConnections(30 * time.Second) {
		o.t.Fatal("the operator-mode server is not ready")
	}
	o.t.Cleanup(func() { s.Shutdown(); s.WaitForShutdown() })
	return s, leaf
}

// An operator-mode deployment, where every connection signs in with a
// user credentials file: the venue joins its NATS server by URL with its
// .creds (nats.url, nats.credentials), the hall dials that server's leaf
// port with its own .creds and gets the venue's boards; a hall with the
// credentials of another operator's user gets no connection.
func TestCredentialsFile(t *testing.T) {
	if testing.Short() {
		t.Skip("NATS servers and venue processes (tens of seconds on two cores): not in -short")
	}
	op := newOperator(t)
	srv, leaf := op.server("north")
	leafURL := "nats-leaf://" + leaf

	rv := &recordedVenue{name: "north", dir: t.TempDir()}
	var err error
	rv.venue, err = OpenVenue(VenueOptions{Venue: "north", Event: "creds test", Round: "1", Dir: rv.dir, Boards: []string{"7"},
		URL: srv.ClientURL(), Auth: Auth{Credentials: op.creds("venue-north")}})
	if err != nil {
		t.Fatal(err)
	}
	rv.serve(t)
	capt, evs := claimGame(t, "7")
	rv.play(t, "7", capt, evs)

	stranger := newOperator(t).creds("stranger")
	bad := &tHall{t: t, data: t.TempDir(), events: map[string][][]byte{}}
	bad.opts = HallOptions{Data: bad.data, Venues: []VenueRef{{Name: "north"}},
		Server: ServerOptions{Remotes: [][]string{{leafURL}}, Auth: Auth{Credentials: stranger}}}
	bad.start()
	time.Sleep(3 * time.Second)
	if n := bad.hall.Server().NumLeafNodes(); n != 0 || bad.hall.Status().Applied != 0 {
		t.Errorf("a hall with another operator's credentials: %d leaf connections, %d events", n, bad.hall.Status().Applied)
	}
	bad.stop()

	h := &tHall{t: t, data: t.TempDir(), events: map[string][][]byte{}}
	h.opts = HallOptions{Data: h.data, Venues: []VenueRef{{Name: "north"}}, OnEvent: h.onEvent,
		Server: ServerOptions{Remotes: [][]string{{leafURL}}, Auth: Auth{Credentials: op.creds("hall")}}}
	h.start()
	t.Cleanup(h.stop)
	deadline := time.Now().Add(2 * time.Minute)
	last := evs[len(evs)-1].Seq
	for {
		b, err := h.hall.Hub().Board("7")
		capData, _ := os.ReadFile(filepath.Join(h.data, "venues", "north", "round-1", "board-7.capture"))
		if err == nil && b.Seq == last && string(capData) == string(capt) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("board 7 at the hall: event %d of %d, capture %d of %d bytes (%v)", b.Seq, last, len(capData), len(capt), err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	h.hall.syncWrites() // shown on the hub: its file's write may still be queued
	got, _ := os.ReadFile(filepath.Join(h.data, "venues", "north", "round-1", "board-7.events.jsonl"))
	var want []byte
	for _, e := range evs {
		want = append(append(want, reconcile.Marshal(e)...), '\n')
	}
	if string(got) != string(want) {
		t.Errorf("the hall's events of board 7 are not the venue's")
	}
}
