package web

import (
	"context"
	"encoding/json"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/boards/pipeline"
	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

var detailPNG = flag.String("detail-png", "", "write the screenshot of a board in full on a 1920×1080 screen to this file")

// evalIn evaluates a JavaScript expression in the tab.
func evalIn[T any](t *testing.T, tab context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(tab, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// TestDashboardDetailInBrowser checks, on a 1920×1080 screen, what the
// arbiter reads when a board needs attention: each header chip names the
// board's most important open alert, not its newest; the board in full
// uses the screen (a diagram of at least 480 px, the whole window on the
// screen); a draw claim shows the frozen position drawn and the
// opponent's mate line in SAN, with no FEN and no move in the engine's
// notation anywhere in the alert.
func TestDashboardDetailInBrowser(t *testing.T) {
	const claimFEN = "8/8/4k3/8/8/3K4/R7/8 b - - 0 41"
	h := hub.New(hub.Options{})
	for _, id := range []string{"3", "5", "8"} {
		h.AddBoard(hub.Info{ID: id, Round: "2", White: "White, W" + id, Black: "Black, B" + id, TimeControl: "300+2"})
		if id != "3" { // board 3's stream is its reconciliation's, from seq 1
			h.Publish(id, reconcile.Event{Type: reconcile.TypeSession, Board: id, Seq: 1, State: "connected", Port: "board"})
		}
	}
	// Board 3: Black claims a draw; a press without a move comes after it.
	g, err := reconcile.New(reconcile.Config{Board: "3", StartFEN: claimFEN, Oracle: pipeline.DefaultOracle()})
	if err != nil {
		t.Fatal(err)
	}
	arb := &gameArbiter{g: g, h: h}
	if err := arb.Claim("3", clockd.Black, ""); err != nil {
		t.Fatal(err)
	}
	b3, _ := h.Board("3")
	anomaly := func(id string, seq int, kind reconcile.Kind, detail string) {
		h.Publish(id, reconcile.Event{Type: reconcile.TypeAnomaly, Board: id, Seq: seq, Side: clockd.White, Kind: kind, Article: "7.5.3", Detail: detail})
	}
	anomaly("3", b3.Seq+1, reconcile.KindPressWithoutMove, "White pressed the clock without making a move.")
	// Board 5: the journal cannot be written; a clock stops after that.
	if err := h.Raise("5", hub.Amber, "journal-write-failed", "", "The capture of board 5 cannot be written: disk full."); err != nil {
		t.Fatal(err)
	}
	anomaly("5", 2, reconcile.KindClockStopped, "The clock stopped.")
	// Board 8: a player's default time passed; an illegal move after it.
	anomaly("8", 2, reconcile.KindDefaultTime, "White's default time passed with no move.")
	anomaly("8", 3, reconcile.KindIllegalMove, "White made an illegal move.")

	web := New(h, Options{KeepAlive: time.Second, Arbiter: arb})
	srv := httptest.NewServer(web.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(web.Close)
	tab := browserSized(t, time.Minute, 1920, 1080)
	if err := chromedp.Do(tab,
		chromedp.Navigate(srv.URL),
		chromedp.WaitVisible(chromedp.CSS(`#attention .chip[data-board="8"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#board-3 li.alert .mate`)),
	); err != nil {
		t.Fatal(err)
	}

	// The chips name the most important alert, not the newest.
	for id, want := range map[string]string{
		"3": "Board 3 · draw claim +1",
		"5": "Board 5 · journal write failed +1",
		"8": "Board 8 · default time passed: presence? +1",
	} {
		if got := text(t, tab, `#attention .chip[data-board="`+id+`"]`); got != want {
			t.Errorf("header chip %q, want %q", got, want)
		}
	}

	// The claim as the API words it.
	var api View
	resp, err := http.Get(srv.URL + "/api/boards/3")
	if err != nil {
		t.Fatal(err)
	}
	err = json.NewDecoder(resp.Body).Decode(&api)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	var claim *Alert
	for i := range api.Alerts {
		if api.Alerts[i].Kind == "claim" {
			claim = &api.Alerts[i]
		}
	}
	if claim == nil || claim.Mate == "" || claim.Position != claimFEN {
		t.Fatalf("board 3's claim from the API: %+v", api.Alerts)
	}

	// The board in full, from its chip: it uses the screen.
	if err := chromedp.Do(tab,
		chromedp.Click(chromedp.CSS(`#attention .chip[data-board="3"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#detail[open] #detail-body[data-board="3"] li.alert .mate`)),
	); err != nil {
		t.Fatal(err)
	}
	box := evalIn[[]float64](t, tab, `(() => { const d = document.querySelector("#detail-body > .body > svg.diagram").getBoundingClientRect(),
		w = document.querySelector("#detail").getBoundingClientRect();
		return [d.width, d.height, w.left, w.top, w.right, w.bottom, w.width]; })()`)
	if box[0] < 480 || box[1] < 480 {
		t.Errorf("the board in full draws a %.0f×%.0f px diagram on a 1920×1080 screen, want at least 480 px", box[0], box[1])
	}
	if box[2] < 0 || box[3] < 0 || box[4] > 1920 || box[5] > 1080 || box[6] < 1200 {
		t.Errorf("the board in full spans (%.0f, %.0f)–(%.0f, %.0f), %.0f px wide: want it on the 1920×1080 screen and most of its width",
			box[2], box[3], box[4], box[5], box[6])
	}
	t.Logf("the board in full: %.0f px wide, a %.0f px diagram", box[6], box[0])
	// The alerts stand beside the diagram, each in full.
	if clipped := evalIn[[]string](t, tab, `[...document.querySelectorAll("#detail-body li.alert .text")].filter(e =>
		e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)`); len(clipped) > 0 {
		t.Errorf("alerts cut short in the board in full: %q", clipped)
	}

	// The claim in SAN, its position drawn, nothing in the engine's terms.
	li := `#detail-body li.alert[data-alert="` + itoa(claim.ID) + `"]`
	if got, want := text(t, tab, li+" .mate"), "White can mate: "+claim.Mate; got != want {
		t.Errorf("the claim's mate line reads %q, want %q", got, want)
	}
	if !regexp.MustCompile(`^41… K[a-h][1-8] 42\. `).MatchString(claim.Mate) || !strings.HasSuffix(claim.Mate, "#") {
		t.Errorf("the claim's mate line %q is not SAN with move numbers from move 41", claim.Mate)
	}
	all := text(t, tab, li)
	if fenRE.MatchString(all) || uciRE.MatchString(all) {
		t.Errorf("the claim alert shows a FEN or engine notation: %q", all)
	}
	if got := evalIn[int](t, tab, `document.querySelectorAll("`+strings.ReplaceAll(li, `"`, `\"`)+` .position svg.diagram text").length`); got != diagramGlyphs(claimFEN) {
		t.Errorf("the claim's diagram has %d glyphs, the position needs %d", got, diagramGlyphs(claimFEN))
	}
	if got := evalIn[string](t, tab, `document.querySelector("`+strings.ReplaceAll(li, `"`, `\"`)+` .position svg.diagram").getAttribute("aria-label")`); got != "White: Kd3, Ra2. Black: Ke6. Black to move." {
		t.Errorf("the claim's position in words: %q", got)
	}
	if *detailPNG != "" {
		shot, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(*detailPNG, shot, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The claim is the first alert of the board in full, before the newer
	// press without a move.
	if first := evalIn[string](t, tab, `document.querySelector("#detail-body li.alert").dataset.alert`); first != itoa(claim.ID) {
		t.Errorf("the first alert of board 3 in full is %s, want the claim %d", first, claim.ID)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
