package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiterd/arbiterd/internal/testkit/shareddata"
)

// dataFolder writes round 7 of the real report as the daemon would have
// kept it: boards 1 to 3 of the round, players named in the captures,
// board 1 drawn by a claim, board 2 won on a flag, board 3 not ended.
func dataFolder(t *testing.T) string {
	t.Helper()
	data := t.TempDir()
	dir := filepath.Join(data, "round-7")
	os.MkdirAll(dir, 0o755)
	boards := []struct{ white, black, end string }{
		{"Vasquez, Rodrigo", "Uwira, Oliver", `{"type":"end","board":"1","t":6000.000000,"seq":136,"result":"1/2-1/2","reason":"claim","article":"10.2"}`},
		{"Mikhaletz, Lubomir", "Strohhaeker, Raoul", `{"type":"end","board":"2","t":8964.773108,"seq":136,"result":"0-1","reason":"flag","article":"6.9"}`},
		{"", "", `{"type":"complete","board":"3","t":56.066000,"seq":6,"ply":1,"side":"white","by":"press","moves":{"white":1,"black":0},"clock":{"white":5408.0,"black":5430.0},"san":"e4"}`},
	}
	for i, b := range boards {
		id := string(rune('1' + i))
		capture := "#capture v1\n#port board dgt\n#meta board=" + id + "\n#meta round=7\n"
		if b.white != "" {
			capture += "#meta white=" + b.white + "\n#meta black=" + b.black + "\n"
		}
		os.WriteFile(filepath.Join(dir, "board-"+id+".capture"), []byte(capture+"1.000000 board r 8d000a21303021302909\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "board-"+id+".events.jsonl"), []byte(b.end+"\n"), 0o644)
	}
	return data
}

func TestResultsCommand(t *testing.T) {
	data := dataFolder(t)
	out, _, err := runCmd(t, "results", data, "--round", "7")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"1      Vasquez, Rodrigo", "1/2-1/2 (claim)", "open (the flag verdict 0-1 is not confirmed by the arbiter)",
		"open (the game has not ended)", "3 boards, 2 open"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	out, _, err = runCmd(t, "results", data, "--round", "7", "--csv", "--confirm", "2")
	want := "board,white,black,result\n1,\"Vasquez, Rodrigo\",\"Uwira, Oliver\",1/2-1/2\n2,\"Mikhaletz, Lubomir\",\"Strohhaeker, Raoul\",0-1\n3,,,\n"
	if err != nil || out != want {
		t.Errorf("CSV %v:\n%s\nwant\n%s", err, out, want)
	}
	for _, args := range [][]string{{"results", data}, {"results", data, "--round", "7", "--confirm", "x"}, {"results", data, "--round", "7", "--out", "x.trf"}} {
		if _, _, err := runCmd(t, args...); err == nil || exitCode(err) != 2 {
			t.Errorf("%v: %v", args, err)
		}
	}
	if _, _, err := runCmd(t, "results", data, "--round", "8"); err == nil {
		t.Error("a round without a folder read")
	}
}

// Round 7 of the real report, written back from the data folder: only the
// result columns and points of the boards with a result change; the
// open games are left as the file has them.
func TestResultsCommandTRF(t *testing.T) {
	trf := shareddata.Require(t, "trf", "karl-mala-2005.trf")
	orig, _ := os.ReadFile(trf)
	data := dataFolder(t)
	out := filepath.Join(t.TempDir(), "out.trf")
	_, stderr, err := runCmd(t, "results", data, "--round", "7", "--trf", trf, "--out", out, "--confirm", "all")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "2 results written, 135 left open") || !strings.Contains(stderr, "open: board 3, Solonar, Stefan – Grabarczyk, Bogdan: the game has not ended") {
		t.Errorf("stderr:\n%.600s", stderr)
	}
	got, _ := os.ReadFile(out)
	// Board 2 was 1-0 in the report; the data says 0-1.
	want := bytes.Replace(orig, []byte("001    5    g Mikhaletz,Lubomir                 2451 UKR    14102340 1974.08.15  6.5"),
		[]byte("001    5    g Mikhaletz,Lubomir                 2451 UKR    14102340 1974.08.15  5.5"), 1)
	want = bytes.Replace(want, []byte("    25 w 1\n"), []byte("    25 w 0\n"), 1)
	want = bytes.Replace(want, []byte("001   25      Strohhaeker,Raoul                 2251         4687400 1987.04.03  5.5"),
		[]byte("001   25      Strohhaeker,Raoul                 2251         4687400 1987.04.03  6.5"), 1)
	want = bytes.Replace(want, []byte("     5 b 0\n"), []byte("     5 b 1\n"), 1)
	if bytes.Equal(want, orig) || !bytes.Equal(got, want) {
		t.Fatalf("the copy differs from the report in more than board 2's columns")
	}
	// To standard output, the same bytes.
	stdout, _, err := runCmd(t, "results", data, "--round", "7", "--trf", trf, "--confirm", "2")
	if err != nil || stdout != string(want) {
		t.Errorf("standard output differs (%v)", err)
	}
	// A board whose players are no pair of the round stops the writing.
	bad := filepath.Join(data, "round-7", "board-1.capture")
	os.WriteFile(bad, []byte("#capture v1\n#port board dgt\n#meta board=1\n#meta white=Uwira, Oliver\n#meta black=Vasquez, Rodrigo\n"), 0o644)
	if _, _, err := runCmd(t, "results", data, "--round", "7", "--trf", trf, "--out", out); err == nil || !strings.Contains(err.Error(), "other colours") {
		t.Errorf("colours reversed: %v", err)
	}
}
