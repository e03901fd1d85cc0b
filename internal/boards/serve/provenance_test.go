package serve

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/buildinfo"
)

// TestProvenance: a new game's capture records the arbiterd build and the
// wall-clock time it started; the journal's PGN takes its Date from that,
// and Event and Site from the configuration. A game continued by another
// build keeps its start and Date, and the capture notes the build that
// goes on with it. None of it changes the event stream.
func TestProvenance(t *testing.T) {
	data := t.TempDir()
	c := testConfig(data, "/dev/nonexistent-board")
	c.Site = "Riga LAT"
	cet := time.FixedZone("CET", 3600)
	start := time.Date(2026, 12, 1, 23, 30, 19, 0, cet) // already 2 December in UTC
	b1 := buildinfo.Info{Version: "1.2.3", Revision: "0123456789abcdef"}
	d, err := New(Options{Config: c, Mounts: []Mount{}, Runners: []Runner{}, Build: b1, Now: func() time.Time { return start }})
	if err != nil {
		t.Fatal(err)
	}
	d.boards[0].close()
	capText := read(t, capturePath(d.Dir(), "1"))
	for _, want := range []string{"#meta arbiterd-version=1.2.3\n", "#meta arbiterd-revision=0123456789abcdef\n",
		"#meta started=2026-12-01T23:30:19+01:00\n", "#meta site=Riga LAT\n", "#meta event=arbiterd test\n"} {
		if !strings.Contains(capText, want) {
			t.Errorf("capture lacks %q:\n%s", want, capText)
		}
	}
	pgnText := read(t, pgnPath(d.Dir(), "1"))
	for _, want := range []string{`[Event "arbiterd test"]`, `[Site "Riga LAT"]`, `[Date "2026.12.01"]`} {
		if !strings.Contains(pgnText, want) {
			t.Errorf("PGN lacks %s:\n%s", want, pgnText)
		}
	}
	events := read(t, eventsPath(d.Dir(), "1"))

	// The next day another build continues the game.
	b2 := buildinfo.Info{Version: "1.2.4", Revision: "fedcba9876543210", Modified: true}
	d, err = New(Options{Config: c, Mounts: []Mount{}, Runners: []Runner{}, Build: b2,
		Now: func() time.Time { return start.Add(24 * time.Hour) }})
	if err != nil {
		t.Fatal(err)
	}
	d.boards[0].close()
	after := read(t, capturePath(d.Dir(), "1"))
	if !strings.HasPrefix(after, capText) {
		t.Fatalf("the capture was rewritten, not continued:\n%s", after)
	}
	added := after[len(capText):]
	for _, want := range []string{"#meta arbiterd-version=1.2.4\n", "#meta arbiterd-revision=fedcba9876543210+modified\n"} {
		if !strings.Contains(added, want) {
			t.Errorf("the continued capture lacks %q:\n%s", want, added)
		}
	}
	if strings.Contains(added, "started=") {
		t.Errorf("a continued game got a new start:\n%s", added)
	}
	if p := read(t, pgnPath(d.Dir(), "1")); !strings.Contains(p, `[Date "2026.12.01"]`) {
		t.Errorf("the continued game's PGN Date is not its start's:\n%s", p)
	}
	if ev := read(t, eventsPath(d.Dir(), "1")); !strings.HasPrefix(ev, events) {
		t.Errorf("the provenance changed the events:\nbefore\n%s\nafter\n%s", events, ev)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
