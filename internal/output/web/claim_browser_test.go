package web

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// The arbiter records a claim and rejects it from the dashboard, in a real
// browser: the claim becomes an alert with the three decisions, the
// rejection closes it and stays open itself until the two minutes are
// added.
func TestClaimInBrowser(t *testing.T) {
	h := hub.New(hub.Options{})
	h.AddBoard(hub.Info{ID: "3", White: "White, W", Black: "Black, B", TimeControl: "300+2"})
	g, err := reconcile.New(reconcile.Config{Board: "3"})
	if err != nil {
		t.Fatal(err)
	}
	arb := &gameArbiter{g: g, h: h}
	for _, e := range []reconcile.Event{
		{Type: reconcile.TypeSession, Board: "3", Seq: 1, State: "connected", Port: "board"},
		{Type: reconcile.TypeMove, Board: "3", Seq: 2, Ply: 1, Side: clockd.White, SAN: "e4", UCI: "e2e4",
			FEN: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"},
	} {
		h.Publish("3", e)
	}
	web := New(h, Options{KeepAlive: time.Second, Arbiter: arb})
	srv := httptest.NewServer(web.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(web.Close)
	tab := browser(t, 2*time.Minute)
	claim := `#board-3 button.claim[data-side="black"]`
	reject := `#board-3 li.alert button.decide[data-decision="rejected"]`
	if err := chromedp.Do(tab,
		chromedp.Navigate(srv.URL),
		chromedp.WaitVisible(chromedp.CSS(claim)),
	); err != nil {
		t.Fatal(err)
	}
	// the page asks before recording a claim: the arbiter says yes
	if _, err := chromedp.Run(tab, chromedp.Evaluate[bool](`window.confirm = () => true; true`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tab,
		chromedp.Click(chromedp.CSS(claim)),
		chromedp.WaitVisible(chromedp.CSS(reject)),
	); err != nil {
		t.Fatal(err)
	}
	b, _ := h.Board("3")
	if len(b.Alerts) != 1 || b.Alerts[0].Kind != "claim" || b.Alerts[0].Side != "black" {
		t.Fatalf("alerts after the claim: %+v", b.Alerts)
	}
	if err := chromedp.Do(tab,
		chromedp.Click(chromedp.CSS(reject)),
		chromedp.WaitNotPresent(chromedp.CSS(`#board-3 button.decide`)),
	); err != nil {
		t.Fatal(err)
	}
	b, _ = h.Board("3")
	if len(b.Alerts) != 2 || b.Alerts[0].ClosedBy == 0 || b.Alerts[1].Kind != "decision" || b.Alerts[1].Acked {
		t.Errorf("alerts after the rejection: %+v", b.Alerts)
	}
	open, err := chromedp.Run(tab, chromedp.Evaluate[int](`document.querySelectorAll("#board-3 li.alert:not(.acked)").length`))
	if err != nil {
		t.Fatal(err)
	}
	if open != 1 {
		t.Errorf("%d open alerts on the page, want 1 (the rejection's two minutes)", open)
	}
}
