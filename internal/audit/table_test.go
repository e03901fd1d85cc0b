package audit

import (
	"strings"
	"testing"

	"github.com/arbiterd/arbiterd/internal/i18n"
)

// synthTable is the table of the synthetic games, every finding's
// sentence included, in p's language.
func synthTable(t *testing.T, p *i18n.Printer) string {
	t.Helper()
	a := New(Options{})
	var b strings.Builder
	s := NewTableSink(&b, p, func(err error) { t.Error(err) })
	for _, sy := range synthGames(t) {
		for _, g := range readAll(t, sy.pgn(t)) {
			r := a.Game(g)
			r.Round = "1"
			if err := s.Report(r); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestTableGolden pins the table of the synthetic games in English and in
// Spanish.
func TestTableGolden(t *testing.T) {
	golden(t, "table.en.golden", synthTable(t, nil))
	golden(t, "table.es.golden", synthTable(t, i18n.Spanish))
}
