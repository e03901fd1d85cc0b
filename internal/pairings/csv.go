package pairings

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A CSV pairing list's columns are found by their header names (case,
// spaces and punctuation aside), in any order. A player column names its
// side ("White Elo", "Elo white", "WhiteFideId", "Weiß"); a player column
// that names no side ("Name", "Rtg", as a pairing program's list has them
// left and right of the result) is White's the first time and Black's the
// second.
const (
	colBoard = iota
	colRound
	colResult
	colName
	colFideID
	colRating
	colTitle
	colFederation
	colTeam
	colStartRank
)

var (
	fixedColumns = map[string]int{
		"board": colBoard, "bo": colBoard, "brd": colBoard, "boardno": colBoard, "boardnumber": colBoard,
		"table": colBoard, "tisch": colBoard, "brett": colBoard, "mesa": colBoard, "tablero": colBoard,
		"round": colRound, "rd": colRound, "rnd": colRound, "runde": colRound, "ronda": colRound,
		"result": colResult, "res": colResult, "ergebnis": colResult, "resultado": colResult, "résultat": colResult, "resultat": colResult,
	}
	playerColumns = map[string]int{
		"": colName, "name": colName, "player": colName, "spieler": colName, "nombre": colName, "nom": colName, "jugador": colName, "joueur": colName,
		"fideid": colFideID, "fide": colFideID, "id": colFideID, "fideno": colFideID, "fidenr": colFideID, "fidenumber": colFideID, "idfide": colFideID,
		"rating": colRating, "elo": colRating, "rtg": colRating, "fiderating": colRating, "fideelo": colRating, "rat": colRating,
		"title": colTitle, "titel": colTitle, "titulo": colTitle, "título": colTitle, "titre": colTitle, "tit": colTitle,
		"federation": colFederation, "fed": colFederation, "country": colFederation, "land": colFederation, "nation": colFederation, "federación": colFederation, "federacion": colFederation, "fédération": colFederation,
		"team": colTeam, "club": colTeam, "verein": colTeam, "equipo": colTeam, "équipe": colTeam, "equipe": colTeam,
		"no": colStartRank, "nr": colStartRank, "sno": colStartRank, "snr": colStartRank, "startrank": colStartRank, "startno": colStartRank,
		"startnumber": colStartRank, "number": colStartRank, "pairingnumber": colStartRank, "rank": colStartRank,
	}
	// sideWords, longest first so that "white" is tried before "w".
	sideWords = []struct {
		word  string
		black bool
	}{
		{"blancas", false}, {"schwarz", true}, {"blanco", false}, {"negras", true}, {"white", false}, {"black", true},
		{"blancs", false}, {"weiss", false}, {"weiß", false}, {"blanc", false}, {"negro", true}, {"noirs", true}, {"noir", true},
	}
	byeWords = []string{"bye", "spielfrei", "frei", "libre", "exento", "-", "---"}
)

// column is where one setting is in a CSV row.
type column struct {
	index int
	kind  int
	black bool
	head  string
}

func headerKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// columns maps a header row to the columns arbiterd reads; unknown
// headers are ignored.
func columns(header []string) []column {
	var cols []column
	seen := map[int]int{} // unsided player columns seen, by kind
	for i, h := range header {
		k := headerKey(h)
		if kind, ok := fixedColumns[k]; ok {
			cols = append(cols, column{index: i, kind: kind, head: h})
			continue
		}
		found := false
		for _, s := range sideWords {
			var rest string
			switch {
			case strings.HasPrefix(k, s.word):
				rest = k[len(s.word):]
			case strings.HasSuffix(k, s.word):
				rest = k[:len(k)-len(s.word)]
			default:
				continue
			}
			if kind, ok := playerColumns[rest]; ok {
				cols = append(cols, column{index: i, kind: kind, black: s.black, head: h})
				found = true
				break
			}
		}
		if found || k == "" {
			continue
		}
		if kind, ok := playerColumns[k]; ok && seen[kind] < 2 {
			cols = append(cols, column{index: i, kind: kind, black: seen[kind] == 1, head: h})
			seen[kind]++
		}
	}
	return cols
}

// separator is the field separator a spreadsheet program wrote: the one
// of ';', ',' and tab that the header line has most of, outside quotes.
func separator(header string) rune {
	counts := map[rune]int{}
	quoted := false
	for _, r := range header {
		switch {
		case r == '"':
			quoted = !quoted
		case !quoted && (r == ';' || r == ',' || r == '\t'):
			counts[r]++
		}
	}
	best := ','
	for _, r := range []rune{';', '\t'} {
		if counts[r] > counts[best] {
			best = r
		}
	}
	return best
}

// readCSV reads a CSV pairing list: round n's rows when it has a round
// column, every row otherwise.
func readCSV(data []byte, n int) (*Round, error) {
	s := text(data)
	lines := strings.Split(s, "\n")
	first := 0
	for first < len(lines) && strings.TrimSpace(lines[first]) == "" {
		first++
	}
	if first == len(lines) {
		return nil, &Error{Err: errors.New("the file is empty")}
	}
	cr := csv.NewReader(strings.NewReader(s))
	cr.Comma = separator(lines[first])
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = cr.Comma != '\t' // it would take empty fields between tabs
	// col turns the reader's byte column into characters.
	col := func(line, byteCol int) int {
		if line < 1 || line > len(lines) || byteCol < 1 || byteCol-1 > len(lines[line-1]) {
			return byteCol
		}
		return utf8.RuneCountInString(lines[line-1][:byteCol-1]) + 1
	}
	fail := func(err error) error {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return errAt(pe.Line, col(pe.Line, pe.Column), "CSV: %v", pe.Err)
		}
		return &Error{Err: fmt.Errorf("CSV: %w", err)}
	}
	header, err := cr.Read()
	if err != nil {
		return nil, fail(err)
	}
	hline, _ := cr.FieldPos(0)
	cols := columns(header)
	has := func(kind int, black bool) bool {
		return slices.ContainsFunc(cols, func(c column) bool { return c.kind == kind && c.black == black })
	}
	if !has(colName, false) || !has(colName, true) {
		return nil, errAt(hline, 0, "no columns for White's and Black's names among the headers %q (for example: Board, White, Black, White Elo, Black Elo)",
			strings.Join(header, string(cr.Comma)))
	}
	hasBoard := slices.ContainsFunc(cols, func(c column) bool { return c.kind == colBoard })
	hasRound := slices.ContainsFunc(cols, func(c column) bool { return c.kind == colRound })

	r := &Round{Number: n}
	seen := map[int]int{}
	var rounds []int
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fail(err)
		}
		line, _ := cr.FieldPos(0)
		if strings.TrimSpace(strings.Join(rec, "")) == "" {
			continue
		}
		var b Board
		rd, result := 0, ""
		for _, c := range cols {
			if c.index >= len(rec) {
				continue
			}
			v := strings.TrimSpace(rec[c.index])
			fl, fc := cr.FieldPos(c.index)
			bad := func(format string, args ...any) error {
				return errAt(fl, col(fl, fc), "%s: "+format, append([]any{c.head}, args...)...)
			}
			p := &b.White
			if c.black {
				p = &b.Black
			}
			switch c.kind {
			case colBoard:
				if v == "" {
					continue
				}
				if b.Number, err = strconv.Atoi(strings.TrimSuffix(v, ".")); err != nil || b.Number < 1 {
					return nil, bad("%q is not a board number", v)
				}
			case colRound:
				if rd, err = strconv.Atoi(strings.TrimSuffix(v, ".")); err != nil || rd < 1 {
					return nil, bad("%q is not a round number", v)
				}
			case colResult:
				result = v
			case colName:
				p.Name = v
			case colFideID:
				if v == "" || v == "-" {
					continue
				}
				if !isDigits([]byte(v)) {
					return nil, bad("%q is not a FIDE id", v)
				}
				if strings.Trim(v, "0") != "" {
					p.FideID = strings.TrimLeft(v, "0")
				}
			case colRating:
				if v == "" || v == "-" {
					continue
				}
				if p.Rating, err = strconv.Atoi(v); err != nil || p.Rating < 0 {
					return nil, bad("%q is not a rating", v)
				}
			case colTitle:
				t, ok := title(v)
				if !ok {
					return nil, bad("%q is none of GM IM FM CM WGM WIM WFM WCM", v)
				}
				p.Title = t
			case colFederation:
				p.Federation = v
			case colTeam:
				p.Team = v
			case colStartRank:
				if v == "" {
					continue
				}
				if p.StartRank, err = strconv.Atoi(strings.TrimSuffix(v, ".")); err != nil || p.StartRank < 1 {
					return nil, bad("%q is not a starting number", v)
				}
			}
		}
		if hasRound {
			if !slices.Contains(rounds, rd) {
				rounds = append(rounds, rd)
			}
			if n == 0 {
				n = rd
				r.Number = rd
			}
			if rd != n {
				continue
			}
		}
		b.Line = line
		if b.White.Name == "" && b.Black.Name == "" {
			continue
		}
		if isBye(b.White.Name) {
			b.White, b.Black = b.Black, b.White
		}
		if b.White.Name == "" || isBye(b.Black.Name) || b.Black.Name == "" {
			if b.White.Name == "" {
				b.White = b.Black
			}
			r.Byes = append(r.Byes, Bye{Player: b.White, Kind: csvByeKind(result)})
			continue
		}
		b.Result = csvResult(result)
		if hasBoard {
			if b.Number == 0 {
				return nil, errAt(line, 0, "the pair %s – %s has no board number", b.White.Name, b.Black.Name)
			}
			if l, dup := seen[b.Number]; dup {
				return nil, errAt(line, 0, "board %d is also on line %d", b.Number, l)
			}
			seen[b.Number] = line
		} else {
			b.Number = len(r.Boards) + 1
		}
		r.Boards = append(r.Boards, b)
	}
	if len(r.Boards) == 0 && len(r.Byes) == 0 {
		if hasRound {
			slices.Sort(rounds)
			return nil, &Error{Err: fmt.Errorf("%w: round %d has no rows (the file's rounds: %v)", ErrNoRound, n, rounds)}
		}
		return nil, &Error{Err: errors.New("no pairs: the file has a header and no rows")}
	}
	slices.SortFunc(r.Boards, func(a, b Board) int { return a.Number - b.Number })
	return r, nil
}

func isBye(name string) bool {
	return slices.Contains(byeWords, strings.ToLower(strings.TrimSpace(name)))
}

// csvResult reads a result as spreadsheets write it.
func csvResult(s string) string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, " ", ""), "½", "1/2")
	switch s {
	case "1-0", "1:0":
		return "1-0"
	case "0-1", "0:1":
		return "0-1"
	case "1/2-1/2", "1/2:1/2", "0.5-0.5", "0,5-0,5", "=":
		return "1/2-1/2"
	case "+--", "+:-", "+/-", "1F-0F", "1-0F":
		return "+--"
	case "--+", "-:+", "-/+", "0F-1F", "0-1F":
		return "--+"
	}
	return ""
}

func csvByeKind(result string) string {
	switch strings.ReplaceAll(strings.ReplaceAll(result, " ", ""), "½", "1/2") {
	case "1", "1-0", "+", "+--", "1:0", "F":
		return FullPointBye
	case "1/2", "0.5", "0,5", "1/2-1/2", "=", "H":
		return HalfPointBye
	case "0", "0-1", "Z":
		return ZeroPointBye
	}
	return ByeUnknownPoint
}
