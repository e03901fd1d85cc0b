package clockd

import "fmt"

// Side is a player: White or Black.
type Side int

const (
	White Side = iota
	Black
)

// String returns "white" or "black".
func (s Side) String() string {
	switch s {
	case White:
		return "white"
	case Black:
		return "black"
	}
	return fmt.Sprintf("Side(%d)", int(s))
}

// Other returns the opponent.
func (s Side) Other() Side {
	if s == White {
		return Black
	}
	return White
}

// Mode is how a period's per-move time is credited.
type Mode int

const (
	// Fischer adds the increment before the first move and after each
	// completed move.
	Fischer Mode = iota
	// Delay is the simple (US) delay: the main time does not run until the
	// delay has passed in a move; unused delay is lost.
	Delay
	// Bronstein gives back the time used in a move, at most the delay.
	Bronstein
)

// String returns "fischer", "delay" or "bronstein".
func (m Mode) String() string {
	switch m {
	case Fischer:
		return "fischer"
	case Delay:
		return "delay"
	case Bronstein:
		return "bronstein"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// Class is the FIDE category of a time control (Appendices A and B).
type Class int

const (
	Standard Class = iota
	Rapid
	Blitz
)

// String returns "standard", "rapid" or "blitz".
func (c Class) String() string {
	switch c {
	case Standard:
		return "standard"
	case Rapid:
		return "rapid"
	case Blitz:
		return "blitz"
	}
	return fmt.Sprintf("Class(%d)", int(c))
}
