package config

import (
	"strings"
	"testing"
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
