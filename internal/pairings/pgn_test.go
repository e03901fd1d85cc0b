package pairings

import (
	"errors"
	"strings"
	"testing"
)

// The shared Tata Steel file ends with the stubs of rounds 9 to 13, one
// game per board with a Board tag; rounds 1 to 8 have moves.
func TestPGNTataSteelStubs(t *testing.T) {
	data := readShared(t, "broadcast", "tata-steel-2026-masters.pgn")
	r, err := Read("tata.pgn", data, 0)
	if err != nil {
		t.Fatal(err)
	}
	checkRound(t, r)
	if r.Number != 9 || len(r.Boards) != 7 || len(r.Byes) != 0 || r.Event != "Masters" || r.Site != "Wijk aan Zee, NL" {
		t.Fatalf("round %d %q %q: %d boards", r.Number, r.Event, r.Site, len(r.Boards))
	}
	for n := 9; n <= 13; n++ {
		r, err := Read("tata.pgn", data, n)
		if err != nil {
			t.Fatal(err)
		}
		checkRound(t, r)
		if len(r.Boards) != 7 {
			t.Errorf("round %d: %d boards", n, len(r.Boards))
		}
		for _, b := range r.Boards {
			for _, p := range []Player{b.White, b.Black} {
				if p.Name == "" || p.FideID == "" || p.Rating < 2600 || p.Title != "GM" || len(p.Team) != 3 {
					t.Errorf("round %d board %d: player %+v", n, b.Number, p)
				}
			}
			if b.Result != "" {
				t.Errorf("round %d board %d: result %q", n, b.Number, b.Result)
			}
		}
	}
	last, _ := Read("tata.pgn", data, 13)
	b5, _ := last.Board(5)
	if b5.White.Name != "Giri, Anish" || b5.Black.Name != "Niemann, Hans Moke" || b5.White.FideID != "24116068" || b5.Black.Rating != 2725 {
		t.Errorf("round 13 board 5: %+v", b5)
	}
	// A played round reads too, with its results.
	r1, err := Read("tata.pgn", data, 1)
	if err != nil || len(r1.Boards) != 7 || r1.Boards[0].Result == "" {
		t.Errorf("round 1: %v %+v", err, r1)
	}
	if _, err := Read("tata.pgn", data, 14); !errors.Is(err, ErrNoRound) {
		t.Errorf("round 14: %v", err)
	}
}

// lichess writes the board into the round: Round "3.2".
const lichessPairingPGN = `[Event "Club Open"]
[Site "Leiden"]
[Date "2026.03.08"]
[Round "3.2"]
[White "Beta, Bert"]
[Black "Gamma, Gerd"]
[Result "*"]
[WhiteFideId "1000002"]
[WhiteElo "2400"]
[WhiteTitle "IM"]
[WhiteFederation "GER"]
[BlackElo "-"]

*

[Event "Club Open"]
[Site "Leiden"]
[Date "2026.03.08"]
[Round "3.1"]
[White "Alpha, Anna"]
[Black "Delta, Dirk"]
[Result "*"]
[WhiteFideId "1000001"]
[BlackFideId "0"]
[WhiteTitle "WGM"]

*
`

func TestPGNRoundDotBoard(t *testing.T) {
	r, err := Read("round3.pgn", []byte(lichessPairingPGN), 0)
	if err != nil {
		t.Fatal(err)
	}
	checkRound(t, r)
	if r.Number != 3 || len(r.Boards) != 2 || r.Date != "2026.03.08" {
		t.Fatalf("%+v", r)
	}
	b1, b2 := r.Boards[0], r.Boards[1]
	if b1.White.Name != "Alpha, Anna" || b1.White.Title != "WGM" || b1.Black.FideID != "" || b2.White.Federation != "GER" || b2.White.Rating != 2400 || b2.Black.Rating != 0 {
		t.Errorf("boards %+v", r.Boards)
	}
	// Without the board, the games are numbered in the file's order.
	plain := strings.ReplaceAll(strings.ReplaceAll(lichessPairingPGN, `"3.2"`, `"3"`), `"3.1"`, `"3"`)
	r, err = Read("round3.pgn", []byte(plain), 3)
	if err != nil || r.Boards[0].White.Name != "Beta, Bert" || r.Boards[1].Number != 2 {
		t.Errorf("%v %+v", err, r)
	}
	// A Board tag says the same as the round.
	tagged := strings.Replace(plain, `[Result "*"]`, `[Result "*"]`+"\n"+`[Board "7"]`, 1)
	r, err = Read("round3.pgn", []byte(strings.Replace(tagged, `[Result "*"]`+"\n"+`[WhiteFideId "1000001"]`, `[Result "*"]`+"\n"+`[Board "3"]`+"\n"+`[WhiteFideId "1000001"]`, 1)), 0)
	if err != nil || r.Boards[0].Number != 3 || r.Boards[1].Number != 7 {
		t.Errorf("%v %+v", err, r)
	}
	// A pairing PGN's bye: a game whose Black is "BYE".
	bye := strings.Replace(lichessPairingPGN, `"Delta, Dirk"`, `"BYE"`, 1)
	r, err = Read("round3.pgn", []byte(bye), 0)
	if err != nil || len(r.Boards) != 1 || len(r.Byes) != 1 || r.Byes[0].Player.Name != "Alpha, Anna" {
		t.Errorf("%v %+v", err, r)
	}
}

func TestPGNErrors(t *testing.T) {
	for _, c := range []struct{ name, from, to, want string }{
		{"elo", `[WhiteElo "2400"]`, `[WhiteElo "24OO"]`, `round3.pgn:9:12: WhiteElo: "24OO" is not a rating`},
		{"fide id", `[WhiteFideId "1000002"]`, `[WhiteFideId "x"]`, `round3.pgn:8:15: WhiteFideId: "x" is not a FIDE id`},
		{"title", `[WhiteTitle "IM"]`, `[WhiteTitle "Dr"]`, `round3.pgn:10:14: WhiteTitle: "Dr" is none of`},
		{"round", `[Round "3.2"]`, `[Round "three"]`, `round3.pgn:4:9: Round "three" is not a round number`},
		{"duplicate board", `[Round "3.2"]`, `[Round "3.1"]`, `round3.pgn:16: round 3: board 1 is also the game at line 1`},
		{"contradiction", `[Result "*"]`, `[Result "*"] [Board "5"]`, `Board 5 contradicts Round "3.2"`},
		{"quote", `[Site "Leiden"]`, `[Site "Leiden]`, `round3.pgn:2:7: tag Site: the value's closing quote is missing`},
		{"bracket", `[Site "Leiden"]`, `[Site "Leiden"`, `round3.pgn:2:15: tag Site: ']' expected`},
		{"no quotes", `[Site "Leiden"]`, `[Site Leiden]`, `round3.pgn:2:7: tag Site: its value must be in double quotes`},
		{"mixed", `[Round "3.2"]`, `[Round "3"]`, `round 3: some games have a board number`},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := strings.Replace(lichessPairingPGN, c.from, c.to, 1)
			if in == lichessPairingPGN {
				t.Fatalf("%q not in the file", c.from)
			}
			_, err := Read("round3.pgn", []byte(in), 3)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
		})
	}
	if _, err := Read("x.pgn", []byte("1. e4 e5 *\n"), 0); err == nil || !strings.Contains(err.Error(), "x.pgn:1:1:") {
		t.Errorf("movetext first: %v", err)
	}
	if _, err := Read("x.pgn", []byte("\n\n"), 0); err == nil {
		t.Error("an empty file read")
	}
}
