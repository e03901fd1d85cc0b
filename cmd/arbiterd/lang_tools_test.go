package main

import (
	"bufio"
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// emulate, unwinnable and version take --lang as every command does: a
// language arbiterd does not speak is a usage error naming it.
func TestToolsUnknownLanguage(t *testing.T) {
	for _, args := range [][]string{
		{"emulate", "--lang", "fr"}, {"unwinnable", "--lang", "fr"}, {"version", "--lang", "fr"},
	} {
		_, _, err := runArgsIn(t, "", args...)
		if err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), `--lang "fr"`) || !strings.Contains(err.Error(), "en, es") {
			t.Errorf("%v: %v (exit %d)", args, err, exitCode(err))
		}
	}
}

// The version line is the same in every language: scripts read it.
func TestVersionInSpanish(t *testing.T) {
	en, _, err := runArgs(t, "version", "--lang", "en")
	if err != nil {
		t.Fatal(err)
	}
	if es, _, err := runArgs(t, "version", "--lang", "es"); err != nil || es != en {
		t.Errorf("version --lang es %q (%v), --lang en %q", es, err, en)
	}
}

// emulate --lang es: its usage errors and what it says in Spanish; the
// device line and the link line as scripts read them.
func TestEmulateInSpanish(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--speed", "0.5", "--speed", "-1.5"}, "--speed -1,5: debe ser un número positivo"},
		{[]string{"--period-by", "sometimes"}, `--period-by "sometimes": se espera at-flag o after-presses`},
		{[]string{"--end", "never"}, `--end "never": se espera stop o flag`},
		{[]string{"--listen", "127.0.0.1:0", "--link", "/tmp/x"}, "--link y --listen se excluyen: --link nombra un pseudoterminal, --listen ofrece el tablero por TCP"},
	} {
		_, _, err := runArgsIn(t, "", append([]string{"emulate", "--lang", "es"}, tt.args...)...)
		if err == nil || exitCode(err) != 2 || err.Error() != tt.want {
			t.Errorf("%v: %v (exit %d), want %q", tt.args, err, exitCode(err), tt.want)
		}
	}
	// The same errors in English, as before.
	_, _, err := runArgsIn(t, "", "emulate", "--period-by", "sometimes")
	if err == nil || err.Error() != `--period-by "sometimes": want at-flag or after-presses` {
		t.Errorf("--period-by in English: %v", err)
	}

	// On a pseudo-terminal with --link: device and link lines as they are.
	link := filepath.Join(t.TempDir(), "board")
	lines := emulateLines(t, 3, "--wait", "--speed", "100", "--lang", "es", "--link", link)
	dev, ok := strings.CutPrefix(lines[0], "device ")
	if !ok || lines[1] != "link "+link+" -> "+dev || lines[2] != "se juegan 45 medias jugadas a velocidad 100, semilla 1" {
		t.Errorf("emulate --lang es --link: %q", lines)
	}

	// On TCP: the host's connection said in Spanish.
	cmd := newEmulateCmd()
	pr, pw := io.Pipe()
	cmd.SetOut(pw)
	cmd.SetArgs([]string{"--wait", "--speed", "100", "--listen", "127.0.0.1:0", "--lang", "es"})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx); pw.Close() }()
	out := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			out <- sc.Text()
		}
		close(out)
	}()
	port, ok := strings.CutPrefix(<-out, "device tcp://")
	if !ok {
		t.Fatal("no device line")
	}
	if l := <-out; l != "se juegan 45 medias jugadas a velocidad 100, semilla 1" {
		t.Errorf("second line %q", l)
	}
	c, err := net.Dial("tcp", port)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	select {
	case l := <-out:
		if !strings.HasPrefix(l, "programa conectado desde 127.0.0.1:") {
			t.Errorf("the host's connection: %q", l)
		}
	case <-time.After(5 * time.Second):
		t.Error("the host's connection was not told")
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("emulate: %v", err)
	}
}

// emulateLines runs emulate with args until it has printed n lines.
func emulateLines(t *testing.T, n int, args ...string) []string {
	t.Helper()
	cmd := newEmulateCmd()
	pr, pw := io.Pipe()
	cmd.SetOut(pw)
	cmd.SetArgs(args)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx); pw.Close() }()
	sc := bufio.NewScanner(pr)
	var lines []string
	for len(lines) < n && sc.Scan() {
		lines = append(lines, sc.Text())
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	cancel()
	if err := <-done; err != nil {
		t.Errorf("emulate: %v", err)
	}
	if len(lines) < n {
		t.Fatalf("emulate %v: %q", args, lines)
	}
	return lines
}

// unwinnable --lang es: the --label report, its summary and the errors in
// Spanish; the answer lines as they are in every language.
func TestUnwinnableInSpanish(t *testing.T) {
	wrong := "-B 8/8/8/4k3/8/8/8/4K2R w - - 0 1\n"
	out, _, err := runArgsIn(t, wrong, "unwinnable", "--label", "--lang", "es")
	if err == nil || exitCode(err) != 1 || err.Error() != "stdin: 2 respuesta(s) no coinciden con las etiquetas" {
		t.Errorf("wrong labels: %v (exit %d)", err, exitCode(err))
	}
	for _, want := range []string{
		"stdin:1: -B pero, para las blancas, puede dar mate (8/8/8/4k3/8/8/8/4K2R w - - 0 1)",
		"stdin:1: -B pero, para las negras, no puede dar mate (8/8/8/4k3/8/8/8/4K2R w - - 0 1)",
		"2 consultas (full): 0 coinciden, 0 sin determinar, 2 discrepan; tiempo ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("unwinnable --label --lang es lacks %q:\n%s", want, out)
		}
	}
	queries := "8/8/8/4k3/8/8/8/4K2R w - - 0 1 white\n8/8/8/4k3/8/8/8/4KN2 w - - 0 1 white\nnot a fen\n"
	times := regexp.MustCompile(` time [0-9]+\n`)
	en, _, errEN := runArgsIn(t, queries, "unwinnable", "--lang", "en")
	es, errOut, errES := runArgsIn(t, queries, "unwinnable", "--lang", "es")
	if times.ReplaceAllString(en, "\n") != times.ReplaceAllString(es, "\n") || !strings.HasPrefix(es, "winnable ") {
		t.Errorf("the answers differ by language:\n%s\n%s", en, es)
	}
	if errEN == nil || errES == nil || errEN.Error() != "stdin: 1 bad line(s)" || errES.Error() != "stdin: 1 línea(s) errónea(s)" ||
		exitCode(errES) != 1 || !strings.HasPrefix(errOut, "stdin:3: ") {
		t.Errorf("a bad line: %v / %v (%q)", errEN, errES, errOut)
	}
	_, _, err = runArgsIn(t, "", "unwinnable", "--quick", "--full", "--lang", "es")
	if err == nil || exitCode(err) != 2 || err.Error() != "--quick y --full se excluyen" {
		t.Errorf("--quick --full in Spanish: %v", err)
	}
}

// serve and hall say the configuration's mistakes in the language of
// --lang, else of the file's lang:, with the file, the line and the
// setting as they are; Error() stays English underneath.
func TestConfigErrorsInSpanish(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	unknown := write("unknown.yaml", "data: /tmp/x\nbords:\n  - number: 1\n")
	values := write("values.yaml", "data: /tmp/x\nboards:\n  - number: 0\n    port: COM3\n")
	windows := write("windows.yaml", "boards:\n  - number: 1\n    port: \"C:\\new\"\n    timecontrol: 90+30\n")
	spanish := write("spanish.yaml", "lang: es\nboards:\n  - number: 1\n    port: /tmp/arbiterd-board-1\n    timecontrol: 40/5400+30:1800+30\n")
	hall := write("hall.yaml", "venues: []\n")
	for _, tt := range []struct {
		args []string
		want []string
		code int
	}{
		{[]string{"serve", "--lang", "es"}, []string{"serve: falta --config ARCHIVO"}, 2},
		{[]string{"hall", "--lang", "es"}, []string{"hall: falta --config ARCHIVO"}, 2},
		{[]string{"serve", "--lang", "es", "--config", unknown}, []string{unknown + `:2: bords: ajuste desconocido: ¿quería decir "boards"?`}, 1},
		{[]string{"serve", "--lang", "es", "--config", values}, []string{
			values + ":3: boards[0].number: 0: el número de un tablero es 1 o más",
			values + `:4: boards[0].port: "COM3" es un nombre de puerto de Windows: en este sistema`,
			values + ":3: boards[0].timecontrol: falta: el control de tiempo decide cada veredicto de caída de bandera",
		}, 1},
		{[]string{"serve", "--lang", "es", "--config", windows}, []string{windows + `:3: YAML: entre comillas dobles una barra invertida empieza una secuencia de escape (\n aquí), así que "C:\new" no se lee como está escrito: póngalo entre comillas simples ('C:\new')`}, 1},
		{[]string{"serve", "--config", spanish, "--round", "a b"}, []string{`serve: tras aplicar las opciones: round: "a b": una ronda se escribe con letras, cifras`}, 2},
		{[]string{"hall", "--lang", "es", "--config", hall}, []string{hall + ":1: venues: no hay sedes: la sala reúne al menos una"}, 1},
		{[]string{"serve", "--lang", "fr", "--config", spanish}, []string{`--lang "fr": not a language arbiterd speaks (it speaks en, es)`}, 2},
	} {
		_, _, err := runArgsIn(t, "", tt.args...)
		if err == nil || exitCode(err) != tt.code {
			t.Errorf("%v: %v (exit %d), want exit %d", tt.args, err, exitCode(err), tt.code)
			continue
		}
		for _, want := range tt.want {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%v: %v\nlacks %q", tt.args, err, want)
			}
		}
	}
	// In English, as before.
	_, _, err := runArgsIn(t, "", "serve", "--config", values)
	if err == nil || !strings.Contains(err.Error(), values+":3: boards[0].number: 0: a board number is 1 or more") {
		t.Errorf("serve in English: %v", err)
	}
}

// emulate -v --lang es: the trace of the game in Spanish (the emulator's
// notes as sentences of the catalogs); in English as it was.
func TestEmulateTraceInSpanish(t *testing.T) {
	args := []string{"emulate", "--listen", "127.0.0.1:0", "--speed", "3000", "--exit", "-v", "--tc", "300+2", "--end", "flag"}
	es, _, err := runArgsIn(t, "", append(args, "--lang", "es")...)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"media jugada 1: Las blancas juegan e4\n",
		"media jugada 1: Las blancas pulsan el reloj (blancas 0:05:02, negras 0:05:02)\n",
		"cae la bandera de las negras en el último periodo: el reloj se bloquea en cero y se para\n",
		"partida terminada\n",
	} {
		if !strings.Contains(es, want) {
			t.Errorf("emulate -v --lang es lacks %q:\n%s", want, es)
		}
	}
	en, _, err := runArgsIn(t, "", append(args, "--lang", "en")...)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"ply 1: White plays e4\n", "ply 1: White presses (white 0:05:02, black 0:05:02)\n",
		"Black's flag falls in the last period: blocked at zero, the clock stops\n", "game over\n",
	} {
		if !strings.Contains(en, want) {
			t.Errorf("emulate -v --lang en lacks %q:\n%s", want, en)
		}
	}
}
