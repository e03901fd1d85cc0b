package pairings

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/arbiterd/arbiterd/internal/testkit/shareddata"
)

func readShared(t *testing.T, elem ...string) []byte {
	t.Helper()
	data, err := os.ReadFile(shareddata.Require(t, elem...))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// checkRound checks what holds for any round: board numbers 1..n, and no
// player twice.
func checkRound(t *testing.T, r *Round) {
	t.Helper()
	seen := map[string]bool{}
	once := func(p Player) {
		k := p.Name + "/" + p.FideID
		if p.StartRank > 0 {
			k = string(rune(p.StartRank))
		}
		if seen[k] {
			t.Errorf("%s is in the round twice", p.Name)
		}
		seen[k] = true
	}
	for i, b := range r.Boards {
		if b.Number != i+1 {
			t.Errorf("board %d is number %d", i+1, b.Number)
		}
		once(b.White)
		once(b.Black)
	}
	for _, b := range r.Byes {
		once(b.Player)
	}
}

func TestTRFRealRounds(t *testing.T) {
	data := readShared(t, "trf", "karl-mala-2005.trf")
	tr, err := ParseTRF(data)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Name != "9. Karl-Mala-Gedenkturnier" || tr.Rounds != 7 || len(tr.Players) != 284 {
		t.Fatalf("name %q, %d rounds, %d players", tr.Name, tr.Rounds, len(tr.Players))
	}
	if tr.NextRound() != 0 {
		t.Errorf("NextRound = %d in a finished tournament", tr.NextRound())
	}
	if _, err := tr.Round(0); !errors.Is(err, ErrNoRound) {
		t.Errorf("Round(0) of a finished tournament: %v", err)
	}
	r7, err := tr.Round(7)
	if err != nil {
		t.Fatal(err)
	}
	checkRound(t, r7)
	// The top of round 7: 1 and 31 both on 5.5 points.
	b1 := r7.Boards[0]
	if b1.White.StartRank != 1 || b1.Black.StartRank != 31 || b1.Result != "1/2-1/2" || b1.White.Score != 5.5 || b1.Black.Score != 5.5 {
		t.Errorf("board 1 = %+v", b1)
	}
	if b1.White.Name != "Vasquez, Rodrigo" || b1.White.Title != "GM" || b1.White.Federation != "CHI" || b1.White.FideID != "3400042" || b1.White.Rating != 2558 {
		t.Errorf("board 1's White = %+v", b1.White)
	}
	// Boards ordered: the higher score, the sum, the better starting rank.
	for i := 1; i < len(r7.Boards); i++ {
		a, b := r7.Boards[i-1], r7.Boards[i]
		ah, bh := max(a.White.Score, a.Black.Score), max(b.White.Score, b.Black.Score)
		as, bs := a.White.Score+a.Black.Score, b.White.Score+b.Black.Score
		if ah < bh || ah == bh && as < bs || ah == bh && as == bs && min(a.White.StartRank, a.Black.StartRank) > min(b.White.StartRank, b.Black.StartRank) {
			t.Errorf("board %d (%.1f, %.1f) before board %d (%.1f, %.1f)", a.Number, ah, as, b.Number, bh, bs)
		}
	}
	// Every player is on a board or listed.
	if n := 2*len(r7.Boards) + len(r7.Byes); n != 284 {
		t.Errorf("round 7 has %d players, the file 284", n)
	}
	kinds := map[string]int{}
	for _, b := range r7.Byes {
		kinds[b.Kind]++
	}
	if kinds[Unpaired] == 0 || len(r7.Boards) != 137 {
		t.Errorf("round 7: %d boards, byes %v", len(r7.Boards), kinds)
	}
	// Round 5: player 282's bye without opponent, a pairing-allocated bye
	// written as a forfeit win; round 6: 245 won by forfeit against 267.
	r5, err := tr.Round(5)
	if err != nil {
		t.Fatal(err)
	}
	checkRound(t, r5)
	r6, err := tr.Round(6)
	if err != nil {
		t.Fatal(err)
	}
	checkRound(t, r6)
	want := map[int]string{282: PairingBye}
	for _, b := range r5.Byes {
		if k, ok := want[b.Player.StartRank]; ok && k != b.Kind {
			t.Errorf("round 5: player %d is %s, want %s", b.Player.StartRank, b.Kind, k)
		}
	}
	found := 0
	for _, b := range r6.Byes {
		switch {
		case b.Player.StartRank == 245 && b.Kind == ForfeitWin, b.Player.StartRank == 267 && b.Kind == ForfeitLoss:
			found++
		}
	}
	if found != 2 {
		t.Errorf("round 6's forfeit 245–267 not listed as such: %+v", r6.Byes)
	}
	// Player 276 joined in round 2: unpaired in round 1.
	r1, _ := tr.Round(1)
	checkRound(t, r1)
	if !hasBye(r1, 276, Unpaired) {
		t.Errorf("round 1: player 276 not listed unpaired")
	}
}

func hasBye(r *Round, rank int, kind string) bool {
	for _, b := range r.Byes {
		if b.Player.StartRank == rank && b.Kind == kind {
			return true
		}
	}
	return false
}

// trfLine builds a player line in TRF-16's columns.
func trfLine(rank int, title, name string, rating int, fed, id string, pts string, entries ...string) string {
	b := []byte(strings.Repeat(" ", 91))
	put := func(col int, s string) { copy(b[col-1:], s) }
	put(1, "001")
	put(5, padLeft(itoa(rank), 4))
	put(11, padLeft(title, 3))
	put(15, name)
	if rating > 0 {
		put(49, padLeft(itoa(rating), 4))
	}
	put(54, fed)
	put(58, padLeft(id, 11))
	put(81, padLeft(pts, 4))
	s := string(b)
	for _, e := range entries {
		s += e + strings.Repeat(" ", 10-len(e))
	}
	return strings.TrimRight(s, " ")
}

func padLeft(s string, n int) string {
	if len(s) >= n {
		return s
	}
	return strings.Repeat(" ", n-len(s)) + s
}

func itoa(n int) string { return strconv.Itoa(n) }

// A round exported for play: round 2 paired, results blank, a half-point
// bye requested, a player absent.
func nextRoundTRF() string {
	return strings.Join([]string{
		"012 Club Championship",
		"022 Utrecht",
		"XXR 5",
		"132                                                                                        26/03/01  26/03/08",
		trfLine(1, "g", "Alpha,Anna", 2500, "NED", "1000001", "1.0", "   4 w 1", "   3 b  "),
		trfLine(2, "m", "Beta,Bert", 2400, "GER", "1000002", "0.0", "   5 b 0", "   6 w  "),
		trfLine(3, "", "Gamma,Gerd", 2300, "", "", "1.0", "   6 w 1", "   1 w  "),
		trfLine(4, "", "Delta,Dirk", 0, "", "", "0.0", "   1 b 0", "0000 - H"),
		trfLine(5, "wf", "Epsilon,Eva", 2100, "BEL", "1000005", "1.0", "   2 w 1", "0000 - Z"),
		trfLine(6, "", "Zeta,Zoe", 0, "", "", "0.0", "   3 b 0", "   2 b  "),
		"",
	}, "\n")
}

func TestTRFNextRound(t *testing.T) {
	// Player 1 paired against 3 with w for both: an error.
	good := nextRoundTRF()
	bad := strings.Replace(good, "   3 b\n", "   3 w\n", 1)
	if _, err := Read("club.trf", []byte(bad), 0); err == nil || !strings.Contains(err.Error(), "both have colour w") {
		t.Fatalf("both white: %v", err)
	} else if !strings.HasPrefix(err.Error(), "club.trf:5:") {
		t.Errorf("error %q does not name the line", err)
	}
	r, err := Read("club.trf", []byte(good), 0)
	if err != nil {
		t.Fatal(err)
	}
	checkRound(t, r)
	if r.Number != 2 || r.Event != "Club Championship" || r.Site != "Utrecht" || r.Date != "2026.03.08" {
		t.Errorf("round %d %q %q %q", r.Number, r.Event, r.Site, r.Date)
	}
	// 3 (1.0) – 1 (1.0) on board 1; 6 (0.0) – 2 (0.0) on board 2.
	if len(r.Boards) != 2 || r.Boards[0].White.StartRank != 3 || r.Boards[0].Black.StartRank != 1 ||
		r.Boards[1].White.StartRank != 2 || r.Boards[1].Black.StartRank != 6 || r.Boards[0].Result != "" {
		t.Errorf("boards %+v", r.Boards)
	}
	if r.Boards[1].Black.Rating != 0 || r.Boards[1].Black.FideID != "" {
		t.Errorf("an unrated player without id: %+v", r.Boards[1].Black)
	}
	if r.Boards[1].White.StartRank != 2 || r.Boards[1].Black.StartRank != 6 {
		t.Errorf("board 2: %+v", r.Boards[1])
	}
	if !hasBye(r, 4, HalfPointBye) || !hasBye(r, 5, ZeroPointBye) || len(r.Byes) != 2 {
		t.Errorf("byes %+v", r.Byes)
	}
	if r.Boards[0].Black.Title != "GM" || r.Boards[1].White.Title != "IM" {
		t.Errorf("titles g and m read as %q and %q", r.Boards[0].Black.Title, r.Boards[1].White.Title)
	}
	// Rounds 3 to 5 have no pairings yet: everyone unpaired in round 3.
	r3, err := Read("club.trf", []byte(good), 3)
	if err != nil || len(r3.Boards) != 0 || len(r3.Byes) != 6 {
		t.Errorf("round 3: %v %+v", err, r3)
	}
	if _, err := Read("club.trf", []byte(good), 6); !errors.Is(err, ErrNoRound) {
		t.Errorf("round 6 of 5: %v", err)
	}
}

// lichessLine writes a player line as lichess's Swiss export does: each
// field right-aligned to end at its column.
func lichessLine(rank int, handle string, rating int, pts string, rounds ...[3]string) string {
	type f struct {
		end int
		s   string
	}
	fs := []f{{3, "001"}, {8, itoa(rank)}, {15 + len(handle), handle}, {52, itoa(rating)}, {84, pts}}
	for i, r := range rounds {
		fs = append(fs, f{95 + 10*i, r[0]}, f{97 + 10*i, r[1]}, f{99 + 10*i, r[2]})
	}
	s := ""
	for _, x := range fs {
		s += strings.Repeat(" ", max(0, x.end-len(x.s)-len(s))) + x.s
	}
	return s
}

// lichessTRF is a Swiss as lichess exports it: handles for names (a column
// later than TRF's), no titles, ids or federations, the XXR and XXC
// extension lines, Z for a game in progress, U for a bye, H for a late
// joiner, and an absent player's next round written ahead (0000 - -).
func lichessTRF() string {
	return strings.Join([]string{
		"012 Hourly Blitz",
		"022 https://lichess.org/swiss/abcdefgh",
		"032 Lichess",
		"042 2026-03-01",
		"062 5",
		"092 Individual: Swiss-System",
		"102 https://lichess.org/swiss",
		"XXR 3",
		"XXC white1",
		lichessLine(1, "DrNykterstein", 2950, "1.0", [3]string{"4", "w", "1"}, [3]string{"3", "b", "Z"}),
		lichessLine(2, "penguingim1", 2890, "0.5", [3]string{"", "", "H"}, [3]string{"5", "w", "Z"}),
		lichessLine(3, "Zhigalko_Sergei", 2800, "1.0", [3]string{"5", "b", "1"}, [3]string{"1", "w", "Z"}),
		lichessLine(4, "lovlas", 2700, "1.0", [3]string{"1", "b", "0"}, [3]string{"", "", "U"}, [3]string{"0000", "", "-"}),
		lichessLine(5, "RebeccaHarris", 2650, "0.0", [3]string{"3", "w", "0"}, [3]string{"2", "b", "Z"}),
	}, "\n") + "\n"
}

func TestTRFLichess(t *testing.T) {
	r, err := Read("lichess.trf", []byte(lichessTRF()), 0)
	if err != nil {
		t.Fatal(err)
	}
	checkRound(t, r)
	if r.Number != 2 || len(r.Boards) != 2 || len(r.Byes) != 1 || !hasBye(r, 4, PairingBye) {
		t.Fatalf("round %d: boards %+v byes %+v", r.Number, r.Boards, r.Byes)
	}
	// 3 (1.0) – 1 (1.0) first, then 2 (0.5) – 5 (0.0).
	b := r.Boards
	if b[0].White.Name != "Zhigalko_Sergei" || b[0].Black.Name != "DrNykterstein" || b[1].White.Name != "penguingim1" || b[1].Black.Name != "RebeccaHarris" {
		t.Errorf("boards %+v", b)
	}
	if b[0].Result != "" {
		t.Errorf("a game in progress has result %q", b[0].Result)
	}
	if b[0].Black.Rating != 2950 || b[0].Black.FideID != "" || b[0].Black.Title != "" {
		t.Errorf("player %+v", b[0].Black)
	}
	r3, err := Read("lichess.trf", []byte(lichessTRF()), 3)
	if err != nil || !hasBye(r3, 4, Unpaired) {
		t.Errorf("round 3: %v %+v", err, r3)
	}
}

func TestTRFErrors(t *testing.T) {
	base := nextRoundTRF()
	for _, c := range []struct {
		name, from, to, want string
	}{
		{"rank", "001    1", "001    x", ":5:5: starting rank \"x\""},
		{"title", "    g Alpha", "    q Alpha", ":5:11: title \"q\""},
		{"rating", "Alpha,Anna                        2500", "Alpha,Anna                        25x0", ":5:49: rating"},
		{"id", "1000001", "10000x1", ":5:58: FIDE id"},
		{"points", " 1.0          4 w 1", " 1.x          4 w 1", ":5:81: points"},
		{"opponent", "   4 w 1", "   y w 1", ":5:92: round 1: opponent \"y\""},
		{"colour", "   4 w 1", "   4 x 1", ":5:97: round 1: colour 'x'"},
		{"result", "   4 w 1", "   4 w 7", ":5:99: round 1: result '7'"},
		{"no such opponent", "   4 w 1", "  40 w 1", ":5:92: round 1: opponent 40 is no player"},
		{"not mutual", "   4 w 1", "   5 w 1", ":5:92: round 1: player 1's opponent is 5, but player 5's entry for that round names 2"},
		{"xxr", "XXR 5", "XXR five", ":3:5: XXR"},
		{"duplicate", "001    6", "001    5", ":10:5: starting rank 5 is also line 9's"},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := strings.Replace(base, c.from, c.to, 1)
			if in == base {
				t.Fatalf("%q not in the file", c.from)
			}
			_, err := Read("e.trf", []byte(in), 1)
			var pe *Error
			if err == nil || !errors.As(err, &pe) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
		})
	}
	if _, err := ParseTRF([]byte("012 nothing\n")); err == nil {
		t.Error("a file without players read")
	}
}

// Windows-1252 and UTF-8 names, each at the columns TRF gives them.
func TestTRFEncodings(t *testing.T) {
	utf := strings.Replace(nextRoundTRF(), "Zeta,Zoe", "Żeta,Zoë", 1)
	r, err := Read("u.trf", []byte(utf), 1)
	if err != nil {
		t.Fatal(err)
	}
	if !hasName(r, "Żeta, Zoë") {
		t.Errorf("UTF-8 name not read: %+v", r)
	}
	latin := strings.Replace(nextRoundTRF(), "Zeta,Zoe", "Zeta,Zo\xeb", 1)
	r, err = Read("l.trf", []byte(latin), 1)
	if err != nil {
		t.Fatal(err)
	}
	if !hasName(r, "Zeta, Zoë") {
		t.Errorf("Windows-1252 name not read: %+v", r)
	}
	if !bytes.Contains([]byte(latin), []byte{0xeb}) {
		t.Fatal("not Latin-1")
	}
}

func hasName(r *Round, name string) bool {
	for _, b := range r.Boards {
		if b.White.Name == name || b.Black.Name == name {
			return true
		}
	}
	return false
}
