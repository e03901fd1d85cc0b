package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/arbiterd/arbiterd/internal/pairings"
	"github.com/arbiterd/arbiterd/internal/testkit/shareddata"
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

// The errors an arbiter acts on come in the language asked; the exit
// status and the file and line they name stay.
func TestErrorsInSpanish(t *testing.T) {
	dir := t.TempDir()
	bz := filepath.Join(dir, "round.pgn.bz2")
	if err := os.WriteFile(bz, []byte("BZh91AY&SY\x00\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	garbage := filepath.Join(dir, "garbage.pgn")
	if err := os.WriteFile(garbage, []byte("this is not PGN\n\n"+auditGame), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, err := runArgsIn(t, "", "audit", "--lang", "es", bz, garbage)
	if err == nil || exitCode(err) != 1 || err.Error() != "audit: 2 error(es) en la entrada; se auditaron todas las partidas que pudieron leerse" {
		t.Errorf("audit --lang es: %v", err)
	}
	for _, want := range []string{
		"arbiterd audit: " + bz + ": los datos comprimidos con bzip2 no se admiten",
		"arbiterd audit: " + garbage + `:1: "this" no es una jugada`,
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	_, _, err = runArgsIn(t, "", "audit", "--lang", "es", filepath.Join(dir, "*.zst"))
	if err == nil || !strings.HasSuffix(err.Error(), "*.zst: ningún archivo coincide") {
		t.Errorf("audit of a pattern that matches nothing: %v", err)
	}
	_, _, err = runArgsIn(t, "", "replay", "--lang", "es", "--report", "--decoded", "x.capture")
	if err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), "no puede combinarse con --pgn ni con --report") {
		t.Errorf("replay --decoded --report in Spanish: %v", err)
	}
	_, _, err = runArgsIn(t, "", "demo", "--lang", "es", "--line", "serial")
	if err == nil || exitCode(err) != 2 || err.Error() != `demo: línea "serial": se espera auto, pty o in-process` {
		t.Errorf("demo --line serial in Spanish: %v", err)
	}
}

// TestListsInSpanish: pairings, results and ports print their tables,
// counts and usage errors in the language --lang names.
func TestListsInSpanish(t *testing.T) {
	trf := shareddata.Require(t, "trf", "karl-mala-2005.trf")
	out, _, err := runCmd(t, "pairings", trf, "--round", "7", "--lang", "es")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"9. Karl-Mala-Gedenkturnier, ronda 7", "TABLERO", "BLANCAS", "sin tablero:", "no emparejado", "137 tableros, 10 sin tablero"} {
		if !strings.Contains(out, want) {
			t.Errorf("pairings --lang es lacks %q:\n%.1500s", want, out)
		}
	}
	for args, want := range map[string]string{
		"pairings x.trf --round -1 --lang es":          "--round -1: una ronda es 1 o más",
		"results data --lang es":                       "falta --round: la ronda cuyos resultados leer (1 o más)",
		"results data --round 2 --out x --lang es":     "--out es donde escribe --trf: indique también --trf",
		"results data --round 2 --confirm x --lang es": `--confirm "x": números de tablero (3,7) o all`,
	} {
		_, _, err := runCmd(t, strings.Fields(args)...)
		var u usageError
		if !errors.As(err, &u) || err.Error() != want {
			t.Errorf("%s: %v, want the usage error %q", args, err, want)
		}
	}
	var b strings.Builder
	if err := printPorts(&b, nil, portsOptions{p: i18n.Spanish}); err != nil || !strings.HasPrefix(b.String(), "no se encontró ningún puerto serie (¿está conectado el tablero? ") {
		t.Errorf("ports --lang es without ports: %q, %v", b.String(), err)
	}
	var res bytes.Buffer
	if err := resultsText(&res, i18n.Spanish, []pairings.BoardResult{{Board: 1, White: "A", Black: "B", Open: "no result yet"}}); err != nil ||
		!strings.Contains(res.String(), "TABLERO") || !strings.Contains(res.String(), "abierta (no result yet)") || !strings.Contains(res.String(), "1 tableros, 1 abiertos") {
		t.Errorf("results --lang es: %q, %v", res.String(), err)
	}
}

// A mistyped time control is said in the language asked, where it is
// wrong too; in English as clockd writes it.
func TestTimeControlErrorsInSpanish(t *testing.T) {
	for _, tt := range []struct {
		args   []string
		en, es string
	}{
		{[]string{"audit", "--timecontrol", "40/5400"},
			`--timecontrol: clockd: time control "40/5400": at offset 0 ('4'): the last period lasts to the end of the game and takes no move count (remove "40/")`,
			`--timecontrol: clockd: control de tiempo "40/5400": en la posición 0 ('4'): el último periodo dura hasta el final de la partida y no lleva número de jugadas (quite "40/")`},
		{[]string{"emulate", "--tc", "90 min fast"},
			`--tc: clockd: time control "90 min fast": at offset 7 ('f'): unexpected word "fast"`,
			`--tc: clockd: control de tiempo "90 min fast": en la posición 7 ('f'): palabra inesperada "fast"`},
		{[]string{"demo", "--tc", "300+"},
			`demo: time control: clockd: time control "300+": at end of text: expected the increment or delay in seconds (a number), found end of text`,
			`demo: control de tiempo: clockd: control de tiempo "300+": al final del texto: se esperaba el incremento o la demora en segundos (un número), pero el texto terminó`},
	} {
		for lang, want := range map[string]string{"en": tt.en, "es": tt.es} {
			_, _, err := runArgsIn(t, "", append(tt.args, "--lang", lang)...)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%v --lang %s: %v\nwant %s", tt.args, lang, err, want)
			}
		}
	}
}

// A bad line of unwinnable keeps its FILE:LINE: prefix; the sentence after
// it follows --lang.
func TestUnwinnableBadLinesInSpanish(t *testing.T) {
	in := "8/8/8/4k3/8/8/8/4K2R x - - 0 1\n8/8/8/4k3/8/8/8/4K2R w - - 0 1\n"
	_, errOut, err := runArgsIn(t, in, "unwinnable", "--quick", "--lang", "es")
	want := `stdin:1: posición FEN no válida "8/8/8/4k3/8/8/8/4K2R x - - 0 1": turno: se esperaba "w" o "b", pero hay "x"` + "\n"
	if err == nil || exitCode(err) != 1 || errOut != want {
		t.Errorf("error %v, stderr %q, want %q", err, errOut, want)
	}
	_, errOut, _ = runArgsIn(t, in, "unwinnable", "--quick", "--lang", "en")
	if want := `stdin:1: bad FEN "8/8/8/4k3/8/8/8/4K2R x - - 0 1": side to move: want "w" or "b", got "x"` + "\n"; errOut != want {
		t.Errorf("English stderr %q, want %q", errOut, want)
	}
	_, errOut, _ = runArgsIn(t, "XB 8/8/8/4k3/8/8/8/4K2R w - - 0 1\n", "unwinnable", "--label", "--lang", "es")
	if want := `stdin:1: se esperaba una etiqueta (WB, W-, -B o --), un espacio y una posición FEN, pero hay "XB 8/8/8/4k3/8/8/8/4K2R w - - 0 1"` + "\n"; errOut != want {
		t.Errorf("--label stderr %q, want %q", errOut, want)
	}
}

// emulate's --fault and --pgn are said in the language asked.
func TestEmulateErrorsInSpanish(t *testing.T) {
	_, _, err := runArgsIn(t, "", "emulate", "--fault", "garbage", "--lang", "es")
	if want := `--fault: emulator: acción "garbage": falta '@': se esperaba KIND@ply=N`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("--fault in Spanish: %v, want %s", err, want)
	}
	pgn := filepath.Join(t.TempDir(), "bad.pgn")
	if err := os.WriteFile(pgn, []byte("1. e4 e5 2. Ke3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for lang, want := range map[string]string{
		"es": `emulator: media jugada 3 (Ke3): no es una jugada legal en`,
		"en": `emulator: ply 3 (Ke3): not a legal move in`,
	} {
		_, _, err = runArgsIn(t, "", "emulate", "--pgn", pgn, "--lang", lang)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("--pgn --lang %s: %v, want %s", lang, err, want)
		}
	}
}
