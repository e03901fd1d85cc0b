package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain runs the tests in English whatever the machine's language: a
// test that wants another asks with --lang.
func TestMain(m *testing.M) {
	os.Setenv("LC_ALL", "C")
	os.Exit(m.Run())
}

func TestAuditInSpanish(t *testing.T) {
	html := filepath.Join(t.TempDir(), "audit.html")
	out, errOut, err := runArgsIn(t, auditGame, "audit", "--lang", "es", "--html", html, "-")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	for _, want := range []string{"Club — Ronda 2 (partidas: 1)", "tablero  blancas  negras  resultado  control", "40/5400+30:1800+30"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "1 partida(s) en 1 archivo(s)") {
		t.Errorf("summary: %q", errOut)
	}
	page, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<html lang="es">`, "<title>Auditoría de arbiterd</title>", "Reloj tras cada jugada:", "<h2>Ronda 2</h2>", "Tablero 3: A – B"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	// The environment chooses when --lang does not.
	t.Setenv("LC_ALL", "es_AR.UTF-8")
	if out, _, err := runArgsIn(t, auditGame, "audit", "-"); err != nil || !strings.Contains(out, "Ronda 2") {
		t.Errorf("LC_ALL=es_AR: %v\n%s", err, out)
	}
	if out, _, err := runArgsIn(t, auditGame, "audit", "--lang", "en", "-"); err != nil || !strings.Contains(out, "Round 2") {
		t.Errorf("--lang en over LC_ALL: %v\n%s", err, out)
	}
}

func TestUnknownLanguage(t *testing.T) {
	_, _, err := runArgsIn(t, auditGame, "audit", "--lang", "fr", "-")
	if err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), `--lang "fr"`) || !strings.Contains(err.Error(), "en, es") {
		t.Errorf("--lang fr: %v", err)
	}
}

func TestDemoUnknownLanguage(t *testing.T) {
	_, _, err := runArgsIn(t, "", "demo", "--lang", "xx")
	if err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), `--lang "xx"`) {
		t.Errorf("demo --lang xx: %v", err)
	}
}
