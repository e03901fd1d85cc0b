package scaleout

import (
	"testing"
	"time"
)

// cutSeconds is how long a leaf connection stays cut: 8 s of play in CI
// (about two hours of emulated game time), ARBITERD_SCALEOUT_CUT for the
// long form (60 for the run).
func cutSeconds() time.Duration {
	return time.Duration(envInt("ARBITERD_SCALEOUT_CUT", 8)) * time.Second
}

func faultVenues(t *testing.T) ([]*tVenue, *tHall) {
	n := envInt("ARBITERD_SCALEOUT_FAULT_BOARDS", 1)
	var vs []*tVenue
	for i, name := range []string{"north", "south"} {
		vs = append(vs, newVenue(t, name, venueBoards(i+1, n)))
	}
	return vs, newHall(t, vs)
}

// waitApplied waits until the hall has applied at least n events.
func waitApplied(t *testing.T, h *tHall, n int64) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for h.hall.Status().Applied < n {
		if time.Now().After(deadline) {
			t.Fatalf("the hall applied %d events in a minute, want %d", h.hall.Status().Applied, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitShown waits until the hall shows every board of the venues.
func waitShown(t *testing.T, h *tHall, vs []*tVenue) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for _, v := range vs {
		for _, b := range v.cfg.Boards {
			for {
				if _, err := h.hall.Hub().Board(b.ID()); err == nil {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the hall does not show board %s of %s after a minute", b.ID(), v.name)
				}
				time.Sleep(20 * time.Millisecond)
			}
		}
	}
}

func venueOf(h *Hall, name string) VenueStatus {
	for _, v := range h.Status().Venues {
		if v.Name == name {
			return v
		}
	}
	return VenueStatus{}
}

// A venue's leaf connection is cut during play, then restored: the hall
// shows the venue cut off (on /api/hall, in one alert, and on its boards),
// and once the connection is back every event arrives, once, in order.
func TestLeafCutAndRestore(t *testing.T) {
	if testing.Short() {
		t.Skip("NATS servers and venue processes (tens of seconds on two cores): not in -short")
	}
	vs, h := faultVenues(t)
	waitShown(t, h, vs)
	vs[0].proxy.setCut(true)
	cutAt := time.Now()
	deadline := cutAt.Add(15 * time.Second)
	for venueOf(h.hall, "north").State != "cut-off" {
		if time.Now().After(deadline) {
			t.Fatalf("the hall does not show north cut off: %+v", h.hall.Status())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if s := venueOf(h.hall, "south"); s.State != "connected" {
		t.Errorf("south while north is cut off: %+v", s)
	}
	// The dashboard shows it on the venue's boards (their link), with one
	// alert for the venue.
	if l := h.hall.Link(vs[0].cfg.Boards[0].ID()); l == nil || l.State != "cut-off" {
		t.Errorf("north's board's link while north is cut off: %+v", l)
	}
	if hasAlert(h.hall, vs[0].cfg.Boards[0].ID(), KindVenueCut) {
		t.Errorf("north's board has an alert of its own for the venue's cut")
	}
	time.Sleep(time.Until(cutAt.Add(cutSeconds())))
	vs[0].proxy.setCut(false)
	restored := time.Now()
	waitGames(t, h, vs, 4*time.Minute)
	t.Logf("caught up %s after the connection came back", time.Since(restored).Round(100*time.Millisecond))
	checkHall(t, h, vs, false)
	deadline = time.Now().Add(15 * time.Second)
	for venueOf(h.hall, "north").State != "connected" {
		if time.Now().After(deadline) {
			t.Fatalf("north not connected again: %+v", venueOf(h.hall, "north"))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// The hall is stopped in the middle of the games and started again: it
// reloads its files, resumes from its durable consumers, and ends with
// every event once.
func TestHallRestart(t *testing.T) {
	vs, h := faultVenues(t)
	waitApplied(t, h, 30)
	h.stop()
	time.Sleep(time.Second)
	h.start()
	waitGames(t, h, vs, 4*time.Minute)
	checkHall(t, h, vs, false)
}
