package scaleout

import (
	"testing"
	"time"
)

// boardsPerVenue is the venues' size in the tests: 2 in CI,
// ARBITERD_SCALEOUT_BOARDS for the long form (20 for the run).
func boardsPerVenue() int { return envInt("ARBITERD_SCALEOUT_BOARDS", 2) }

func venueBoards(v, n int) []int {
	bs := make([]int, n)
	for i := range bs {
		bs[i] = v*100 + i + 1
	}
	return bs
}

// Three venues play full games; the hall gets every event of every
// board exactly once, in order, byte for byte, and replays each board's
// capture to the venue's events.
func TestHallThreeVenues(t *testing.T) {
	n := boardsPerVenue()
	var vs []*tVenue
	for i, name := range []string{"north", "south", "east"} {
		vs = append(vs, newVenue(t, name, venueBoards(i+1, n)))
	}
	h := newHall(t, vs)
	// A stalled emulated game (seen about once in 60 boards when many
	// boards share two cores) counts as done once its events stand still
	// for 20 s; the hall must then hold all of them.
	waitSettled(t, h, vs, 3*time.Minute, 20*time.Second)
	checkHall(t, h, vs, false)
	st := h.hall.Status()
	for _, v := range st.Venues {
		if v.State != "connected" || v.Behind == nil || *v.Behind != 0 || len(v.Boards) != n {
			t.Errorf("venue status %+v", v)
		}
	}
	for _, a := range st.Alerts {
		// A heartbeat late by seconds on a loaded test machine is a
		// venue cut off for that long; anything else is a fault.
		if a.Kind != KindVenueCut && a.Kind != KindVenueBack {
			t.Errorf("hall alert: %+v", a)
		}
	}
}
