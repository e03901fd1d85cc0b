package config

import (
	"strings"
	"testing"

	"github.com/arbiterd/arbiterd/internal/i18n"
)

func TestLang(t *testing.T) {
	for _, lang := range []string{"", "es", "en", "es-AR"} {
		c, err := Parse("arbiterd.yaml", []byte("lang: \""+lang+"\"\n"+goodYAML))
		if err != nil || c.Lang != lang {
			t.Errorf("lang: %q: %v", lang, err)
		}
	}
	_, err := Parse("arbiterd.yaml", []byte("lang: fr\n"+goodYAML))
	if err == nil || !strings.Contains(err.Error(), "lang") || !strings.Contains(err.Error(), `"fr"`) || !strings.Contains(err.Error(), "en, es") {
		t.Errorf("lang: fr: %v", err)
	}
}

// The configuration's mistakes say themselves in Spanish: the file, the
// line and the setting as they are; Error() stays English.
func TestErrorsSayThemselves(t *testing.T) {
	_, err := Parse("c.yaml", []byte("nats:\n  venue: hall\nlivechess:\n  origins: [lichess.org]\n"+goodYAML))
	if err == nil {
		t.Fatal("no error")
	}
	es := i18n.Spanish.Err(err).Error()
	for _, want := range []string{
		`c.yaml:2: nats.venue: "hall" es el dominio JetStream propio de la sala`,
		`c.yaml:4: livechess.origins[0]: "lichess.org" no es un origen: escriba esquema://host[:puerto], como https://lichess.org`,
	} {
		if !strings.Contains(es, want) {
			t.Errorf("in Spanish %q lacks %q", es, want)
		}
	}
	if !strings.Contains(err.Error(), `c.yaml:2: nats.venue: "hall" is the hall's own JetStream domain`) {
		t.Errorf("in English: %v", err)
	}
	a := &Access{Arbiters: []Arbiter{{Name: " Anna", Hash: "plain-text"}}}
	got := i18n.Spanish.Err(a.Check()).Error()
	want := "access: arbiters[0]: nombre \" Anna\": sin espacios alrededor, sin ':' y sin saltos de línea\n" +
		"access: árbitro \" Anna\": el hash \"plai\"… no es un hash bcrypt ($2a$, $2b$ o $2y$…); genere uno con htpasswd -nbBC 12 '' SECRETO | tr -d ':\\n'"
	if got != want {
		t.Errorf("access in Spanish:\n got %s\nwant %s", got, want)
	}
	if en := a.Check().Error(); !strings.Contains(en, `access: arbiter " Anna": hash "plai"… is not a bcrypt hash`) {
		t.Errorf("access in English: %s", en)
	}
}

// A board's time control and start position are said in Spanish too, as
// clockd and rules word their mistakes.
func TestTimeControlAndFENInSpanish(t *testing.T) {
	bad := strings.Replace(goodYAML, "timecontrol: 40/5400+30:1800+30", "timecontrol: 40/5400\n    start_fen: 8/8/8/8/8/8/8/K6k x - - 0 1", 1)
	bad = strings.Replace(bad, "clock_white: left", "clock_white: middle", 1)
	_, err := Parse("c.yaml", []byte(bad))
	if err == nil {
		t.Fatal("no error")
	}
	es := i18n.Spanish.Err(err).Error()
	for _, want := range []string{
		`boards[0].timecontrol: clockd: control de tiempo "40/5400": en la posición 0 ('4'): el último periodo dura hasta el final de la partida y no lleva número de jugadas (quite "40/")`,
		`boards[0].start_fen: rules: posición FEN "8/8/8/8/8/8/8/K6k x - - 0 1", campo 2 (turno): se esperaba "w" o "b", pero hay "x"`,
		`boards[0].clock_white: clockd: lado de las blancas "middle": debe ser left, right o auto`,
	} {
		if !strings.Contains(es, want) {
			t.Errorf("in Spanish %q lacks %q", es, want)
		}
	}
	for _, want := range []string{
		`boards[0].timecontrol: clockd: time control "40/5400": at offset 0 ('4')`,
		`boards[0].start_fen: rules: FEN "8/8/8/8/8/8/8/K6k x - - 0 1" field 2 (side to move): want "w" or "b", got "x"`,
		`boards[0].clock_white: clockd: white face "middle": want left, right or auto`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("in English %q lacks %q", err, want)
		}
	}
}
