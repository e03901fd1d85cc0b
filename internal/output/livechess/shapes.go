package livechess

import (
	"math"
	"slices"
	"strings"

	"github.com/arbiterd/arbiterd/internal/output/hub"
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
	State    string  `json:"state"`   // ACTIVE, INACTIVE or NOTRESPONDING: see stateOf
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
	Start    string   `json:"start,omitempty"` // the FEN san counts from: the game's start, or the feed's setup
	SAN      []string `json:"san"`             // the moves from start: completed (6.2.1) or as made, see Moves
	Match    bool     `json:"match"`           // the board shows the position after san
}

// firstEvent is LiveChess's first message of a feed: the board as it
// stands, without san, so a client joining a game does not take the moves
// so far for new ones.
type firstEvent struct {
	SerialNr string `json:"serialnr"`
	Flipped  bool   `json:"flipped"`
	Board    string `json:"board"`
	Clock    *Clock `json:"clock"`
	Start    string `json:"start,omitempty"`
	Match    bool   `json:"match"`
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

// clockOf is the board's clock: null until a clock value is known, and for
// a board without a clock (its moves are completed by the next move, with
// no time on either side and no clock running).
func clockOf(b hub.Board) *Clock {
	if b.ClockAt.IsZero() || (b.Running == "" && b.Clock.White == 0 && b.Clock.Black == 0) {
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

// LiveChess's e-board states.
const (
	Active        = "ACTIVE"        // connected and read
	Inactive      = "INACTIVE"      // known, but not read yet
	NotResponding = "NOTRESPONDING" // known, and the line to it is down
)

// stateOf is a board's LiveChess state: ACTIVE while arbiterd reads it, and
// after its game ended (the board is still there; its game is over, which
// is not the device's state); NOTRESPONDING once its line went down
// (unplugged, switched off); INACTIVE before arbiterd has read it at all.
func stateOf(b hub.Board) string {
	switch b.Connection {
	case hub.Connected, hub.Ended:
		return Active
	case hub.Disconnected:
		return NotResponding
	}
	return Inactive
}

// EBoardOf converts a hub board to LiveChess's eboard shape.
func EBoardOf(b hub.Board) EBoard {
	return EBoard{SerialNr: SerialNr(b), Source: "arbiterd/" + b.ID, State: stateOf(b), Board: placement(b.FEN),
		Flipped: b.Orientation == "black-bottom", Clock: clockOf(b)}
}

// EventOf converts a hub board to an eboardevent's param with arbiterd's
// meaning of san (completed moves, from the game's start).
func EventOf(b hub.Board) EBoardEvent {
	return completedEvent(b, nil, "")
}

// completedEvent is the feed message with san the completed moves: from
// the game's start, or from the position of the feed's setup when it is
// given (l is the board's line as made, to find it in).
func completedEvent(b hub.Board, l *line, setup string) EBoardEvent {
	// A LiveChess client replays san from the start: it gets the moves up
	// to the first ply arbiterd could not verify (made while the board
	// was not read), and match false from there on; board still shows
	// the position.
	san := b.SAN
	cut := slices.Index(san, hub.UnverifiedSAN)
	if cut >= 0 {
		san = san[:cut]
	}
	match := cut < 0 && b.Ply == len(b.SAN)
	e := EBoardEvent{SerialNr: SerialNr(b), Flipped: b.Orientation == "black-bottom", Board: placement(b.FEN),
		Clock: clockOf(b)}
	if l != nil {
		e.Start = l.origin
	}
	if setup != "" {
		e.Start = setup
		k := -1
		if l != nil {
			if i := l.index(setup); i >= 0 {
				k = l.base + i
			}
		}
		if k < 0 || k > len(san) {
			san, match = nil, false
		} else {
			san = san[k:]
		}
	}
	if san == nil {
		san = []string{}
	}
	e.SAN, e.Match = append([]string{}, san...), match
	return e
}

// madeEvent is the feed message as LiveChess sends it: san every move the
// board shows from the start (the game's, or the setup's position), match
// whether the board is the position after them.
func madeEvent(b hub.Board, l *line, setup string, anchor int) EBoardEvent {
	board := b.FEN
	if l.board != "" {
		board = l.board // back from an absence: the hub has not seen the board's position yet
	}
	e := EBoardEvent{SerialNr: SerialNr(b), Flipped: b.Orientation == "black-bottom", Board: placement(board),
		Clock: clockOf(b), Start: l.start, SAN: []string{}}
	from := 0
	if setup != "" {
		e.Start, from = setup, anchor
	}
	if from < 0 || l.start == "" {
		return e // the board has not shown the start yet
	}
	e.SAN = append(e.SAN, l.san[from:]...)
	e.Match = samePosition(l.fen(), board)
	return e
}

// Source is one element of the sources call's answer: where an e-board
// is read from. LiveChess lists its serial ports and Bluetooth links here;
// arbiterd lists its boards.
type Source struct {
	Source   string `json:"source"`   // as in the e-board's source field
	SerialNr string `json:"serialnr"` // the e-board read there
	State    string `json:"state"`    // the e-board's state
}

func sourceOf(b hub.Board) Source {
	return Source{Source: "arbiterd/" + b.ID, SerialNr: SerialNr(b), State: stateOf(b)}
}
