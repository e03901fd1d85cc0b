package i18n

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/arbiterd/arbiterd/clockd"
)

// TestClockdIsTheCatalog keeps the English catalog's messages for clockd's
// sentences the formats clockd writes its errors with.
func TestClockdIsTheCatalog(t *testing.T) {
	for _, code := range clockd.TextCodes() {
		f, _ := clockd.EnglishFormat(code)
		if got, ok := catalogEN[code]; !ok || got != f {
			t.Errorf("%s: English catalog %q, clockd %q", code, got, f)
		}
	}
}

// badControls give every syntax error of a time control.
var badControls = []string{
	"", "?", "-", "*180", "40/5400", "5400:1800", "40/5400+30:", "40/5400+30;1800",
	"40/", "0/300", "40/0:300", "0", "300+", "300+x", "300x5", "99999999999999", "300+9999",
	"5000/300:60", "90'/40 + 30' + 30\" + 5\"", "90'/40 + 30 parsecs", "90'/40 + ", "90'/x",
	"90' 30'", "90'/40", "90' + 30'", "0' + 30\"", "90' inc + 30\"", "9000' + 30\"",
	"90'/40 + 30' + 9999\"", "90 min per x", "90 min fast", "90'/0 + 30'", "90'/40+", "90'/5000 + 30'",
}

// TestTimeControlErrors says each syntax error of a time control in
// English (the error's own text, byte for byte) and in Spanish.
func TestTimeControlErrors(t *testing.T) {
	seen := map[string]bool{}
	mark := func(m Message) { markCodes(seen, m) }
	for _, in := range badControls {
		_, err := clockd.ParseTimeControl(in)
		var se *clockd.SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%q: error %v, want a syntax error", in, err)
			continue
		}
		if !KnownSentence(se) {
			t.Errorf("%q: %v: a code the catalogs lack", in, err)
			continue
		}
		mark(MessageOf(se))
		if got := English.Text(MessageOf(se)); got != err.Error() {
			t.Errorf("%q: English %q, want the error's %q", in, got, err.Error())
		}
		if got := English.Err(err); got != err {
			t.Errorf("%q: English.Err changed the error: %v", in, got)
		}
		es := Spanish.Err(err).Error()
		if !strings.HasPrefix(es, "clockd: control de tiempo ") || es == err.Error() {
			t.Errorf("%q: Spanish %q", in, es)
		}
		// Inside the text around it, and inside a message of the catalogs.
		wrapped := fmt.Errorf("--tc: %w", err)
		if got := Spanish.Err(wrapped).Error(); got != "--tc: "+es || !errors.Is(Spanish.Err(wrapped), err) {
			t.Errorf("%q: wrapped in Spanish %q", in, got)
		}
		if got := Spanish.Err(Errorf("cli.timecontrol", err)).Error(); got != "--timecontrol: "+es {
			t.Errorf("%q: --timecontrol in Spanish %q", in, got)
		}
	}
	// A clock's white face that is none of left, right, auto.
	_, err := clockd.ParseWhiteFace("middle")
	var fe *clockd.FaceError
	if !errors.As(err, &fe) || !KnownSentence(fe) {
		t.Errorf("white face %q: error %v, want a FaceError the catalogs know", "middle", err)
	} else {
		mark(MessageOf(fe))
		if got := English.Text(MessageOf(fe)); got != err.Error() {
			t.Errorf("white face: English %q, want the error's %q", got, err.Error())
		}
		if got, want := Spanish.Err(err).Error(), `clockd: lado de las blancas "middle": debe ser left, right o auto`; got != want {
			t.Errorf("white face: Spanish %q, want %q", got, want)
		}
	}
	for _, code := range clockd.TextCodes() {
		if !seen[code] {
			t.Errorf("%s: no control in the test gives it", code)
		}
	}
	for _, tt := range []struct{ in, en, es string }{
		{"40/5400", `clockd: time control "40/5400": at offset 0 ('4'): the last period lasts to the end of the game and takes no move count (remove "40/")`,
			`clockd: control de tiempo "40/5400": en la posición 0 ('4'): el último periodo dura hasta el final de la partida y no lleva número de jugadas (quite "40/")`},
		{"300+", `clockd: time control "300+": at end of text: expected the increment or delay in seconds (a number), found end of text`,
			`clockd: control de tiempo "300+": al final del texto: se esperaba el incremento o la demora en segundos (un número), pero el texto terminó`},
		{"90'/40 + 30 parsecs", `clockd: time control "90'/40 + 30 parsecs": at offset 12 ('p'): unknown unit "parsecs" (use ' or min for minutes, " or s for seconds, h for hours)`,
			`clockd: control de tiempo "90'/40 + 30 parsecs": en la posición 12 ('p'): unidad desconocida "parsecs" (use ' o min para minutos, " o s para segundos, h para horas)`},
	} {
		_, err := clockd.ParseTimeControl(tt.in)
		if err == nil || err.Error() != tt.en {
			t.Errorf("%q: English %v, want %s", tt.in, err, tt.en)
		}
		if got := Spanish.Err(err).Error(); got != tt.es {
			t.Errorf("%q: Spanish\n%s\nwant\n%s", tt.in, got, tt.es)
		}
	}
}

// markCodes records in seen the code of m and of every message among its
// arguments.
func markCodes(seen map[string]bool, m Message) {
	seen[m.Code] = true
	for _, a := range m.Args {
		if n, ok := a.(Message); ok {
			markCodes(seen, n)
		}
	}
}
