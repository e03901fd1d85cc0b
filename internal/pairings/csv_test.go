package pairings

import (
	"strings"
	"testing"
)

func TestCSVByHeaderName(t *testing.T) {
	for _, c := range []struct{ name, data string }{
		{"comma", "Board,White,Black,White Elo,Black Elo,White FIDE ID,Black FIDE ID,White Title,Black Title,White Fed,Black Fed\n" +
			"1,\"Alpha, Anna\",\"Gamma, Gerd\",2500,2300,1000001,,GM,,NED,\n" +
			"2,\"Beta, Bert\",\"Zeta, Zoë\",2400,,1000002,,IM,,GER,\n"},
		// Columns in another order, ';' between them, a BOM, CR LF.
		{"semicolon", "\ufeffBlack;Elo black;Brd;White;WhiteElo;FideId White;Title (White);Federation White;Black Federation\r\n" +
			"Gamma, Gerd;2300;1;Alpha, Anna;2500;1000001;g;NED;\r\n" +
			"Zeta, Zoë;;2;Beta, Bert;2400;1000002;IM;GER;\r\n"},
		// Windows-1252, as a spreadsheet on Windows saves it.
		{"windows-1252", "Board;White;Black;White Rating;Black Rating;White FideId;White Title;White Federation\r\n" +
			"1;Alpha, Anna;Gamma, Gerd;2500;2300;1000001;GM;NED\r\n" +
			"2;Beta, Bert;Zeta, Zo\xeb;2400;;1000002;IM;GER\r\n"},
		// A pairing program's list: the player columns twice, left White,
		// right Black, and the result between them.
		{"left and right", "Bo.\tNo.\tName\tRtg\tResult\tNo.\tName\tRtg\n" +
			"1\t1\tAlpha, Anna\t2500\t\t3\tGamma, Gerd\t2300\n" +
			"2\t2\tBeta, Bert\t2400\t\t6\tZeta, Zoë\t\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := Read("pairs.csv", []byte(c.data), 0)
			if err != nil {
				t.Fatal(err)
			}
			checkRound(t, r)
			if len(r.Boards) != 2 {
				t.Fatalf("%+v", r)
			}
			b1, b2 := r.Boards[0], r.Boards[1]
			if b1.Number != 1 || b1.White.Name != "Alpha, Anna" || b1.White.Rating != 2500 || b1.Black.Name != "Gamma, Gerd" || b1.Black.Rating != 2300 {
				t.Errorf("board 1: %+v", b1)
			}
			if b2.Number != 2 || b2.White.Name != "Beta, Bert" || b2.Black.Name != "Zeta, Zoë" || b2.Black.Rating != 0 {
				t.Errorf("board 2: %+v", b2)
			}
			if c.name != "left and right" && (b1.White.FideID != "1000001" || b1.White.Title != "GM" || b1.White.Federation != "NED" || b2.White.Title != "IM") {
				t.Errorf("board 1's White: %+v", b1.White)
			}
			if c.name == "left and right" && (b1.White.StartRank != 1 || b1.Black.StartRank != 3) {
				t.Errorf("starting numbers: %+v", b1)
			}
		})
	}
}

func TestCSVRoundsByesAndOrder(t *testing.T) {
	data := "Round,Table,White,Black,Result\n" +
		"1,1,A,B,1-0\n" +
		"2,2,C,D,\n" +
		"2,1,B,A,\n" +
		"2,,E,bye,1\n" +
		"2,,F,,½\n" +
		"\n"
	r, err := Read("all.csv", []byte(data), 2)
	if err != nil {
		t.Fatal(err)
	}
	checkRound(t, r)
	if r.Number != 2 || len(r.Boards) != 2 || r.Boards[0].White.Name != "B" || r.Boards[1].White.Name != "C" {
		t.Errorf("boards %+v", r.Boards)
	}
	if len(r.Byes) != 2 || r.Byes[0].Kind != FullPointBye || r.Byes[1].Kind != HalfPointBye || r.Byes[1].Player.Name != "F" {
		t.Errorf("byes %+v", r.Byes)
	}
	r1, err := Read("all.csv", []byte(data), 0)
	if err != nil || r1.Number != 1 || len(r1.Boards) != 1 || r1.Boards[0].Result != "1-0" {
		t.Errorf("round 1: %v %+v", err, r1)
	}
	if _, err := Read("all.csv", []byte(data), 3); err == nil || !strings.Contains(err.Error(), "round 3 has no rows") {
		t.Errorf("round 3: %v", err)
	}
	// Without a board column, rows are boards in order.
	r, err = Read("x.csv", []byte("White,Black\nA,B\nC,D\n"), 0)
	if err != nil || r.Boards[1].Number != 2 || r.Boards[1].Black.Name != "D" {
		t.Errorf("%v %+v", err, r)
	}
}

func TestCSVErrors(t *testing.T) {
	for _, c := range []struct{ name, data, want string }{
		{"no names", "Board,Player 1,Player 2\n1,A,B\n", `p.csv:1: no columns for White's and Black's names`},
		{"board", "Board,White,Black\n1,A,B\nx,C,D\n", `p.csv:3:1: Board: "x" is not a board number`},
		{"rating", "Board;White;Black;Black Elo\n1;A;B;2l00\n", `p.csv:2:7: Black Elo: "2l00" is not a rating`},
		{"rating after a non-ASCII name", "White;Black;Black Elo\nÅsa;Ørjan;2l00\n", `p.csv:2:11: Black Elo: "2l00" is not a rating`},
		{"title", "White,Black,White Title\nA,B,Sir\n", `p.csv:2:5: White Title: "Sir" is none of`},
		{"duplicate board", "Board,White,Black\n1,A,B\n1,C,D\n", `p.csv:3: board 1 is also on line 2`},
		{"missing board", "Board,White,Black\n1,A,B\n,C,D\n", `p.csv:3: the pair C – D has no board number`},
		{"quote", "White,Black\n\"A,B\n", `p.csv:2:`},
		{"empty", "\n\n", `the file is empty`},
		{"header only", "White,Black\n", `no pairs`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read("p.csv", []byte(c.data), 0)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
		})
	}
}

func TestDetect(t *testing.T) {
	for _, c := range []struct {
		name, data string
		want       Format
	}{
		{"a.pgn", "", FormatPGN}, {"a.TRF", "", FormatTRF}, {"a.csv", "", FormatCSV},
		{"pairs", "[Event \"x\"]\n", FormatPGN}, {"report.txt", "012 Open\n001    1", FormatTRF},
		{"export", "XXR 9\n", FormatTRF}, {"list", "Board;White;Black\n", FormatCSV},
	} {
		if got := Detect(c.name, []byte(c.data)); got != c.want {
			t.Errorf("Detect(%q) = %s, want %s", c.name, got, c.want)
		}
	}
}
