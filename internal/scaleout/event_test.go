package scaleout

import (
	"errors"
	"testing"

	"github.com/arbiterd/arbiterd/rules/reconcile"
)

func TestParseEventRejects(t *testing.T) {
	for _, line := range []string{
		``, `hello`, `{"type":"move"}`,
		`{"type":"press","board":"1","t":1.5,"seq":3,"side":"white","clock":{"white":1.0,"black":2.0}}`, // t not 6 decimals
		`{"type":"session","board":"1","t":0.000000,"seq":1,"port":"board","state":"start"}`,            // field order
		`{"type":"session","board":"1","t":0.000000,"seq":1,"state":"start","port":"board","x":1}`,      // extra field
		`{"type":"press","board":"1","t":1.000000,"seq":3,"side":"white","clock":{"white":1.0001,"black":2.0}}`,
	} {
		if _, err := ParseEvent([]byte(line)); !errors.Is(err, ErrNotEvent) {
			t.Errorf("ParseEvent(%q) = %v, want ErrNotEvent", line, err)
		}
	}
}

// The unverified-moves anomaly's plies and position (an extension the
// LiveChess feed follows a board by) survive the hall's parser.
func TestParseEventUnverified(t *testing.T) {
	for _, e := range []reconcile.Event{
		{Type: reconcile.TypeAnomaly, Board: "3", Seq: 40, Kind: reconcile.KindUnverified, NoSide: true, Article: "6.10", Detail: "back",
			Ply: 2, Made: 3, Plies: []string{"Nf3", "Nc6", "Bb5"}, FEN: "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"},
		{Type: reconcile.TypeAnomaly, Board: "3", Seq: 41, Kind: reconcile.KindUnverified, NoSide: true, Article: "6.10", Detail: "rebuilt",
			Ply: 5, Made: 9, FEN: "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 8"},
	} {
		line := reconcile.Marshal(e)
		got, err := ParseEvent(line)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if back := reconcile.Marshal(got); string(back) != string(line) {
			t.Errorf("read back:\n%s\nwritten:\n%s", back, line)
		}
	}
}
