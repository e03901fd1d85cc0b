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
