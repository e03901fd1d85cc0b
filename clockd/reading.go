package clockd

import (
	"fmt"
	"strings"
	"time"
)

// Face is a clock face as seen from the clock's front.
type Face int

const (
	Left Face = iota
	Right
)

// String returns "left" or "right".
func (f Face) String() string { return enumName(f, []string{Left: "left", Right: "right"}, "Face") }

// Other returns the opposite face.
func (f Face) Other() Face { return other(f, Left, Right) }

// WhiteFace says which face shows White's time.
type WhiteFace int

const (
	// WhiteAuto: the face that runs first after the start is White's (6.6).
	WhiteAuto WhiteFace = iota
	WhiteLeft
	WhiteRight
)

// String returns "auto", "left" or "right".
func (w WhiteFace) String() string {
	return enumName(w, []string{WhiteAuto: "auto", WhiteLeft: "left", WhiteRight: "right"}, "WhiteFace")
}

// ParseWhiteFace parses "left", "right" or "auto" (the capture meta key
// clock-white); case and surrounding spaces are ignored.
func ParseWhiteFace(s string) (WhiteFace, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "auto":
		return WhiteAuto, nil
	case "left":
		return WhiteLeft, nil
	case "right":
		return WhiteRight, nil
	}
	return WhiteAuto, &FaceError{Value: s}
}

// FaceError reports a white face that is not left, right or auto.
type FaceError struct{ Value string }

func (e *FaceError) Error() string { return say("clockd.face", e.Value).String() }

// SentenceCode is the error's code (Text).
func (e *FaceError) SentenceCode() string { return "clockd.face" }

// SentenceArgs are the error's arguments: the value given.
func (e *FaceError) SentenceArgs() []any { return []any{e.Value} }

// FaceReading is what one face of a clock displays.
type FaceReading struct {
	Time      time.Duration // displayed
	Flag      bool          // flag fallen, blocked at zero
	FlagShown bool          // flag fallen and shown while the clock runs on (next period added)
	PerMove   bool          // increment/delay indicator shown
}

// Reading is one report of a clock's state, whatever the device.
type Reading struct {
	At                  time.Duration // when it was received (orders and timestamps events only)
	Left, Right         FaceReading
	Running             bool
	LeftTurn, RightTurn bool // whose clock runs / whose turn, as the device reports it
	LeverRightHigh      bool // lever position, if LeverKnown: the high lever's side runs
	LeverKnown          bool
	NoClock             bool // the device says no clock is connected
	BatteryLow          bool
}

// Face returns the reading of face f.
func (r Reading) Face(f Face) FaceReading {
	if f == Right {
		return r.Right
	}
	return r.Left
}

// ClockEventKind is the kind of a ClockEvent. It is the same type as
// EventKind, so Flag and PeriodAdded mean the same thing from the
// reference clock and from the interpreter.
type ClockEventKind = EventKind

// ClockEvent is what the Interpreter derives from readings.
type ClockEvent struct {
	Kind     ClockEventKind
	At       time.Duration
	Side     Side          // Press: the pressing side (whose clock stops); Flag/PeriodAdded/Adjusted: whose
	Clock    Times         // displayed times at the event (after a press: including increment/period added)
	Period   int           // the side's period (after a press: the period it is in now)
	Added    time.Duration // PeriodAdded: the period's time; Adjusted: the change
	Inferred bool          // a press recovered from a merged reading, not seen directly; Adjusted: whose face it is rests on the clock's indicators, not yet on its displays
	Detail   string        // words for the arbiter
	// UnderWay: Started by a clock first read with the game under way
	// (not at the control's starting times): the presses made before were
	// not seen, and Side is whoever's time runs, not White by 6.6.
	UnderWay bool
	// WhiteGuessed: Started under way with White's face not set (clock-white
	// auto): the face that runs mid-game says nothing of White's, so the
	// sides of this and later events take the left face as White's, a guess
	// the board may turn round (rules/reconcile learns which from the
	// first press it can judge).
	WhiteGuessed bool
}

func (e ClockEvent) String() string {
	s := fmt.Sprintf("%v %s %s w=%v b=%v p=%d", e.At, e.Kind, e.Side, e.Clock.White, e.Clock.Black, e.Period)
	if e.Added != 0 {
		s += fmt.Sprintf(" added=%v", e.Added)
	}
	if e.Inferred {
		s += " inferred"
	}
	if e.UnderWay {
		s += " under-way"
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}
