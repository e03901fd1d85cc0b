package audit

import (
	"strings"
	"time"

	"github.com/arbiterd/arbiterd/internal/i18n"
)

// Finding kinds.
const (
	// FlagBeforeControl: the next period's time appeared while the player
	// had completed fewer moves than the period requires (6.3.1): the flag
	// fell before the control. The verdict is the 6.9 one.
	FlagBeforeControl = "flag-before-control"
	// PossibleFlag: the clocks favour a flag before the control, but not
	// beyond doubt (too few readings after it, or another explanation not
	// far behind). The readings are shown; no verdict is given.
	PossibleFlag = "possible-flag"
	// PeriodEarly, PeriodLate: a clock that counts moves added the period
	// at the wrong move, with the player's time not run out (6.10).
	PeriodEarly = "period-early"
	PeriodLate  = "period-late"
	// IncrementMissing, IncrementExtra: a move was credited no increment,
	// or two (6.10).
	IncrementMissing = "increment-missing"
	IncrementExtra   = "increment-extra"
	// TimeForfeit: a game decided on time whose result disagrees with the
	// 6.9 verdict on its final position.
	TimeForfeit = "time-forfeit"
	// TimeAdded: one clock rose between two moves by the two minutes (one
	// in rapid and blitz) an arbiter adds for the opponent's illegal move
	// (7.5.5) or a rejected claim (10.2), as the move's %emt shows.
	TimeAdded = "time-added"
	// ClockData: clock comments that no clock behaviour explains (a time
	// gained, a reading of zero and play going on, missing clocks where
	// they matter). A data fault, never an incident.
	ClockData = "clock-data"
)

// Sources of the control a game is judged by.
const (
	SourceFlag   = "flag"   // the --timecontrol option
	SourceTag    = "tag"    // the TimeControl tag
	SourceClocks = "clocks" // inferred from the %clk comments
	SourceNone   = "none"   // nothing to judge by: no usable tag, no clocks
)

// Finding is one thing the audit found, citing the Laws.
type Finding struct {
	Kind string `json:"kind"`
	Side string `json:"side"` // "white", "black", or "" for the game
	Move int    `json:"move"` // the side's move number it concerns (0: the game)
	// MoveFrom..MoveTo are the moves a flag may have fallen in, or a
	// counting clock's period come early or late in, where the readings
	// do not tell which (Move is among them, the likeliest); both 0 where
	// they tell.
	MoveFrom int    `json:"move_from,omitempty"`
	MoveTo   int    `json:"move_to,omitempty"`
	Article  string `json:"article"`
	Detail   string `json:"detail"` // a sentence for the arbiter

	// Message is the sentence as a message of the catalogs, for the
	// sinks to render in their language; Detail is its English.
	Message i18n.Message `json:"-"`
}

// OfGame reports whether f is about the whole game, not a side's move.
func (f *Finding) OfGame() bool { return f.Side == "" && f.Move == 0 }

// PeriodAddition is a period's time appearing on a player's clock.
type PeriodAddition struct {
	Side    string `json:"side"`
	Period  int    `json:"period"`  // the period that started (2 for the second)
	Move    int    `json:"move"`    // the first move whose %clk shows it
	Seconds int    `json:"seconds"` // the period's time
	// AtFlag: the player's time had run out when it was added (a clock
	// that adds the period at the flag); false: time was left (a clock
	// that counts moves, one that gives both players the period at the
	// first flag, or a hand-set clock).
	AtFlag bool `json:"at_flag"`
	// WithFlag: it came with the opponent's flag (within a move of it): a
	// clock that gives both players the period at the first flag.
	WithFlag bool `json:"with_opponents_flag,omitempty"`
	// After is the side's number of completed moves when the time was
	// added, as far as the clocks tell.
	After int `json:"completed"`
}

// Point is a clock reading for the chart: the side's clock after its
// move Move.
type Point struct {
	Move    int
	Seconds float64
}

// Report is the audit of one game.
type Report struct {
	File              string           `json:"file"`
	Line              int              `json:"line"`
	Event             string           `json:"event,omitempty"`
	Round             string           `json:"round"`
	Board             string           `json:"board"`
	White             string           `json:"white"`
	Black             string           `json:"black"`
	Result            string           `json:"result"`
	Plies             int              `json:"plies"`
	TimeControl       string           `json:"timecontrol"`
	TimeControlBlack  string           `json:"timecontrol_black,omitempty"`
	TimeControlSource string           `json:"timecontrol_source"`
	TimeControlTag    string           `json:"timecontrol_tag,omitempty"`
	ControlMismatch   bool             `json:"control_mismatch"`
	MissingClocks     int              `json:"missing_clocks"`
	Periods           []PeriodAddition `json:"periods"`
	Findings          []Finding        `json:"findings"`

	// Chart holds each side's clock readings (White, Black) for the HTML
	// report; Control is the move count the first period requires (0 for
	// none).
	Chart   [2][]Point `json:"-"`
	Control int        `json:"-"`
}

// Count returns how many findings of the kind the report has.
func (r *Report) Count(kind string) int {
	n := 0
	for _, f := range r.Findings {
		if f.Kind == kind {
			n++
		}
	}
	return n
}

// roundBoard splits a broadcast round tag "R.B" into round and board; the
// Board tag, when present, wins.
func roundBoard(g *Game) (string, string) {
	round, board := g.Tag("Round"), g.Tag("Board")
	if r, b, ok := strings.Cut(round, "."); ok && b != "" {
		if board == "" {
			board = b
		}
		round = r
	}
	return round, board
}

// secs returns a duration in seconds.
func secs(d time.Duration) float64 { return d.Seconds() }

// hms formats a duration as H:MM:SS (or M:SS under an hour).
func hms(d time.Duration) string {
	neg := d < 0
	if neg {
		d = -d
	}
	s := int64((d + time.Second/2) / time.Second)
	var out string
	if s >= 3600 {
		out = itoa(s/3600) + ":" + two(s/60%60) + ":" + two(s%60)
	} else {
		out = itoa(s/60) + ":" + two(s%60)
	}
	if neg {
		return "-" + out
	}
	return out
}

func itoa(n int64) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

func two(n int64) string {
	if n < 10 {
		return "0" + itoa(n)
	}
	return itoa(n)
}

// minutes formats a period's time for people: "30 min", "90 s".
func minutes(d time.Duration) string {
	if d%time.Minute == 0 {
		return itoa(int64(d/time.Minute)) + " min"
	}
	return itoa(int64(d/time.Second)) + " s"
}
