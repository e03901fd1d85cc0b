// When an input came: its time and its number among the inputs.

package reconcile

import (
	"time"
)

// stamp is when an input came: its time, and its number among the inputs
// (Game.inputs). Inputs that carry the same time (several messages decoded
// from one read of a port) happened in the order they were fed, so that a
// press is paired with the board states that came before it in that
// order, not with the ones after it.
type stamp struct {
	at time.Duration
	in int
}

// before reports whether s came before o: by time, and by the order of
// input when the times are equal.
func (s stamp) before(o stamp) bool {
	return s.at < o.at || (s.at == o.at && s.in < o.in)
}
