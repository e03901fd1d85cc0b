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
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// gameArbiter runs the arbiter's acts on a real reconciliation and
// publishes its events to the hub, as the daemon does through the journal.
type gameArbiter struct {
	mu   sync.Mutex
	g    *reconcile.Game
	h    *hub.Hub
	at   time.Duration
	idle bool
}

func (a *gameArbiter) do(board string, act reconcile.ArbiterAction) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if board != "3" {
		return fmt.Errorf("unknown board %q", board)
	}
	if a.idle {
		return fmt.Errorf("line down: %w", ErrBoardIdle)
	}
	a.at += time.Second
	for _, e := range a.g.Arbiter(a.at, act) {
		a.h.Publish(board, e)
	}
	return nil
}

func (a *gameArbiter) Claim(board string, side clockd.Side, arbiter string) error {
	return a.do(board, reconcile.ArbiterAction{Kind: reconcile.ActClaim, Side: side, Arbiter: arbiter})
}

func (a *gameArbiter) Decide(board string, claim int, decision, arbiter string) error {
	return a.do(board, reconcile.ArbiterAction{Kind: reconcile.ActDecide, Claim: claim, Decision: decision, Arbiter: arbiter})
}

func TestClaimAndDecisionThroughTheAPI(t *testing.T) {
	h := hub.New(hub.Options{})
	h.AddBoard(hub.Info{ID: "3"})
	g, err := reconcile.New(reconcile.Config{Board: "3", StartFEN: "8/8/4k3/8/8/3K4/R7/8 b - - 0 1"})
	if err != nil {
		t.Fatal(err)
	}
	arb := &gameArbiter{g: g, h: h}
	srv := httptest.NewServer(New(h, Options{Arbiter: arb}).Handler())
	defer srv.Close()
	post := func(path, body string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, srv.URL+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		buf := new(bytes.Buffer)
		_, _ = buf.ReadFrom(resp.Body)
		return resp.StatusCode, buf.String()
	}
	// Black, with a bare king, claims: White can still mate, so it is the
	// arbiter's judgement; the claim is an open alert.
	code, body := post("/api/boards/3/claims", `{"side":"black"}`)
	if code != http.StatusAccepted {
		t.Fatalf("claim: %d %s", code, body)
	}
	evs, _ := h.Events("3", 0)
	var claim reconcile.Event
	for _, e := range evs {
		if e.Type == reconcile.TypeClaim {
			claim = e
		}
	}
	if claim.Seq == 0 || claim.Side != clockd.Black {
		t.Fatalf("no claim event in %v", evs)
	}
	code, body = post(fmt.Sprintf("/api/boards/3/claims/%d/decision", claim.Seq), `{"decision":"rejected"}`)
	if code != http.StatusAccepted {
		t.Fatalf("decision: %d %s", code, body)
	}
	var v struct {
		Alerts []struct {
			Kind     string `json:"kind"`
			ClosedBy int    `json:"closed_by"`
		} `json:"alerts"`
	}
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatal(err)
	}
	closed := false
	for _, a := range v.Alerts {
		if a.Kind == "claim" && a.ClosedBy > 0 {
			closed = true
		}
	}
	if !closed {
		t.Errorf("the claim alert is not closed by the decision: %s", body)
	}
	for _, c := range []struct {
		path, body string
		code       int
	}{
		{"/api/boards/3/claims", `{"side":"grey"}`, http.StatusBadRequest},
		{"/api/boards/3/claims", `{"side":`, http.StatusBadRequest},
		{"/api/boards/3/claims", `{"side":"white","extra":1}`, http.StatusBadRequest},
		{"/api/boards/9/claims", `{"side":"white"}`, http.StatusNotFound},
		{"/api/boards/3/claims/x/decision", `{"decision":"accepted"}`, http.StatusBadRequest},
		{"/api/boards/3/claims/1/decision", `{"decision":"maybe"}`, http.StatusBadRequest},
	} {
		if code, body := post(c.path, c.body); code != c.code {
			t.Errorf("POST %s %s: %d %s, want %d", c.path, c.body, code, body, c.code)
		}
	}
	arb.idle = true
	if code, body := post("/api/boards/3/claims", `{"side":"white"}`); code != http.StatusConflict {
		t.Errorf("a claim on an idle board: %d %s, want 409", code, body)
	}
	// Without an Arbiter (a replay, a hall) the API says so.
	srv2 := httptest.NewServer(New(h, Options{}).Handler())
	defer srv2.Close()
	resp, err := http.Post(srv2.URL+"/api/boards/3/claims", "application/json", strings.NewReader(`{"side":"white"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotImplemented {
		t.Errorf("no arbiter: %d, want 501", resp.StatusCode)
	}
}
