package clockd

import "fmt"

// Side is a player: White or Black.
type Side int

const (
	White Side = iota
	Black
)

// String returns "white" or "black".
func (s Side) String() string { return enumName(s, []string{White: "white", Black: "black"}, "Side") }

// Other returns the opponent.
func (s Side) Other() Side { return other(s, White, Black) }

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
	return enumName(m, []string{Fischer: "fischer", Delay: "delay", Bronstein: "bronstein"}, "Mode")
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
	return enumName(c, []string{Standard: "standard", Rapid: "rapid", Blitz: "blitz"}, "Class")
}

// other is b when v is a and a otherwise: the other value of a two-valued
// enum.
func other[T comparable](v, a, b T) T {
	if v == a {
		return b
	}
	return a
}

// enumName is the name of v in names (indexed by value; an empty name is
// none), or "typ(v)" for a value without one.
func enumName[T ~int](v T, names []string, typ string) string {
	if v >= 0 && int(v) < len(names) && names[v] != "" {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typ, int(v))
}
