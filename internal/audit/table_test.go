package audit

import (
	"github.com/arbiterd/arbiterd/internal/testkit/golden"
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
	golden.Check(t, "table.en.golden", synthTable(t, nil))
	golden.Check(t, "table.es.golden", synthTable(t, i18n.Spanish))
}

// The JSON keeps its kinds in any language; its sentences follow the
// printer's.
func TestJSONInSpanish(t *testing.T) {
	a := New(Options{})
	var en, es strings.Builder
	sen := NewJSONSink(&en, nil, func(err error) { t.Error(err) })
	ses := NewJSONSink(&es, i18n.Spanish, func(err error) { t.Error(err) })
	var r *Report
	for _, sy := range synthGames(t) {
		if sy.name == "flag-before-control" {
			r = a.Game(readAll(t, sy.pgn(t))[0])
		}
	}
	if r == nil || len(r.Findings) != 1 {
		t.Fatalf("no finding to write: %+v", r)
	}
	if err := sen.Report(r); err != nil {
		t.Fatal(err)
	}
	if err := ses.Report(r); err != nil {
		t.Fatal(err)
	}
	sen.Flush()
	ses.Flush()
	if !strings.Contains(en.String(), `"kind":"flag-before-control"`) || !strings.Contains(en.String(), "so the flag fell before the control (6.3.1)") {
		t.Errorf("English JSON: %s", en.String())
	}
	if !strings.Contains(es.String(), `"kind":"flag-before-control"`) || !strings.Contains(es.String(), "así que la bandera cayó antes del control de tiempo (6.3.1)") {
		t.Errorf("Spanish JSON: %s", es.String())
	}
	if r.Findings[0].Detail != r.Findings[0].Message.String() || strings.Contains(r.Findings[0].Detail, "bandera") {
		t.Error("writing in Spanish changed the report's English")
	}
}
