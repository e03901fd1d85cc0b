package serve

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// The arbiter records a claim and rejects it through the daemon's API
// while the board plays: both go into the board's capture, the journalled
// stream equals the capture's replay, and the round's default time is in
// the capture's meta.
func TestClaimThroughTheDaemon(t *testing.T) {
	sans := immortal(t)
	e1 := startEmu(t, emulator.Config{Game: sans, Seed: 4})
	data := t.TempDir()
	w := newWatcher()
	c := testConfig(data, e1.path)
	c.DefaultTime = "15m"
	d, stop := runDaemon(t, c, w)
	post := func(path, body string) (int, string) {
		t.Helper()
		resp, err := http.Post("http://"+d.Addr().String()+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	w.waitFor(t, "a few moves", 60*time.Second, func() bool { return completed(w.stream("1")).White >= 3 })
	if code, body := post("/api/boards/1/claims", `{"side":"black"}`); code != http.StatusAccepted {
		t.Fatalf("claim: %d %s", code, body)
	}
	var claim reconcile.Event
	w.waitFor(t, "the claim event", 30*time.Second, func() bool {
		for _, e := range w.stream("1") {
			if e.Type == reconcile.TypeClaim {
				claim = e
				return true
			}
		}
		return false
	})
	if code, body := post(fmt.Sprintf("/api/boards/1/claims/%d/decision", claim.Seq), `{"decision":"rejected"}`); code != http.StatusAccepted {
		t.Fatalf("decision: %d %s", code, body)
	}
	w.waitFor(t, "the decision event", 30*time.Second, func() bool {
		return has(w.stream("1"), func(e reconcile.Event) bool { return e.Type == reconcile.TypeDecision && e.Claim == claim.Seq })
	})
	if code, body := post("/api/boards/9/claims", `{"side":"black"}`); code != http.StatusNotFound {
		t.Errorf("a claim on an unknown board: %d %s", code, body)
	}
	stop()
	capt := readFile(t, capturePath(d.dir, "1"))
	for _, want := range []string{"#meta default-time=900", " claim black", fmt.Sprintf(" decide %d rejected", claim.Seq)} {
		if !strings.Contains(capt, want) {
			t.Errorf("the capture lacks %q", want)
		}
	}
	sameStream(t, d.dir, "1", false)
}
