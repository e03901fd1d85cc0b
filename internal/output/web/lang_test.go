package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/text/language"

	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/arbiterd/arbiterd/internal/output/hub"
)

// TestWordsInSpanish: the alerts' labels and the sentences the dashboard
// words itself come in the reader's language; in English they are what
// Words gives.
func TestWordsInSpanish(t *testing.T) {
	_, b, evs := pressBackBoard(t)
	if en := WordsIn(i18n.English, b, evs); !reflect.DeepEqual(en, Words(b, evs)) {
		t.Errorf("WordsIn(English) differs from Words:\n%+v\n%+v", en, Words(b, evs))
	}
	got := WordsIn(i18n.Spanish, b, evs)
	first, back := got[0], got[1]
	want := "Las blancas pulsaron el reloj en la jugada 6 sin hacer una jugada (los relojes marcaban entonces blancas 1:32:33, negras 1:32:04). " +
		"Pulsar el reloj sin jugar se penaliza como una jugada ilegal (6.2.4, 7.5.3). " +
		"Es la primera jugada ilegal completada de las blancas: añada 2 minutos al reloj de las negras y retire el incremento que haya ganado la pulsación (7.5.5)."
	if first.Say != want || first.Label != "pulsación sin jugada" {
		t.Errorf("the press without a move in Spanish:\n got %q (%q)\nwant %q", first.Say, first.Label, want)
	}
	if back.Label != "pulsación de devolución" || !strings.HasPrefix(back.Say, "Las negras pulsaron el reloj en la jugada 6 después de la pulsación sin jugada de las blancas") ||
		!strings.Contains(back.Say, "no es una jugada ilegal de las negras") {
		t.Errorf("the press back in Spanish: %q (%q)", back.Say, back.Label)
	}
	if got[2].Label != "reloj parado" || got[2].Say != got[2].Text {
		t.Errorf("the stopped clock in Spanish: %q, %q (the event's own sentence stays as it is)", got[2].Label, got[2].Say)
	}
}

// TestPageLanguage: the page's words and the API's alert words come in
// the switch's language, else the configuration's, else the browser's.
func TestPageLanguage(t *testing.T) {
	for _, c := range []struct {
		name           string
		lang           language.Tag
		accept, cookie string
		want           string
	}{
		{"nothing asked", language.Und, "", "", "en"},
		{"the browser's", language.Und, "es-AR,es;q=0.9,en;q=0.8", "", "es"},
		{"a language arbiterd does not speak", language.Und, "fr-FR,fr;q=0.9", "", "en"},
		{"the browser's second choice", language.Und, "fr,es;q=0.5", "", "es"},
		{"the configuration's over the browser's", language.Spanish, "en-GB", "", "es"},
		{"the switch over the configuration's", language.Spanish, "es", "en", "en"},
		{"the switch over the browser's", language.Und, "en", "es", "es"},
		{"a switch gone wrong", language.Und, "es", "xx", "es"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := hub.New(hub.Options{})
			h.AddBoard(hub.Info{ID: "5", TimeControl: "40/5400+30:1800+30"})
			for _, e := range readEvents(t, "testdata/press-back.jsonl") {
				h.Publish("5", e)
			}
			s := New(h, Options{Lang: c.lang})
			get := func(path string) *httptest.ResponseRecorder {
				r := httptest.NewRequest(http.MethodGet, path, nil)
				if c.accept != "" {
					r.Header.Set("Accept-Language", c.accept)
				}
				if c.cookie != "" {
					r.AddCookie(&http.Cookie{Name: langCookie, Value: c.cookie})
				}
				w := httptest.NewRecorder()
				s.Handler().ServeHTTP(w, r)
				if w.Code != http.StatusOK {
					t.Fatalf("GET %s: %d %s", path, w.Code, w.Body)
				}
				return w
			}
			w := get("/words.js")
			body, ok := strings.CutPrefix(w.Body.String(), "window.arbiterdWords = ")
			if !ok || !strings.Contains(w.Header().Get("Vary"), "Accept-Language") {
				t.Fatalf("/words.js: %q (Vary %q)", w.Body, w.Header().Get("Vary"))
			}
			var pw pageWords
			if err := json.Unmarshal([]byte(strings.TrimSuffix(body, ";\n")), &pw); err != nil {
				t.Fatal(err)
			}
			next := map[string]string{"en": "Next round", "es": "Siguiente ronda"}[c.want]
			if pw.Lang != c.want || pw.Words["web.next-round"] != next || strings.Join(pw.Langs, " ") != "en es" {
				t.Errorf("/words.js: lang %q, next round %q, switch %v; want %s", pw.Lang, pw.Words["web.next-round"], pw.Langs, c.want)
			}
			var v View
			if err := json.Unmarshal(get("/api/boards/5").Body.Bytes(), &v); err != nil {
				t.Fatal(err)
			}
			label := map[string]string{"en": "press without a move", "es": "pulsación sin jugada"}[c.want]
			if len(v.Alerts) == 0 || v.Alerts[0].Label != label {
				t.Errorf("the API's alerts: %+v, want the label %q", v.Alerts, label)
			}
		})
	}
}
