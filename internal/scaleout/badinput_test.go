package scaleout

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// inject publishes a message into a venue's events stream as if the venue
// had (a broken or foreign publisher on its server).
func inject(t *testing.T, v *tVenue, board, data string) {
	t.Helper()
	k := v.venue.key(board)
	msg := &nats.Msg{Subject: k.EventsSubject(), Data: []byte(data), Header: nats.Header{}}
	msg.Header.Set(HeaderVenue, v.name)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := v.venue.js.PublishMsg(ctx, msg, jetstream.WithMsgID("injected/"+board+"/"+data)); err != nil {
		t.Fatal(err)
	}
}

func hasAlert(h *Hall, board, kind string) bool {
	st, err := h.Hub().Board(board)
	if err != nil {
		return false
	}
	for _, a := range st.Alerts {
		if a.Kind == kind {
			return true
		}
	}
	return false
}

// A message that is not an event, an event for a board the hall does not
// list, and a venue whose board number another venue has: each is an
// alert at the hall, which goes on, and the other boards are whole.
func TestHallBadInput(t *testing.T) {
	north := newVenue(t, "north", []int{101})
	south := newVenue(t, "south", []int{201})
	west := newVenue(t, "west", []int{101}) // the same number as north's
	h := newHall(t, []*tVenue{north, south})
	// West joins later, so that north has claimed board 101 first.
	waitShown(t, h, []*tVenue{north, south})
	h.stop()
	h.opts.Venues = append(h.opts.Venues, VenueRef{Name: "west"})
	h.opts.Server.Remotes = append(h.opts.Server.Remotes, []string{"nats-leaf://" + west.proxy.addr()})
	h.start()

	inject(t, north, "101", "this is not an event")
	inject(t, south, "999", `{"type":"session","board":"999","t":0.000000,"seq":1,"state":"start","port":"board"}`)

	deadline := time.Now().Add(2 * time.Minute)
	for {
		bad, clash := hasAlert(h.hall, "101", KindBadMessage), hasAlert(h.hall, "101", KindClash)
		unknown := false
		for _, a := range h.hall.Status().Alerts {
			unknown = unknown || a.Venue == "south" && strings.Contains(a.Text, "board 999")
		}
		if bad && clash && unknown {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("alerts: not an event %v, clash %v, unknown board %v; hall alerts %+v", bad, clash, unknown, h.hall.Status().Alerts)
		}
		time.Sleep(50 * time.Millisecond)
	}
	waitGames(t, h, []*tVenue{north, south, west}, 4*time.Minute)
	checkHall(t, h, []*tVenue{north, south}, true)
	// Board 101 on the dashboard is north's game, never west's.
	st, _ := h.hall.Hub().Board("101")
	if st.White != "White 101" || st.Seq == 0 {
		t.Errorf("board 101 at the hall: %+v", st)
	}
	want := replayFile(t, north.roundDir()+"/board-101.capture")
	if n := strings.Count(string(want), "\n"); st.Seq != n {
		t.Errorf("board 101 at the hall is at event %d, north's game has %d events", st.Seq, n)
	}
}
