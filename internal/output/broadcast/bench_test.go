package broadcast

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/internal/testkit/feedtest"
)

// opera is Morphy's Opera game: 33 plies ending in mate.
var opera = strings.Fields("e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7 Nc3 c6 Bg5 b5 Nxb5 cxb5 " +
	"Bxb5+ Nbd7 O-O-O Rd8 Rxd7 Rxd7 Rd1 Qe6 Bxd7+ Nxd7 Qb8+ Nxb8 Rd8#")

// updates returns the hub updates of the Opera game on board 1.
func updates(b *testing.B) []hub.Update {
	evs := feedtest.Events(b, opera, tc, map[string]string{"board": "1"})
	h := hub.New(hub.Options{})
	h.AddBoard(hub.Info{ID: "1", Round: "1", White: "Morphy, P", Black: "Duke Karl / Count Isouard", TimeControl: tc})
	sub := h.Subscribe(context.Background(), "1", len(evs)+1)
	var out []hub.Update
	for _, e := range evs {
		h.Publish("1", e)
		out = append(out, <-sub)
	}
	return out
}

// BenchmarkGameUpdates feeds a whole game's hub updates to a fresh
// tracker, rendering the PGN at every completed move (ns/op is per game).
func BenchmarkGameUpdates(b *testing.B) {
	us := updates(b)
	h := hub.New(hub.Options{})
	h.AddBoard(hub.Info{ID: "1", Round: "1", White: "Morphy, P", Black: "Duke Karl / Count Isouard", TimeControl: tc})
	b.ResetTimer()
	for range b.N {
		gs := NewGames(h, Meta{Event: "Paris"})
		gs.Load("1")
		for _, u := range us {
			gs.Apply(u)
		}
	}
	b.ReportMetric(float64(len(us)), "events/op")
}

// BenchmarkRewriteBoard is one board's rewrite in a 40-board round: its
// game file, the round's games.pgn and index.json and tournament.json, each
// written to a temporary file, synced and renamed.
func BenchmarkRewriteBoard(b *testing.B) {
	us := updates(b)
	h := hub.New(hub.Options{})
	for i := range 40 {
		h.AddBoard(hub.Info{ID: fmt.Sprint(i + 1), Round: "1", TimeControl: tc})
	}
	for _, u := range us {
		h.Publish("1", u.Event)
	}
	f := New(b.TempDir(), h, Options{})
	f.prime()
	f.flush(true)
	b.ResetTimer()
	for range b.N {
		clear(f.sums) // as if every file had changed
		f.mark("1")
		f.flush(true)
	}
}
