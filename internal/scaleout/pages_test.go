package scaleout

import (
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/testkit/golden"
)

// pageTime is the time the pages' examples show.
var pageTime = time.Date(2026, 12, 5, 14, 3, 9, 0, time.UTC)

func intp(n int) *int { return &n }

// hallExamples are /hall's states: every venue state, events behind known
// and not, alerts acknowledged and not; then a hall without alerts.
func hallExamples() []Status {
	return []Status{{
		Venues: []VenueStatus{
			{Name: "north", State: "connected", LastSeen: pageTime, Behind: intp(3), Boards: []string{"1", "2"}},
			{Name: "south", State: "cut-off", LastSeen: pageTime.Add(-time.Minute), Boards: []string{"3"}},
			{Name: "east", State: "waiting", Boards: []string{}},
		},
		Alerts: []HallAlert{
			{ID: 1, Time: pageTime.Add(-2 * time.Minute), Venue: "south", Kind: KindVenueCut,
				Text: "venue south is cut off from the hall since 14:01:09: its boards may be behind", Acked: true},
			{ID: 2, Time: pageTime, Venue: "south", Kind: "hall-unknown-board",
				Text: "venue south publishes board 9 of round 1, which the hall's configuration does not list for it; its messages are ignored"},
		},
		Applied: 12,
	}, {
		Venues: []VenueStatus{{Name: "north", State: "connected", LastSeen: pageTime, Behind: intp(0), Boards: []string{"1"}}},
		Alerts: []HallAlert{},
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

// The English pages are as they were before the pages had languages.
func TestPagesEnglish(t *testing.T) {
	var b strings.Builder
	for i, st := range hallExamples() {
		if i > 0 {
			b.WriteString("\n----\n")
		}
		if err := hallPage.Execute(&b, st); err != nil {
			t.Fatal(err)
		}
	}
	golden.Check(t, "hall.en.golden", b.String())
	b.Reset()
	for i, l := range venueExamples() {
		if i > 0 {
			b.WriteString("\n----\n")
		}
		if err := venuePage.Execute(&b, struct {
			Venue string
			HallLink
		}{"north", l}); err != nil {
			t.Fatal(err)
		}
	}
	golden.Check(t, "venue.en.golden", b.String())
}
