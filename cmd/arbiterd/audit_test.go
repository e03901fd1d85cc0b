package main

import (
	"encoding/json"
	"github.com/arbiterd/arbiterd/internal/testkit/shareddata"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const auditGame = `[Event "Club"]
[Round "2.3"]
[White "A"]
[Black "B"]
[Result "1/2-1/2"]
[TimeControl "40/5400+30:1800+30"]

1. e4 {[%clk 1:30:56]} e5 {[%clk 1:30:50]} 2. Nf3 {[%clk 1:31:20]} Nc6 {[%clk 1:31:15]} 1/2-1/2
`

func TestAuditTableAndJSON(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "round.pgn")
	if err := os.WriteFile(good, []byte(auditGame), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := runArgsIn(t, "", "audit", good)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	for _, want := range []string{"Club — Round 2 (1 games)", "board", "3  ", "40/5400+30:1800+30"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "1 game(s) in 1 file(s)") {
		t.Errorf("summary: %q", errOut)
	}
	out, _, err = runArgsIn(t, auditGame, "audit", "--json", "-")
	if err != nil {
		t.Fatal(err)
	}
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for _, k := range []string{"round", "white", "black", "result", "timecontrol", "timecontrol_source", "control_mismatch", "periods", "findings"} {
		if _, ok := r[k]; !ok {
			t.Errorf("JSON lacks %q: %s", k, out)
		}
	}
	if r["timecontrol_source"] != "tag" || r["round"] != "2" || r["board"] != "3" {
		t.Errorf("JSON %s", out)
	}
	out, _, err = runArgsIn(t, auditGame, "audit", "--json", "--timecontrol", "900+10", "-")
	if err != nil || !strings.Contains(out, `"timecontrol":"900+10","timecontrol_source":"flag"`) || !strings.Contains(out, `"control_mismatch":true`) {
		t.Errorf("--timecontrol: %v %s", err, out)
	}
}

// Bad input: an error naming the file and line, the exit status 1, and
// every other game audited (and in the HTML report).
func TestAuditBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.pgn")
	os.WriteFile(bad, []byte("garbage here\n\n"+auditGame+"\n[Event \"cut\"]\n\n1. e4 {[%clk 1:30"), 0o644)
	html := filepath.Join(dir, "report.html")
	out, errOut, err := runArgsIn(t, "", "audit", "--json", "--html", html, bad)
	if err == nil || exitCode(err) != 1 {
		t.Errorf("exit: %v", err)
	}
	if !strings.Contains(errOut, "bad.pgn:1: ") || !strings.Contains(errOut, "bad.pgn:14: comment opened and never closed") {
		t.Errorf("stderr %q", errOut)
	}
	if strings.Count(out, "\n") != 1 {
		t.Errorf("want the one good game audited: %q", out)
	}
	page, _ := os.ReadFile(html)
	if !strings.Contains(string(page), "<svg class=\"chart\"") || !strings.Contains(string(page), "bad.pgn:1") {
		t.Errorf("HTML report lacks the chart or the errors")
	}
	if _, _, err := runArgsIn(t, "", "audit", "--timecontrol", "90 apples", bad); err == nil || exitCode(err) != 2 {
		t.Errorf("a bad --timecontrol is a usage error: %v", err)
	}
}

// The World Cup file through the command: 200 games, one data fault (time
// that appeared and stayed) and one clock raised by hand (an arbiter's two
// minutes), no incident.
func TestAuditWorldCup(t *testing.T) {
	path := shareddata.Require(t, "broadcast", "worldcup-2025-rounds-3-6.pgn")
	out, errOut, err := runArgsIn(t, "", "audit", "--json", path)
	if err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	if n := strings.Count(out, "\n"); n != 200 {
		t.Errorf("%d lines, want 200", n)
	}
	data, added := strings.Count(out, `"kind":"clock-data"`), strings.Count(out, `"kind":"time-added"`)
	if data != 1 || added != 1 || strings.Count(out, `"kind":`) != 2 {
		t.Errorf("%d clock-data and %d time-added findings of %d, want 1, 1 and nothing else", data, added, strings.Count(out, `"kind":`))
	}
}
