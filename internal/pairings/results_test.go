package pairings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// roundFolder writes a round folder as the daemon leaves it: per board a
// capture (its meta) and the event stream.
func roundFolder(t *testing.T, boards map[string][2]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "round-2")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for id, b := range boards {
		meta, events := b[0], b[1]
		capture := "#capture v1\n#port board dgt\n#meta board=" + id + "\n#meta round=2\n" + meta +
			"1.000000 board r 8d000a21303021302909\n"
		if err := os.WriteFile(filepath.Join(dir, "board-"+id+".capture"), []byte(capture), 0o644); err != nil {
			t.Fatal(err)
		}
		if events != "-" {
			if err := os.WriteFile(filepath.Join(dir, "board-"+id+".events.jsonl"), []byte(events), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

const (
	evStart = `{"type":"session","board":"B","t":0.000000,"seq":1,"state":"start","port":"board"}` + "\n" +
		`{"type":"position","board":"B","t":1.953428,"seq":2,"fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","orientation":"white-bottom"}` + "\n"
	evMate = `{"type":"end","board":"B","t":900.000000,"seq":90,"result":"0-1","reason":"checkmate","article":"5.1.1"}` + "\n"
	evFlag = `{"type":"flag","board":"B","t":8964.773108,"seq":135,"side":"black","clock":{"white":3010.0,"black":0.0},"period":1,"moves_completed":18,"moves_required":40,"control_reached":false,"opponent_can_mate":"yes","mate_line":["g1b6"],"verdict":"loss","article":"6.9","reason":"Black's flag fell."}` + "\n" +
		`{"type":"end","board":"B","t":8964.773108,"seq":136,"result":"1-0","reason":"flag","article":"6.9"}` + "\n"
	evClaim = `{"type":"end","board":"B","t":6000.000000,"seq":136,"result":"1/2-1/2","reason":"claim","article":"10.2"}` + "\n"
	// After the end, the board set up again: a new game whose end is not
	// this round's result.
	evAgain = `{"type":"position","board":"B","t":9000.0,"seq":137,"fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","orientation":"white-bottom"}` + "\n" +
		`{"type":"end","board":"B","t":9100.000000,"seq":150,"result":"0-1","reason":"result-signalled","article":"–"}` + "\n"
)

func names(w, b string) string { return "#meta white=" + w + "\n#meta black=" + b + "\n" }

func TestReadResults(t *testing.T) {
	dir := roundFolder(t, map[string][2]string{
		"1": {names("Gamma, Gerd", "Alpha, Anna"), evStart + evMate + evAgain},
		"2": {names("Beta, Bert", "Zeta, Zoe"), evStart + evFlag},
		"3": {"", evStart},
		"4": {"", "-"},
		"5": {"", evStart + evClaim},
		"6": {"", evStart + `{"type":"end","board":"B","t":1.0,"seq":3,"res`}, // a crash mid-line
	})
	rs, err := ReadResults(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ result, reason, open string }{
		{"0-1", "checkmate", ""},
		{"", "flag", "the flag verdict 1-0 is not confirmed by the arbiter"},
		{"", "", "the game has not ended"},
		{"", "", "no events yet"},
		{"1/2-1/2", "claim", ""},
		{"", "", "the game has not ended"},
	}
	if len(rs) != len(want) {
		t.Fatalf("%d results: %+v", len(rs), rs)
	}
	for i, w := range want {
		r := rs[i]
		if r.Board != i+1 || r.Result != w.result || r.Reason != w.reason || r.Open != w.open {
			t.Errorf("board %d: %+v, want %+v", i+1, r, w)
		}
	}
	if rs[0].White != "Gamma, Gerd" || rs[0].Black != "Alpha, Anna" {
		t.Errorf("players %+v", rs[0])
	}
	// Confirmed, the flag's verdict is the result.
	rs, err = ReadResults(dir, func(b int) bool { return b == 2 })
	if err != nil || rs[1].Result != "1-0" || rs[1].Open != "" {
		t.Errorf("confirmed: %v %+v", err, rs[1])
	}

	// Into the TRF the round was paired from: boards 1 and 2 by the
	// players' names, 5 and 6 by number (the captures name nobody).
	tr, err := ParseTRF([]byte(nextRoundTRF()))
	if err != nil {
		t.Fatal(err)
	}
	round, err := tr.Round(2)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Match(round, rs[:2])
	if err != nil || m[0].Pair.Number != 1 || m[1].Pair.Number != 2 || m[1].Pair.White.StartRank != 2 {
		t.Fatalf("%v %+v", err, m)
	}
	if _, err := Match(round, []BoardResult{{Board: 1, White: "Alpha, Anna", Black: "Gamma, Gerd"}}); err == nil || !strings.Contains(err.Error(), "other colours") {
		t.Errorf("colours reversed: %v", err)
	}
	if _, err := Match(round, []BoardResult{{Board: 1, White: "Nobody", Black: "Gamma, Gerd"}}); err == nil || !strings.Contains(err.Error(), "no pair of round 2") {
		t.Errorf("unknown player: %v", err)
	}
	if _, err := Match(round, []BoardResult{{Board: 3}}); err == nil || !strings.Contains(err.Error(), "no board 3") {
		t.Errorf("board 3 of 2: %v", err)
	}
	if _, err := Match(round, []BoardResult{{Board: 1}, {Board: 2, White: "Gamma, Gerd", Black: "Alpha, Anna"}}); err == nil || !strings.Contains(err.Error(), "both the pair on board 1") {
		t.Errorf("one pair twice: %v", err)
	}
}

func TestReadResultsErrors(t *testing.T) {
	if _, err := ReadResults(filepath.Join(t.TempDir(), "round-9"), nil); err == nil {
		t.Error("a missing folder read")
	}
	if _, err := ReadResults(t.TempDir(), nil); err == nil || !strings.Contains(err.Error(), "no board captures") {
		t.Errorf("an empty folder: %v", err)
	}
	dir := roundFolder(t, map[string][2]string{"1": {"", evStart + "not json\n" + evMate}})
	if _, err := ReadResults(dir, nil); err == nil || !strings.Contains(err.Error(), "board-1.events.jsonl:3:") {
		t.Errorf("a bad events line: %v", err)
	}
	dir = roundFolder(t, map[string][2]string{"x": {"", evStart}})
	if _, err := ReadResults(dir, nil); err == nil || !strings.Contains(err.Error(), `board "x" is not a board number`) {
		t.Errorf("a board that is no number: %v", err)
	}
}
