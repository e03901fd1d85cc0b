package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// countingArbiter is a gameArbiter that counts the acts handed to it: an
// act it is handed is one the daemon would write into the capture.
type countingArbiter struct {
	gameArbiter
	mu   sync.Mutex
	acts []string
}

func (a *countingArbiter) Claim(board string, side clockd.Side, arbiter string) error {
	a.mu.Lock()
	a.acts = append(a.acts, "claim "+side.String())
	a.mu.Unlock()
	return a.gameArbiter.Claim(board, side, arbiter)
}

func (a *countingArbiter) Decide(board string, claim int, decision, arbiter string) error {
	a.mu.Lock()
	a.acts = append(a.acts, fmt.Sprintf("decide %d %s", claim, decision))
	a.mu.Unlock()
	return a.gameArbiter.Decide(board, claim, decision, arbiter)
}

func (a *countingArbiter) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.acts)
}

// TestInvalidWrites: every write is checked in full before anything is
// handed on to be recorded: a decision on a claim the board does not have
// (404) or one decided already (409), bodies that are not exactly one JSON
// object of the members the write takes (400), a body too large (413), a
// claim on a game that is over (409). None of them reaches the arbiter's
// record, and the board's stream has no anomaly from them.
func TestInvalidWrites(t *testing.T) {
	h := hub.New(hub.Options{})
	h.AddBoard(hub.Info{ID: "3"})
	h.AddBoard(hub.Info{ID: "4"})
	g, err := reconcile.New(reconcile.Config{Board: "3", StartFEN: "8/8/4k3/8/8/3K4/R7/8 b - - 0 1"})
	if err != nil {
		t.Fatal(err)
	}
	arb := &countingArbiter{gameArbiter: gameArbiter{g: g, h: h}}
	srv := httptest.NewServer(New(h, Options{Arbiter: arb}).Handler())
	defer srv.Close()
	post := func(path, body string) (int, string) {
		t.Helper()
		resp, err := http.Post(srv.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b bytes.Buffer
		b.ReadFrom(resp.Body)
		var e apiError
		if json.Unmarshal(b.Bytes(), &e) == nil && e.Error != "" {
			return resp.StatusCode, e.Error
		}
		return resp.StatusCode, b.String()
	}
	// one open claim (Black's) and one decided (White's, rejected)
	if code, body := post("/api/boards/3/claims", `{"side":"white"}`); code != http.StatusAccepted {
		t.Fatalf("claim: %d %s", code, body)
	}
	if code, body := post("/api/boards/3/claims/1/decision", `{"decision":"rejected"}`); code != http.StatusAccepted {
		t.Fatalf("decision: %d %s", code, body)
	}
	if code, body := post("/api/boards/3/claims", `{"side":"black"}`); code != http.StatusAccepted {
		t.Fatalf("claim: %d %s", code, body)
	}
	evs, _ := h.Events("3", 0)
	open := evs[len(evs)-1]
	if open.Type != reconcile.TypeClaim {
		t.Fatalf("the last event is not the claim: %s", reconcile.Marshal(open))
	}
	before, acts := len(evs), arb.count()

	dec := fmt.Sprintf("/api/boards/3/claims/%d/decision", open.Seq)
	for _, c := range []struct {
		path, body string
		code       int
		says       string
	}{
		{"/api/boards/3/claims/99999/decision", `{"decision":"accepted"}`, 404, "has no claim 99999"},
		{"/api/boards/3/claims/2/decision", `{"decision":"accepted"}`, 404, "has no claim 2"}, // an event, not a claim
		{"/api/boards/3/claims/1/decision", `{"decision":"accepted"}`, 409, "decided already"},
		{"/api/boards/4/claims/1/decision", `{"decision":"accepted"}`, 404, "no open claim"},
		{"/api/boards/9/claims/1/decision", `{"decision":"accepted"}`, 404, "unknown board"},
		{"/api/boards/3/claims/007/decision", `{"decision":"accepted"}`, 400, "bad claim"},
		{"/api/boards/3/claims/+5/decision", `{"decision":"accepted"}`, 400, "bad claim"},
		{"/api/boards/3/claims/0/decision", `{"decision":"accepted"}`, 400, "bad claim"},
		{"/api/boards/3/claims", `{"side":"white"}{"side":"black"}`, 400, "data after the JSON object"},
		{"/api/boards/3/claims", `{"side":"white"} x`, 400, "data after the JSON object"},
		{"/api/boards/3/claims", `{"side":"white","side":"black"}`, 400, "given twice"},
		{"/api/boards/3/claims", `{"side":"white","by":"me"}`, 400, `unknown member "by"`},
		{"/api/boards/3/claims", `{"Side":"white"}`, 400, `unknown member "Side"`},
		{"/api/boards/3/claims", `{"side":null}`, 400, "not a string"},
		{"/api/boards/3/claims", `{"side":1}`, 400, "not a string"},
		{"/api/boards/3/claims", `{"side":"grey"}`, 400, "want \"white\" or \"black\""},
		{"/api/boards/3/claims", `{}`, 400, `"side" is missing`},
		{"/api/boards/3/claims", ``, 400, "empty"},
		{"/api/boards/3/claims", `["white"]`, 400, "not a JSON object"},
		{"/api/boards/3/claims", `{"side":"white"`, 400, "not a JSON object"},
		{"/api/boards/3/claims", `{"side":"white","pad":"` + strings.Repeat("x", maxBody) + `"}`, 413, "larger than"},
		{dec, `{"decision":"accepted"}{"decision":"rejected"}`, 400, "data after"},
		{dec, `{"decision":"accepted","claim":2}`, 400, `unknown member "claim"`},
		{dec, `{"decision":"maybe"}`, 400, "want \"accepted\""},
		{dec, `{"decision":""}`, 400, "want \"accepted\""},
		{"/api/boards/3/alerts/1/ack", `{"acked":true}`, 400, "takes none"},
		{"/api/boards/3/alerts/01/ack", ``, 400, "bad alert id"},
	} {
		code, body := post(c.path, c.body)
		if code != c.code || !strings.Contains(body, c.says) {
			t.Errorf("POST %s %.60s: %d %s, want %d saying %q", c.path, c.body, code, body, c.code, c.says)
		}
	}
	if n := arb.count(); n != acts {
		t.Errorf("invalid writes reached the arbiter's record: %v", arb.acts[acts:])
	}
	if evs, _ := h.Events("3", 0); len(evs) != before {
		t.Errorf("invalid writes made events: %s", reconcile.Marshal(evs[len(evs)-1]))
	}
	// acknowledgements take no body, or the empty object
	for _, body := range []string{``, `{}`, " {} \n"} {
		if code, resp := post("/api/boards/3/alerts/1/ack", body); code != http.StatusOK {
			t.Errorf("ack with body %q: %d %s", body, code, resp)
		}
	}
	// the valid decision still goes through
	if code, body := post(dec, `{"decision":"accepted"}`); code != http.StatusAccepted {
		t.Fatalf("decision: %d %s", code, body)
	}
	// the game is drawn now: a claim is refused before it is recorded
	acts = arb.count()
	if code, body := post("/api/boards/3/claims", `{"side":"white"}`); code != http.StatusConflict || !strings.Contains(body, "over") {
		t.Errorf("a claim after the game: %d %s, want 409", code, body)
	}
	if arb.count() != acts {
		t.Error("a claim after the game reached the arbiter's record")
	}
}
