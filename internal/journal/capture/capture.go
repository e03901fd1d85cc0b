package capture

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Header is the first line of every capture v1 file.
const Header = "#capture v1"

// Dir is the direction of a data line.
type Dir byte

const (
	Read  Dir = 'r' // bytes read from the device
	Write Dir = 'w' // bytes written to the device
)

func (d Dir) String() string { return string(rune(d)) }

// Meta keys defined by capture v1.
const (
	MetaBoard       = "board"
	MetaWhite       = "white"
	MetaBlack       = "black"
	MetaEvent       = "event"
	MetaRound       = "round"
	MetaTimeControl = "timecontrol"
	MetaClockWhite  = "clock-white"
	MetaStartFEN    = "start-fen"
	MetaRules       = "rules"
)

// Meta keys arbiterd adds to capture v1 (docs/extensions.md): the PGN Site
// tag, and the capture's provenance — the arbiterd build that recorded it
// and the wall-clock time it started. Readers that do not know them keep
// them as any other meta value; they change no event.
const (
	MetaSite             = "site"
	MetaArbiterdVersion  = "arbiterd-version"
	MetaArbiterdRevision = "arbiterd-revision"
	MetaStarted          = "started" // RFC 3339, to the second, with the UTC offset of the place
	// MetaDefaultTime is the round's default time (6.7.1) in seconds;
	// absent or 0: not checked.
	MetaDefaultTime = "default-time"
)

// Meta keys of the players as the pairings name them (arbiterd
// extension; docs/capture.md): the PGN's WhiteFideId, WhiteElo,
// WhiteTitle, WhiteFederation, WhiteTeam and Black's.
const (
	MetaWhiteFideID     = "white-fide-id"
	MetaWhiteElo        = "white-elo"
	MetaWhiteTitle      = "white-title"
	MetaWhiteFederation = "white-federation"
	MetaWhiteTeam       = "white-team"
	MetaBlackFideID     = "black-fide-id"
	MetaBlackElo        = "black-elo"
	MetaBlackTitle      = "black-title"
	MetaBlackFederation = "black-federation"
	MetaBlackTeam       = "black-team"
)

// PlayerKeys are the meta keys that name the players: white and black and
// the keys above. Unlike the game's settings, they may change once the
// game has started (a pairing corrected): the PGN's tags follow, the
// events do not change.
var PlayerKeys = []string{MetaWhite, MetaBlack, MetaWhiteFideID, MetaWhiteElo, MetaWhiteTitle, MetaWhiteFederation, MetaWhiteTeam,
	MetaBlackFideID, MetaBlackElo, MetaBlackTitle, MetaBlackFederation, MetaBlackTeam}

// Started reads a started meta value: the wall-clock time the capture
// began.
func Started(value string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339, value)
	if err != nil {
		return time.Time{}, fmt.Errorf("meta started=%q: not an RFC 3339 time such as 2026-12-01T18:30:19+01:00", value)
	}
	return t, nil
}

// Date is the PGN Date of a capture that started at the given started
// meta value: the date where it was played ("2026.12.01"), or "" when the
// value is missing or unreadable.
func Date(started string) string {
	t, err := Started(started)
	if err != nil {
		return ""
	}
	return t.Format("2006.01.02")
}

// KnownMeta reports whether key is one of the meta keys capture v1 defines.
func KnownMeta(key string) bool {
	switch key {
	case MetaBoard, MetaWhite, MetaBlack, MetaEvent, MetaRound, MetaTimeControl,
		MetaClockWhite, MetaStartFEN, MetaRules:
		return true
	}
	return false
}

// ErrNotCapture: the input does not start with the capture v1 header.
var ErrNotCapture = errors.New("not a capture v1 file")

// LineError is an error at one line of a capture.
type LineError struct {
	Line int // 1-based line number
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("capture line %d: %v", e.Line, e.Err) }
func (e *LineError) Unwrap() error { return e.Err }

// FormatSeconds formats a capture time as seconds with exactly six decimals
// (microseconds; finer parts are dropped). Negative times format as 0.
func FormatSeconds(at time.Duration) string {
	if at < 0 {
		at = 0
	}
	us := at / time.Microsecond
	return fmt.Sprintf("%d.%06d", us/1e6, us%1e6)
}

// maxSecondsDigits bounds the integer part of a time (~317 years).
const maxSecondsDigits = 10

// ParseSeconds parses a capture time: decimal digits, a point, exactly six
// decimal digits.
func ParseSeconds(s string) (time.Duration, error) {
	whole, frac, ok := strings.Cut(s, ".")
	if !ok {
		return 0, fmt.Errorf("time %q has no decimal point (want SECONDS.UUUUUU)", s)
	}
	if len(frac) != 6 {
		return 0, fmt.Errorf("time %q must have exactly 6 digits after the point", s)
	}
	if whole == "" || len(whole) > maxSecondsDigits {
		return 0, fmt.Errorf("time %q must have 1 to %d digits before the point", s, maxSecondsDigits)
	}
	if !digits(whole) || !digits(frac) {
		return 0, fmt.Errorf("time %q is not a decimal number of seconds", s)
	}
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("time %q: %v", s, err)
	}
	f, _ := strconv.ParseInt(frac, 10, 64)
	return time.Duration(w)*time.Second + time.Duration(f)*time.Microsecond, nil
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// validName reports whether s is a port or driver name: a short word of
// lower-case letters, digits, '-' and '_', starting with a letter.
func validName(s string) bool {
	if s == "" || len(s) > 32 || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// validKey reports whether s is a meta key: lower-case letters, digits and
// '-', starting with a letter.
func validKey(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// checkMetaValue validates the values capture v1 restricts to a set of
// words; other keys take any text on one line.
func checkMetaValue(key, value string) error {
	switch key {
	case MetaClockWhite:
		switch value {
		case "left", "right", "auto":
			return nil
		}
		return fmt.Errorf("meta clock-white=%q: want left, right or auto", value)
	case MetaRules:
		switch value {
		case "standard", "rapid", "blitz":
			return nil
		}
		return fmt.Errorf("meta rules=%q: want standard, rapid or blitz", value)
	}
	if strings.ContainsAny(value, "\r\n") {
		return fmt.Errorf("meta %s: value contains a line break", key)
	}
	return nil
}
