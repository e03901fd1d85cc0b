package scaleout

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/language"

	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/internal/testkit/golden"
)

// pageTime is the time the pages' examples show.
var pageTime = time.Date(2026, 12, 5, 14, 3, 9, 0, time.UTC)

func intp(n int) *int { return &n }

// hallAlertOf is an alert of the hall with text s, as newAlert makes it.
func hallAlertOf(id int, at time.Time, venue, kind string, s saying, acked bool) HallAlert {
	return HallAlert{ID: id, Time: at, Venue: venue, Kind: kind, Text: s.String(), Acked: acked, say: &s}
}

// hallExamples are /hall's states: every venue state, events behind known
// and not, alerts acknowledged and not; then a hall without alerts; then
// one with an alert of every sentence and one of an earlier hall (its
// text, no sentence).
func hallExamples() []Status {
	return []Status{{
		Venues: []VenueStatus{
			{Name: "north", State: "connected", LastSeen: pageTime, Behind: intp(3), Boards: []string{"1", "2"}},
			{Name: "south", State: "cut-off", LastSeen: pageTime.Add(-time.Minute), Boards: []string{"3"}},
			{Name: "east", State: "waiting", Boards: []string{}},
		},
		Alerts: []HallAlert{
			hallAlertOf(1, pageTime.Add(-2*time.Minute), "south", KindVenueCut, say("hall.alert.cut-off", "south", "14:01:09"), true),
			hallAlertOf(2, pageTime, "south", "hall-unknown-board", say("hall.alert.unknown-board", "south", "9", "1"), false),
		},
		Applied: 12,
	}, {
		Venues: []VenueStatus{{Name: "north", State: "connected", LastSeen: pageTime, Behind: intp(0), Boards: []string{"1"}}},
		Alerts: []HallAlert{},
	}, {
		Venues: []VenueStatus{{Name: "north", State: "connected", LastSeen: pageTime, Behind: intp(0), Boards: []string{"1"}}},
		Alerts: []HallAlert{
			hallAlertOf(3, pageTime, "", KindBadMessage, say("hall.alert.bad-subject", "arbiterd.x"), false),
			hallAlertOf(4, pageTime, "west", KindBadMessage, say("hall.alert.unknown-venue", "arbiterd.west.e.1.4.events", "west"), false),
			hallAlertOf(5, pageTime, "north", "hall-journal", say("hall.alert.journal", "4", "north", "open x: permission denied"), false),
			hallAlertOf(6, pageTime, "north", KindBadMessage, say("hall.alert.not-event", "north", "4", "not an event"), false),
			hallAlertOf(7, pageTime, "north", KindGap, say("hall.alert.events-gap", "3", "5", "4", "north"), false),
			hallAlertOf(8, pageTime, "north", KindBadMessage, say("hall.alert.no-offset", "4", "north"), false),
			hallAlertOf(9, pageTime, "north", KindGap, say("hall.alert.capture-gap", "4", "north", "100", "200"), false),
			hallAlertOf(10, pageTime, "north", KindVenueCut, say("hall.alert.never-heard", "north", "14:00:00"), true),
			hallAlertOf(11, pageTime, "north", KindVenueBack, say("hall.alert.back", "north", "1m5s"), false),
			hallAlertOf(12, pageTime, "", "hall-journal", say("hall.alert.write-failed.events", "4", "north", "write x: no space left on device"), false),
			hallAlertOf(13, pageTime, "", "hall-journal", say("hall.alert.write-failed.capture", "4", "north", "write x: no space left on device"), false),
			hallAlertOf(14, pageTime, "north", KindClash, say("hall.alert.clash", "south", "4", "1", "north", "/data/venues/south/round-1"), false),
			{ID: 15, Time: pageTime, Venue: "north", Kind: "hall-newer-kind", Text: "an alert of an earlier hall, kept as its text"},
		},
	}}
}

// venueExamples are /venue's states: connected with boards behind and
// without, cut off, never heard, joined by URL.
func venueExamples() []HallLink {
	return []HallLink{
		{State: "connected", Hall: "arbiterd-hall", LastHeard: pageTime, Behind: intp(4), BoardsBehind: []string{"2", "10"}, LeafConnections: 1},
		{State: "connected", Hall: "arbiterd-hall", LastHeard: pageTime, Behind: intp(0), BoardsBehind: []string{}, LeafConnections: 1},
		{State: "cut-off", Hall: "arbiterd-hall", LastHeard: pageTime.Add(-time.Minute), BoardsBehind: []string{}, LeafConnections: 0},
		{State: "waiting", BoardsBehind: []string{}, LeafConnections: -1},
	}
}

// pages renders the examples of both pages in p's language.
func pages(t *testing.T, p *i18n.Printer) (hall, venue string) {
	t.Helper()
	var b strings.Builder
	for i, st := range hallExamples() {
		if i > 0 {
			b.WriteString("\n----\n")
		}
		if err := writeHallPage(&b, p, st); err != nil {
			t.Fatal(err)
		}
	}
	hall = b.String()
	b.Reset()
	for i, l := range venueExamples() {
		if i > 0 {
			b.WriteString("\n----\n")
		}
		if err := writeVenuePage(&b, p, "north", l); err != nil {
			t.Fatal(err)
		}
	}
	return hall, b.String()
}

// The English pages are as they were before the pages had languages: the
// goldens were written from the templates then (the third /hall example
// from the alerts' sentences then, below).
func TestPagesEnglish(t *testing.T) {
	hall, venue := pages(t, i18n.English)
	golden.Check(t, "hall.en.golden", hall)
	golden.Check(t, "venue.en.golden", venue)
}

// The Spanish pages: every label, heading, title, button, state and kind,
// and the alerts' sentences; the venues' names, the boards, the times and
// what the file system said stay as they are.
func TestPagesSpanish(t *testing.T) {
	hall, venue := pages(t, i18n.Spanish)
	golden.Check(t, "hall.es.golden", hall)
	golden.Check(t, "venue.es.golden", venue)
	for _, en := range []string{">Venues<", "the boards", ">state<", "last heard", "events behind", ">Alerts<", ">none<", "Acknowledge",
		"venue-cut-off", "cut off", "is back", ">connected<", ">waiting<", ">unknown<", "the hall"} {
		if strings.Contains(hall, en) {
			t.Errorf("/hall in Spanish still says %q", en)
		}
	}
	for _, en := range []string{"Venue north", "the boards", ">link<", "last heard", "has not yet", "leaf connections", ">connected<",
		">cut-off<", ">waiting<", ">never<", ">unknown<", "(boards", "While the link"} {
		if strings.Contains(venue, en) {
			t.Errorf("/venue in Spanish still says %q", en)
		}
	}
}

// An alert's English text is the sentence the hall wrote before its
// alerts were sentences of the catalogs, byte for byte: the API, the
// logs, the bucket and the dashboard's board alerts show it.
func TestHallAlertSayingsEnglish(t *testing.T) {
	err := errors.New("open x: permission denied")
	for _, tt := range []struct {
		s    saying
		want string
	}{
		{say("hall.alert.bad-subject", "a.b"), fmt.Sprintf("a message on %q, which is no board's subject, was ignored", "a.b")},
		{say("hall.alert.unknown-venue", "a.b", "west"), fmt.Sprintf("a message on %s from venue %q, which the hall's configuration "+
			"does not list, was ignored", "a.b", "west")},
		{say("hall.alert.unknown-board", "south", "9", "1"), fmt.Sprintf("venue %s publishes board %s of round %s, which the hall's "+
			"configuration does not list for it; its messages are ignored", "south", "9", "1")},
		{say("hall.alert.journal", "4", "north", err.Error()), fmt.Sprintf("board %s of venue %s: %v", "4", "north", err)},
		{say("hall.alert.clash", "south", "4", "1", "north", "/d"), fmt.Sprintf("venue %s also publishes a board %s (round %s), which is venue %s's here: its events are kept in "+
			"%s but not shown; give each board of the event its own number", "south", "4", "1", "north", "/d")},
		{say("hall.alert.not-event", "north", "4", err.Error()), fmt.Sprintf("venue %s sent a message on board %s's subject that is not an event (%v); it was ignored",
			"north", "4", err)},
		{say("hall.alert.events-gap", "3", "5", "4", "north"), fmt.Sprintf("events %d to %d of board %s from venue %s are not in the hall's stream (lost at the venue?); "+
			"the hall goes on without them", 3, 5, "4", "north")},
		{say("hall.alert.no-offset", "4", "north"), fmt.Sprintf("a capture chunk of board %s from venue %s without its offset was ignored", "4", "north")},
		{say("hall.alert.capture-gap", "4", "north", "100", "200"), fmt.Sprintf("the capture of board %s from venue %s jumps from byte %d to %d, "+
			"and the hall's stream does not hold the bytes between (lost at the venue?): the hall's copy ends at "+
			"byte %[3]d", "4", "north", 100, 200)},
		{say("hall.alert.cut-off", "north", "14:00:00"), fmt.Sprintf("venue %s is cut off from the hall since %s: its boards may be behind", "north", "14:00:00")},
		{say("hall.alert.never-heard", "north", "14:00:00"), fmt.Sprintf("venue %s has not been heard since the hall started at %s: its boards may be behind", "north", "14:00:00")},
		{say("hall.alert.back", "north", (65 * time.Second).String()), fmt.Sprintf("venue %s is back (cut off for %s); the hall has caught up", "north", 65*time.Second)},
		{say("hall.alert.write-failed.events", "4", "north", err.Error()), fmt.Sprintf("%s: writing it: %v (the hall tries again every second)",
			fmt.Sprintf("board %s of venue %s: its events", "4", "north"), err)},
		{say("hall.alert.write-failed.capture", "4", "north", err.Error()), fmt.Sprintf("%s: writing it: %v (the hall tries again every second)",
			fmt.Sprintf("board %s of venue %s: its capture", "4", "north"), err)},
	} {
		if got := tt.s.String(); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.s.Code, got, tt.want)
		}
		if es := tt.s.in(i18n.Spanish); es == tt.want || strings.Contains(es, "%!") {
			t.Errorf("%s in Spanish: %s", tt.s.Code, es)
		}
	}
}

// get is the body of GET url with the request's language from lang (the
// Accept-Language header) and cookie (the dashboard's switch; "": none).
func getPage(t *testing.T, url, accept, cookie string) string {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	if accept != "" {
		req.Header.Set("Accept-Language", accept)
	}
	if cookie != "" {
		req.AddCookie(&http.Cookie{Name: i18n.LangCookie, Value: cookie})
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", url, resp.StatusCode, b)
	}
	return string(b)
}

// pageHall is a hall without NATS, with one venue and an alert of its own,
// serving its handler with the configuration's lang.
func pageHall(t *testing.T, lang string) *httptest.Server {
	t.Helper()
	h := &Hall{o: HallOptions{Venues: []VenueRef{{Name: "north"}}, Stale: 3 * time.Second, Now: func() time.Time { return pageTime }},
		venues: map[string]*venueState{"north": {ref: VenueRef{Name: "north"}, warned: map[string]bool{}}},
		stored: map[int]*storedAlert{}, owners: map[string]string{}, games: map[gameKey]*game{},
		hub: hub.New(hub.Options{}), log: slog.New(slog.DiscardHandler)}
	h.m = newHallMetrics(h)
	s := say("hall.alert.never-heard", "north", "14:00:00")
	h.stored[1] = &storedAlert{HallAlert: HallAlert{ID: 1, Time: pageTime, Venue: "north", Kind: KindVenueCut, Text: s.String()}, Say: &s}
	out := h.Outputs(&HallConfig{Lang: lang}, nil)
	srv := httptest.NewServer(h.Handler(out))
	t.Cleanup(func() { srv.Close(); out.Close() })
	return srv
}

// The pages choose their language per request as the dashboard does: the
// switch's cookie, then the configuration's lang:, then Accept-Language,
// then English.
func TestPagesChooseLanguage(t *testing.T) {
	venueSrv := func(lang language.Tag) *httptest.Server {
		v := &Venue{o: VenueOptions{Venue: "north", Lang: lang}}
		srv := httptest.NewServer(v.Handler())
		t.Cleanup(srv.Close)
		return srv
	}
	free, fixed := pageHall(t, ""), pageHall(t, "es")
	vfree, vfixed := venueSrv(language.Und), venueSrv(language.Spanish)
	for _, tt := range []struct {
		name           string
		hall, venue    string
		accept, cookie string
		spanish        bool
	}{
		{"no language asked", free.URL, vfree.URL, "", "", false},
		{"the browser's", free.URL, vfree.URL, "es-AR,es;q=0.9,en;q=0.5", "", true},
		{"the browser's, not spoken", free.URL, vfree.URL, "fr-FR,pt;q=0.8", "", false},
		{"the switch over the browser's", free.URL, vfree.URL, "es", "en", false},
		{"the switch alone", free.URL, vfree.URL, "", "es", true},
		{"lang: over the browser's", fixed.URL, vfixed.URL, "en-GB", "", true},
		{"the switch over lang:", fixed.URL, vfixed.URL, "es", "en", false},
		{"a bad cookie", fixed.URL, vfixed.URL, "en", "fr", true},
	} {
		hall := getPage(t, tt.hall+"/hall", tt.accept, tt.cookie)
		venue := getPage(t, tt.venue+"/venue", tt.accept, tt.cookie)
		for page, body := range map[string]string{"/hall": hall, "/venue": venue} {
			es := strings.Contains(body, "sala")
			if es != tt.spanish {
				t.Errorf("%s: %s in Spanish %v, want %v:\n%s", tt.name, page, es, tt.spanish, body)
			}
		}
		if tt.spanish && !strings.Contains(hall, "no se sabe nada de la sede north desde que la sala arrancó a las 14:00:00") {
			t.Errorf("%s: /hall does not say the alert in Spanish:\n%s", tt.name, hall)
		}
	}
}
