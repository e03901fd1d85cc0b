package demo

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/boards/pipeline"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// The demo end to end through a real pseudo-terminal and go.bug.st/serial:
// the flag verdict is the one the Laws give, and replaying the capture it
// left yields exactly the events it printed live.
func TestDemoLiveEqualsReplay(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a game through a pty")
	}
	playDemo(t, LineAuto)
}

// The demo as it runs on Windows, on every system: the emulator on the
// in-process line, arbiterd's live path on its other end, the same verdict
// and a capture that replays to the same events; the output says so.
func TestDemoInProcessLine(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a game")
	}
	progress := playDemo(t, LineInProcess)
	if !strings.Contains(progress, "on an in-process line") || !strings.Contains(progress, "in-process line, as asked") {
		t.Errorf("the demo does not say it runs on the in-process line:\n%s", progress)
	}
}

func TestParseLine(t *testing.T) {
	for in, want := range map[string]Line{"": LineAuto, "auto": LineAuto, "pty": LinePTY, "in-process": LineInProcess} {
		if got, err := ParseLine(in); got != want || err != nil {
			t.Errorf("ParseLine(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseLine("com3"); err == nil {
		t.Error("ParseLine accepted com3")
	}
	if _, err := Live(context.Background(), Session{Line: "serial"}); err == nil || !strings.Contains(err.Error(), "serial") {
		t.Errorf("Live with an unknown line: %v", err)
	}
}

// playDemo plays the demo on line and checks the verdict and the replay;
// it returns what the demo printed.
func playDemo(t *testing.T, line Line) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var progress bytes.Buffer
	res, err := Run(ctx, Options{Out: t.TempDir(), Speed: 1000, Seed: 1, FlagPly: DefaultFlagPly, Progress: &progress, Line: line})
	if err != nil {
		t.Fatalf("demo: %v\n%s", err, progress.String())
	}
	f := res.Flag
	if f == nil {
		t.Fatalf("no flag verdict\n%s", progress.String())
	}
	if f.Side.String() != "black" || f.Period != 1 || f.MovesCompleted != 18 || f.MovesRequired != 40 ||
		f.ControlReached || f.Verdict != reconcile.VerdictLoss || f.OpponentCanMate != "yes" || len(f.MateLine) == 0 {
		t.Errorf("flag verdict %s", reconcile.Marshal(*f))
	}
	if res.Completed.White != 19 || res.Completed.Black != 18 {
		t.Errorf("completed %+v, want White 19, Black 18", res.Completed)
	}

	liveEvents, err := os.ReadFile(res.Events)
	if err != nil {
		t.Fatal(err)
	}
	cf, err := os.Open(res.Capture)
	if err != nil {
		t.Fatal(err)
	}
	defer cf.Close()
	var replayed bytes.Buffer
	_, err = pipeline.Replay(cf, pipeline.Options{}, func(e reconcile.Event) error {
		replayed.Write(reconcile.Marshal(e))
		replayed.WriteByte('\n')
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The live run stops at the verdict; replay goes on to the end of the
	// capture and closes the session. Everything live must be a prefix.
	if !bytes.HasPrefix(replayed.Bytes(), liveEvents) {
		t.Errorf("replay differs from the live events\nlive:\n%s\nreplay:\n%s", liveEvents, replayed.Bytes())
	}
	pgnText, err := os.ReadFile(res.PGN)
	if err != nil || !bytes.Contains(pgnText, []byte(`[Result "1-0"]`)) || !bytes.Contains(pgnText, []byte("19. e5")) {
		t.Errorf("PGN: %v\n%s", err, pgnText)
	}
	// The capture's provenance, and the PGN's Date from its start.
	capText, err := os.ReadFile(res.Capture)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^#meta started=(\d{4})-(\d\d)-(\d\d)T`).FindSubmatch(capText)
	if m == nil || !bytes.Contains(capText, []byte("\n#meta arbiterd-version=")) || !bytes.Contains(capText, []byte("\n#meta arbiterd-revision=")) {
		t.Errorf("the capture lacks its provenance:\n%.600s", capText)
	} else if date := fmt.Sprintf(`[Date "%s.%s.%s"]`, m[1], m[2], m[3]); !bytes.Contains(pgnText, []byte(date)) {
		t.Errorf("PGN without %s:\n%s", date, pgnText)
	}
	return progress.String()
}
