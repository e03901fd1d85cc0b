package audit

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/arbiterd/arbiterd/clockd"
)

const twoGames = `[Event "Test"]
[Round "3.1"]
[White "A"]
[Black "B"]
[Result "1-0"]
[TimeControl "40/5400+30:1800+30"]

1. e4 {[%clk 1:30:56]} {[%emt
0:00:04]} e5 $1 {[%clk 1:30:50] [%emt 0:00:10]} 2. Nf3!? (2. Bc4 {[%clk 9:99:99]} Nc6 (2... Nf6)) 2...
Nc6 {a comment} {[%clk 1:31:00]} 3. Bb5 ; rest of line [%clk 0:00:01]
a6 {[%clk 1:30:00.5]} 4.Ba4 1-0

[Event "Test"]
[Round "3.2"]
[White "C \"Q\""]
[Black "D"]
[Result "*"]

% an escaped line
1. d4 {[%clk 0:15:10]} d5 *
`

func TestReaderMovetext(t *testing.T) {
	for name, r := range map[string]io.Reader{
		"whole":    strings.NewReader(twoGames),
		"one-byte": iotest.OneByteReader(strings.NewReader(twoGames)),
		"half":     iotest.HalfReader(strings.NewReader(twoGames)),
	} {
		t.Run(name, func(t *testing.T) {
			rd := NewReader(r, "t.pgn")
			g, err := rd.Next()
			if err != nil {
				t.Fatal(err)
			}
			if g.Line != 1 || g.Tag("Round") != "3.1" || g.Result != "1-0" {
				t.Errorf("game 1: line %d, round %q, result %q", g.Line, g.Tag("Round"), g.Result)
			}
			want := []Ply{
				{SAN: "e4", Clk: 5456 * time.Second, EMT: 4 * time.Second, Line: 8},
				{SAN: "e5", Clk: 5450 * time.Second, EMT: 10 * time.Second, Line: 9},
				{SAN: "Nf3", Clk: Unknown, EMT: Unknown, Line: 9},
				{SAN: "Nc6", Clk: 5460 * time.Second, EMT: Unknown, Line: 10},
				{SAN: "Bb5", Clk: Unknown, EMT: Unknown, Line: 10},
				{SAN: "a6", Clk: 5400*time.Second + 500*time.Millisecond, EMT: Unknown, Line: 11},
				{SAN: "Ba4", Clk: Unknown, EMT: Unknown, Line: 11},
			}
			if len(g.Plies) != len(want) {
				t.Fatalf("plies %+v", g.Plies)
			}
			for i := range want {
				if g.Plies[i] != want[i] {
					t.Errorf("ply %d: %+v, want %+v", i, g.Plies[i], want[i])
				}
			}
			g, err = rd.Next()
			if err != nil {
				t.Fatal(err)
			}
			if g.Line != 13 || g.Tag("White") != `C "Q"` || g.Result != "*" || len(g.Plies) != 2 || g.Plies[0].Clk != 910*time.Second {
				t.Errorf("game 2: %+v", g)
			}
			if _, err := rd.Next(); err != io.EOF {
				t.Errorf("end: %v", err)
			}
		})
	}
}

// Bad input: a clear error with the file and line, and the games after
// it are still read.
func TestReaderBadInput(t *testing.T) {
	good := "[Event \"after\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n"
	for _, tc := range []struct {
		name, text, err string
		line            int
		games           int // games read, the good one after included
	}{
		{"garbage", "this is not PGN at all\n\n" + good, `"this" is not a move`, 1, 1},
		{"bad tag", "[Event unquoted]\n1. e4 1-0\n\n" + good, `tag "Event" has no quoted value`, 1, 1},
		{"unclosed variation", "[Event \"x\"]\n\n1. e4 ) 1-0\n\n" + good, "')' closes no variation", 3, 1},
		{"binary", "[Event \"x\"]\n\n1. e4 \x00\x01\x02\n\x00\x00\n\n" + good, "binary data", 3, 1},
		{"long line", "[Event \"x\"]\n\n" + strings.Repeat("e4 ", maxLine/2) + "\n\n" + good, "line longer than", 3, 1},
		{"truncated", "[Event \"x\"]\n[Result \"1-0\"]\n\n1. e4 {[%clk 1:00:00]} e5 2. Nf3\n\n" + good, "has no result", 5, 2},
		{"truncated at end", good + "\n[Event \"x\"]\n\n1. e4 e5 2. Nf3", "has no result", 8, 2},
		{"unclosed comment at end", good + "\n[Event \"x\"]\n\n1. e4 {[%clk 1:00:00", "comment opened and never closed", 8, 1},
		{"tags only at end", good + "\n[Event \"x\"]\n", "tags without a game", 6, 1},
		{"text after result", "[Event \"x\"]\n\n1. e4 1-0 e5\n\n" + good, `"e5" after the game's result`, 3, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rd := NewReader(strings.NewReader(tc.text), "bad.pgn")
			var errs []error
			games := 0
			for {
				g, err := rd.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					var pe *ParseError
					if !errors.As(err, &pe) {
						t.Fatalf("not a ParseError: %v", err)
					}
					errs = append(errs, err)
				}
				if g != nil {
					games++
				}
			}
			if len(errs) != 1 {
				t.Fatalf("errors %v, want one", errs)
			}
			want := "bad.pgn:" + itoa(int64(tc.line)) + ": "
			if msg := errs[0].Error(); !strings.HasPrefix(msg, want) || !strings.Contains(msg, tc.err) {
				t.Errorf("error %q, want %q…%q", msg, want, tc.err)
			}
			if games != tc.games {
				t.Errorf("%d games read, want %d", games, tc.games)
			}
		})
	}
}

// A file that is not PGN, a compression arbiterd does not read, and data
// that is not what its name says: errors naming the file; the other files
// are still audited.
func TestRunFiles(t *testing.T) {
	dir := t.TempDir()
	game := synthGames(t)[0].pgn(t)
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(game + game))
	zw.Close()
	var zs bytes.Buffer
	ze, _ := zstd.NewWriter(&zs)
	ze.Write([]byte(game))
	ze.Close()
	truncZ := zs.Bytes()[:zs.Len()/2]
	files := []string{
		write("a.pgn", []byte(game)),
		write("b.pgn.gz", gz.Bytes()),
		write("c.pgn.zst", zs.Bytes()),
		write("d.pgn.bz2", []byte("BZh91AY&SY garbage")),
		write("e.pgn.zst", []byte(game)),
		write("f.pgn.zst", truncZ),
		filepath.Join(dir, "missing.pgn"),
	}
	c := &collect{}
	st, err := New(Options{}).Run(files, nil, c)
	if err != nil {
		t.Fatal(err)
	}
	if st.Games != 4 || len(c.reports) != 4 {
		t.Errorf("%d games audited, want 4 (a, two in b, c)", st.Games)
	}
	want := []string{"d.pgn.bz2: bzip2-compressed data is not supported", "e.pgn.zst: named .zst but is not zstd data", "f.pgn.zst:", "missing.pgn"}
	if len(c.errs) != len(want) {
		t.Fatalf("errors %v", c.errs)
	}
	for i, w := range want {
		if !strings.Contains(c.errs[i].Error(), w) {
			t.Errorf("error %d: %v, want %q", i, c.errs[i], w)
		}
	}
	// A directory stands for its PGN files (not the .bz2 one).
	got, err := Expand([]string{dir})
	if err != nil || len(got) != 5 {
		t.Errorf("Expand: %v %v", got, err)
	}
}

func TestParseTimeControl(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"40/5400+30:1800+30", "40/5400+30:1800+30"},
		{": 90 minutes for the first 40 moves, followed by 30 minutes for the rest of the gamewith an increment of 30 seconds per move starting from move 1", "40/5400+30:1800+30"},
		{"90 minutes for the first 40 moves, followed by 30 minutes for the rest of the game with an increment of 30 seconds per move starting from move 1", "40/5400+30:1800+30"},
		{"120 minutes for the first 40 moves, 60 minutes for the next 20 moves, then 15 minutes for the rest of the game with an increment of 30 seconds per move starting from move 61", "40/7200:20/3600:900+30"},
		{"15 minutes + 10 seconds increment per move", "900+10"},
		{"15 min + 10 sec", "900+10"},
		{"90/40+30+30s", "40/5400+30:1800+30"},
		{"3 minutes plus 2 seconds per move", "180+2"},
		{"40 moves in 2 hours, then 1 hour for the rest of the game", "40/7200:3600"},
		{"25 minutes with 10 seconds delay", "1500d10"},
		{"300+3", "300+3"},
		{"120 min/40 + 60 min/20 + 15 min + 30 sec from move 61", "40/7200:20/3600:900+30"},
		{"120'/40m + 30' + 30''/m from move 41", "40/7200:1800+30"},
		{"100'/40 + 50'/20 + 15' + 30\"/move from move 1", "40/6000+30:20/3000+30:900+30"},
		{"90 min/40 moves + 30 min, 30 sec/move", "40/5400+30:1800+30"},
		{"15 min + 10 sec/move", "900+10"},
		{"90 minutes, 30 sec/move", "5400+30"},
	} {
		got, err := ParseTimeControl(tc.in)
		if err != nil || got.String() != tc.want {
			t.Errorf("ParseTimeControl(%q) = %v, %v; want %s", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "?", "-", "rapid", "90 minutes for the first 40 moves", "30 seconds per move starting from move 41"} {
		if got, err := ParseTimeControl(bad); err == nil {
			t.Errorf("ParseTimeControl(%q) = %v, want an error", bad, got)
		}
	}
	// The clockd parser reads the short FIDE forms itself.
	if _, err := clockd.ParseTimeControl("90 minutes for the first 40 moves, followed by 30 minutes"); err == nil {
		t.Log("clockd now reads free text: ParseTimeControl's own prose reader may be redundant")
	}
}
