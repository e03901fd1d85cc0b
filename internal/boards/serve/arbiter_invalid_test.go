package serve

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/device/emulator"
)

// Writes the API refuses leave no trace in the board's capture: a decision
// on a claim the board does not have, two bodies in one, an unknown member.
func TestInvalidWritesNotRecorded(t *testing.T) {
	sans := immortal(t)
	e1 := startEmu(t, emulator.Config{Game: sans, Seed: 4})
	w := newWatcher()
	d, stop := runDaemon(t, testConfig(t.TempDir(), e1.path), w)
	w.waitFor(t, "a move", 60*time.Second, func() bool { return completed(w.stream("1")).White >= 1 })
	for _, c := range []struct {
		path, body string
		code       int
	}{
		{"/api/boards/1/claims/99999/decision", `{"decision":"accepted"}`, http.StatusNotFound},
		{"/api/boards/1/claims", `{"side":"white"}{"side":"black"}`, http.StatusBadRequest},
		{"/api/boards/1/claims", `{"side":"white","arbiter":"me"}`, http.StatusBadRequest},
	} {
		resp, err := http.Post("http://"+d.Addr().String()+c.path, "application/json", strings.NewReader(c.body))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.code {
			t.Errorf("POST %s %s: %d %s, want %d", c.path, c.body, resp.StatusCode, b, c.code)
		}
	}
	stop()
	for _, l := range strings.Split(readFile(t, capturePath(d.dir, "1")), "\n") {
		if strings.HasPrefix(l, "#arbiter") {
			t.Errorf("the capture records a refused write: %s", l)
		}
	}
	sameStream(t, d.dir, "1", false)
}
