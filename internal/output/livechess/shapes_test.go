package livechess

import (
	"strings"
	"testing"

	"github.com/arbiterd/arbiterd/internal/output/hub"
)

// A client replays san from the start: plies arbiterd could not verify
// end the list there, and match is false from then on.
func TestEventSANStopsAtUnverifiedPlies(t *testing.T) {
	b := hub.Board{ID: "7", FEN: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Ply: 2, SAN: []string{"e4", "e5"}}
	if ev := EventOf(b); strings.Join(ev.SAN, " ") != "e4 e5" || !ev.Match {
		t.Fatalf("all verified: san %v, match %v", ev.SAN, ev.Match)
	}
	b.Ply, b.SAN = 6, []string{"e4", "e5", hub.UnverifiedSAN, hub.UnverifiedSAN, hub.UnverifiedSAN, "Nf6"}
	if ev := EventOf(b); strings.Join(ev.SAN, " ") != "e4 e5" || ev.Match {
		t.Fatalf("after unverified plies: san %v, match %v", ev.SAN, ev.Match)
	}
	b.Ply, b.SAN = 1, []string{hub.UnverifiedSAN}
	if ev := EventOf(b); ev.SAN == nil || len(ev.SAN) != 0 || ev.Match {
		t.Fatalf("only an unverified ply: san %#v, match %v", ev.SAN, ev.Match)
	}
}
