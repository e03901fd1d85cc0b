package scaleout

import (
	"log/slog"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/internal/output/web"
)

// The hall's alerts on a board reach the dashboard with their sentence,
// which it says in each stream's language; in English they are the
// alert's text, as before.
func TestBoardAlertsInSpanish(t *testing.T) {
	h := &Hall{o: HallOptions{Now: func() time.Time { return pageTime }},
		stored: map[int]*storedAlert{}, owners: map[string]string{"4": "north"}, games: map[gameKey]*game{},
		raised: map[string]map[int]*storedAlert{}, pending: map[string][]byte{}, kick: make(chan struct{}, 1),
		hub: hub.New(hub.Options{}), log: slog.New(slog.DiscardHandler)}
	h.m = newHallMetrics(h)
	h.hub.AddBoard(hub.Info{ID: "4", Round: "1"})
	gap := say("hall.alert.events-gap", "3", "5", "4", "north")
	h.boardAlert(gameKey{"north", "1", "4"}, KindGap, gap)
	b, err := h.hub.Board("4")
	if err != nil || len(b.Alerts) != 1 {
		t.Fatalf("board 4: %v, %+v", err, b.Alerts)
	}
	en := "events 3 to 5 of board 4 from venue north are not in the hall's stream (lost at the venue?); the hall goes on without them"
	if got := web.WordsIn(i18n.English, b, nil)[0].Say; got != en || b.Alerts[0].Text != en {
		t.Errorf("English %q (text %q), want %q", got, b.Alerts[0].Text, en)
	}
	es := "Los eventos 3 a 5 del tablero 4 de la sede north no están en el flujo de la sala (¿se perdieron en la sede?); la sala continúa sin ellos"
	if got := web.WordsIn(i18n.Spanish, b, nil)[0].Say; got != es {
		t.Errorf("Spanish\n%s\nwant\n%s", got, es)
	}
	// An alert kept by an earlier hall (no sentence) shows its text.
	old := &storedAlert{HallAlert: HallAlert{ID: 9, Venue: "north", Kind: KindGap, Text: "as it was"}, Round: "1", Board: "4"}
	h.showAlert(old)
	b, _ = h.hub.Board("4")
	if got := web.WordsIn(i18n.Spanish, b, nil); len(got) != 2 || got[1].Say != "as it was" {
		t.Errorf("an earlier hall's alert in Spanish: %+v", got)
	}
}
