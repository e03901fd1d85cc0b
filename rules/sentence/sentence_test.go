package sentence

import (
	"slices"
	"testing"
)

type word struct{ code, en string }

func (w word) SentenceCode() string { return w.code }
func (w word) String() string       { return w.en }

func TestRender(t *testing.T) {
	f := Formats{"b.flag": "%s's flag fell after %d moves", "a.side": "White"}
	if got := f.Render("b.flag", []any{word{"a.side", "White"}, 18}); got != "White's flag fell after 18 moves" {
		t.Errorf("Render = %q", got)
	}
	if got := f.Render("c.none", nil); got != "" {
		t.Errorf("unknown code rendered %q", got)
	}
	if s, ok := f.Format("a.side"); !ok || s != "White" {
		t.Errorf("Format = %q, %v", s, ok)
	}
	if got := f.Codes(); !slices.Equal(got, []string{"a.side", "b.flag"}) {
		t.Errorf("Codes = %v", got)
	}
}
