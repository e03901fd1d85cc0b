package scaleout

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// gapRig is a venue's NATS server with its streams (no boards, no daemon)
// and a hall sourcing it whose consumers the test plays by hand: it hands
// the hall's ingestion (onEvent, onCapture) the hall stream's messages in
// the order it likes, on a clock it sets. Nothing depends on timing.
type gapRig struct {
	t   *testing.T
	v   *Venue
	h   *Hall
	now time.Time
	n   map[string]int // messages published per stream
}

func newGapRig(t *testing.T) *gapRig {
	t.Helper()
	leaf, err := freePort("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	v, err := OpenVenue(VenueOptions{Venue: "north", Event: "gap test", Round: "1", Dir: t.TempDir(),
		Server: ServerOptions{StoreDir: t.TempDir(), LeafListen: leaf}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(v.Close)
	r := &gapRig{t: t, v: v, now: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC), n: map[string]int{}}
	h, err := OpenHall(HallOptions{Data: t.TempDir(), Venues: []VenueRef{{Name: "north"}},
		Server: ServerOptions{Remotes: [][]string{{"nats-leaf://" + leaf}}}, Now: func() time.Time { return r.now }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	r.h = h
	return r
}

func (r *gapRig) publish(subj, id string, data []byte, hdr map[string]string) {
	r.t.Helper()
	msg := &nats.Msg{Subject: subj, Data: data, Header: nats.Header{}}
	msg.Header.Set(HeaderVenue, "north")
	for k, v := range hdr {
		msg.Header.Set(k, v)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := r.v.js.PublishMsg(ctx, msg, jetstream.WithMsgID(id)); err != nil {
		r.t.Fatal(err)
	}
}

func gapEvent(board string, seq int) []byte {
	return fmt.Appendf(nil, `{"type":"session","board":%q,"t":%d.000000,"seq":%d,"state":"start","port":"board"}`, board, seq, seq)
}

// event publishes board's event seq at the venue.
func (r *gapRig) event(board string, seq int) {
	k := r.v.key(board)
	r.publish(k.EventsSubject(), k.EventID(seq), gapEvent(board, seq), nil)
	r.n[HallEventsStream]++
}

// chunk publishes a capture chunk at offset off at the venue.
func (r *gapRig) chunk(board string, off int, data string) {
	k := r.v.key(board)
	r.publish(k.CaptureSubject(), k.CaptureID(int64(off)), []byte(data), map[string]string{HeaderOffset: strconv.Itoa(off)})
	r.n[HallCaptureStream]++
}

// sourced waits until the hall's streams hold everything published, and
// returns each stream's messages as its consumer would deliver them, by
// board and index.
func (r *gapRig) sourced() map[string][]jetstream.Msg {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out := map[string][]jetstream.Msg{}
	for _, stream := range []string{HallEventsStream, HallCaptureStream} {
		for {
			s, err := r.h.js.Stream(ctx, stream)
			if err == nil {
				var info *jetstream.StreamInfo
				if info, err = s.Info(ctx); err == nil && info.State.Msgs >= uint64(r.n[stream]) {
					break
				}
			}
			if ctx.Err() != nil {
				r.t.Fatalf("the hall's stream %s does not hold the %d messages published: %v", stream, r.n[stream], err)
			}
			time.Sleep(50 * time.Millisecond)
		}
		c, err := r.h.js.OrderedConsumer(ctx, stream, jetstream.OrderedConsumerConfig{})
		if err != nil {
			r.t.Fatal(err)
		}
		batch, err := c.Fetch(r.n[stream], jetstream.FetchMaxWait(time.Minute))
		if err != nil {
			r.t.Fatal(err)
		}
		for m := range batch.Messages() {
			_, _, board, kind, _ := parseSubject(m.Subject())
			out[kind+"/"+board] = append(out[kind+"/"+board], m)
		}
		if err := batch.Error(); err != nil {
			r.t.Fatal(err)
		}
	}
	return out
}

func (r *gapRig) file(board, ext string) string {
	r.t.Helper()
	r.h.syncWrites()
	data, err := os.ReadFile(filepath.Join(r.h.o.Data, "venues", "north", "round-1", "board-"+board+ext))
	if err != nil {
		r.t.Fatal(err)
	}
	return string(data)
}

func (r *gapRig) hallAlert(kind, text string) bool {
	for _, a := range r.h.Status().Alerts {
		if a.Kind == kind && strings.Contains(a.Text, text) {
			return true
		}
	}
	return false
}

// A capture chunk or an event that reaches the hall after the one that
// follows it, later than the hall's wait for it (a redelivery behind a
// backlog: the hall 48 s behind in the 1,000-board run), is still written,
// in its place: nothing is lost and no gap is reported.
func TestHallLateMessage(t *testing.T) {
	r := newGapRig(t)
	chunks := []string{"#meta white=A\n", "line one\n", "line two\n", "line three\n"}
	off := 0
	for _, c := range chunks {
		r.chunk("7", off, c)
		off += len(c)
	}
	for seq := 1; seq <= 4; seq++ {
		r.event("8", seq)
	}
	ms := r.sourced()
	caps, evs := ms["capture/7"], ms["events/8"]
	if len(caps) != 4 || len(evs) != 4 {
		t.Fatalf("%d chunks and %d events sourced, want 4 and 4", len(caps), len(evs))
	}
	// The first arrives; then the third and the fourth, again and again
	// while the hall hands them back, past its wait; then the second, and
	// the third and fourth once more if the hall has not taken them. A
	// message the hall takes (acknowledges) does not come again.
	deliver := func(fn func(jetstream.Msg) bool, ms []jetstream.Msg) {
		taken := make([]bool, len(ms))
		try := func(i int) {
			if !taken[i] {
				taken[i] = fn(ms[i])
			}
		}
		try(0)
		for range 3 {
			try(2)
			try(3)
			r.now = r.now.Add(gapWait)
		}
		try(1)
		try(2)
		try(3)
	}
	deliver(r.h.onCapture, caps)
	deliver(r.h.onEvent, evs)
	if got, want := r.file("7", ".capture"), strings.Join(chunks, ""); got != want {
		t.Errorf("the hall's capture of board 7 is %q, want %q", got, want)
	}
	var want string
	for seq := 1; seq <= 4; seq++ {
		want += string(gapEvent("8", seq)) + "\n"
	}
	if got := r.file("8", ".events.jsonl"); got != want {
		t.Errorf("the hall's events of board 8 are\n%s\nwant\n%s", got, want)
	}
	if r.hallAlert(KindGap, "board 7") || hasAlert(r.h, "8", KindGap) {
		t.Errorf("a gap reported for a late message: %+v", r.h.Status().Alerts)
	}
}

// A message that is not in the venue's stream at all (the venue's stream
// lost it) is reported once the hall's wait is over, and neither that
// board's later messages nor the other boards wait for it.
func TestHallLostMessage(t *testing.T) {
	r := newGapRig(t)
	r.chunk("7", 0, "#meta white=A\n")
	r.chunk("7", 100, "line after a hole\n") // bytes 14 to 99 never published
	r.chunk("7", 118, "line after that\n")
	r.chunk("9", 0, "#meta white=B\n")
	for _, seq := range []int{1, 3, 4} { // event 2 never published
		r.event("8", seq)
	}
	r.event("10", 1)
	ms := r.sourced()
	caps, evs := ms["capture/7"], ms["events/8"]
	if len(caps) != 3 || len(evs) != 3 {
		t.Fatalf("%d chunks and %d events sourced, want 3 and 3", len(caps), len(evs))
	}
	if !r.h.onCapture(caps[0]) || !r.h.onEvent(evs[0]) {
		t.Fatal("the first chunk or event was handed back")
	}
	// Within the wait the hall hands the message after the hole back.
	if r.h.onCapture(caps[1]) || r.h.onEvent(evs[1]) {
		t.Error("the message after a hole was taken at once, without waiting for the missing one")
	}
	// The other boards are not held up.
	if !r.h.onCapture(ms["capture/9"][0]) || !r.h.onEvent(ms["events/10"][0]) {
		t.Error("another board's message was handed back")
	}
	r.now = r.now.Add(gapWait + time.Second)
	for _, ok := range []bool{r.h.onCapture(caps[1]), r.h.onCapture(caps[2]), r.h.onEvent(evs[1]), r.h.onEvent(evs[2])} {
		if !ok {
			t.Error("a message after a lost one is still handed back after the wait")
		}
	}
	if got := r.file("7", ".capture"); got != "#meta white=A\n" {
		t.Errorf("the hall's capture of board 7 is %q", got)
	}
	if got := r.file("9", ".capture"); got != "#meta white=B\n" {
		t.Errorf("the hall's capture of board 9 is %q", got)
	}
	want := string(gapEvent("8", 1)) + "\n" + string(gapEvent("8", 3)) + "\n" + string(gapEvent("8", 4)) + "\n"
	if got := r.file("8", ".events.jsonl"); got != want {
		t.Errorf("the hall's events of board 8 are\n%s\nwant\n%s", got, want)
	}
	if !r.hallAlert(KindGap, "board 7") {
		t.Errorf("no alert for the capture's hole: %+v", r.h.Status().Alerts)
	}
	if !hasAlert(r.h, "8", KindGap) {
		t.Error("no alert on board 8 for its lost event")
	}
}
