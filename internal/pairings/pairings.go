package pairings

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// Player is a player as the pairing file names them. Zero values are
// unknown: a player without a rating has Rating 0, without a FIDE id an
// empty FideID.
type Player struct {
	Name       string `json:"name"`
	FideID     string `json:"fide_id,omitempty"`
	Rating     int    `json:"rating,omitempty"`
	Title      string `json:"title,omitempty"` // FIDE's abbreviation: GM, IM, FM, CM, WGM, WIM, WFM, WCM
	Federation string `json:"federation,omitempty"`
	Team       string `json:"team,omitempty"`
	StartRank  int    `json:"start_rank,omitempty"` // the player's number in the tournament (TRF's starting rank)
	// Score is the player's points before the round, when the file gives
	// them (a TRF's earlier rounds); it orders a TRF's boards.
	Score float64 `json:"-"`
}

// Board is one pair on a board.
type Board struct {
	Number int    `json:"board"`
	White  Player `json:"white"`
	Black  Player `json:"black"`
	// Result is the result the file already gives ("1-0", "0-1",
	// "1/2-1/2", or forfeits as "+--", "--+"); empty while not played.
	Result string `json:"result,omitempty"`
	Line   int    `json:"-"` // where the pair is in the file (the white player's line)
}

// Bye kinds: why a player is not on a board in the round.
const (
	FullPointBye    = "full-point-bye"        // TRF F: a bye worth a win
	HalfPointBye    = "half-point-bye"        // TRF H
	ZeroPointBye    = "zero-point-bye"        // TRF Z: a known absence
	PairingBye      = "pairing-allocated-bye" // TRF U: left over by the pairing system, scores a win
	Unpaired        = "unpaired"              // not in the round at all (withdrawn, absent, a late entry)
	ForfeitWin      = "forfeit-win"           // paired, no game played, won by forfeit
	ForfeitLoss     = "forfeit-loss"          // paired, no game played, lost by forfeit
	ByeUnknownPoint = "bye"                   // a CSV's player without an opponent, points not said
)

// Bye is a player of the round who is not on a board.
type Bye struct {
	Player Player `json:"bye"`
	Kind   string `json:"kind"`
}

// Round is one round's pairings.
type Round struct {
	Number int    // the round; 0 when the file does not say
	Event  string // the event's name, when the file gives it
	Site   string
	Date   string // the round's date as PGN writes it (YYYY.MM.DD), when known
	Boards []Board
	Byes   []Bye
}

// Board returns the pair on board n.
func (r *Round) Board(n int) (Board, bool) {
	for _, b := range r.Boards {
		if b.Number == n {
			return b, true
		}
	}
	return Board{}, false
}

// Error is input that does not fit its format, with where it is.
type Error struct {
	File   string // the file's name as given ("" when read from memory)
	Line   int    // 1-based; 0 when the error is about the whole file
	Column int    // 1-based, in characters; 0 when the line is meant
	Err    error
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
	}
	if e.Line > 0 {
		if b.Len() > 0 {
			b.WriteByte(':')
		}
		fmt.Fprintf(&b, "%d", e.Line)
		if e.Column > 0 {
			fmt.Fprintf(&b, ":%d", e.Column)
		}
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

func errAt(line, col int, format string, args ...any) *Error {
	return &Error{Line: line, Column: col, Err: fmt.Errorf(format, args...)}
}

// ErrNoRound is returned when the file has no such round, or no round that
// is still to be played when none was asked for.
var ErrNoRound = errors.New("no such round")

// Format is a pairing file's format.
type Format string

const (
	FormatPGN Format = "pgn"
	FormatTRF Format = "trf"
	FormatCSV Format = "csv"
)

// Detect tells a file's format from its name's extension (.pgn; .trf or
// .txt; .csv or .tsv) and, for any other name, from its first line.
func Detect(name string, data []byte) Format {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".pgn":
		return FormatPGN
	case ".trf", ".trfx":
		return FormatTRF
	case ".csv", ".tsv":
		return FormatCSV
	}
	first := bytes.TrimLeft(bytes.TrimPrefix(data, bom), " \t\r\n")
	switch {
	case bytes.HasPrefix(first, []byte("[")):
		return FormatPGN
	case len(first) >= 4 && first[3] == ' ' && (isDigits(first[:3]) || bytes.HasPrefix(first, []byte("XX"))):
		return FormatTRF
	}
	return FormatCSV
}

func isDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}

// ReadFile reads round n's pairings from the file at path (n 0: the
// round to play next, see Read).
func ReadFile(path string, n int) (*Round, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("pairings: %w", err)
	}
	return Read(path, data, n)
}

// Read reads round n's pairings from data, a file of the format Detect
// finds for name. With n 0 it reads the round to play next: a TRF's first
// round with a pair not yet played, a PGN's first round whose games have
// no moves and no result; a CSV is one round.
func Read(name string, data []byte, n int) (*Round, error) {
	var (
		r   *Round
		err error
	)
	switch Detect(name, data) {
	case FormatPGN:
		r, err = readPGN(data, n)
	case FormatTRF:
		var t *Tournament
		if t, err = ParseTRF(data); err == nil {
			r, err = t.Round(n)
		}
	default:
		r, err = readCSV(data, n)
	}
	if err != nil {
		var pe *Error
		if errors.As(err, &pe) && pe.File == "" {
			pe.File = name
		}
		return nil, err
	}
	return r, nil
}

var bom = []byte("\xef\xbb\xbf")

// text decodes a file's bytes: UTF-8 as it is (without a byte-order mark),
// anything else as Windows-1252 (a superset of Latin-1, which older TRFs
// and spreadsheet programs on Windows write).
func text(data []byte) string {
	data = bytes.TrimPrefix(data, bom)
	if utf8.Valid(data) {
		return string(data)
	}
	s, err := charmap.Windows1252.NewDecoder().Bytes(data)
	if err != nil { // cannot happen: every byte has a meaning in Windows-1252
		return string(data)
	}
	return string(s)
}

// titles maps the ways files write a title to FIDE's abbreviations.
var titles = map[string]string{
	"g": "GM", "gm": "GM", "m": "IM", "im": "IM", "f": "FM", "fm": "FM", "c": "CM", "cm": "CM",
	"wg": "WGM", "wgm": "WGM", "wm": "WIM", "wim": "WIM", "wf": "WFM", "wfm": "WFM", "wc": "WCM", "wcm": "WCM",
	"lm": "LM", "bot": "BOT", "h": "HM", "hm": "HM",
}

// title normalises a title ("g" in a TRF, "GM" in a PGN); ok is false for
// one arbiterd does not know.
func title(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if s == "" || s == "-" {
		return "", true
	}
	t, ok := titles[strings.ToLower(s)]
	return t, ok
}

// pgnName writes a TRF name "Surname,Given" as PGN names are written,
// "Surname, Given".
func pgnName(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, ','); i > 0 && i+1 < len(s) && s[i+1] != ' ' {
		return s[:i+1] + " " + s[i+1:]
	}
	return s
}

// SameName reports whether two spellings of a name are the same player's:
// case, spaces and punctuation aside ("Anderssen,Adolf" and
// "anderssen, adolf").
func SameName(a, b string) bool { return nameKey(a) == nameKey(b) && nameKey(a) != "" }

func nameKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Label is a player as a line of text shows them: title, name,
// federation and rating where known.
func (p Player) Label() string {
	var b strings.Builder
	if p.Title != "" {
		b.WriteString(p.Title + " ")
	}
	b.WriteString(p.Name)
	fed := p.Federation
	if fed == "" {
		fed = p.Team
	}
	switch {
	case fed != "" && p.Rating > 0:
		fmt.Fprintf(&b, " (%s %d)", fed, p.Rating)
	case fed != "":
		fmt.Fprintf(&b, " (%s)", fed)
	case p.Rating > 0:
		fmt.Fprintf(&b, " (%d)", p.Rating)
	}
	return b.String()
}
