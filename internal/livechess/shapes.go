package livechess

import (
	"math"
	"slices"
	"strings"

	"github.com/arbiterd/arbiterd/internal/hub"
)

// Clock is LiveChess's clock object.
type Clock struct {
	White int   `json:"white"` // seconds on White's clock
	Black int   `json:"black"` // seconds on Black's clock
	Run   *bool `json:"run"`   // true: White's clock runs; false: Black's; null: stopped
	Time  int64 `json:"time"`  // when the values were read, Unix milliseconds
}

// EBoard is one element of the eboards call's answer.
type EBoard struct {
	SerialNr string  `json:"serialnr"`
	Source   string  `json:"source"`
	State    string  `json:"state"`   // ACTIVE while the board is connected, else INACTIVE
	Battery  *string `json:"battery"` // always null: arbiterd's boards are wired
	Comment  *string `json:"comment"` // always null
	Board    string  `json:"board"`   // FEN piece placement, White at the bottom
	Flipped  bool    `json:"flipped"` // the board stands with Black at the bottom
	Clock    *Clock  `json:"clock"`   // null until a clock value is known
}

// EBoardEvent is the param of an eboardevent feed message.
type EBoardEvent struct {
	SerialNr string   `json:"serialnr"`
	Flipped  bool     `json:"flipped"`
	Board    string   `json:"board"`
	Clock    *Clock   `json:"clock"`
	SAN      []string `json:"san"`   // the record from the start in the board's order: the completed moves (6.2.1), see hub.Board.SAN
	Match    bool     `json:"match"` // the board shows the position after san
}

// SerialNr is the serialnr arbiterd reports for a board: the device's
// serial number when it is known, else the board id.
func SerialNr(b hub.Board) string {
	if b.Serial != "" {
		return b.Serial
	}
	return b.ID
}

// matches reports whether a LiveChess serialnr names the board: its device
// serial number or its id.
func matches(b hub.Board, serial string) bool {
	return serial != "" && (serial == b.Serial || serial == b.ID)
}

func placement(fen string) string {
	if i := strings.IndexByte(fen, ' '); i >= 0 {
		return fen[:i]
	}
	return fen
}

func clockOf(b hub.Board) *Clock {
	if b.ClockAt.IsZero() {
		return nil
	}
	c := &Clock{White: whole(b.Clock.White), Black: whole(b.Clock.Black), Time: b.ClockAt.UnixMilli()}
	switch b.Running {
	case "white":
		c.Run = new(true)
	case "black":
		c.Run = new(false)
	}
	return c
}

// whole truncates to the second, as a clock displays it.
func whole(s float64) int {
	if s <= 0 || math.IsNaN(s) {
		return 0
	}
	return int(s)
}

// EBoardOf converts a hub board to LiveChess's eboard shape.
func EBoardOf(b hub.Board) EBoard {
	state := "INACTIVE"
	if b.Connection == "connected" {
		state = "ACTIVE"
	}
	return EBoard{SerialNr: SerialNr(b), Source: "arbiterd/" + b.ID, State: state, Board: placement(b.FEN),
		Flipped: b.Orientation == "black-bottom", Clock: clockOf(b)}
}

// EventOf converts a hub board to an eboardevent's param.
func EventOf(b hub.Board) EBoardEvent {
	// A LiveChess client replays san from the start: it gets the moves up
	// to the first ply arbiterd could not verify (made while the board
	// was not read), and match false from there on; board still shows
	// the position.
	san := b.SAN
	cut := slices.Index(san, hub.UnverifiedSAN)
	if cut >= 0 {
		san = san[:cut]
	}
	if san == nil {
		san = []string{}
	}
	return EBoardEvent{SerialNr: SerialNr(b), Flipped: b.Orientation == "black-bottom", Board: placement(b.FEN),
		Clock: clockOf(b), SAN: san, Match: cut < 0 && b.Ply == len(b.SAN)}
}
