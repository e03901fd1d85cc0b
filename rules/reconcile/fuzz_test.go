package reconcile

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules"
)

// FuzzBoard feeds arbitrary snapshots and clock events: the Game never
// panics, sequence numbers stay consecutive, and every event marshals to JSON.
func FuzzBoard(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3}, uint8(0))
	f.Add([]byte("some bytes that become squares and pieces"), uint8(7))
	f.Fuzz(func(t *testing.T, data []byte, kind uint8) {
		g, err := New(Config{TimeControl: clockd.TimeControl{Periods: []clockd.Period{{Moves: 2, Time: time.Minute}, {Time: time.Minute}}}})
		if err != nil {
			t.Fatal(err)
		}
		start := rules.SnapshotOf(chess.StartingPosition())
		var evs []Event
		evs = append(evs, g.Board(0, start)...)
		s := start
		at := time.Duration(0)
		for i := 0; i+1 < len(data); i += 2 {
			at += time.Duration(data[i]) * 10 * time.Millisecond
			sq := int(data[i] % 64)
			switch v := data[i+1]; {
			case v < 13:
				s.Squares[sq] = chess.Piece(v)
			case v < 16:
				s.Unknown ^= 1 << uint(sq)
			case v < 20:
				s = start
			}
			evs = append(evs, g.Board(at, s)...)
			if data[i+1]%5 == 0 {
				k := clockd.EventKind(int(kind+data[i])%10 + 1)
				evs = append(evs, g.Clock(clockd.ClockEvent{Kind: k, At: at, Side: clockd.Side(data[i] % 2), Period: int(data[i] % 4)})...)
			}
		}
		evs = append(evs, g.Session(at, "end", "board")...)
		for i, e := range evs {
			if e.Seq != i+1 {
				t.Fatalf("event %d has seq %d", i, e.Seq)
			}
			if !json.Valid(Marshal(e)) {
				t.Fatalf("invalid JSON %s", Marshal(e))
			}
		}
		_ = g.State()
	})
}
