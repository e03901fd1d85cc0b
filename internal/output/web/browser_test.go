package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/demo"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// The browser tests run the dashboard in a real headless Chromium (the
// Debian package "chromium"; CI installs it). ARBITERD_CHROMIUM names
// another binary.

func chromiumPath() string {
	if p := os.Getenv("ARBITERD_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browser starts a headless Chromium with a fresh profile and a laptop's
// screen, and returns a tab's context.
func browser(t *testing.T, timeout time.Duration) context.Context {
	t.Helper()
	return browserSized(t, timeout, 1366, 768)
}

// browserSized is browser with a screen of width×height.
func browserSized(t *testing.T, timeout time.Duration, width, height int64) context.Context {
	t.Helper()
	if testing.Short() {
		t.Skip("a real browser (tens of seconds on two cores): not in -short")
	}
	path := chromiumPath()
	if path == "" {
		t.Skip("no chromium binary found (apt-get install -y chromium, or set ARBITERD_CHROMIUM): the dashboard browser test needs a real browser")
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(cancel)
	actx, acancel := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(path),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(int(width), int(height)),
	)
	t.Cleanup(acancel)
	tab, tcancel := chromedp.NewContext(actx, chromedp.WithErrorf(t.Logf))
	t.Cleanup(tcancel)
	if err := chromedp.Do(tab, chromedp.EmulateViewport(width, height)); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	return tab
}

// text reads an element's text.
func text(t *testing.T, tab context.Context, sel string) string {
	t.Helper()
	s, err := chromedp.Run(tab, chromedp.Text(chromedp.CSS(sel), chromedp.NodeVisible))
	if err != nil {
		t.Fatalf("text of %s: %v", sel, err)
	}
	return strings.TrimSpace(s)
}

// fmtClock is how the page shows a clock (the test's own copy).
func fmtClock(d time.Duration) string {
	s := int(d / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s%3600/60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// TestDashboardFlagInBrowser plays the demo's game (the Immortal Game, a
// flag before move 40) on an emulated board through a real pty and
// arbiterd's live path into a hub, serves the dashboard, and checks what a
// real browser shows: the move counts, the red 6.9 alert, the clocks, the
// diagram, the live countdown; then the arbiter acknowledges the alert.
func TestDashboardFlagInBrowser(t *testing.T) {
	h := hub.New(hub.Options{})
	h.AddBoard(hub.Info{ID: "1", Round: "1", White: "Anderssen, Adolf", Black: "Kieseritzky, Lionel", TimeControl: demo.DefaultTimeControl})
	web := New(h, Options{KeepAlive: time.Second})
	srv := httptest.NewServer(web.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(web.Close)
	tab := browser(t, 3*time.Minute)

	if err := chromedp.Do(tab,
		chromedp.Navigate(srv.URL),
		chromedp.WaitVisible(chromedp.CSS(`#board-1`)),
		chromedp.WaitVisible(chromedp.CSS(`#conn.live`)),
	); err != nil {
		t.Fatal(err)
	}
	if got := text(t, tab, "#board-1 .counts .w") + " " + text(t, tab, "#board-1 .counts .b"); got != "W 0/40 B 0/40" {
		t.Errorf("before the game: %q", got)
	}

	tc, err := clockd.ParseTimeControl(demo.DefaultTimeControl)
	if err != nil {
		t.Fatal(err)
	}
	periods, err := emulator.ParseTimeControl(tc.String())
	if err != nil {
		t.Fatal(err)
	}
	gctx, gcancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer gcancel()
	start := time.Now()
	res, err := demo.Live(gctx, demo.Session{
		Emulator: emulator.Config{PGN: emulator.DefaultPGN, Periods: periods, Seed: 1,
			Script: []emulator.Action{{Kind: emulator.Flag, Ply: demo.DefaultFlagPly}}},
		Meta: map[string]string{"board": "1", "round": "1", "white": "Anderssen, Adolf", "black": "Kieseritzky, Lionel",
			"timecontrol": tc.String(), "clock-white": "auto"},
		Dir: t.TempDir(), Speed: 1000,
		OnEvent: func(e reconcile.Event) { h.Publish("1", e) },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the game took %v", time.Since(start).Round(time.Millisecond))
	f := res.Flag
	if f == nil || f.Verdict != reconcile.VerdictLoss || f.Side != clockd.Black || res.Completed.Black != 18 {
		t.Fatalf("the demo game did not end in Black's flag before the control: flag %+v, completed %+v", f, res.Completed)
	}

	// The red alert, with the verdict, the article and the reason.
	red := `#board-1 li.alert.red:not(.acked)`
	if err := chromedp.Do(tab, chromedp.WaitVisible(chromedp.CSS(red))); err != nil {
		t.Fatal(err)
	}
	if title := text(t, tab, red+" .title"); !strings.Contains(title, "LOSS") || !strings.Contains(title, "6.9") {
		t.Errorf("red alert title %q, want LOSS and 6.9", title)
	}
	if reason := text(t, tab, red+" .text"); reason != string(f.Reason) {
		t.Errorf("red alert text %q, want the verdict's reason %q", reason, f.Reason)
	}
	// Moves completed against the control, as the flag counted them.
	want := fmt.Sprintf("W %d/40 B %d/40", res.Completed.White, res.Completed.Black)
	if got := text(t, tab, "#board-1 .counts .w") + " " + text(t, tab, "#board-1 .counts .b"); got != want || !strings.Contains(got, "B 18/40") {
		t.Errorf("counts %q, want %q", got, want)
	}
	// The clocks stand where the flag left them.
	if got, want := text(t, tab, "#board-1 .player.white .clock"), fmtClock(f.Clock.White); got != want {
		t.Errorf("White's clock shows %q, want %q", got, want)
	}
	if got := text(t, tab, "#board-1 .player.black .clock"); got != "0:00" {
		t.Errorf("Black's clock shows %q after the flag, want 0:00", got)
	}
	if got := text(t, tab, "#board-1 .player.white .name"); got != "Anderssen, Adolf" {
		t.Errorf("White is %q", got)
	}
	// The diagram is the board's position: one glyph per black piece, two
	// (fill and outline) per white piece.
	b, err := h.Board("1")
	if err != nil {
		t.Fatal(err)
	}
	glyphs, err := chromedp.Run(tab, chromedp.Evaluate[int](`document.querySelectorAll("#board-1 svg.diagram text").length`))
	if err != nil {
		t.Fatal(err)
	}
	if want := diagramGlyphs(b.FEN); glyphs != want {
		t.Errorf("diagram has %d glyphs, the FEN %q needs %d", glyphs, b.FEN, want)
	}

	// The arbiter acknowledges: the alert greys out, and the API agrees.
	if err := chromedp.Do(tab,
		chromedp.Click(chromedp.CSS(red+" button.ack")),
		chromedp.WaitVisible(chromedp.CSS(`#board-1 li.alert.red.acked`)),
	); err != nil {
		t.Fatal(err)
	}
	bg, err := chromedp.Run(tab, chromedp.Evaluate[string](`getComputedStyle(document.querySelector("#board-1 li.alert.red.acked")).backgroundColor`))
	if err != nil {
		t.Fatal(err)
	}
	if bg != "rgb(236, 238, 239)" {
		t.Errorf("acknowledged alert background %s, want the grey rgb(236, 238, 239)", bg)
	}
	resp, err := http.Get(srv.URL + "/api/boards/1")
	if err != nil {
		t.Fatal(err)
	}
	var api boardJSON
	err = json.NewDecoder(resp.Body).Decode(&api)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	acked := false
	for _, a := range api.Alerts {
		if a.Level == hub.Red && a.Kind == "flag" {
			acked = a.Acked
		}
	}
	if !acked {
		t.Errorf("the API does not show the flag alert acknowledged: %+v", api.Alerts)
	}

	// A running clock counts down in the page between readings; the
	// stopped one does not. Board 2's clock is on a line of its own.
	h.AddBoard(hub.Info{ID: "2", ClockPort: "clock"})
	h.Publish("2", reconcile.Event{Type: reconcile.TypeSession, Seq: 1, State: "connected"})
	h.Publish("2", reconcile.Event{Type: reconcile.TypePress, Seq: 2, Side: clockd.White, At: 10 * time.Second,
		Clock: clockd.Times{White: 5400 * time.Second, Black: 5400 * time.Second}})
	if err := chromedp.Do(tab, chromedp.WaitVisible(chromedp.CSS(`#board-2 .player.black.running`))); err != nil {
		t.Fatal(err)
	}
	b1, w1 := text(t, tab, "#board-2 .player.black .clock"), text(t, tab, "#board-2 .player.white .clock")
	time.Sleep(2100 * time.Millisecond)
	b2, w2 := text(t, tab, "#board-2 .player.black .clock"), text(t, tab, "#board-2 .player.white .clock")
	clock := regexp.MustCompile(`^1:29:[0-5][0-9]$`)
	if !clock.MatchString(b2) || b1 == b2 || w1 != "1:30:00" || w2 != w1 {
		t.Errorf("Black's running clock %q then %q (want it counting down from 1:30:00), White's %q then %q (want it standing)", b1, b2, w1, w2)
	}
	if got := text(t, tab, "#conn"); got != "live" {
		t.Errorf("connection shows %q", got)
	}

	// A separate clock that stops answering: the tile says so, the board
	// stays connected, and no clock runs on in the page.
	h.Publish("2", reconcile.Event{Type: reconcile.TypeSession, Seq: 3, State: "disconnected", Port: "clock"})
	if err := chromedp.Do(tab, chromedp.WaitVisible(chromedp.CSS(`#board-2 .state.clockport`))); err != nil {
		t.Fatal(err)
	}
	if got := text(t, tab, "#board-2 .state.clockport"); got != "CLOCK DISCONNECTED" && got != "clock disconnected" {
		t.Errorf("clock port state shows %q", got)
	}
	connected, err := chromedp.Run(tab, chromedp.Evaluate[int](`document.querySelectorAll("#board-2 .state.connected").length`))
	if err != nil {
		t.Fatal(err)
	}
	if connected != 1 {
		t.Error("the board no longer shows connected after its clock went away")
	}
	runningNow, err := chromedp.Run(tab, chromedp.Evaluate[int](`document.querySelectorAll("#board-2 .player.running").length`))
	if err != nil {
		t.Fatal(err)
	}
	if runningNow != 0 {
		t.Errorf("%d clocks still run in the page with the clock disconnected", runningNow)
	}
}

// diagramGlyphs is how many glyphs the page draws for a FEN.
func diagramGlyphs(fen string) int {
	n := 0
	for _, c := range strings.Fields(fen)[0] {
		switch {
		case strings.ContainsRune("KQRBNP", c):
			n += 2
		case strings.ContainsRune("kqrbnp", c):
			n++
		}
	}
	return n
}
