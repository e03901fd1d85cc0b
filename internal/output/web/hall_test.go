package web

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

var hallPNG = flag.String("hall-png", "", "write the 40-board hall screenshot to this file (docs: -hall-png ../../../docs/dashboard-hall.png)")

// hallNames are the players of the hall, two per board.
var hallNames = []string{
	"Anderssen, Adolf", "Kieseritzky, Lionel", "Novak, Jana", "Okafor, Chidi", "Lindqvist, Maja", "Haddad, Karim",
	"Moreau, Élise", "Tanaka, Ren", "Silva, Bruno", "Kowalski, Ewa", "Brennan, Aoife", "Mensah, Kwame",
	"Petrov, Dmitri", "García, Lucía", "Nguyen, Minh", "Schmidt, Lena", "Rossi, Marco", "Kaur, Harpreet",
	"Johansson, Erik", "Dubois, Camille", "Yilmaz, Emre", "Ivanova, Olga", "Costa, Rafael", "Müller, Jonas",
	"Sato, Yuki", "Hernández, Diego", "Nowak, Piotr", "Fischer, Anna", "Adeyemi, Tunde", "Larsen, Sofie",
	"Popescu, Andrei", "Chen, Wei", "Kovač, Luka", "Ali, Fatima", "Horvat, Ivana", "Byrne, Cian",
	"Santos, Mariana", "Kim, Ji-woo", "Virtanen, Aino", "Fernández, Pablo", "Dimitrov, Georgi", "Levi, Noa",
	"Papadopoulos, Eleni", "Andersen, Mikkel", "Bianchi, Giulia", "Ortiz, Valentina", "Wójcik, Marta", "Hassan, Omar",
	"Eriksson, Ingrid", "Molnár, Bence", "Ramos, Tiago", "Öztürk, Selin", "Kuznetsov, Pavel", "Martin, Chloé",
	"Jovanović, Milan", "Singh, Arjun", "O'Neill, Siobhán", "Yamamoto, Haruto", "Novotná, Tereza", "Abbasi, Reza",
	"Nielsen, Freja", "Lopez, Mateo", "Szabó, Réka", "Volkov, Artem", "Dupont, Hugo", "Pereira, Ana",
	"Ward, Olivia", "Kasparian, Aram", "Berg, Henrik", "Tran, Linh", "Marino, Luca", "Demir, Elif",
	"Mazur, Kacper", "Bakker, Sanne", "Hoang, Bao", "Cruz, Isabela", "Koch, Felix", "Sorensen, Ida",
	"Agarwal, Priya", "Walsh, Declan",
}

// prefix is a stream up to the completion of ply (the game still on).
func prefix(evs []reconcile.Event, ply int) []reconcile.Event {
	end := 0
	for i, e := range evs {
		if e.Type == reconcile.TypeComplete && e.Ply <= ply {
			end = i + 1
		}
	}
	return evs[:end]
}

// hall is a round of 40 boards as arbiterd's hub holds it: games played
// on the emulator, captured and replayed through the pipeline (a flag
// before the control, presses without a move, a board whose line went
// down, an alert settled by the arbiter's change of a clock, games in
// progress at every stage, two not started), and a real stream in which a
// press gave the turn back after a press without a move.
type hall struct {
	hub *hub.Hub
	// the boards that need attention, in the order the dashboard puts them:
	// the open flag verdict, the board disconnected, the open anomalies
	red, away, amber []string
}

func newHall(t *testing.T) hall {
	t.Helper()
	const tc = "40/5400+30:1800+30"
	game := func(pgn string, seed int64, script ...string) []reconcile.Event {
		return eventsOf(t, room{info: hub.Info{ID: "x", TimeControl: tc}, pgn: pgn, seed: seed, script: script})
	}
	flagGame := game(emulator.DefaultPGN, 1, "flag@38")
	pressGame := game(operaGame, 2, "press-nomove@12")
	settled := game(operaGame, 2, "press-nomove@12", "arbiter@ply=13,side=white,by=2m") // the arbiter gives White the 2 minutes
	games := [][]reconcile.Event{game(evergreenGame, 3), game(emulator.DefaultPGN, 4), game(operaGame, 6)}
	unplugged := eventsOf(t, room{info: hub.Info{ID: "x", TimeControl: tc}, pgn: evergreenGame, seed: 5, unplug: 24})
	pressBack := readEvents(t, "testdata/press-back.jsonl")

	h := hub.New(hub.Options{})
	hl := hall{hub: h, red: []string{"3"}, away: []string{"9", "33"}, amber: []string{"14", "22"}}
	for i := 1; i <= 40; i++ {
		id := fmt.Sprint(i)
		in := hub.Info{ID: id, Round: "7", White: hallNames[2*i-2], Black: hallNames[2*i-1], TimeControl: tc}
		if i == 33 {
			in.ClockPort = "clock" // its clock is on a line of its own
		}
		h.AddBoard(in)
		var evs []reconcile.Event
		ack := false
		switch i {
		case 3:
			evs = flagGame
		case 31:
			evs, ack = flagGame, true // over, and acknowledged
		case 9:
			evs = unplugged
		case 14:
			evs = prefix(pressGame, 20)
		case 27:
			evs = prefix(settled, 28) // its alert settled by the arbiter's change of the clock
		case 22:
			evs = prefix(pressBack, 30)
		case 39, 40:
			// not started
		default:
			g := games[i%len(games)]
			last := 0
			for _, e := range g {
				if e.Type == reconcile.TypeComplete {
					last = e.Ply
				}
			}
			evs = prefix(g, 4+(i*7)%(last-6))
		}
		for _, e := range evs {
			e.Board = id
			h.Publish(id, e)
		}
		if i == 33 {
			// its clock, on a line of its own, stops answering
			last := evs[len(evs)-1]
			at := last.At + 5*time.Second
			h.Publish(id, reconcile.Event{Type: reconcile.TypeSession, Board: id, Seq: last.Seq + 1, At: at, State: "disconnected", Port: "clock"})
			h.Publish(id, reconcile.Event{Type: reconcile.TypeAnomaly, Board: id, Seq: last.Seq + 2, At: at, Kind: reconcile.KindClockDisconnected,
				NoSide: true, Article: "–", Detail: `The clock on port "clock" stopped answering; moves and presses made meanwhile are seen only when it is back. Check the connection.`})
		}
		if ack {
			b, _ := h.Board(id)
			for _, a := range b.Alerts {
				if err := h.Ack(id, a.ID); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return hl
}

// evalJS runs a JavaScript expression in the tab.
func evalJS[T any](t *testing.T, tab context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(tab, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// TestDashboardHall shows a round of 40 boards on a 1920×1080 screen in
// the compact hall view and checks what the arbiter needs there: every
// board on the screen with the names readable, the header naming the
// boards that need attention, the disconnected board unmistakable, the
// boards that need attention first and alone, and, a tap away, every
// alert in full in the arbiter's terms (the move and the clocks, the 6.9
// mate line in SAN, a press back called a press back). With -hall-png FILE
// it saves the screenshot (docs/dashboard-hall.png).
func TestDashboardHall(t *testing.T) {
	hl := newHall(t)
	web := New(hl.hub, Options{})
	srv := httptest.NewServer(web.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(web.Close)
	tab := browserSized(t, 2*time.Minute, 1920, 1080)
	if err := chromedp.Do(tab,
		chromedp.Navigate(srv.URL),
		chromedp.WaitVisible(chromedp.CSS(`#board-40`)),
		chromedp.WaitVisible(chromedp.CSS(`body.compact #board-3 .line.red`)),
		chromedp.WaitVisible(chromedp.CSS(`#conn.live`)),
		chromedp.Sleep(600*time.Millisecond), // the running clocks move on
	); err != nil {
		t.Fatal(err)
	}

	// Every board is wholly on the screen.
	if n := evalJS[int](t, tab, `document.querySelectorAll("#boards > section.tile.compact").length`); n != 40 {
		t.Fatalf("%d compact tiles, want 40", n)
	}
	box := evalJS[[]float64](t, tab, `(() => { const r = [...document.querySelectorAll("#boards > section")].map(e => e.getBoundingClientRect());
		return [Math.max(...r.map(b => b.bottom)), Math.max(...r.map(b => b.right)), Math.min(...r.map(b => b.width))]; })()`)
	if box[0] > 1080 || box[1] > 1920 {
		t.Errorf("the tiles reach %.0f px down and %.0f px across; the screen is 1920×1080", box[0], box[1])
	}
	// The names are readable: at least 13 px, none cut short.
	names := evalJS[[]string](t, tab, `[...document.querySelectorAll("#boards .player .name")].filter(e =>
		parseFloat(getComputedStyle(e).fontSize) < 13 || e.scrollWidth > e.clientWidth + 1).map(e => e.closest("section").id + ": " + e.textContent)`)
	if len(names) > 0 {
		t.Errorf("names too small or cut short on a 1920×1080 screen: %q", names)
	}
	// A name too long for its tile keeps the surname whole, and its
	// initials if they fit.
	shown := evalJS[[]string](t, tab, `[...document.querySelectorAll("#boards .player .name")].map(e => e.textContent)`)
	short := 0
	for _, n := range shown {
		full := ""
		for _, h := range hallNames {
			if sur, _, _ := strings.Cut(h, ","); strings.HasPrefix(n+",", sur+",") {
				full = h
			}
		}
		switch {
		case n == full:
		case full != "" && regexp.MustCompile(`^[^,]+(, (\pL\.( |$))+)?$`).MatchString(n):
			short++
		default:
			t.Errorf("the name %q is neither a player's name nor its short form", n)
		}
	}
	if len(shown) != 80 || short > 8 {
		t.Errorf("%d names, %d of them shortened, on a 1920×1080 screen (want 80, most in full)", len(shown), short)
	}
	// Nothing in a tile runs over its edge.
	if over := evalJS[[]string](t, tab, `[...document.querySelectorAll("#boards > section .head, #boards > section .player, #boards > section .counts")].filter(e =>
		e.scrollWidth > e.clientWidth + 1).map(e => e.closest("section").id + " " + e.className)`); len(over) > 0 {
		t.Errorf("content runs over the edge of its tile: %q", over)
	}
	// So are the clocks and the moves completed.
	if px := evalJS[float64](t, tab, `parseFloat(getComputedStyle(document.querySelector("#board-5 .player .clock")).fontSize)`); px < 16 {
		t.Errorf("clocks at %.0f px", px)
	}

	// The header names the boards that need attention, in that order.
	want := slices.Concat(hl.red, hl.away, hl.amber)
	if got := evalJS[[]string](t, tab, `[...document.querySelectorAll("#attention .chip")].map(c => c.dataset.board)`); !slices.Equal(got, want) {
		t.Errorf("the header names boards %v, want %v", got, want)
	}
	chip := func(id string) string { return text(t, tab, `#attention .chip[data-board="`+id+`"]`) }
	for id, re := range map[string]string{"3": `^Board 3 · LOSS 6\.9$`, "9": `^Board 9 · disconnected$`, "33": `^Board 33 · clock disconnected$`, "14": `^Board 14 · press without a move$`, "22": `^Board 22 · press without a move \+1$`} {
		if got := chip(id); !regexp.MustCompile(re).MatchString(got) {
			t.Errorf("header chip %q, want %s", got, re)
		}
	}

	// The disconnected board: a banner across its head, the tile struck.
	if got := text(t, tab, `#board-9 .state.banner`); !strings.EqualFold(got, "board disconnected") {
		t.Errorf("board 9's banner reads %q", got)
	}
	st := evalJS[[]string](t, tab, `(() => { const t = document.querySelector("#board-9"), b = t.querySelector(".banner");
		return [getComputedStyle(t).backgroundImage, getComputedStyle(b).backgroundColor, getComputedStyle(b).color, t.className]; })()`)
	if !strings.Contains(st[0], "repeating-linear-gradient") || st[1] != "rgb(198, 40, 40)" || st[2] != "rgb(255, 255, 255)" {
		t.Errorf("board 9 does not look disconnected: background %s, banner %s on %s", st[0], st[2], st[1])
	}
	if n := evalJS[int](t, tab, `document.querySelectorAll("#boards > section.disconnected").length`); n != 1 {
		t.Errorf("%d boards look disconnected, want board 9 only", n)
	}
	// A clock disconnected: the board is still read, its tile says so.
	if got := text(t, tab, `#board-33 .state.clockport`); !strings.EqualFold(got, "clock disconnected") {
		t.Errorf("board 33's clock state reads %q", got)
	}
	if got := evalJS[string](t, tab, `getComputedStyle(document.querySelector("#board-33")).borderTopStyle`); got != "dashed" {
		t.Errorf("board 33's border is %s, want dashed", got)
	}

	shot, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	if sz := img.Bounds().Size(); sz.X != 1920 || sz.Y != 1080 {
		t.Errorf("screenshot is %v, want 1920×1080", sz)
	}
	if *hallPNG != "" {
		if err := os.WriteFile(*hallPNG, shot, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", *hallPNG)
	}

	// A tap on a tile shows the board in full: every alert's whole text,
	// in the arbiter's terms.
	var api View
	resp, err := http.Get(srv.URL + "/api/boards/14")
	if err != nil {
		t.Fatal(err)
	}
	err = json.NewDecoder(resp.Body).Decode(&api)
	resp.Body.Close()
	if err != nil || len(api.Alerts) != 1 {
		t.Fatalf("board 14 from the API: %v, %+v", err, api.Alerts)
	}
	if err := chromedp.Do(tab,
		chromedp.Click(chromedp.CSS(`#board-14 .player.white`)),
		chromedp.WaitVisible(chromedp.CSS(`#detail[open] #detail-body[data-board="14"] li.alert.amber`)),
	); err != nil {
		t.Fatal(err)
	}
	say := text(t, tab, `#detail-body li.alert.amber .text`)
	if say != api.Alerts[0].Say || !strings.HasPrefix(say, "Black pressed the clock on move 6 without making a move (the clocks then showed White 1:21:24, Black 1:20:39).") ||
		captureSeconds.MatchString(say) {
		t.Errorf("board 14's alert in full reads %q, want the API's %q", say, api.Alerts[0].Say)
	}
	if got := text(t, tab, `#detail-body .meta.tc`); got != "time control 40/5400+30:1800+30" {
		t.Errorf("board 14's detail shows %q for the time control", got)
	}
	if got := text(t, tab, `#detail-body li.alert.amber .when`); got != "move 6 · White 1:21:24 · Black 1:20:39" {
		t.Errorf("board 14's alert is dated %q", got)
	}
	if clipped := evalJS[bool](t, tab, `(() => { const e = document.querySelector("#detail-body li.alert.amber .text");
		return e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1; })()`); clipped {
		t.Error("board 14's alert text is cut short in the board's detail")
	}
	// The arbiter acknowledges there: the header no longer names board 14.
	if err := chromedp.Do(tab,
		chromedp.Click(chromedp.CSS(`#detail-body button.ack`)),
		chromedp.WaitVisible(chromedp.CSS(`#detail-body li.alert.amber.acked`)),
	); err != nil {
		t.Fatal(err)
	}
	if got := evalJS[[]string](t, tab, `[...document.querySelectorAll("#attention .chip")].map(c => c.dataset.board)`); slices.Contains(got, "14") {
		t.Errorf("the header still names board 14 after its alert was acknowledged: %v", got)
	}

	// The flag, from the header: the verdict and the mate line in SAN.
	if err := chromedp.Do(tab,
		chromedp.Click(chromedp.CSS(`#detail-close`)),
		chromedp.WaitNotVisible(chromedp.CSS(`#detail`)),
		chromedp.Click(chromedp.CSS(`#attention .chip[data-board="3"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#detail-body[data-board="3"] li.alert.red .mate`)),
	); err != nil {
		t.Fatal(err)
	}
	var flagged struct {
		Alerts []Alert `json:"alerts"`
	}
	resp, err = http.Get(srv.URL + "/api/boards/3")
	if err != nil {
		t.Fatal(err)
	}
	err = json.NewDecoder(resp.Body).Decode(&flagged)
	resp.Body.Close()
	if err != nil || len(flagged.Alerts) != 1 || !strings.HasPrefix(flagged.Alerts[0].Mate, "19… ") {
		t.Fatalf("board 3 from the API: %v, %+v", err, flagged.Alerts)
	}
	if got := text(t, tab, `#detail-body li.alert.red .mate`); got != "White can mate: "+flagged.Alerts[0].Mate {
		t.Errorf("the flag's mate line reads %q, want the API's %q", got, flagged.Alerts[0].Mate)
	}
	// The press back after a press without a move is not an illegal move.
	if err := chromedp.Do(tab,
		chromedp.Click(chromedp.CSS(`#detail-close`)),
		chromedp.Click(chromedp.CSS(`#attention .chip[data-board="22"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#detail-body[data-board="22"] li.alert.press-back`)),
	); err != nil {
		t.Fatal(err)
	}
	back := text(t, tab, `#detail-body li.alert.press-back`)
	if !strings.Contains(back, "press back — 7.5.3 · Black") || strings.Contains(back, "illegal move:") ||
		!strings.Contains(back, "not an illegal move of Black's") {
		t.Errorf("the press back reads %q", back)
	}
	if all := text(t, tab, `#detail-body`); strings.Count(all, "first completed illegal move") != 1 {
		t.Errorf("board 22 should name one first illegal move, White's: %q", all)
	}
	if err := chromedp.Do(tab, chromedp.Click(chromedp.CSS(`#detail-close`))); err != nil {
		t.Fatal(err)
	}

	// An alert the arbiter's change of the clock settled, and the change.
	if err := chromedp.Do(tab,
		chromedp.Click(chromedp.CSS(`#board-27 .head`)),
		chromedp.WaitVisible(chromedp.CSS(`#detail-body[data-board="27"] li.alert.info`)),
	); err != nil {
		t.Fatal(err)
	}
	if got := text(t, tab, `#detail-body li.alert.amber.acked .done`); got != "settled" {
		t.Errorf("board 27's press without a move, settled by the arbiter, says %q", got)
	}
	if got := text(t, tab, `#detail-body li.alert.info .title`); got != "clock set by the arbiter — 7.5.5 · White" {
		t.Errorf("board 27's change of the clock is titled %q", got)
	}
	if err := chromedp.Do(tab, chromedp.Click(chromedp.CSS(`#detail-close`))); err != nil {
		t.Fatal(err)
	}

	// Needs attention first, then alone.
	if err := chromedp.Do(tab, chromedp.SetValue(chromedp.CSS(`#order`), "attention")); err != nil {
		t.Fatal(err)
	}
	evalJS[bool](t, tab, `document.querySelector("#order").dispatchEvent(new Event("change"))`)
	want = slices.Concat(hl.red, hl.away, []string{"22"}) // 14 was acknowledged
	order := evalJS[[]string](t, tab, `[...document.querySelectorAll("#boards > section")].map(e => e.dataset.board)`)
	if len(order) != 40 || !slices.Equal(order[:len(want)], want) || order[len(want)] != "1" {
		t.Errorf("ordered by need of attention: %v, want %v first, then board 1 on", order, want)
	}
	if err := chromedp.Do(tab, chromedp.Click(chromedp.CSS(`#only`))); err != nil {
		t.Fatal(err)
	}
	if got := evalJS[[]string](t, tab, `[...document.querySelectorAll("#boards > section:not([hidden])")].map(e => e.dataset.board)`); !slices.Equal(got, want) {
		t.Errorf("needing attention only: %v, want %v", got, want)
	}
	if u := evalJS[string](t, tab, `location.search`); u != "?order=attention&only=1" {
		t.Errorf("the address keeps the choice as %q", u)
	}
}

// TestDashboardVenueCutOff shows, as a hall does, a board whose venue is
// cut off beside one whose venue is heard: the cut-off board says so in a
// banner, its clocks stand still and greyed (what it shows may be behind),
// and it offers no claim and no decision on an open one, which its venue
// could not record; once the venue is heard again, the board runs as any
// other.
func TestDashboardVenueCutOff(t *testing.T) {
	const tc = "40/5400+30:1800+30"
	evs := prefix(eventsOf(t, room{info: hub.Info{ID: "x", TimeControl: tc}, pgn: operaGame, seed: 2}), 12)
	// An open claim on each board, made on a game of its own.
	_, claimed := claimOn(t, "8/8/4k3/8/8/3K4/R7/8 b - - 0 41", clockd.Black)
	for _, e := range claimed {
		if e.Type == reconcile.TypeClaim {
			e.Seq = evs[len(evs)-1].Seq + 1
			evs = append(evs, e)
		}
	}
	h := hub.New(hub.Options{})
	for _, id := range []string{"1", "2"} {
		h.AddBoard(hub.Info{ID: id, Round: "1", White: "White " + id, Black: "Black " + id, TimeControl: tc})
		for _, e := range evs {
			e.Board = id
			h.Publish(id, e)
		}
	}
	var mu sync.Mutex
	cut := true
	link := func(board string) *Link {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case board == "1" && cut:
			return &Link{Venue: "north", State: "cut-off", Since: time.Now().Add(-time.Minute)}
		case board == "1":
			return &Link{Venue: "north", State: "connected"}
		}
		return &Link{Venue: "south", State: "connected"}
	}
	ws := New(h, Options{Link: link})
	srv := httptest.NewServer(ws.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(ws.Close)
	tab := browserSized(t, time.Minute, 1920, 1080)
	if err := chromedp.Do(tab,
		chromedp.Navigate(srv.URL),
		chromedp.WaitVisible(chromedp.CSS(`#board-2 .player.running`)),
		chromedp.WaitVisible(chromedp.CSS(`#board-1.cut-off .state.cut-off.banner`)),
	); err != nil {
		t.Fatal(err)
	}
	if got := text(t, tab, `#board-1 .state.banner`); !strings.EqualFold(got, "venue cut off") {
		t.Errorf("board 1's banner reads %q", got)
	}
	clocks := func(id string) []string {
		return evalJS[[]string](t, tab, `[...document.querySelectorAll("#board-`+id+` .player .clock")].map(e => e.textContent)`)
	}
	before1, before2 := clocks("1"), clocks("2")
	time.Sleep(1500 * time.Millisecond)
	if after := clocks("1"); !slices.Equal(after, before1) {
		t.Errorf("board 1's clocks run while its venue is cut off: %v, then %v", before1, after)
	}
	if after := clocks("2"); slices.Equal(after, before2) {
		t.Errorf("board 2's clocks stand still: %v", after)
	}
	if n := evalJS[int](t, tab, `document.querySelectorAll("#board-1 .player.running, #board-1 button.claim, #board-1 button.decide").length`); n != 0 {
		t.Errorf("board 1, cut off, has %d running clocks, claim or decision buttons", n)
	}
	if n := evalJS[int](t, tab, `document.querySelectorAll("#board-2 button.claim").length`); n != 2 {
		t.Errorf("board 2 has %d claim buttons, want 2", n)
	}
	if n := evalJS[int](t, tab, `document.querySelectorAll("#board-2 button.decide").length`); n != 3 {
		t.Errorf("board 2 has %d decision buttons on its open claim, want 3", n)
	}
	if c := evalJS[string](t, tab, `getComputedStyle(document.querySelector("#board-1 .player .clock")).color`); c != "rgb(138, 138, 138)" {
		t.Errorf("board 1's clocks are %s, not greyed", c)
	}
	// The venue heard again: the hall touches the board, the page follows.
	mu.Lock()
	cut = false
	mu.Unlock()
	h.Touch("1")
	if err := chromedp.Do(tab,
		chromedp.WaitNotPresent(chromedp.CSS(`#board-1.cut-off`)),
		chromedp.WaitVisible(chromedp.CSS(`#board-1 .player.running`)),
		chromedp.WaitVisible(chromedp.CSS(`#board-1 button.claim`)),
		chromedp.WaitVisible(chromedp.CSS(`#board-1 button.decide`)),
	); err != nil {
		t.Fatal(err)
	}
}
