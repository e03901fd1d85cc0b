package web

import (
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// roundArbiter is a gameArbiter that loads rounds: it notes which boards
// the arbiter confirmed, and moves every board to round 2.
type roundArbiter struct {
	gameArbiter
	mu        sync.Mutex
	confirmed map[string]bool
}

func (a *roundArbiter) NextRound(confirm func(string) bool, arbiter string) (string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.confirmed = map[string]bool{}
	for _, b := range a.h.Boards() {
		a.confirmed[b.ID] = confirm(b.ID)
		a.h.Reset(b.ID)
		a.h.AddBoard(hub.Info{ID: b.ID, Round: "2", White: "Next, N", Black: "Round, R"})
		a.h.Touch(b.ID)
	}
	return "2", nil
}

func (a *roundArbiter) SetPairing(board, white, black, arbiter string) error {
	b, err := a.h.Board(board)
	if err != nil {
		return err
	}
	a.h.AddBoard(hub.Info{ID: board, Round: b.Round, White: white, Black: black})
	a.h.Touch(board)
	return nil
}

// The dashboard's Next round asks the arbiter to confirm the board whose
// game has not ended, names it in the request, and shows the new round's
// boards.
func TestNextRoundInBrowser(t *testing.T) {
	h := hub.New(hub.Options{})
	for _, id := range []string{"1", "2"} {
		h.AddBoard(hub.Info{ID: id, Round: "1", White: "White " + id, Black: "Black " + id})
		h.Publish(id, reconcile.Event{Type: reconcile.TypeSession, Board: id, Seq: 1, State: "connected", Port: "board"})
	}
	h.Publish("1", reconcile.Event{Type: reconcile.TypeEnd, Board: "1", Seq: 2, Result: "1-0", Reason: "checkmate"})
	arb := &roundArbiter{gameArbiter: gameArbiter{h: h}}
	web := New(h, Options{KeepAlive: time.Second, Arbiter: arb})
	srv := httptest.NewServer(web.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(web.Close)
	tab := browser(t, 2*time.Minute)
	if err := chromedp.Do(tab,
		chromedp.Navigate(srv.URL),
		chromedp.WaitVisible(chromedp.CSS(`#board-2`)),
		chromedp.WaitVisible(chromedp.CSS(`#next-round`)),
	); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(tab, chromedp.Evaluate[bool](`window.asked = ""; window.confirm = (m) => { window.asked = m; return true; }; true`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tab,
		chromedp.Click(chromedp.CSS(`#next-round`)),
		chromedp.Poll[chromedp.Void](`document.getElementById("next-round").title.startsWith("round 2")`, chromedp.WithPollingTimeout(20*time.Second)),
	); err != nil {
		t.Fatal(err)
	}
	asked, err := chromedp.Run(tab, chromedp.Evaluate[string](`window.asked`))
	if err != nil {
		t.Fatal(err)
	}
	if asked == "" || !strings.Contains(asked, "board 2 has not ended") {
		t.Errorf("the page asked %q, want it to name board 2", asked)
	}
	arb.mu.Lock()
	defer arb.mu.Unlock()
	if !arb.confirmed["2"] || arb.confirmed["1"] {
		t.Errorf("confirmed %v, want board 2 only (board 1's game ended)", arb.confirmed)
	}
}

// A wrong pair is corrected from the board's detail: the page asks for
// both names and the board shows them.
func TestCorrectPairingInBrowser(t *testing.T) {
	h := hub.New(hub.Options{})
	h.AddBoard(hub.Info{ID: "4", Round: "1", White: "Wrong, W", Black: "Wrong, B"})
	h.Publish("4", reconcile.Event{Type: reconcile.TypeSession, Board: "4", Seq: 1, State: "connected", Port: "board"})
	web := New(h, Options{KeepAlive: time.Second, Arbiter: &roundArbiter{gameArbiter: gameArbiter{h: h}}})
	srv := httptest.NewServer(web.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(web.Close)
	tab := browser(t, 2*time.Minute)
	if err := chromedp.Do(tab,
		chromedp.Navigate(srv.URL+"/?view=compact"),
		chromedp.WaitVisible(chromedp.CSS(`#board-4`)),
		chromedp.Click(chromedp.CSS(`#board-4`)),
		chromedp.WaitVisible(chromedp.CSS(`#detail button.pairing`)),
	); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(tab, chromedp.Evaluate[bool](
		`window.names = ["Morphy, Paul", "Duke Karl"]; window.prompt = () => window.names.shift(); true`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tab,
		chromedp.Click(chromedp.CSS(`#detail button.pairing`)),
		chromedp.Poll[chromedp.Void](`document.getElementById("detail-body").textContent.includes("Morphy, Paul")`, chromedp.WithPollingTimeout(20*time.Second)),
	); err != nil {
		t.Fatal(err)
	}
	if b, _ := h.Board("4"); b.White != "Morphy, Paul" || b.Black != "Duke Karl" {
		t.Errorf("board 4: %s – %s", b.White, b.Black)
	}
}
