package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiterd/arbiterd/internal/testkit/shareddata"
)

func runCmd(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	root := newRootCmd()
	var out, errb bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), errb.String(), err
}

func TestPairingsCommandTRF(t *testing.T) {
	trf := shareddata.Require(t, "trf", "karl-mala-2005.trf")
	out, _, err := runCmd(t, "pairings", trf, "--round", "7")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"9. Karl-Mala-Gedenkturnier, round 7", "1. GM Vasquez, Rodrigo (CHI 2558)", "31. Uwira, Oliver (2219)",
		"not on a board:", "284. spielfrei", "unpaired", "137 boards, 10 not on a board"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%.1500s", want, out)
		}
	}
	out, _, err = runCmd(t, "pairings", trf, "--round", "7", "--json")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 147 {
		t.Fatalf("%d JSON lines, want 137 boards and 10 others", len(lines))
	}
	var b struct {
		Board int `json:"board"`
		White struct {
			Name      string `json:"name"`
			FideID    string `json:"fide_id"`
			Rating    int    `json:"rating"`
			Title     string `json:"title"`
			Fed       string `json:"federation"`
			StartRank int    `json:"start_rank"`
		} `json:"white"`
		Black map[string]any `json:"black"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &b); err != nil {
		t.Fatal(err)
	}
	if b.Board != 1 || b.White.Name != "Vasquez, Rodrigo" || b.White.FideID != "3400042" || b.White.Rating != 2558 || b.White.Title != "GM" ||
		b.White.Fed != "CHI" || b.White.StartRank != 1 || b.Black["start_rank"] != 31.0 {
		t.Errorf("board 1: %s", lines[0])
	}
	var bye struct {
		Bye  map[string]any `json:"bye"`
		Kind string         `json:"kind"`
	}
	if err := json.Unmarshal([]byte(lines[137]), &bye); err != nil || bye.Bye["name"] == nil || bye.Kind == "" {
		t.Errorf("first bye: %s (%v)", lines[137], err)
	}
}

func TestPairingsCommandPGNAndErrors(t *testing.T) {
	pgn := shareddata.Require(t, "broadcast", "tata-steel-2026-masters.pgn")
	out, _, err := runCmd(t, "pairings", pgn)
	if err != nil || !strings.Contains(out, "Masters, round 9") || !strings.Contains(out, "7 boards, 0 not on a board") {
		t.Errorf("%v\n%s", err, out)
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "round.csv")
	os.WriteFile(bad, []byte("Board;White;Black;White Elo\n1;A;B;2x00\n"), 0o644)
	_, _, err = runCmd(t, "pairings", bad)
	if err == nil || err.Error() != bad+`:2:7: White Elo: "2x00" is not a rating` || exitCode(err) != 1 {
		t.Errorf("bad rating: %v", err)
	}
	_, _, err = runCmd(t, "pairings", bad, "--round", "-1")
	if err == nil || exitCode(err) != 2 {
		t.Errorf("--round -1: %v", err)
	}
	_, _, err = runCmd(t, "pairings", filepath.Join(dir, "none.trf"))
	if err == nil {
		t.Error("a missing file read")
	}
}
