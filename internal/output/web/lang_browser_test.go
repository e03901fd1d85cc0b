package web

import (
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// TestDashboardSpanish shows the 40-board hall to a browser that asks for
// Spanish (Accept-Language: es): the page, the header's chips, the
// tiles, a board in full with its alert worded in Spanish, a flag's
// verdict with its reason in Spanish, all on a
// 1920×1080 screen as in English; then the switch turns the page to
// English and is remembered on the next visit, and back to Spanish.
func TestDashboardSpanish(t *testing.T) {
	hl := newHall(t)
	web := New(hl.hub, Options{})
	srv := httptest.NewServer(web.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(web.Close)
	tab := browserSized(t, 2*time.Minute, 1920, 1080)
	if _, err := chromedp.Call(tab, network.SetExtraHTTPHeaders,
		network.SetExtraHTTPHeadersParams{Headers: network.Headers{"Accept-Language": "es-ES,es;q=0.9"}}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tab,
		chromedp.Navigate(srv.URL),
		chromedp.WaitVisible(chromedp.CSS(`#board-40`)),
		chromedp.WaitVisible(chromedp.CSS(`body.compact #board-3 .line.red`)),
		chromedp.WaitVisible(chromedp.CSS(`#conn.live`)),
		chromedp.Sleep(600*time.Millisecond),
	); err != nil {
		t.Fatal(err)
	}

	// The page in Spanish.
	if got := evalJS[string](t, tab, `document.documentElement.lang + " | " + document.title`); got != "es | arbiterd — tableros" {
		t.Errorf("the page's language and title: %q", got)
	}
	for sel, want := range map[string]string{
		`#next-round`:                "Siguiente ronda",
		`#conn`:                      "en directo",
		`#attention .label`:          "Requieren atención:",
		`#board-9 .state.banner`:     "tablero desconectado",
		`#board-33 .state.clockport`: "reloj desconectado",
		`#lang button.on`:            "ES",
	} {
		if got := text(t, tab, sel); !strings.EqualFold(got, want) {
			t.Errorf("%s reads %q, want %q", sel, got, want)
		}
	}
	if got := text(t, tab, `#summary`); !strings.HasPrefix(got, "40 tableros · por atender: 1 bandera") {
		t.Errorf("the summary reads %q", got)
	}
	controls := evalJS[string](t, tab, `document.querySelector("header .controls").innerText.replace(/\s+/g, " ")`)
	for _, w := range []string{"vista", "orden", "por tablero", "solo los que requieren atención"} {
		if !strings.Contains(controls, w) {
			t.Errorf("the controls %q lack %q", controls, w)
		}
	}
	chip := func(id string) string { return text(t, tab, `#attention .chip[data-board="`+id+`"]`) }
	for id, re := range map[string]string{"3": `^Tablero 3 · PIERDE 6\.9$`, "9": `^Tablero 9 · desconectado$`, "33": `^Tablero 33 · reloj desconectado$`,
		"14": `^Tablero 14 · pulsación sin jugada$`, "22": `^Tablero 22 · pulsación sin jugada \+1$`} {
		if got := chip(id); !regexp.MustCompile(re).MatchString(got) {
			t.Errorf("header chip %q, want %s", got, re)
		}
	}
	if got := text(t, tab, `#board-3 .line.red`); !strings.HasPrefix(got, "PIERDE 6.9 · Negras · jugada ") {
		t.Errorf("board 3's line reads %q", got)
	}
	if got := text(t, tab, `#board-5 .counts`); !regexp.MustCompile(`^B \d+/40\s*N \d+/40`).MatchString(got) {
		t.Errorf("board 5's counts read %q", got)
	}

	// Spanish's longer words still fit the hall view: every board on the
	// screen, nothing over the edge of its tile, the header's chips on the
	// screen.
	box := evalJS[[]float64](t, tab, `(() => { const r = [...document.querySelectorAll("#boards > section")].map(e => e.getBoundingClientRect());
		return [Math.max(...r.map(b => b.bottom)), Math.max(...r.map(b => b.right))]; })()`)
	if box[0] > 1080 || box[1] > 1920 {
		t.Errorf("in Spanish the tiles reach %.0f px down and %.0f px across; the screen is 1920×1080", box[0], box[1])
	}
	if over := evalJS[[]string](t, tab, `[...document.querySelectorAll("#boards > section .head, #boards > section .player, #boards > section .counts, #boards > section .line")].filter(e =>
		e.scrollWidth > e.clientWidth + 1).map(e => e.closest("section").id + " " + e.className)`); len(over) > 0 {
		t.Errorf("in Spanish content runs over the edge of its tile: %q", over)
	}
	if names := evalJS[[]string](t, tab, `[...document.querySelectorAll("#boards .player .name")].filter(e =>
		parseFloat(getComputedStyle(e).fontSize) < 13 || e.scrollWidth > e.clientWidth + 1).map(e => e.closest("section").id + ": " + e.textContent)`); len(names) > 0 {
		t.Errorf("in Spanish names too small or cut short: %q", names)
	}
	if over := evalJS[[]string](t, tab, `[...document.querySelectorAll("header > *, #attention .chip")].filter(e => {
		const r = e.getBoundingClientRect(); return r.right > 1920 || e.scrollWidth > e.clientWidth + 1; }).map(e => e.id || e.className)`); len(over) > 0 {
		t.Errorf("in Spanish the header runs over: %q", over)
	}

	if p := os.Getenv("ARBITERD_ES_PNG"); p != "" {
		shot, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
		if err == nil {
			err = os.WriteFile(p, shot, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}

	// A board in full: the alert worded in Spanish by the server, the
	// page's words around it.
	if err := chromedp.Do(tab,
		chromedp.Click(chromedp.CSS(`#board-14 .player.white`)),
		chromedp.WaitVisible(chromedp.CSS(`#detail[open] #detail-body[data-board="14"] li.alert.amber`)),
	); err != nil {
		t.Fatal(err)
	}
	for sel, want := range map[string]string{
		`#detail-body li.alert.amber .title`: "pulsación sin jugada — 7.5.3 · Negras",
		`#detail-body li.alert.amber .when`:  "jugada 6 · Blancas 1:21:24 · Negras 1:20:39",
		`#detail-body li.alert.amber .ack`:   "Atender",
		`#detail-body .meta.tc`:              "control de tiempo 40/5400+30:1800+30",
		`#detail-body .pairing`:              "corregir el emparejamiento",
		`#detail-body .num`:                  "Tablero 14",
		`#detail-close`:                      "Cerrar",
	} {
		if got := text(t, tab, sel); got != want {
			t.Errorf("the board in full: %s reads %q, want %q", sel, got, want)
		}
	}
	if got := text(t, tab, `#detail-body li.alert.amber .text`); !strings.HasPrefix(got,
		"Las negras pulsaron el reloj en la jugada 6 sin hacer una jugada (los relojes marcaban entonces blancas 1:21:24, negras 1:20:39). Pulsar el reloj sin jugar se penaliza") {
		t.Errorf("board 14's alert in full reads %q", got)
	}
	if got := text(t, tab, `#detail-body .claims`); got != "reclamación: BlancasNegras" {
		t.Errorf("the claim buttons read %q", got)
	}

	// Board 3 in full: the flag's verdict, its reason in Spanish (from
	// the event's text): which article applies, and why.
	if err := chromedp.Do(tab,
		chromedp.Click(chromedp.CSS(`#detail-close`)),
		chromedp.Click(chromedp.CSS(`#attention .chip[data-board="3"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#detail[open] #detail-body[data-board="3"] li.alert.red .mate`)),
	); err != nil {
		t.Fatal(err)
	}
	if got := text(t, tab, `#detail-body li.alert.red .text`); got != "Ha caído la bandera de las negras en el primer periodo con 18 jugadas completadas; "+
		"el primer periodo exige 40. Las blancas aún pueden dar mate, así que las negras pierden la partida por tiempo (6.9)." {
		t.Errorf("board 3's verdict in full reads %q", got)
	}

	// The switch: English, remembered on the next visit although the
	// browser still asks for Spanish; then Spanish again.
	if err := chromedp.Do(tab,
		chromedp.Click(chromedp.CSS(`#detail-close`)),
		chromedp.Click(chromedp.CSS(`#lang button[data-lang="en"]`)),
		chromedp.WaitVisible(chromedp.CSS(`html[lang="en"] #conn.live`)),
		chromedp.WaitVisible(chromedp.CSS(`#attention .chip[data-board="3"]`)),
	); err != nil {
		t.Fatal(err)
	}
	if got, chip3 := text(t, tab, `#next-round`), chip("3"); got != "Next round" || chip3 != "Board 3 · LOSS 6.9" {
		t.Errorf("after the switch to English: %q, %q", got, chip3)
	}
	if err := chromedp.Do(tab,
		chromedp.Navigate(srv.URL),
		chromedp.WaitVisible(chromedp.CSS(`#conn.live`)),
		chromedp.WaitVisible(chromedp.CSS(`#attention .chip[data-board="14"]`)),
	); err != nil {
		t.Fatal(err)
	}
	if got, chip14 := evalJS[string](t, tab, `document.documentElement.lang`), chip("14"); got != "en" || chip14 != "Board 14 · press without a move" {
		t.Errorf("the next visit: lang %q, chip %q; want the English chosen", got, chip14)
	}
	if err := chromedp.Do(tab,
		chromedp.Click(chromedp.CSS(`#lang button[data-lang="es"]`)),
		chromedp.WaitVisible(chromedp.CSS(`html[lang="es"] #conn.live`)),
		chromedp.WaitVisible(chromedp.CSS(`#attention .chip[data-board="14"]`)),
	); err != nil {
		t.Fatal(err)
	}
	if got := chip("14"); got != "Tablero 14 · pulsación sin jugada" {
		t.Errorf("after the switch back to Spanish: %q", got)
	}
}
