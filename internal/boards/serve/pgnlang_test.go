package serve

import "testing"

// The boards' PGN comments are in the configuration's language, English
// without one.
func TestPGNPrinter(t *testing.T) {
	for lang, want := range map[string]string{"": "en", "es": "es", "es_ES.UTF-8": "es", "en": "en"} {
		if got := pgnPrinter(lang).Lang(); got != want {
			t.Errorf("lang: %q gives %s, want %s", lang, got, want)
		}
	}
}
