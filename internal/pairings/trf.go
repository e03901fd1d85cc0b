package pairings

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// Tournament is a TRF-16 file as read: the header lines arbiterd uses, the
// players with their entries round by round, and the bytes it was read
// from, which WriteResults copies.
type Tournament struct {
	Name        string // 012
	City        string // 022
	TimeControl string // 122, free text
	Rounds      int    // XXR when given, else the most rounds a player line has
	Players     []*TRFPlayer
	byRank      map[int]*TRFPlayer
	dates       []string // 132: the rounds' dates as written
	datesLine   int
	data        []byte
	utf8        bool // columns are characters of UTF-8; otherwise bytes of Windows-1252
}

// TRFPlayer is a player line (001).
type TRFPlayer struct {
	Player
	Line    int     // 1-based line number
	Points  float64 // the points column (81–84)
	Entries []Entry // Entries[i] is round i+1
	start   int     // byte offset of the line in the file
	end     int     // byte offset of its end (before any CR LF)
}

// Entry is one round's entry of a player line.
type Entry struct {
	Opponent int  // the opponent's starting rank; 0: none
	Colour   byte // 'w', 'b', '-' (no game on the board) or ' '
	Result   byte // TRF's result code; ' ' while not played
	Column   int  // the entry's first column
}

// points is what a result scores (a TRF's own convention: a pairing-
// allocated bye, U, scores a win; an unplayed Z or U without points is
// rare and left to the points column).
func points(result byte) float64 {
	switch result {
	case '1', '+', 'W', 'F', 'U':
		return 1
	case '=', 'D', 'H':
		return 0.5
	}
	return 0
}

const trfResults = "10=+-WDLHFUZ "

// ParseTRF reads a TRF-16 file. Lines whose code it does not know (the
// extensions programs write, XXR aside) are skipped.
func ParseTRF(data []byte) (*Tournament, error) {
	t := &Tournament{data: data, byRank: map[int]*TRFPlayer{}}
	body := bytes.TrimPrefix(data, bom)
	off := len(data) - len(body)
	t.utf8 = utf8.Valid(body)
	xxr := 0
	for no := 1; len(body) > 0; no++ {
		n := bytes.IndexByte(body, '\n')
		raw := body
		if n >= 0 {
			raw = body[:n]
		}
		end := off + len(bytes.TrimSuffix(raw, []byte("\r")))
		line := t.decode(bytes.TrimSuffix(raw, []byte("\r")))
		switch {
		case len(line) < 3:
		case string(line[:3]) == "001":
			p, err := t.player(no, line)
			if err != nil {
				return nil, err
			}
			p.start, p.end = off, end
			if q := t.byRank[p.StartRank]; q != nil {
				return nil, errAt(no, 5, "starting rank %d is also line %d's", p.StartRank, q.Line)
			}
			t.byRank[p.StartRank] = p
			t.Players = append(t.Players, p)
			t.Rounds = max(t.Rounds, len(p.Entries))
		case string(line[:3]) == "012":
			t.Name = field(line, 5, len(line))
		case string(line[:3]) == "022":
			t.City = field(line, 5, len(line))
		case string(line[:3]) == "122":
			t.TimeControl = field(line, 5, len(line))
		case string(line[:3]) == "132":
			t.datesLine = no
			for c := 92; c <= len(line); c += 10 {
				t.dates = append(t.dates, field(line, c, c+7))
			}
		case string(line[:3]) == "XXR":
			v := field(line, 5, len(line))
			r, err := strconv.Atoi(v)
			if err != nil || r < 1 {
				return nil, errAt(no, 5, "XXR %q is not a number of rounds", v)
			}
			xxr = r
		}
		if n < 0 {
			break
		}
		body = body[n+1:]
		off += n + 1
	}
	if len(t.Players) == 0 {
		return nil, &Error{Err: fmt.Errorf("no player lines (001): not a TRF-16 file")}
	}
	for _, p := range t.Players {
		for r, e := range p.Entries {
			if e.Opponent != 0 && t.byRank[e.Opponent] == nil {
				return nil, errAt(p.Line, e.Column, "round %d: opponent %d is no player of this file", r+1, e.Opponent)
			}
		}
	}
	slices.SortFunc(t.Players, func(a, b *TRFPlayer) int { return cmp.Compare(a.StartRank, b.StartRank) })
	t.Rounds = max(t.Rounds, xxr)
	return t, nil
}

// decode gives a line's characters, one per column.
func (t *Tournament) decode(raw []byte) []rune {
	if t.utf8 {
		return []rune(string(raw))
	}
	s, _ := charmap.Windows1252.NewDecoder().Bytes(raw)
	return []rune(string(s))
}

// field is columns from..to (1-based, inclusive) of a line, trimmed; the
// part of them the line has.
func field(line []rune, from, to int) string {
	if from > len(line) {
		return ""
	}
	to = min(to, len(line))
	return strings.TrimSpace(string(line[from-1 : to]))
}

func at(line []rune, col int) rune {
	if col > len(line) {
		return ' '
	}
	return line[col-1]
}

func (t *Tournament) player(no int, line []rune) (*TRFPlayer, error) {
	p := &TRFPlayer{Line: no}
	rank := field(line, 5, 8)
	n, err := strconv.Atoi(rank)
	if err != nil || n < 1 {
		return nil, errAt(no, 5, "starting rank %q (columns 5-8) is not a number", rank)
	}
	p.StartRank = n
	tt := field(line, 11, 13)
	if p.Title, _ = title(tt); p.Title == "" && tt != "" {
		return nil, errAt(no, 11, "title %q (columns 11-13) is none of g m f c wg wm wf wc", tt)
	}
	// The name's 33 columns: lichess writes handles a column later, which
	// trimming takes in its stride.
	p.Name = pgnName(field(line, 15, 47))
	if p.Name == "" {
		return nil, errAt(no, 15, "player %d has no name (columns 15-47)", n)
	}
	if v := field(line, 49, 52); v != "" {
		if p.Rating, err = strconv.Atoi(v); err != nil || p.Rating < 0 {
			return nil, errAt(no, 49, "rating %q (columns 49-52) is not a number", v)
		}
	}
	p.Federation = field(line, 54, 56)
	if v := field(line, 58, 68); v != "" {
		if !isDigits([]byte(v)) {
			return nil, errAt(no, 58, "FIDE id %q (columns 58-68) is not a number", v)
		}
		if strings.Trim(v, "0") != "" {
			p.FideID = strings.TrimLeft(v, "0")
		}
	}
	if v := field(line, 81, 84); v != "" {
		if p.Points, err = strconv.ParseFloat(v, 64); err != nil || p.Points < 0 {
			return nil, errAt(no, 81, "points %q (columns 81-84) is not a number such as 4.5", v)
		}
	}
	for c := 92; c <= len(line); c += 10 {
		e := Entry{Column: c, Colour: byte(at(line, c+5)), Result: byte(at(line, c+7))}
		switch opp := field(line, c, c+3); {
		case opp == "":
		case !isDigits([]byte(opp)):
			return nil, errAt(no, c, "round %d: opponent %q (columns %d-%d) is not a starting rank", len(p.Entries)+1, opp, c, c+3)
		default:
			e.Opponent, _ = strconv.Atoi(opp)
		}
		if r := at(line, c+5); !strings.ContainsRune("wb- ", r) {
			return nil, errAt(no, c+5, "round %d: colour %q is none of w, b, -", len(p.Entries)+1, r)
		}
		if r := at(line, c+7); r > 0x7f || !strings.ContainsRune(trfResults, r) {
			return nil, errAt(no, c+7, "round %d: result %q is none of 1 0 = + - W D L H F U Z", len(p.Entries)+1, r)
		}
		if e.Opponent == n {
			return nil, errAt(no, c, "round %d: player %d is paired against themselves", len(p.Entries)+1, n)
		}
		p.Entries = append(p.Entries, e)
	}
	return p, nil
}

// entry is the player's entry for round r (1-based); a blank one when the
// line stops before it.
func (p *TRFPlayer) entry(r int) Entry {
	if r <= len(p.Entries) {
		return p.Entries[r-1]
	}
	return Entry{Colour: ' ', Result: ' ', Column: 92 + 10*(r-1)}
}

// Player returns the player with the starting rank.
func (t *Tournament) Player(rank int) (*TRFPlayer, bool) {
	p, ok := t.byRank[rank]
	return p, ok
}

// paired reports whether the entry puts its player on a board: an opponent
// and a colour.
func (e Entry) paired() bool { return e.Opponent != 0 && (e.Colour == 'w' || e.Colour == 'b') }

// open reports whether a paired entry is still to be played: a blank
// result, or lichess's Z for a game in progress.
func (e Entry) open() bool { return e.paired() && (e.Result == ' ' || e.Result == 'Z') }

// NextRound is the first round with a pair still to be played; 0 when
// every round is played.
func (t *Tournament) NextRound() int {
	for r := 1; r <= t.Rounds; r++ {
		for _, p := range t.Players {
			if p.entry(r).open() {
				return r
			}
		}
	}
	return 0
}

// Round returns round n's pairings; n 0 is NextRound. Boards are numbered
// by the pair's higher score before the round, then the sum of both
// scores, then the better (lower) starting rank of the two: the order
// pairing programs publish a Swiss round in.
func (t *Tournament) Round(n int) (*Round, error) {
	if n == 0 {
		if n = t.NextRound(); n == 0 {
			return nil, &Error{Err: fmt.Errorf("%w: every round of this file is played (choose one with its number)", ErrNoRound)}
		}
	}
	if n < 0 || n > t.Rounds {
		return nil, &Error{Err: fmt.Errorf("%w: round %d (the file has rounds 1 to %d)", ErrNoRound, n, t.Rounds)}
	}
	r := &Round{Number: n, Event: t.Name, Site: t.City}
	if n <= len(t.dates) {
		r.Date = trfDate(t.dates[n-1])
	}
	score := func(p *TRFPlayer) Player {
		q := p.Player
		for i := 1; i < n; i++ {
			q.Score += points(p.entry(i).Result)
		}
		return q
	}
	for _, p := range t.Players {
		e := p.entry(n)
		if e.Opponent == 0 {
			r.Byes = append(r.Byes, Bye{Player: score(p), Kind: byeKind(e)})
			continue
		}
		q := t.byRank[e.Opponent]
		f := q.entry(n)
		if f.Opponent != p.StartRank {
			return nil, errAt(p.Line, e.Column, "round %d: player %d's opponent is %d, but player %d's entry for that round names %s",
				n, p.StartRank, q.StartRank, q.StartRank, nameOf(f.Opponent))
		}
		switch {
		case e.Colour == '-' || f.Colour == '-':
			if e.Colour != f.Colour {
				return nil, errAt(p.Line, e.Column+5, "round %d: players %d and %d have colours %q and %q: a game without a board is '-' for both",
					n, p.StartRank, q.StartRank, e.Colour, f.Colour)
			}
			kind := Unpaired
			switch e.Result {
			case '+':
				kind = ForfeitWin
			case '-':
				kind = ForfeitLoss
			}
			r.Byes = append(r.Byes, Bye{Player: score(p), Kind: kind})
		case e.Colour == ' ':
			return nil, errAt(p.Line, e.Column+5, "round %d: player %d is paired with %d but has no colour", n, p.StartRank, q.StartRank)
		case e.Colour == f.Colour:
			return nil, errAt(p.Line, e.Column+5, "round %d: players %d and %d both have colour %c", n, p.StartRank, q.StartRank, e.Colour)
		case e.Colour == 'w':
			r.Boards = append(r.Boards, Board{White: score(p), Black: score(q), Result: trfResult(e.Result), Line: p.Line})
		}
	}
	numberBoards(r.Boards)
	return r, nil
}

func nameOf(rank int) string {
	if rank == 0 {
		return "no opponent"
	}
	return strconv.Itoa(rank)
}

func byeKind(e Entry) string {
	switch e.Result {
	case 'F':
		return FullPointBye
	case 'H':
		return HalfPointBye
	case 'Z':
		return ZeroPointBye
	case 'U', '+':
		return PairingBye
	}
	return Unpaired
}

// trfResult is a white player's result code as a pair's result.
func trfResult(c byte) string {
	switch c {
	case '1', 'W':
		return "1-0"
	case '0', 'L':
		return "0-1"
	case '=', 'D':
		return "1/2-1/2"
	case '+':
		return "+--"
	case '-':
		return "--+"
	}
	return ""
}

// trfDate reads a 132 line's date (YY/MM/DD, or YYYY/MM/DD) as PGN
// writes dates; "" when it is not one.
func trfDate(s string) string {
	f := strings.FieldsFunc(s, func(r rune) bool { return r == '/' || r == '.' || r == '-' })
	if len(f) != 3 {
		return ""
	}
	for _, x := range f {
		if !isDigits([]byte(x)) {
			return ""
		}
	}
	if len(f[0]) == 2 {
		f[0] = "20" + f[0]
	}
	if len(f[0]) != 4 || len(f[1]) != 2 || len(f[2]) != 2 {
		return ""
	}
	return f[0] + "." + f[1] + "." + f[2]
}

// numberBoards numbers a Swiss round's boards: the pair with the higher
// score first (the higher of its two players' scores), then the higher sum
// of both scores, then the pair whose better player has the better (lower)
// starting rank.
func numberBoards(bs []Board) {
	best := func(b Board) (hi, sum float64, rank int) {
		rank = b.White.StartRank
		if b.Black.StartRank > 0 && (rank == 0 || b.Black.StartRank < rank) {
			rank = b.Black.StartRank
		}
		return max(b.White.Score, b.Black.Score), b.White.Score + b.Black.Score, rank
	}
	slices.SortStableFunc(bs, func(a, b Board) int {
		ah, as, ar := best(a)
		bh, bs, br := best(b)
		if c := cmp.Compare(bh, ah); c != 0 {
			return c
		}
		if c := cmp.Compare(bs, as); c != 0 {
			return c
		}
		return cmp.Compare(ar, br)
	})
	for i := range bs {
		bs[i].Number = i + 1
	}
}
