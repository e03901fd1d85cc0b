package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiterd/arbiterd/driver/drivertest"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
)

func runArgs(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	root := newRootCmd()
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), errOut.String(), err
}

func TestReplayCommand(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.capture")
	os.WriteFile(good, []byte("#capture v1\n#port board dgt\n0.000000 board w 4b\n0.012480 board r 8e00050c00\n"+
		"0.013511 board r 8e\n0.013640 board r 00052401\n"), 0o644)
	out, errOut, err := runArgs(t, "replay", "--decoded", "--stats", good)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("output %q", out)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(lines[1]), &m); err != nil {
		t.Fatal(err)
	}
	if m["type"] != "field" || m["square"] != "e4" || m["port"] != "board" || m["char"] != "P" {
		t.Errorf("second message %v", m)
	}
	if !strings.HasPrefix(lines[1], `{"t":0.013640,`) {
		t.Errorf("t not written with 6 decimals: %s", lines[1])
	}
	if !strings.Contains(errOut, "2 messages") {
		t.Errorf("stats %q", errOut)
	}
}

func TestReplayCommandErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.capture")
	os.WriteFile(bad, []byte("#capture v1\n#port board dgt\n0.000000 board r 8E\n"), 0o644)
	notCapture := filepath.Join(dir, "game.pgn")
	os.WriteFile(notCapture, []byte("[Event \"x\"]\n"), 0o644)
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"replay", bad}, 1, "line 3"},
		{[]string{"replay", notCapture}, 1, "not a capture"},
		{[]string{"replay", filepath.Join(dir, "missing")}, 1, "no such file"},
		{[]string{"replay"}, 2, "exactly one argument"},
	}
	for _, tt := range tests {
		_, _, err := runArgs(t, tt.args...)
		if err == nil {
			t.Errorf("%v: no error", tt.args)
			continue
		}
		if exitCode(err) != tt.code || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: %v (exit %d), want exit %d mentioning %q", tt.args, err, exitCode(err), tt.code, tt.want)
		}
	}
}

// The default output is the event stream; --pgn and --report are views of it.
func TestReplayEventsPGNReport(t *testing.T) {
	dir := t.TempDir()
	capt := filepath.Join(dir, "game.capture")
	e, err := emulator.New(emulator.Config{Game: strings.Fields("e4 e5 Nf3 Nc6"), Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("#capture v1\n#port board dgt\n#meta board=7\n#meta white=W\n#meta black=B\n#meta timecontrol=40/5400+30:1800+30\n")
	fmt.Fprintf(&b, "0.000000 board r %x\n", drivertest.DGTBoardDump(drivertest.DGTStartPosition()))
	for _, c := range e.Play() {
		fmt.Fprintf(&b, "%s board r %x\n", capture.FormatSeconds(c.At), c.Data)
	}
	os.WriteFile(capt, []byte(b.String()), 0o644)
	pgnFile := filepath.Join(dir, "game.pgn")
	out, _, err := runArgs(t, "replay", "--pgn", pgnFile, capt)
	if err != nil {
		t.Fatal(err)
	}
	completes := strings.Count(out, `"type":"complete"`)
	if completes != 4 || !strings.HasPrefix(out, `{"type":"session","board":"7","t":0.000000,"seq":1,`) {
		t.Errorf("%d complete events; output:\n%s", completes, out)
	}
	again, _, _ := runArgs(t, "replay", capt)
	if again != out {
		t.Error("two replays of one capture differ")
	}
	pgnText, err := os.ReadFile(pgnFile)
	if err != nil || !strings.Contains(string(pgnText), "2. Nf3 {[%clk") || !strings.Contains(string(pgnText), `[Round "?"]`) {
		t.Errorf("PGN %v:\n%s", err, pgnText)
	}
	rep, _, err := runArgs(t, "replay", "--report", capt)
	if err != nil || !strings.Contains(rep, "White 2 of 40 (period 1), Black 2 of 40 (period 1)") {
		t.Errorf("report %v:\n%s", err, rep)
	}
	if _, _, err := runArgs(t, "replay", "--decoded", "--report", capt); err == nil || exitCode(err) != 2 {
		t.Errorf("--decoded with --report: %v", err)
	}
	rep, _, err = runArgs(t, "replay", "--report", "--lang", "es", capt)
	if err != nil || !strings.Contains(rep, "Tablero 7: W – B") || !strings.Contains(rep, "blancas 2 de 40 (periodo 1), negras 2 de 40 (periodo 1)") {
		t.Errorf("report in Spanish %v:\n%s", err, rep)
	}
	for _, args := range [][]string{{"--lang", "es"}, {"--report", "--lang", "de"}} {
		if _, _, err := runArgs(t, append(append([]string{"replay"}, args...), capt)...); err == nil || exitCode(err) != 2 {
			t.Errorf("replay %v: %v", args, err)
		}
	}
	// --lang with --pgn: the PGN's comments in that language; the events
	// as ever (a game without comments: the same PGN)
	pgnES := filepath.Join(dir, "game.es.pgn")
	outES, _, err := runArgs(t, "replay", "--pgn", pgnES, "--lang", "es", capt)
	if err != nil || outES != out {
		t.Errorf("replay --pgn --lang es: %v; events differ: %v", err, outES != out)
	}
	if es, err := os.ReadFile(pgnES); err != nil || string(es) != string(pgnText) {
		t.Errorf("PGN with --lang es %v:\n%s", err, es)
	}
}

// A capture's provenance (the arbiterd build, the wall-clock start) and
// its Site change no event: the replay is byte for byte the one without
// them, and the PGN takes Date and Site from them.
func TestReplayProvenance(t *testing.T) {
	dir := t.TempDir()
	e, err := emulator.New(emulator.Config{Game: strings.Fields("d4 d5 c4"), Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var body strings.Builder
	body.WriteString("#meta board=2\n#meta event=Open\n#meta timecontrol=5400+30\n")
	fmt.Fprintf(&body, "0.000000 board r %x\n", drivertest.DGTBoardDump(drivertest.DGTStartPosition()))
	for _, c := range e.Play() {
		fmt.Fprintf(&body, "%s board r %x\n", capture.FormatSeconds(c.At), c.Data)
	}
	plain := filepath.Join(dir, "plain.capture")
	os.WriteFile(plain, []byte("#capture v1\n#port board dgt\n"+body.String()), 0o644)
	withMeta := filepath.Join(dir, "provenance.capture")
	os.WriteFile(withMeta, []byte("#capture v1\n#port board dgt\n#meta arbiterd-version=1.2.3\n#meta arbiterd-revision=0123abc\n"+
		"#meta started=2026-12-01T23:30:19-05:00\n#meta site=Saint Louis USA\n"+body.String()), 0o644)
	want, _, err := runArgs(t, "replay", plain)
	if err != nil {
		t.Fatal(err)
	}
	pgnFile := filepath.Join(dir, "game.pgn")
	got, _, err := runArgs(t, "replay", "--pgn", pgnFile, withMeta)
	if err != nil {
		t.Fatal(err)
	}
	if got != want || strings.Count(got, `"type":"complete"`) != 3 {
		t.Errorf("the provenance changed the events:\n%s\nwithout it:\n%s", got, want)
	}
	pgnText, _ := os.ReadFile(pgnFile)
	for _, tag := range []string{`[Event "Open"]`, `[Site "Saint Louis USA"]`, `[Date "2026.12.01"]`} {
		if !strings.Contains(string(pgnText), tag) {
			t.Errorf("PGN lacks %s:\n%s", tag, pgnText)
		}
	}
}
