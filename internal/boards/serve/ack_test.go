package serve

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// An alert acknowledged after the game ended is recorded in the game's
// capture, which is closed by then, naming the arbiter; the capture still
// replays to the events the daemon journalled, and the same alert
// acknowledged again is not recorded twice.
func TestAckAfterTheGameIsRecorded(t *testing.T) {
	e1 := startEmu(t, emulator.Config{Game: strings.Fields("f3 e5 g4 Qh4#"), Seed: 2})
	w := newWatcher()
	d, stop := runDaemon(t, testConfig(t.TempDir(), e1.path), w)
	w.waitFor(t, "the mate", 60*time.Second, func() bool {
		return has(w.stream("1"), func(e reconcile.Event) bool { return e.Type == reconcile.TypeEnd })
	})
	h := d.Hub()
	if err := h.Raise("1", hub.Amber, "test-alert", "", "an alert to acknowledge"); err != nil {
		t.Fatal(err)
	}
	b, _ := h.Board("1")
	a := b.Alerts[len(b.Alerts)-1]
	// the capture is closed once the game is over
	w.waitFor(t, "the capture closed", 10*time.Second, func() bool {
		cb, _ := d.boardByID("1")
		cb.cwMu.Lock()
		defer cb.cwMu.Unlock()
		return cb.cw == nil
	})
	for range 2 {
		if err := d.Ack("1", a.ID, "Anna Novak"); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Ack("1", 999, "Anna Novak"); err == nil {
		t.Error("an unknown alert acknowledged")
	}
	stop()
	capt := readFile(t, capturePath(d.dir, "1"))
	want := fmt.Sprintf(" ack %d test-alert by Anna%%20Novak\n", a.Seq)
	if n := strings.Count(capt, want); n != 1 || !strings.HasSuffix(capt, want) {
		t.Errorf("the capture has %d of %q, want one, last:\n%s", n, want, capt[max(0, len(capt)-300):])
	}
	sameStream(t, d.dir, "1", true)
}
