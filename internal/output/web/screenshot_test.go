package web

import (
	"bytes"
	"flag"
	"image/png"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/arbiterd/arbiterd/driver/drivertest"
	"github.com/arbiterd/arbiterd/internal/boards/pipeline"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

var dashboardPNG = flag.String("dashboard-png", "", "write the dashboard screenshot to this file (docs: -dashboard-png ../../../docs/dashboard.png)")

const (
	operaGame = `1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7
8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 14. Rd1 Qe6
15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0`
	evergreenGame = `1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. b4 Bxb4 5. c3 Ba5 6. d4 exd4 7. O-O d3 8. Qb3 Qf6
9. e5 Qg6 10. Re1 Nge7 11. Ba3 b5 12. Qxb5 Rb8 13. Qa4 Bb6 14. Nbd2 Bb7 15. Ne4 Qf5
16. Bxd3 Qh5 17. Nf6+ gxf6 18. exf6 Rg8 19. Rad1 Qxf3 20. Rxe7+ Nxe7 21. Qxd7+ Kxd7
22. Bf5+ Ke8 23. Bd7+ Kf8 24. Bxe7# 1-0`
)

// room is one board of the tournament hall on the screenshot.
type room struct {
	info   hub.Info
	pgn    string
	seed   int64
	script []string
	upto   int  // publish the events up to ply upto's completion (0: all)
	unplug int  // the board's line goes down after ply unplug's completion (0: never)
	ack    bool // the arbiter has acknowledged the alerts
}

// eventsOf plays a game on the emulator (no host, Play), writes the board's
// bytes into a capture, and replays it: the board's event stream.
func eventsOf(t testing.TB, r room) []reconcile.Event {
	t.Helper()
	periods, err := emulator.ParseTimeControl(r.info.TimeControl)
	if err != nil {
		t.Fatal(err)
	}
	cfg := emulator.Config{PGN: r.pgn, Periods: periods, Seed: r.seed}
	for _, s := range r.script {
		a, err := emulator.ParseAction(s)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Script = append(cfg.Script, a)
	}
	emu, err := emulator.New(cfg)
	if err != nil {
		t.Fatalf("board %s: %v", r.info.ID, err)
	}
	var buf bytes.Buffer
	w, err := capture.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	check := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	check(w.Port("board", "dgt"))
	check(w.Meta("board", r.info.ID))
	check(w.Meta("timecontrol", r.info.TimeControl))
	check(w.Data(0, "board", capture.Read, drivertest.DGTBoardDump(drivertest.DGTStartPosition())))
	cut := time.Duration(-1) // the board's line goes down then
	if r.unplug > 0 {
		whole := r
		whole.unplug, whole.upto = 0, r.unplug
		evs := eventsOf(t, whole)
		cut = evs[len(evs)-1].At + time.Second
	}
	for _, c := range emu.Play() {
		if cut >= 0 && c.At > cut {
			break
		}
		check(w.Data(c.At, "board", capture.Read, c.Data))
	}
	if cut >= 0 {
		check(w.Marker(capture.Session(cut, "board", "disconnected")))
	}
	var evs []reconcile.Event
	_, err = pipeline.Replay(bytes.NewReader(buf.Bytes()), pipeline.Options{}, func(e reconcile.Event) error {
		evs = append(evs, e)
		return nil
	})
	check(err)
	if cut >= 0 {
		for i, e := range evs {
			if e.Type == reconcile.TypeAnomaly && e.Kind == reconcile.KindBoardDisconnected {
				return evs[:i+1] // the replay's end of the sessions is not the game's
			}
		}
		t.Fatalf("board %s: no board-disconnected anomaly after the line went down", r.info.ID)
	}
	if r.upto > 0 {
		for i, e := range evs {
			if e.Type == reconcile.TypeComplete && e.Ply == r.upto {
				return evs[:i+1]
			}
		}
		t.Fatalf("board %s: no completed ply %d", r.info.ID, r.upto)
	}
	return evs
}

// TestDashboardScreenshot shows a round of eight boards in a laptop-sized
// browser window: every tile must fit on the 1366×768 screen. With
// -dashboard-png FILE it saves the screenshot (docs/dashboard.png).
func TestDashboardScreenshot(t *testing.T) {
	const tc = "40/5400+30:1800+30"
	rooms := []room{
		{info: hub.Info{ID: "1", Round: "5", White: "Anderssen, Adolf", Black: "Kieseritzky, Lionel"}, pgn: emulator.DefaultPGN, seed: 1,
			script: []string{"flag@38"}},
		{info: hub.Info{ID: "2", Round: "5", White: "Morphy, Paul", Black: "Isouard, Count"}, pgn: operaGame, seed: 2,
			script: []string{"press-nomove@12"}, upto: 20},
		{info: hub.Info{ID: "3", Round: "5", White: "Anderssen, Adolf", Black: "Dufresne, Jean"}, pgn: evergreenGame, seed: 3},
		{info: hub.Info{ID: "4", Round: "5", White: "Novak, Jana", Black: "Okafor, Chidi"}, pgn: emulator.DefaultPGN, seed: 4, upto: 15},
		{info: hub.Info{ID: "5", Round: "5", White: "Lindqvist, Maja", Black: "Haddad, Karim"}, pgn: evergreenGame, seed: 5,
			script: []string{"press-nomove@9"}, upto: 30, ack: true},
		{info: hub.Info{ID: "6", Round: "5", White: "Moreau, Élise", Black: "Tanaka, Ren"}, pgn: operaGame, seed: 6, upto: 9},
		{info: hub.Info{ID: "7", Round: "5", White: "Silva, Bruno", Black: "Kowalski, Ewa"}, pgn: emulator.DefaultPGN, seed: 7, upto: 27},
		{info: hub.Info{ID: "8", Round: "5", White: "Brennan, Aoife", Black: "Mensah, Kwame"}},
	}
	h := hub.New(hub.Options{})
	for _, r := range rooms {
		r.info.TimeControl = tc
		h.AddBoard(r.info)
		if r.pgn == "" {
			continue
		}
		for _, e := range eventsOf(t, r) {
			h.Publish(r.info.ID, e)
		}
		if r.ack {
			b, _ := h.Board(r.info.ID)
			for _, a := range b.Alerts {
				if err := h.Ack(r.info.ID, a.ID); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	web := New(h, Options{})
	srv := httptest.NewServer(web.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(web.Close)
	tab := browser(t, time.Minute)
	if err := chromedp.Do(tab,
		chromedp.Navigate(srv.URL),
		chromedp.WaitVisible(chromedp.CSS(`#board-8`)),
		chromedp.WaitVisible(chromedp.CSS(`#board-1 li.alert.red`)),
		chromedp.Sleep(1200*time.Millisecond), // the running clocks move on
	); err != nil {
		t.Fatal(err)
	}
	// Every tile is wholly on the screen.
	bottom, err := chromedp.Run(tab, chromedp.Evaluate[float64](
		`Math.max(...[...document.querySelectorAll("#boards > section")].map(e => e.getBoundingClientRect().bottom))`))
	if err != nil {
		t.Fatal(err)
	}
	if bottom > 768 {
		t.Errorf("the tiles reach %.0f px down; a 1366×768 screen shows 768", bottom)
	}
	// Each open alert is there in full: nothing is left to a hover.
	cut, err := chromedp.Run(tab, chromedp.Evaluate[[]string](`[...document.querySelectorAll("#boards li.alert:not(.acked) .text")].filter(e =>
		e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1 || e.hasAttribute("title")).map(e => e.closest("section").id)`))
	if err != nil || len(cut) > 0 {
		t.Errorf("open alerts cut short or left to a tooltip on boards %v (%v)", cut, err)
	}
	n, err := chromedp.Run(tab, chromedp.Evaluate[int](`document.querySelectorAll("#boards > section").length`))
	if err != nil || n != len(rooms) {
		t.Errorf("%d tiles for %d boards (%v)", n, len(rooms), err)
	}
	shot, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	if sz := img.Bounds().Size(); sz.X != 1366 || sz.Y != 768 {
		t.Errorf("screenshot is %v, want 1366×768", sz)
	}
	if *dashboardPNG != "" {
		if err := os.WriteFile(*dashboardPNG, shot, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", *dashboardPNG)
	}
}
