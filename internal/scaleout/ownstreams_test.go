package scaleout

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// checkOwnStreams checks that each venue's streams hold its own messages
// only: none of another venue's boards, none with another venue's name.
func checkOwnStreams(t *testing.T, vs []*tVenue) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, v := range vs {
		own := map[string]bool{}
		for _, b := range v.cfg.Boards {
			own[Token(b.ID())] = true
		}
		for _, name := range []string{EventsStream, CaptureStream} {
			for subj, n := range streamSubjects(ctx, t, v.venue.js, name) {
				if _, _, board, _, ok := parseSubject(subj); !ok || !own[board] {
					t.Errorf("venue %s's stream %s holds %d messages on %s, which is none of its boards", v.name, name, n, subj)
				}
			}
		}
	}
}

// streamSubjects returns the subjects a stream holds, with their counts.
func streamSubjects(ctx context.Context, t *testing.T, js jetstream.JetStream, name string) map[string]uint64 {
	t.Helper()
	s, err := js.Stream(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Info(ctx, jetstream.WithSubjectFilter(">"))
	if err != nil {
		t.Fatal(err)
	}
	return info.State.Subjects
}

// A venue's streams hold only what the venue publishes. Every venue's
// streams listen on the same subjects; where the venues dial the hall (a
// hall cluster), the hall is their hub and passed each venue's interest
// in those subjects on to the others, so a venue's stream also stored
// what another venue published. The hall then sourced a venue's messages
// from two streams, out of the venue's order, and after a hall node
// failed took the earlier ones, held up in one stream, as lost.
//
// Nothing here waits on a guess: a probe on a subject that does cross
// the leaf connections shows that the way from north to south is open
// (south's interest reached north), and that north's chunk, sent before
// a second probe, would have reached south's server; south's own publish,
// acknowledged after that, is stored after anything south's stream took
// before it.
func TestVenueStreamsHoldOwnMessages(t *testing.T) {
	hallLeaf, err := freePort("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h, err := OpenHall(HallOptions{Data: t.TempDir(), Venues: []VenueRef{{Name: "north"}, {Name: "south"}},
		Server: ServerOptions{LeafListen: hallLeaf}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	venues := map[string]*Venue{}
	for _, name := range []string{"north", "south"} {
		v, err := OpenVenue(VenueOptions{Venue: name, Event: "own streams", Round: "1", Dir: t.TempDir(),
			Server: ServerOptions{StoreDir: t.TempDir(), Remotes: [][]string{{"nats-leaf://" + hallLeaf}}}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(v.Close)
		venues[name] = v
	}
	north, south := venues["north"], venues["south"]

	probes, err := south.nc.SubscribeSync("arbiterd.probe")
	if err != nil {
		t.Fatal(err)
	}
	if err := south.nc.Flush(); err != nil {
		t.Fatal(err)
	}
	// probe publishes data on the probe subject from north until
	// south receives it.
	probe := func(data string) {
		t.Helper()
		deadline := time.Now().Add(time.Minute)
		for {
			if err := north.nc.Publish("arbiterd.probe", []byte(data)); err != nil {
				t.Fatal(err)
			}
			if err := north.nc.Flush(); err != nil {
				t.Fatal(err)
			}
			for {
				m, err := probes.NextMsg(100 * time.Millisecond)
				if err != nil {
					break
				}
				if string(m.Data) == data {
					return
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("a message from north on a subject that crosses the leaf connections did not reach south in a minute")
			}
		}
	}
	probe("open")

	publish := func(v *Venue, board string) {
		t.Helper()
		k := v.key(board)
		msg := &nats.Msg{Subject: k.CaptureSubject(), Data: []byte("#meta white=A\n"), Header: nats.Header{}}
		msg.Header.Set(HeaderVenue, v.o.Venue)
		msg.Header.Set(HeaderOffset, "0")
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := v.js.PublishMsg(ctx, msg, jetstream.WithMsgID(k.CaptureID(0))); err != nil {
			t.Fatal(err)
		}
	}
	publish(north, "7")
	probe("after north's chunk")
	publish(south, "9")

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for v, want := range map[*Venue]string{north: "7", south: "9"} {
		got := streamSubjects(ctx, t, v.js, CaptureStream)
		if len(got) != 1 || got[v.key(want).CaptureSubject()] != 1 {
			t.Errorf("venue %s's capture stream holds %v, want its board %s's chunk only", v.o.Venue, got, want)
		}
	}
}
