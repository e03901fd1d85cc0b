package web

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// TestAccess: with arbiters configured, writing needs an arbiter's login
// (HTTP Basic: the name and the secret, checked against its bcrypt hash),
// reads are open only with a spectators' view, and a write over the
// network in clear text is refused before its secret is even looked at.
// Without arbiters, writes come from this computer only.
func TestAccess(t *testing.T) {
	hash, err := bcrypt.GenerateFromPassword([]byte("s3cret"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	newServer := func(a *Access) http.Handler {
		h := hub.New(hub.Options{})
		h.AddBoard(hub.Info{ID: "1"})
		h.Publish("1", reconcile.Event{Type: reconcile.TypeAnomaly, Seq: 1, Kind: reconcile.KindPressWithoutMove, Article: "7.5.3", Detail: "a press"})
		return New(h, Options{Access: a}).Handler()
	}
	type req struct {
		method, path   string
		remote         string // "" local
		tls            bool
		user, password string
	}
	do := func(hnd http.Handler, q req) (int, http.Header, string) {
		target := q.path
		if q.tls {
			target = "https://arbiterd.example" + q.path
		}
		r := httptest.NewRequest(q.method, target, nil)
		r.RemoteAddr = "127.0.0.1:41000"
		if q.remote != "" {
			r.RemoteAddr = q.remote
		}
		if q.user != "" {
			r.SetBasicAuth(q.user, q.password)
		}
		rec := httptest.NewRecorder()
		hnd.ServeHTTP(rec, r)
		return rec.Code, rec.Header(), rec.Body.String()
	}
	const ack, lan = "/api/boards/1/alerts/1/ack", "192.168.1.20:50000"
	anna := []Login{{Name: "Anna Arbiter", Hash: hash}}
	for _, c := range []struct {
		name   string
		access *Access
		req    req
		code   int
		says   string
	}{
		{"no access section: a local write", nil, req{method: "POST", path: ack}, 200, ""},
		{"no access section: a write from the network", nil, req{method: "POST", path: ack, remote: lan}, 403, "only from this computer"},
		{"no access section: a read from the network", nil, req{method: "GET", path: "/api/boards", remote: lan}, 200, ""},
		{"spectators: a read without login", &Access{Arbiters: anna, Spectators: true}, req{method: "GET", path: "/api/boards", remote: lan}, 200, ""},
		{"spectators: the page without login", &Access{Arbiters: anna, Spectators: true}, req{method: "GET", path: "/", remote: lan}, 200, ""},
		{"a write without login", &Access{Arbiters: anna, Spectators: true}, req{method: "POST", path: ack}, 401, "needs an arbiter's login"},
		{"a write with a wrong secret", &Access{Arbiters: anna}, req{method: "POST", path: ack, user: "Anna Arbiter", password: "guess"}, 401, "login"},
		{"a write by an unknown name", &Access{Arbiters: anna}, req{method: "POST", path: ack, user: "Mallory", password: "s3cret"}, 401, "login"},
		{"a local write with the login", &Access{Arbiters: anna}, req{method: "POST", path: ack, user: "Anna Arbiter", password: "s3cret"}, 200, ""},
		{"a write over TLS from the network", &Access{Arbiters: anna}, req{method: "POST", path: ack, remote: lan, tls: true, user: "Anna Arbiter", password: "s3cret"}, 200, ""},
		{"a write in clear text from the network", &Access{Arbiters: anna}, req{method: "POST", path: ack, remote: lan, user: "Anna Arbiter", password: "s3cret"}, 403, "clear text"},
		{"no spectators: a read without login", &Access{Arbiters: anna}, req{method: "GET", path: "/api/boards", remote: lan, tls: true}, 401, "no spectators' view"},
		{"no spectators: the stream without login", &Access{Arbiters: anna}, req{method: "GET", path: "/api/stream"}, 401, "login"},
		{"no spectators: a read with the login", &Access{Arbiters: anna}, req{method: "GET", path: "/api/boards/1", remote: lan, tls: true, user: "Anna Arbiter", password: "s3cret"}, 200, ""},
	} {
		code, hdr, body := do(newServer(c.access), c.req)
		if code != c.code || !strings.Contains(body, c.says) {
			t.Errorf("%s: %d %s, want %d saying %q", c.name, code, body, c.code, c.says)
		}
		if code == http.StatusUnauthorized && !strings.HasPrefix(hdr.Get("WWW-Authenticate"), "Basic ") {
			t.Errorf("%s: 401 without a Basic challenge (a browser would not ask for the login)", c.name)
		}
	}
	// A login checked once is remembered, and still only for its secret.
	hnd := newServer(&Access{Arbiters: anna})
	for _, pw := range []string{"s3cret", "s3cret", "S3cret"} {
		code, _, body := do(hnd, req{method: "POST", path: ack, user: "Anna Arbiter", password: pw})
		if want := map[bool]int{true: 200, false: 401}[pw == "s3cret"]; code != want {
			t.Errorf("secret %q: %d %s, want %d", pw, code, body, want)
		}
	}
}
