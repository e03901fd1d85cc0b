package audit

import (
	"strings"
	"testing"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/i18n"
)

// A game's FEN tag that cannot be read leaves the 6.9 question open; the
// reason is the FEN's error, in the reader's language.
func TestBadFENInSpanish(t *testing.T) {
	g := &Game{Tags: []Tag{{Name: "FEN", Value: "8/8/8/8/8/8/8/K6k x - - 0 1"}}}
	_, why := New(Options{}).canMate(&positions{g: g}, 0, clockd.White)
	en := `the FEN tag: rules: FEN "8/8/8/8/8/8/8/K6k x - - 0 1" field 2 (side to move): want "w" or "b", got "x"`
	es := `rules: posición FEN "8/8/8/8/8/8/8/K6k x - - 0 1", campo 2 (turno): se esperaba "w" o "b", pero hay "x"`
	if got := i18n.English.Text(why); got != en {
		t.Errorf("English %q, want %q", got, en)
	}
	if got := i18n.Spanish.Text(why); !strings.Contains(got, es) {
		t.Errorf("Spanish %q lacks %q", got, es)
	}
}
