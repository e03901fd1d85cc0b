package pairings

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// pgnGame is one game of a pairing PGN: its tags, where they are, and
// whether it has moves.
type pgnGame struct {
	line  int               // the first tag's line
	tags  map[string]string // tag name → value
	where map[string][2]int // tag name → line and column of its value
	moves bool              // movetext other than a result
}

func (g *pgnGame) has(tag string) bool { _, ok := g.tags[tag]; return ok }

// readPGNGames splits a PGN into games by their tags. Movetext is only
// looked at for whether it has moves: a pairing PGN has none.
func readPGNGames(data []byte) ([]*pgnGame, error) {
	var (
		games []*pgnGame
		g     *pgnGame
		body  bool // movetext seen since the current game's tags
	)
	lines := strings.Split(text(data), "\n")
	for i, l := range lines {
		no := i + 1
		l = strings.TrimRight(l, "\r")
		s := strings.TrimLeft(l, " \t")
		switch {
		case s == "" || strings.HasPrefix(s, "%"):
			continue
		case strings.HasPrefix(s, "["):
			// One or more tag pairs on the line.
			for col := len(l) - len(s); strings.HasPrefix(s, "["); {
				name, value, vcol, n, err := parseTag(s)
				if err != nil {
					err.Line, err.Column = no, err.Column+col
					return nil, err
				}
				if g == nil || body || g.has(name) {
					g = &pgnGame{line: no, tags: map[string]string{}, where: map[string][2]int{}}
					games = append(games, g)
					body = false
				}
				g.tags[name] = value
				g.where[name] = [2]int{no, vcol + col}
				rest := strings.TrimLeft(s[n:], " \t")
				col += len(s) - len(rest)
				s = rest
			}
			if s != "" {
				return nil, errAt(no, len(l)-len(s)+1, "%q after the tags: a tag line holds tags only", s)
			}
		default:
			if g == nil {
				return nil, errAt(no, 1, "movetext before any tag: a pairing PGN starts each game with its tags ([Event \"…\"])")
			}
			body = true
			for _, tok := range strings.Fields(s) {
				switch tok {
				case "*", "1-0", "0-1", "1/2-1/2":
				default:
					g.moves = true
				}
			}
		}
	}
	if len(games) == 0 {
		return nil, &Error{Err: fmt.Errorf("no games: a pairing PGN has one game (its tags) per board")}
	}
	return games, nil
}

// parseTag reads the tag pair `[Name "value"]` at the start of s; vcol is
// the value's first column, end the index after its ']'. Errors carry the
// column within s.
func parseTag(s string) (name, value string, vcol, end int, err *Error) {
	i := 1
	for i < len(s) && s[i] == ' ' {
		i++
	}
	j := i
	for j < len(s) && (s[j] == '_' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= '0' && s[j] <= '9') {
		j++
	}
	if j == i {
		return "", "", 0, 0, errAt(0, i+1, "a tag's name is missing after '['")
	}
	name = s[i:j]
	for j < len(s) && s[j] == ' ' {
		j++
	}
	if j >= len(s) || s[j] != '"' {
		return "", "", 0, 0, errAt(0, j+1, "tag %s: its value must be in double quotes", name)
	}
	vcol = j + 2
	var b strings.Builder
	k := j + 1
	for ; k < len(s) && s[k] != '"'; k++ {
		if s[k] == '\\' && k+1 < len(s) {
			k++
		}
		b.WriteByte(s[k])
	}
	if k >= len(s) {
		return "", "", 0, 0, errAt(0, j+1, "tag %s: the value's closing quote is missing", name)
	}
	end = k + 1
	for end < len(s) && s[end] == ' ' {
		end++
	}
	if end >= len(s) || s[end] != ']' {
		return "", "", 0, 0, errAt(0, k+2, "tag %s: ']' expected after the value", name)
	}
	return name, b.String(), vcol, end + 1, nil
}

// roundOf splits a Round tag: "9" is round 9, "9.4" round 9 board 4.
func roundOf(v string) (round, board int, ok bool) {
	r, b, dotted := strings.Cut(strings.TrimSpace(v), ".")
	round, err := strconv.Atoi(r)
	if err != nil || round < 1 {
		return 0, 0, false
	}
	if dotted {
		if board, err = strconv.Atoi(b); err != nil || board < 1 {
			return 0, 0, false
		}
	}
	return round, board, true
}

// readPGN reads round n from a pairing PGN (n 0: the first round whose
// games are all without moves and result, or the file's only round).
func readPGN(data []byte, n int) (*Round, error) {
	games, err := readPGNGames(data)
	if err != nil {
		return nil, err
	}
	rounds := map[int][]*pgnGame{}
	var order []int
	for _, g := range games {
		v, ok := g.tags["Round"]
		rd, _, good := roundOf(v)
		switch {
		case !ok:
			rd = 0 // a file of one round may leave the Round tag out
		case !good && v != "?" && v != "-" && v != "":
			w := g.where["Round"]
			return nil, errAt(w[0], w[1], "Round %q is not a round number such as 9 or 9.4", v)
		}
		if _, seen := rounds[rd]; !seen {
			order = append(order, rd)
		}
		rounds[rd] = append(rounds[rd], g)
	}
	if n == 0 {
		switch {
		case len(order) == 1:
			n = order[0]
		default:
			slices.Sort(order)
			for _, rd := range order {
				if rd > 0 && !slices.ContainsFunc(rounds[rd], func(g *pgnGame) bool { return g.moves || g.tags["Result"] != "*" && g.tags["Result"] != "" }) {
					n = rd
					break
				}
			}
			if n == 0 {
				return nil, &Error{Err: fmt.Errorf("%w: every round of this file has games with moves or results (choose one with its number)", ErrNoRound)}
			}
		}
	}
	gs := rounds[n]
	if len(gs) == 0 {
		have := make([]string, 0, len(order))
		slices.Sort(order)
		for _, rd := range order {
			have = append(have, strconv.Itoa(rd))
		}
		return nil, &Error{Err: fmt.Errorf("%w: round %d is not in this file (its rounds: %s)", ErrNoRound, n, strings.Join(have, ", "))}
	}
	r := &Round{Number: n, Event: gs[0].tags["Event"], Site: gs[0].tags["Site"], Date: gs[0].tags["Date"]}
	numbered := 0
	seen := map[int]int{}
	for i, g := range gs {
		b, err := pgnBoard(g)
		if err != nil {
			return nil, err
		}
		if b.Number > 0 {
			numbered++
			if l, dup := seen[b.Number]; dup {
				return nil, errAt(g.line, 0, "round %d: board %d is also the game at line %d", n, b.Number, l)
			}
			seen[b.Number] = g.line
		} else {
			b.Number = i + 1
		}
		if b.Black.Name == "" || strings.EqualFold(b.Black.Name, "bye") {
			r.Byes = append(r.Byes, Bye{Player: b.White, Kind: ByeUnknownPoint})
			continue
		}
		r.Boards = append(r.Boards, b)
	}
	if numbered > 0 && numbered < len(gs) {
		return nil, errAt(gs[0].line, 0, "round %d: some games have a board number (a Board tag or Round \"%d.B\") and others not", n, n)
	}
	slices.SortFunc(r.Boards, func(a, b Board) int { return a.Number - b.Number })
	return r, nil
}

// pgnBoard reads one game's board and players.
func pgnBoard(g *pgnGame) (Board, error) {
	b := Board{Line: g.line}
	_, fromRound, _ := roundOf(g.tags["Round"])
	if v, ok := g.tags["Board"]; ok {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 1 {
			w := g.where["Board"]
			return b, errAt(w[0], w[1], "Board %q is not a board number", v)
		}
		if fromRound > 0 && fromRound != n {
			w := g.where["Board"]
			return b, errAt(w[0], w[1], "Board %d contradicts Round %q", n, g.tags["Round"])
		}
		b.Number = n
	} else {
		b.Number = fromRound
	}
	var err error
	if b.White, err = pgnPlayer(g, "White"); err != nil {
		return b, err
	}
	if b.Black, err = pgnPlayer(g, "Black"); err != nil {
		return b, err
	}
	if b.White.Name == "" {
		return b, errAt(g.line, 0, "the game has no White tag")
	}
	switch res := g.tags["Result"]; res {
	case "1-0", "0-1", "1/2-1/2":
		b.Result = res
	}
	return b, nil
}

func pgnPlayer(g *pgnGame, side string) (Player, error) {
	p := Player{Name: strings.TrimSpace(g.tags[side]), Federation: g.tags[side+"Federation"], Team: g.tags[side+"Team"]}
	if p.Name == "?" {
		p.Name = ""
	}
	bad := func(tag, format string, args ...any) error {
		w := g.where[tag]
		return errAt(w[0], w[1], "%s: "+format, append([]any{tag}, args...)...)
	}
	if v := strings.TrimSpace(g.tags[side+"FideId"]); v != "" && v != "-" && v != "?" {
		if !isDigits([]byte(v)) {
			return p, bad(side+"FideId", "%q is not a FIDE id", v)
		}
		if strings.Trim(v, "0") != "" {
			p.FideID = strings.TrimLeft(v, "0")
		}
	}
	if v := strings.TrimSpace(g.tags[side+"Elo"]); v != "" && v != "-" && v != "?" {
		r, err := strconv.Atoi(v)
		if err != nil || r < 0 {
			return p, bad(side+"Elo", "%q is not a rating", v)
		}
		p.Rating = r
	}
	if v := g.tags[side+"Title"]; v != "" {
		t, ok := title(v)
		if !ok {
			return p, bad(side+"Title", "%q is none of GM IM FM CM WGM WIM WFM WCM", v)
		}
		p.Title = t
	}
	return p, nil
}
