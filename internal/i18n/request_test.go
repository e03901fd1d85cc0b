package i18n

import (
	"errors"
	"fmt"
	"net/http/httptest"
	"testing"

	"golang.org/x/text/language"
)

// The language of a request: the switch's cookie, then the fixed
// language, then Accept-Language, then English.
func TestForRequest(t *testing.T) {
	for _, tt := range []struct {
		cookie, accept string
		fixed          language.Tag
		want           string
	}{
		{"", "", language.Und, "en"},
		{"", "es-MX,en;q=0.5", language.Und, "es"},
		{"", "pt-BR", language.Und, "en"},
		{"en", "es", language.Und, "en"},
		{"es", "", language.English, "es"},
		{"", "en", language.Spanish, "es"},
		{"xx", "en", language.Spanish, "es"},
	} {
		r := httptest.NewRequest("GET", "/hall", nil)
		if tt.accept != "" {
			r.Header.Set("Accept-Language", tt.accept)
		}
		if tt.cookie != "" {
			r.Header.Set("Cookie", LangCookie+"="+tt.cookie)
		}
		if got := ForRequest(r, tt.fixed).Lang(); got != tt.want {
			t.Errorf("cookie %q, Accept-Language %q, fixed %v: %s, want %s", tt.cookie, tt.accept, tt.fixed, got, tt.want)
		}
	}
	if ForRequest(nil, language.Und).Lang() != "en" || ForRequest(nil, language.Spanish).Lang() != "es" {
		t.Error("a nil request")
	}
}

// Errors joined are each said in the language; an error among a
// message's arguments too; errors.Is sees them underneath.
func TestErrJoined(t *testing.T) {
	base := errors.New("open x: no such file")
	joined := errors.Join(Errorf("config.empty"), base, Errorf("config.default-time", "5x"))
	err := fmt.Errorf("prefix: %w", Errorf("config.after-flags", joined))
	want := "prefix: serve: tras aplicar las opciones: el archivo está vacío\nopen x: no such file\n\"5x\" no es una duración como 30m o 1h"
	if got := Spanish.Err(err); got.Error() != want || !errors.Is(got, base) {
		t.Errorf("got %q, want %q", got, want)
	}
	if English.Err(err) != err {
		t.Error("English changes the error")
	}
}
