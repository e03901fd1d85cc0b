package main

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/arbiterd/arbiterd/rules/bitboard"
)

// runArgsIn runs the root command with args and stdin.
func runArgsIn(t *testing.T, stdin string, args ...string) (string, string, error) {
	t.Helper()
	root := newRootCmd()
	var out, errOut bytes.Buffer
	root.SetIn(strings.NewReader(stdin))
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), errOut.String(), err
}

// checkMateLine plays the UCI moves of line from fen and fails unless
// each is legal and the last one mates the opponent of side.
func checkMateLine(t *testing.T, fen string, side bitboard.Color, line []string) {
	t.Helper()
	pos, err := bitboard.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	for i, u := range line {
		m, ok := pos.ParseMove(u)
		if !ok {
			t.Fatalf("%s: move %d %q of %v is not legal", fen, i+1, u, line)
		}
		pos.Make(m)
	}
	if !pos.IsCheckmate() || pos.Side() != side.Other() {
		t.Fatalf("%s: %v does not end in mate by %s", fen, line, side)
	}
}

var answerLine = regexp.MustCompile(`^(winnable|unwinnable|undetermined)(( [a-h][1-8][a-h][1-8][qrbn]?)*) nodes \d+ time \d+$`)

// TestUnwinnableQueryFormats checks the accepted query forms: an explicit
// side, the default side (the one NOT to move, still on time after a
// flag fall), a FEN cut to its first fields, a trailing game id, comments
// and blank lines.
func TestUnwinnableQueryFormats(t *testing.T) {
	tests := []struct {
		query string
		fen   string
		side  bitboard.Color
		want  string
	}{
		// Black to move, so by default the question is about White.
		{"8/8/8/4k3/8/8/8/4K2R b - - 0 1", "8/8/8/4k3/8/8/8/4K2R b - - 0 1", bitboard.White, "winnable"},
		{"8/8/8/4k3/8/8/8/4K2R b - - 0 1 black", "8/8/8/4k3/8/8/8/4K2R b - - 0 1", bitboard.Black, "unwinnable"},
		// White to move: by default about Black, who has a lone king.
		{"8/8/8/4k3/8/8/8/4K2R w - - 0 1", "8/8/8/4k3/8/8/8/4K2R w - - 0 1", bitboard.Black, "unwinnable"},
		{"8/8/8/4k3/8/8/8/4K2R w - - 0 1 white", "8/8/8/4k3/8/8/8/4K2R w - - 0 1", bitboard.White, "winnable"},
		{"8/8/8/4k3/8/8/8/4K2R w", "8/8/8/4k3/8/8/8/4K2R w - - 0 1", bitboard.Black, "unwinnable"},
		{"8/8/8/8/3N4/8/r7/k1K5 w - - 0 1 gameid42", "8/8/8/8/3N4/8/r7/k1K5 w - - 0 1", bitboard.Black, "winnable"},
		{"8/8/8/8/3N4/8/r7/k1K5 w - - 0 1 white", "8/8/8/8/3N4/8/r7/k1K5 w - - 0 1", bitboard.White, "winnable"},
		{"2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1 white", "2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1", bitboard.White, "unwinnable"},
	}
	var in strings.Builder
	in.WriteString("# a comment\n\n")
	for _, tt := range tests {
		in.WriteString("  " + tt.query + "  \n\n")
	}
	for _, args := range [][]string{{"unwinnable"}, {"unwinnable", "--full"}, {"unwinnable", "-"}} {
		out, errOut, err := runArgsIn(t, in.String(), args...)
		if err != nil || errOut != "" {
			t.Fatalf("%v: %v, stderr %q", args, err, errOut)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) != len(tests) {
			t.Fatalf("%v: %d answers for %d queries:\n%s", args, len(lines), len(tests), out)
		}
		for i, tt := range tests {
			m := answerLine.FindStringSubmatch(lines[i])
			if m == nil {
				t.Fatalf("answer %q is not in the documented format", lines[i])
			}
			if m[1] != tt.want {
				t.Errorf("%q: %s, want %s", tt.query, m[1], tt.want)
				continue
			}
			moves := strings.Fields(m[2])
			if tt.want == "winnable" {
				checkMateLine(t, tt.fen, tt.side, moves)
			} else if len(moves) != 0 {
				t.Errorf("%q: %s with moves %v", tt.query, m[1], moves)
			}
		}
	}
}

// TestUnwinnableQuickAndFile reads queries from a file in quick mode:
// a position that needs a long search may be undetermined there, but a
// proof or a mate line is never wrong, and --nodes bounds the work.
func TestUnwinnableQuickAndFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "q.txt")
	os.WriteFile(file, []byte("8/8/8/4k3/8/8/8/4KB2 b - - 0 1\n8/8/8/8/3N4/8/r7/k1K5 w - - 0 1 white\n"), 0o644)
	out, _, err := runArgs(t, "unwinnable", "--quick", "--nodes", "500", file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "unwinnable ") || !strings.HasPrefix(lines[1], "winnable ") {
		t.Fatalf("output:\n%s", out)
	}
	for _, l := range lines {
		// Quick mode spends nothing on shortening the line.
		f := strings.Fields(l)
		if n, err := strconv.Atoi(f[len(f)-3]); err != nil || n > 500 {
			t.Errorf("%q: more than --nodes 500 allows", l)
		}
	}
	checkMateLine(t, "8/8/8/8/3N4/8/r7/k1K5 w - - 0 1", bitboard.White, strings.Fields(lines[1])[1:len(strings.Fields(lines[1]))-4])

	// --line-nodes adds a budget for the line, never more.
	out, _, err = runArgs(t, "unwinnable", "--quick", "--nodes", "500", "--line-nodes", "300", file)
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(strings.Split(out, "\n")[1])
	if n, err := strconv.Atoi(f[len(f)-3]); err != nil || n > 800 {
		t.Errorf("%q: more than --nodes 500 --line-nodes 300 allow", out)
	}
	checkMateLine(t, "8/8/8/8/3N4/8/r7/k1K5 w - - 0 1", bitboard.White, f[1:len(f)-4])
}

// TestUnwinnableLabelled checks the --label mode: both sides of each
// position, a summary line, disagreements printed and failing the run.
func TestUnwinnableLabelled(t *testing.T) {
	good := "# labels\nW- 8/8/8/4k3/8/8/8/4K2R w - - 0 1\n-- 8/8/8/4k3/8/8/8/4KN2 w - - 0 1\nWB rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
	out, errOut, err := runArgsIn(t, good, "unwinnable", "--label")
	if err != nil || errOut != "" {
		t.Fatalf("%v, stderr %q, output:\n%s", err, errOut, out)
	}
	if want := "6 queries (full): 6 agree, 0 undetermined, 0 disagree; time "; !strings.HasPrefix(out, want) || strings.Count(out, "\n") != 1 {
		t.Errorf("output %q, want one summary line starting %q", out, want)
	}
	wrong := "-B 8/8/8/4k3/8/8/8/4K2R w - - 0 1\n"
	out, _, err = runArgsIn(t, wrong, "unwinnable", "--label")
	if err == nil || exitCode(err) != 1 || !strings.Contains(err.Error(), "2 answer(s) disagree") {
		t.Errorf("wrong labels: error %v (exit %d)", err, exitCode(err))
	}
	if !strings.Contains(out, "stdin:1: -B but winnable for white") || !strings.Contains(out, "stdin:1: -B but unwinnable for black") ||
		!strings.Contains(out, "2 queries (full): 0 agree, 0 undetermined, 2 disagree") {
		t.Errorf("output:\n%s", out)
	}
}

// TestUnwinnableBadLines checks that a bad line is reported with the file
// name and its line number, that the other lines are still answered, and
// that the run then exits non-zero; so do a missing file and bad flags.
func TestUnwinnableBadLines(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "q.txt")
	os.WriteFile(file, []byte("# header\n8/8/8/4k3/8/8/8/4K2R w - - 0 1 white\n\n8/8/8/4k3/8/8/8/4K2R x - - 0 1\n8/8/8/4k3/8/8/8/4KN2 w - - 0 1 white\n"), 0o644)
	out, errOut, err := runArgs(t, "unwinnable", "--quick", file)
	if err == nil || exitCode(err) != 1 || !strings.Contains(err.Error(), "1 bad line(s)") {
		t.Errorf("error %v (exit %d)", err, exitCode(err))
	}
	if !strings.HasPrefix(errOut, file+":4: ") || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, `side to move: want "w" or "b", got "x"`) {
		t.Errorf("diagnostic %q, want one naming %s:4 and the bad side to move", errOut, file)
	}
	if lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n"); len(lines) != 2 || !strings.HasPrefix(lines[1], "unwinnable ") {
		t.Errorf("the good lines are not all answered:\n%s", out)
	}

	_, errOut, err = runArgsIn(t, "W- 8/8/8/4k3/8/8/8/4K2R w - - 0 1\nXB 8/8/8/4k3/8/8/8/4K2R w - - 0 1\n", "unwinnable", "--label")
	if err == nil || exitCode(err) != 1 || !strings.HasPrefix(errOut, "stdin:2: ") || !strings.Contains(errOut, "label") {
		t.Errorf("bad label: error %v, stderr %q", err, errOut)
	}

	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"unwinnable", "--quick", "--full"}, 2, "exclude each other"},
		{[]string{"unwinnable", "--nodes", "many"}, 2, "many"},
		{[]string{"unwinnable", "--nodes", "-5"}, 2, "--nodes -5"},
		{[]string{"unwinnable", "a", "b"}, 1, "accepts at most 1 arg"},
		{[]string{"unwinnable", filepath.Join(dir, "missing")}, 1, "no such file"},
	}
	for _, tt := range tests {
		_, _, err := runArgsIn(t, "", tt.args...)
		if err == nil || exitCode(err) != tt.code || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: %v (exit %d), want exit %d mentioning %q", tt.args, err, exitCode(err), tt.code, tt.want)
		}
	}
}

// TestUnwinnableFileAsStdin checks that a query file is answered and
// diagnosed line for line as the same text on standard input (each line
// read in place from the scanner's buffer): comments, blank lines, CRLF
// line ends, a bad line and a last line without a newline.
func TestUnwinnableFileAsStdin(t *testing.T) {
	text := "# header\r\n8/8/8/4k3/8/8/8/4K2R w - - 0 1 white\r\n\r\n  \n8/8/8/4k3/8/8/8/4K2R x - - 0 1\n" +
		"8/8/8/4k3/8/8/8/4KN2 w - - 0 1 white\n8/8/8/8/3N4/8/r7/k1K5 w - - 0 1 white"
	file := filepath.Join(t.TempDir(), "q.txt")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"--quick", "--full"} {
		fileOut, fileErr, err1 := runArgs(t, "unwinnable", mode, file)
		inOut, inErr, err2 := runArgsIn(t, text, "unwinnable", mode)
		times := regexp.MustCompile(` time \d+`)
		fileOut, inOut = times.ReplaceAllString(fileOut, ""), times.ReplaceAllString(inOut, "")
		if fileOut != inOut || strings.ReplaceAll(fileErr, file, "stdin") != inErr || (err1 == nil) != (err2 == nil) {
			t.Errorf("%s: file gives %q, %q, %v; stdin %q, %q, %v", mode, fileOut, fileErr, err1, inOut, inErr, err2)
		}
		if n := strings.Count(fileOut, "\n"); n != 3 || !strings.HasPrefix(fileErr, file+":5: ") {
			t.Errorf("%s: %d answers (want 3), diagnostic %q (want one for line 5)", mode, n, fileErr)
		}
	}
}

// TestUnwinnableCPUProfile checks --cpuprofile: the answers as without
// it, and a gzip-compressed profile in the file; a file that cannot be
// created is named in the error before any query is read.
func TestUnwinnableCPUProfile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cpu.prof")
	queries := "8/8/8/4k3/8/8/8/4KB2 b - - 0 1\n8/8/8/8/3N4/8/r7/k1K5 w - - 0 1 white\n"
	want, _, err := runArgsIn(t, queries, "unwinnable", "--quick", "--nodes", "500")
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := runArgsIn(t, queries, "unwinnable", "--quick", "--nodes", "500", "--cpuprofile", path)
	if err != nil {
		t.Fatal(err)
	}
	times := regexp.MustCompile(` time \d+`)
	if times.ReplaceAllString(out, "") != times.ReplaceAllString(want, "") {
		t.Errorf("with --cpuprofile:\n%s\nwithout:\n%s", out, want)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: not a gzip-compressed profile: %v", path, err)
	}
	if b, err := io.ReadAll(zr); err != nil || len(b) == 0 {
		t.Fatalf("%s: %d bytes of profile, %v", path, len(b), err)
	}

	bad := filepath.Join(dir, "no-such-dir", "cpu.prof")
	if _, _, err := runArgsIn(t, queries, "unwinnable", "--quick", "--cpuprofile", bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("--cpuprofile %s: error %v, want one naming the file", bad, err)
	}
}

// failingWriter refuses every write.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestUnwinnableWriteError checks that answers that cannot be written
// make the run fail, in both formats, though they fit in the output's
// buffer until the end.
func TestUnwinnableWriteError(t *testing.T) {
	for _, c := range []struct{ in, flag string }{
		{"8/8/8/4k3/8/8/8/4KB2 b - - 0 1\n", "--quick"},
		{"WB 8/8/8/8/3N4/8/r7/k1K5 w - - 0 1\n", "--label"},
	} {
		root := newRootCmd()
		root.SetIn(strings.NewReader(c.in))
		root.SetOut(failingWriter{})
		root.SetErr(io.Discard)
		root.SetArgs([]string{"unwinnable", "--quick", "--nodes", "500", c.flag})
		if err := root.Execute(); err == nil || !strings.Contains(err.Error(), "no space left") {
			t.Errorf("unwinnable %s into a failing writer: error %v, want the write's", c.flag, err)
		}
	}
}
