package pairings

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
)

// unplay blanks round n's results of the file's boards and takes their
// points off, as the file stood before the round was played; it returns
// the results it took.
func unplay(t *testing.T, data []byte, n int) ([]byte, []GameResult) {
	t.Helper()
	tr, err := ParseTRF(data)
	if err != nil {
		t.Fatal(err)
	}
	r, err := tr.Round(n)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(bytes.Clone(data), []byte("\n"))
	var results []GameResult
	for _, b := range r.Boards {
		if b.Result != "1-0" && b.Result != "0-1" && b.Result != "1/2-1/2" {
			continue
		}
		results = append(results, GameResult{White: b.White.StartRank, Black: b.Black.StartRank, Result: b.Result})
		for _, rank := range []int{b.White.StartRank, b.Black.StartRank} {
			p, _ := tr.Player(rank)
			e := p.entry(n)
			l := lines[p.Line-1]
			l[e.Column+7-1] = ' '
			pts := []byte(padLeft(strconv.FormatFloat(p.Points-points(e.Result), 'f', 1, 64), 4))
			copy(l[80:84], pts)
		}
	}
	return bytes.Join(lines, nil), results
}

// The real report: round 7 taken back to unplayed, then written from the
// results arbiterd would give, is the report byte for byte.
func TestWriteResultsRealRoundTrip(t *testing.T) {
	orig := readShared(t, "trf", "karl-mala-2005.trf")
	for _, n := range []int{1, 4, 7} {
		blank, results := unplay(t, orig, n)
		if bytes.Equal(blank, orig) || len(results) < 100 {
			t.Fatalf("round %d: nothing taken off (%d results)", n, len(results))
		}
		tr, err := ParseTRF(blank)
		if err != nil {
			t.Fatal(err)
		}
		if got := tr.NextRound(); got != n {
			t.Errorf("the unplayed file's next round is %d, want %d", got, n)
		}
		out, err := tr.WriteResults(n, results)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out, orig) {
			diff(t, orig, out)
		}
		// Written again over itself: nothing changes.
		tr2, err := ParseTRF(orig)
		if err != nil {
			t.Fatal(err)
		}
		again, err := tr2.WriteResults(n, results)
		if err != nil || !bytes.Equal(again, orig) {
			t.Errorf("round %d written over the played file changed it (%v)", n, err)
		}
	}
}

func diff(t *testing.T, want, got []byte) {
	t.Helper()
	w, g := bytes.Split(want, []byte("\n")), bytes.Split(got, []byte("\n"))
	for i := range min(len(w), len(g)) {
		if !bytes.Equal(w[i], g[i]) {
			t.Fatalf("line %d:\nwant %q\ngot  %q", i+1, w[i], g[i])
		}
	}
	t.Fatalf("lengths %d and %d", len(want), len(got))
}

// Only the round's result columns and the points change: a result that
// differs from the file's changes two lines, in those columns only.
func TestWriteResultsOnlyResultColumns(t *testing.T) {
	orig := readShared(t, "trf", "karl-mala-2005.trf")
	tr, _ := ParseTRF(orig)
	// Board 1 of round 7, 1 – 31, was drawn: written as 1-0.
	out, err := tr.WriteResults(7, []GameResult{{White: 1, Black: 31, Result: "1-0"}})
	if err != nil {
		t.Fatal(err)
	}
	ol, nl := strings.Split(string(orig), "\n"), strings.Split(string(out), "\n")
	if len(ol) != len(nl) {
		t.Fatal("line count changed")
	}
	changed := 0
	for i := range ol {
		if ol[i] == nl[i] {
			continue
		}
		changed++
		for c := range max(len(ol[i]), len(nl[i])) {
			if c < len(ol[i]) && c < len(nl[i]) && ol[i][c] == nl[i][c] {
				continue
			}
			col := c + 1
			if !(col >= 81 && col <= 84) && col != 92+60+7 {
				t.Errorf("line %d: column %d changed", i+1, col)
			}
		}
	}
	if changed != 2 {
		t.Errorf("%d lines changed, want 2", changed)
	}
	if !strings.Contains(nl[13], " 6.5 ") || !strings.HasSuffix(nl[13], "31 w 1") {
		t.Errorf("player 1: %q", nl[13])
	}
	if !strings.Contains(nl[43], " 5.5 ") || !strings.HasSuffix(nl[43], "1 b =") && !strings.Contains(nl[43], "1 b 0") {
		t.Errorf("player 31: %q", nl[43])
	}
}

func TestWriteResultsNextRound(t *testing.T) {
	data := strings.ReplaceAll(nextRoundTRF(), "\n", "\r\n") // a file written on Windows
	tr, err := ParseTRF([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	out, err := tr.WriteResults(2, []GameResult{{White: 3, Black: 1, Result: "1/2-1/2"}})
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(data, "1.0          4 w 1     3 b\r\n", "1.5          4 w 1     3 b =\r\n", 1)
	want = strings.Replace(want, "1.0          6 w 1     1 w\r\n", "1.5          6 w 1     1 w =\r\n", 1)
	if want == data || string(out) != want {
		t.Fatalf("got\n%s\nwant\n%s", out, want)
	}
	for _, bad := range []GameResult{
		{White: 1, Black: 3, Result: "1-0"}, // colours the other way
		{White: 2, Black: 6, Result: "2-0"}, // no result
		{White: 2, Black: 9, Result: "1-0"}, // no player
		{White: 4, Black: 5, Result: "0-1"}, // byes
	} {
		if _, err := tr.WriteResults(2, []GameResult{bad}); err == nil {
			t.Errorf("%+v written", bad)
		}
	}
	if _, err := tr.WriteResults(9, nil); err == nil {
		t.Error("round 9 of 5 written")
	}
	// A UTF-8 name before the columns: columns count characters.
	utf := strings.Replace(nextRoundTRF(), "Gamma,Gerd", "Gämma,Gérd", 1)
	tu, err := ParseTRF([]byte(utf))
	if err != nil {
		t.Fatal(err)
	}
	out, err = tu.WriteResults(2, []GameResult{{White: 3, Black: 1, Result: "0-1"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "Gämma,Gérd") || !strings.Contains(string(out), " 1.0          6 w 1     1 w 0\n") {
		t.Errorf("UTF-8 file written as\n%s", out)
	}
}
