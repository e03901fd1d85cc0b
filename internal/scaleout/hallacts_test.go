package scaleout

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/internal/output/web"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// actSpeed is the speed of the games the arbiter acts on in these tests:
// slow enough that a game is still on when the arbiter acts.
const actSpeed = 100

// serveHall serves the hall as `arbiterd hall` does (the dashboard with
// the hall as its arbiter and the boards' links, /hall, /metrics) on a
// local test server, which a restarted hall must be served on anew.
func serveHall(t *testing.T, h *tHall) *httptest.Server {
	t.Helper()
	out := h.hall.Outputs(&HallConfig{Broadcast: "off"}, nil)
	srv := httptest.NewServer(h.hall.Handler(out))
	t.Cleanup(srv.Close)
	t.Cleanup(out.Close)
	return srv
}

// call makes an HTTP request and returns its status and body.
func call(t *testing.T, method, url, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, data
}

// eventually waits up to d for ok, failing with what() otherwise.
func eventually(t *testing.T, d time.Duration, ok func() bool, what func() string) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("after %s: %s", d, what())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// venueEvents reads a venue's events of a board from its file.
func venueEvents(t *testing.T, v *tVenue, board string) []reconcile.Event {
	t.Helper()
	data, _ := os.ReadFile(filepath.Join(v.roundDir(), "board-"+board+".events.jsonl"))
	var out []reconcile.Event
	for line := range bytes.Lines(data) {
		if e, err := ParseEvent(bytes.TrimSuffix(line, []byte("\n"))); err == nil {
			out = append(out, e)
		}
	}
	return out
}

// eventsOf are the events of type typ.
func eventsOf(evs []reconcile.Event, typ reconcile.Type) []reconcile.Event {
	var out []reconcile.Event
	for _, e := range evs {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

// alertOf is a board's alert raised by event seq (nil: none).
func alertOf(h *hub.Hub, board string, seq int, kind string) *hub.Alert {
	b, err := h.Board(board)
	if err != nil {
		return nil
	}
	for _, a := range b.Alerts {
		if a.Seq == seq && a.Kind == kind {
			return &a
		}
	}
	return nil
}

// waitPlaying waits until the hall shows the board's game under way.
func waitPlaying(t *testing.T, h *tHall, board string) {
	t.Helper()
	eventually(t, time.Minute, func() bool {
		b, err := h.hall.Hub().Board(board)
		return err == nil && b.Connection == hub.Connected && b.Ply >= 2 && b.Result == ""
	}, func() string {
		b, err := h.hall.Hub().Board(board)
		return fmt.Sprintf("board %s at the hall: %+v %v", board, b, err)
	})
}

// Claims and decisions made at the hall are recorded at the venue, in its
// capture, and come back in the board's events; writes the venue's API
// would refuse are refused at the hall and reach nothing; an
// acknowledgement made at the hall reaches the venue, and one made at the
// venue the hall; a venue the hall does not hear takes no act, and the
// hall says so.
func TestHallClaimsAndAcks(t *testing.T) {
	v := newVenueAt(t, "north", []int{101}, actSpeed, nil)
	h := newHall(t, []*tVenue{v})
	srv := serveHall(t, h)
	waitPlaying(t, h, "101")
	vh := v.daemon.Hub()

	// A claim at the hall: in the venue's capture and events, then at the hall.
	if st, body := call(t, "POST", srv.URL+"/api/boards/101/claims", `{"side":"white"}`); st != http.StatusAccepted {
		t.Fatalf("claim at the hall: %d %s", st, body)
	}
	var claim reconcile.Event
	eventually(t, 10*time.Second, func() bool {
		cs := eventsOf(venueEvents(t, v, "101"), reconcile.TypeClaim)
		if len(cs) > 0 {
			claim = cs[0]
		}
		return len(cs) == 1
	}, func() string { return "no claim event at the venue" })
	capt, _ := os.ReadFile(filepath.Join(v.roundDir(), "board-101.capture"))
	if !bytes.Contains(capt, []byte(" claim white\n")) {
		t.Errorf("the venue's capture has no claim marker")
	}
	if claim.Side.String() != "white" {
		t.Errorf("the claim at the venue: %+v", claim)
	}
	eventually(t, 10*time.Second, func() bool { return alertOf(h.hall.Hub(), "101", claim.Seq, "claim") != nil },
		func() string { return "the claim is not on the hall's board" })

	// Writes the venue's API refuses are refused at the hall, and reach
	// neither the venue's capture nor its events.
	for _, w := range []struct {
		path, body string
		want       int
	}{
		{"/api/boards/101/claims/99999/decision", `{"decision":"accepted"}`, http.StatusNotFound},
		{"/api/boards/101/claims", `{"side":"white"}{"side":"black"}`, http.StatusBadRequest},
		{"/api/boards/101/claims", `{"side":"green"}`, http.StatusBadRequest},
		{fmt.Sprintf("/api/boards/101/claims/%d/decision", claim.Seq), `{"decision":"maybe"}`, http.StatusBadRequest},
		{"/api/boards/999/claims", `{"side":"white"}`, http.StatusNotFound},
	} {
		if st, body := call(t, "POST", srv.URL+w.path, w.body); st != w.want {
			t.Errorf("POST %s %s at the hall: %d %s, want %d", w.path, w.body, st, body, w.want)
		}
	}

	// Acknowledged at the hall: acknowledged at the venue.
	a := alertOf(h.hall.Hub(), "101", claim.Seq, "claim")
	if st, body := call(t, "POST", fmt.Sprintf("%s/api/boards/101/alerts/%d/ack", srv.URL, a.ID), ""); st != http.StatusOK {
		t.Fatalf("ack at the hall: %d %s", st, body)
	}
	eventually(t, 15*time.Second, func() bool { va := alertOf(vh, "101", claim.Seq, "claim"); return va != nil && va.Acked },
		func() string {
			return fmt.Sprintf("the venue's claim alert: %+v", alertOf(vh, "101", claim.Seq, "claim"))
		})

	// A second claim, acknowledged at the venue: acknowledged at the hall.
	if st, body := call(t, "POST", srv.URL+"/api/boards/101/claims", `{"side":"black"}`); st != http.StatusAccepted {
		t.Fatalf("second claim at the hall: %d %s", st, body)
	}
	var second reconcile.Event
	eventually(t, 10*time.Second, func() bool {
		cs := eventsOf(venueEvents(t, v, "101"), reconcile.TypeClaim)
		if len(cs) == 2 {
			second = cs[1]
		}
		return len(cs) == 2 && alertOf(vh, "101", second.Seq, "claim") != nil && alertOf(h.hall.Hub(), "101", second.Seq, "claim") != nil
	}, func() string { return "the second claim is not at the venue and the hall" })
	if err := vh.Ack("101", alertOf(vh, "101", second.Seq, "claim").ID); err != nil {
		t.Fatal(err)
	}
	eventually(t, 15*time.Second, func() bool { ha := alertOf(h.hall.Hub(), "101", second.Seq, "claim"); return ha.Acked },
		func() string { return "the claim acknowledged at the venue is not acknowledged at the hall" })

	// The decision at the hall: in the venue's capture and events.
	path := fmt.Sprintf("%s/api/boards/101/claims/%d/decision", srv.URL, claim.Seq)
	if st, body := call(t, "POST", path, `{"decision":"rejected"}`); st != http.StatusAccepted {
		t.Fatalf("decision at the hall: %d %s", st, body)
	}
	eventually(t, 10*time.Second, func() bool {
		ds := eventsOf(venueEvents(t, v, "101"), reconcile.TypeDecision)
		return len(ds) == 1 && ds[0].Claim == claim.Seq && ds[0].Decision == reconcile.DecisionRejected
	}, func() string { return "no decision at the venue" })
	capt, _ = os.ReadFile(filepath.Join(v.roundDir(), "board-101.capture"))
	if !bytes.Contains(capt, fmt.Appendf(nil, " decide %d rejected\n", claim.Seq)) {
		t.Errorf("the venue's capture has no decision marker")
	}
	// Decided once: the hall refuses the same decision again, as the venue would.
	eventually(t, 10*time.Second, func() bool { return alertOf(h.hall.Hub(), "101", claim.Seq, "claim").ClosedBy != 0 },
		func() string { return "the claim is not closed at the hall" })
	if st, body := call(t, "POST", path, `{"decision":"accepted"}`); st != http.StatusConflict {
		t.Errorf("a second decision at the hall: %d %s, want 409", st, body)
	}
	if n := len(eventsOf(venueEvents(t, v, "101"), reconcile.TypeClaim)); n != 2 {
		t.Errorf("%d claims at the venue, want the 2 made", n)
	}

	// With arbiters' logins, the hall's writes and its own pages need one,
	// as the dashboard's do; /metrics and /healthz do not.
	hash, err := bcrypt.GenerateFromPassword([]byte("secret"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	aws := h.hall.Outputs(&HallConfig{Broadcast: "off"}, &web.Access{Arbiters: []web.Login{{Name: "Anna", Hash: hash}}})
	asrv := httptest.NewServer(h.hall.Handler(aws))
	t.Cleanup(asrv.Close)
	t.Cleanup(aws.Close)
	for _, c := range []struct{ method, path, body string }{
		{"POST", "/api/boards/101/claims", `{"side":"white"}`}, {"POST", "/api/hall/alerts/1/ack", ""},
		{"GET", "/api/hall", ""}, {"GET", "/hall", ""}, {"GET", "/api/boards", ""},
	} {
		if st, body := call(t, c.method, asrv.URL+c.path, c.body); st != http.StatusUnauthorized {
			t.Errorf("%s %s without a login: %d %s, want 401", c.method, c.path, st, body)
		}
	}
	for _, path := range []string{"/metrics", "/healthz"} {
		if st, _ := call(t, "GET", asrv.URL+path, ""); st != http.StatusOK {
			t.Errorf("GET %s: %d", path, st)
		}
	}
	req, _ := http.NewRequest("GET", asrv.URL+"/api/hall", nil)
	req.SetBasicAuth("Anna", "secret")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("GET /api/hall with Anna's login: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}

	// A claim and an acknowledgement made at the hall with Anna's login
	// name her in the venue's capture and events.
	asAnna := func(path, body string) int {
		t.Helper()
		req, _ := http.NewRequest("POST", asrv.URL+path, strings.NewReader(body))
		req.SetBasicAuth("Anna", "secret")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if st := asAnna("/api/boards/101/claims", `{"side":"white"}`); st != http.StatusAccepted {
		t.Fatalf("a claim at the hall with Anna's login: %d", st)
	}
	var third reconcile.Event
	eventually(t, 10*time.Second, func() bool {
		cs := eventsOf(venueEvents(t, v, "101"), reconcile.TypeClaim)
		if len(cs) == 3 {
			third = cs[2]
		}
		return len(cs) == 3 && alertOf(h.hall.Hub(), "101", third.Seq, "claim") != nil
	}, func() string { return "the third claim is not at the venue and the hall" })
	if third.Arbiter != "Anna" {
		t.Errorf("the claim made with Anna's login: %s", reconcile.Marshal(third))
	}
	if st := asAnna(fmt.Sprintf("/api/boards/101/alerts/%d/ack", alertOf(h.hall.Hub(), "101", third.Seq, "claim").ID), ""); st != http.StatusOK {
		t.Fatalf("an acknowledgement at the hall with Anna's login: %d", st)
	}
	eventually(t, 15*time.Second, func() bool {
		capt, _ := os.ReadFile(filepath.Join(v.roundDir(), "board-101.capture"))
		return bytes.Contains(capt, fmt.Appendf(nil, " ack %d claim by Anna\n", third.Seq))
	}, func() string { return "the venue's capture does not record Anna's acknowledgement" })

	// The venue shows its link to the hall (/api/venue, /venue).
	vsrv := httptest.NewServer(v.venue.Handler())
	t.Cleanup(vsrv.Close)
	var link HallLink
	eventually(t, 10*time.Second, func() bool {
		_, body := call(t, "GET", vsrv.URL+"/api/venue", "")
		return json.Unmarshal(body, &link) == nil && link.State == "connected" && link.Behind != nil && link.Hall != ""
	}, func() string { return fmt.Sprintf("the venue's link: %+v", link) })
	if _, page := call(t, "GET", vsrv.URL+"/venue", ""); !bytes.Contains(page, []byte("<td>connected</td>")) {
		t.Errorf("/venue does not show the link connected:\n%s", page)
	}

	// The venue cut off: the hall takes no act for it, and says why; the
	// venue shows its link cut, how far behind unknown.
	v.proxy.setCut(true)
	eventually(t, 15*time.Second, func() bool { return venueOf(h.hall, "north").State == "cut-off" },
		func() string { return fmt.Sprintf("north: %+v", venueOf(h.hall, "north")) })
	st, body := call(t, "POST", srv.URL+"/api/boards/101/claims", `{"side":"white"}`)
	if st != http.StatusConflict || !strings.Contains(string(body), "record it at the venue") {
		t.Errorf("a claim for a venue cut off: %d %s", st, body)
	}
	eventually(t, 10*time.Second, func() bool { l := v.venue.Link(); return l.State == "cut-off" && l.Behind == nil },
		func() string { return fmt.Sprintf("the venue's link while cut: %+v", v.venue.Link()) })
	if _, page := call(t, "GET", vsrv.URL+"/venue", ""); !bytes.Contains(page, []byte("unknown")) {
		t.Errorf("/venue does not say how far behind is unknown:\n%s", page)
	}
	v.proxy.setCut(false)
}

// A venue cut off: its boards at the hall say so (the link on the API and
// the dashboard, no clock run on), how far behind is unknown rather than
// 0, and the venue has one alert, not one per board; when it is back, one
// more, and none on its boards, finished or not.
func TestHallCutOffVenue(t *testing.T) {
	if testing.Short() {
		t.Skip("a venue's leaf connection cut for seconds: not in -short")
	}
	north := newVenueAt(t, "north", []int{101, 102}, actSpeed, nil)
	south := newVenue(t, "south", []int{201})
	h := newHall(t, []*tVenue{north, south})
	srv := serveHall(t, h)
	waitPlaying(t, h, "101")
	waitGames(t, h, []*tVenue{south}, 2*time.Minute) // south's game over: a finished board

	getJSON := func(path string, v any) {
		t.Helper()
		st, body := call(t, "GET", srv.URL+path, "")
		if st != http.StatusOK {
			t.Fatalf("GET %s: %d %s", path, st, body)
		}
		if err := json.Unmarshal(body, v); err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
	}
	var view web.View
	getJSON("/api/boards/101", &view)
	if view.Link == nil || view.Link.State != "connected" || view.Link.Venue != "north" {
		t.Errorf("board 101's link before the cut: %+v", view.Link)
	}
	metric := func(name string) string {
		_, body := call(t, "GET", srv.URL+"/metrics", "")
		for line := range strings.Lines(string(body)) {
			if strings.HasPrefix(line, name+" ") {
				return strings.TrimSpace(strings.TrimPrefix(line, name))
			}
		}
		return ""
	}
	if up := metric(`arbiterd_hall_venue_up{venue="north"}`); up != "1" {
		t.Errorf("/metrics: north up %q", up)
	}
	if n := metric(`arbiterd_hall_events_total{venue="south"}`); n == "" || n == "0" {
		t.Errorf("/metrics: south's events %q", n)
	}
	alertsBefore := map[string]int{}
	for _, b := range []string{"101", "102", "201"} {
		st, _ := h.hall.Hub().Board(b)
		alertsBefore[b] = len(st.Alerts)
	}

	north.proxy.setCut(true)
	eventually(t, 15*time.Second, func() bool { return venueOf(h.hall, "north").State == "cut-off" },
		func() string { return fmt.Sprintf("north: %+v", venueOf(h.hall, "north")) })
	getJSON("/api/boards/102", &view)
	if view.Link == nil || view.Link.State != "cut-off" || view.Link.Since.IsZero() {
		t.Errorf("board 102's link while north is cut off: %+v", view.Link)
	}
	getJSON("/api/boards/201", &view)
	if view.Link == nil || view.Link.State != "connected" {
		t.Errorf("south's board 201 while north is cut off: %+v", view.Link)
	}
	var st Status
	getJSON("/api/hall", &st)
	for _, vs := range st.Venues {
		if vs.Name == "north" && vs.Behind != nil {
			t.Errorf("north cut off, /api/hall says %d events behind, which it cannot know", *vs.Behind)
		}
		if vs.Name == "south" && (vs.Behind == nil || *vs.Behind != 0) {
			t.Errorf("south: %+v", vs)
		}
	}
	if _, page := call(t, "GET", srv.URL+"/hall", ""); !regexp.MustCompile(`<td>north</td><td>cut-off</td><td>[0-9:]*</td><td>unknown</td>`).Match(page) {
		t.Errorf("/hall does not say north's events behind are unknown:\n%s", page)
	}
	if v := metric(`arbiterd_hall_venue_events_behind{venue="north"}`); v != "NaN" {
		t.Errorf("/metrics: north's events behind %q while cut off, want NaN", v)
	}
	north.proxy.setCut(false)
	eventually(t, time.Minute, func() bool {
		for _, a := range h.hall.Status().Alerts {
			if a.Venue == "north" && a.Kind == KindVenueBack {
				return true
			}
		}
		return false
	}, func() string { return fmt.Sprintf("no venue-back: %+v", h.hall.Status()) })
	getJSON("/api/boards/101", &view)
	if view.Link == nil || view.Link.State != "connected" {
		t.Errorf("board 101's link after north is back: %+v", view.Link)
	}

	kinds := map[string]int{}
	for _, a := range h.hall.Status().Alerts {
		if a.Venue == "north" {
			kinds[a.Kind]++
		}
	}
	if kinds[KindVenueCut] != 1 || kinds[KindVenueBack] != 1 {
		t.Errorf("north's alerts at the hall: %v, want one %s and one %s", kinds, KindVenueCut, KindVenueBack)
	}
	for _, b := range []string{"101", "102", "201"} {
		st, _ := h.hall.Hub().Board(b)
		for _, a := range st.Alerts {
			if a.Kind == KindVenueCut || a.Kind == KindVenueBack {
				t.Errorf("board %s has a venue's alert: %+v", b, a)
			}
		}
		if b == "201" && len(st.Alerts) != alertsBefore[b] {
			t.Errorf("south's finished board 201: %d alerts, %d before north's cut", len(st.Alerts), alertsBefore[b])
		}
	}
}

// The alerts the hall raised, the acknowledgements made at the hall, and
// those of its own alerts, are as they were after the hall is restarted,
// even while the venue is cut off and cannot tell it again.
func TestHallAlertsAcrossRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("a venue's leaf connection cut for seconds: not in -short")
	}
	v := newVenueAt(t, "north", []int{101}, actSpeed, nil)
	h := newHall(t, []*tVenue{v})
	srv := serveHall(t, h)
	waitPlaying(t, h, "101")
	// An event's alert (a claim), acknowledged at the hall; an alert the
	// hall raised on the board (a message that is not an event),
	// acknowledged there too.
	if st, body := call(t, "POST", srv.URL+"/api/boards/101/claims", `{"side":"white"}`); st != http.StatusAccepted {
		t.Fatalf("claim at the hall: %d %s", st, body)
	}
	inject(t, v, "101", "this is not an event")
	var claim *hub.Alert
	eventually(t, 15*time.Second, func() bool {
		b, _ := h.hall.Hub().Board("101")
		claim = nil
		bad := false
		for _, a := range b.Alerts {
			if a.Kind == "claim" {
				claim = &a
			}
			bad = bad || a.Kind == KindBadMessage
		}
		return claim != nil && bad
	}, func() string { return "no claim and no bad message on board 101" })
	b, _ := h.hall.Hub().Board("101")
	for _, a := range b.Alerts {
		if a.Kind == "claim" || a.Kind == KindBadMessage {
			if st, body := call(t, "POST", fmt.Sprintf("%s/api/boards/101/alerts/%d/ack", srv.URL, a.ID), ""); st != http.StatusOK {
				t.Fatalf("ack: %d %s", st, body)
			}
		}
	}
	// The venue cut off: its alert, acknowledged on /hall.
	v.proxy.setCut(true)
	var cut HallAlert
	eventually(t, 15*time.Second, func() bool {
		for _, a := range h.hall.Status().Alerts {
			if a.Kind == KindVenueCut {
				cut = a
				return true
			}
		}
		return false
	}, func() string { return fmt.Sprintf("no venue-cut-off: %+v", h.hall.Status().Alerts) })
	if st, body := call(t, "POST", fmt.Sprintf("%s/api/hall/alerts/%d/ack", srv.URL, cut.ID), ""); st != http.StatusOK {
		t.Fatalf("ack of the venue's alert: %d %s", st, body)
	}
	if st, _ := call(t, "POST", srv.URL+"/api/hall/alerts/9999/ack", ""); st != http.StatusNotFound {
		t.Errorf("ack of an alert the hall does not have: %d, want 404", st)
	}
	time.Sleep(500 * time.Millisecond) // the bucket's writes are made in the background

	h.stop()
	h.start()
	// Cut off still: nothing comes from the venue, all is from the hall's own keeping.
	eventually(t, 15*time.Second, func() bool {
		for _, a := range h.hall.Status().Alerts {
			if a.ID == cut.ID {
				return a.Acked && a.Kind == KindVenueCut && a.Text == cut.Text
			}
		}
		return false
	}, func() string { return fmt.Sprintf("the venue's alert after the restart: %+v", h.hall.Status().Alerts) })
	b, _ = h.hall.Hub().Board("101")
	var got []string
	for _, a := range b.Alerts {
		if a.Kind == "claim" || a.Kind == KindBadMessage {
			got = append(got, fmt.Sprintf("%s acked=%v", a.Kind, a.Acked))
		}
	}
	if strings.Join(got, ", ") != "claim acked=true, "+KindBadMessage+" acked=true" {
		t.Errorf("board 101's alerts after the restart: %v", got)
	}
	v.proxy.setCut(false)
}
