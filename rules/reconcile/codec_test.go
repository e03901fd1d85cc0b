package reconcile

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
)

// Every event type has a layout, and no layout names a field twice.
func TestEventLayouts(t *testing.T) {
	types := []Type{TypeSession, TypePosition, TypeMove, TypeRetract, TypePress, TypeComplete,
		TypeAnomaly, TypePeriod, TypeFlag, TypeEnd, TypeAdjust, TypePause, TypeClaim, TypeDecision}
	for _, ty := range types {
		if len(layouts[ty]) == 0 {
			t.Errorf("type %s has no layout", ty)
		}
		seen := map[string]bool{"type": true, "board": true, "t": true, "seq": true}
		for _, f := range layouts[ty] {
			if seen[f.name] {
				t.Errorf("type %s: field %s twice", ty, f.name)
			}
			seen[f.name] = true
			if f.write == nil || f.read == nil {
				t.Errorf("type %s: field %s cannot be both written and read", ty, f.name)
			}
		}
	}
	if len(layouts) != len(types) {
		t.Errorf("%d layouts for %d types", len(layouts), len(types))
	}
}

func TestMarshalExact(t *testing.T) {
	req := 40
	_ = req
	cases := []struct {
		e    Event
		want string
	}{
		{Event{Type: TypeComplete, Board: "12", At: 5321402113 * time.Microsecond, Seq: 811, Ply: 75, Side: W, By: ByPress, Moves: Moves{38, 37}, Clock: clockd.Times{White: 2 * time.Second, Black: 611 * time.Second}, SAN: "Qe2"},
			`{"type":"complete","board":"12","t":5321.402113,"seq":811,"ply":75,"side":"white","by":"press","moves":{"white":38,"black":37},"clock":{"white":2.0,"black":611.0},"san":"Qe2"}`},
		{Event{Type: TypeFlag, Board: "12", At: 5388010020 * time.Microsecond, Seq: 815, Side: B, Clock: clockd.Times{White: 2 * time.Second}, Period: 1, MovesCompleted: 37, MovesRequired: 40, OpponentCanMate: "yes", MateLine: []string{"d1h5", "e8e7"}, Verdict: VerdictLoss, Article: "6.9", Reason: `Black "lost".`},
			`{"type":"flag","board":"12","t":5388.010020,"seq":815,"side":"black","clock":{"white":2.0,"black":0.0},"period":1,"moves_completed":37,"moves_required":40,"control_reached":false,"opponent_can_mate":"yes","mate_line":["d1h5","e8e7"],"verdict":"loss","article":"6.9","reason":"Black \"lost\"."}`},
		{Event{Type: TypeFlag, Board: "1", At: 0, Seq: 1, Side: W, Period: 2, MovesCompleted: 61, OpponentCanMate: "no", Verdict: VerdictDraw, Article: "6.9", Reason: "r"},
			`{"type":"flag","board":"1","t":0.000000,"seq":1,"side":"white","clock":{"white":0.0,"black":0.0},"period":2,"moves_completed":61,"moves_required":null,"control_reached":false,"opponent_can_mate":"no","verdict":"draw","article":"6.9","reason":"r"}`},
		{Event{Type: TypeAnomaly, Board: "1", At: 1500 * time.Millisecond, Seq: 3, Kind: KindClockStopped, NoSide: true, Article: "6.11", Detail: "line\nbreak\x01é"},
			`{"type":"anomaly","board":"1","t":1.500000,"seq":3,"kind":"clock-stopped","side":null,"article":"6.11","detail":"line\nbreak\u0001é"}`},
		{Event{Type: TypePeriod, Board: "1", At: time.Microsecond, Seq: 4, Side: B, Period: 2, Added: 1800 * time.Second},
			`{"type":"period","board":"1","t":0.000001,"seq":4,"side":"black","period":2,"added":1800.0}`},
		{Event{Type: TypePress, Board: "1", At: time.Second, Seq: 5, Side: W, Clock: clockd.Times{White: 5391250 * time.Millisecond, Black: 5400005 * time.Millisecond}, Inferred: true},
			`{"type":"press","board":"1","t":1.000000,"seq":5,"side":"white","clock":{"white":5391.25,"black":5400.005},"inferred":true}`},
		{Event{Type: TypeSession, Board: "b", Seq: 6, State: "start", Port: "board"},
			`{"type":"session","board":"b","t":0.000000,"seq":6,"state":"start","port":"board"}`},
		{Event{Type: TypeEnd, Board: "1", Seq: 7, Result: "1/2-1/2", Reason: "stalemate", Article: "5.2.1"},
			`{"type":"end","board":"1","t":0.000000,"seq":7,"result":"1/2-1/2","reason":"stalemate","article":"5.2.1"}`},
		{Event{Type: TypeRetract, Board: "1", Seq: 8, Ply: 3, Reason: ReasonSlide, SAN: "Bd3", UCI: "f1d3"},
			`{"type":"retract","board":"1","t":0.000000,"seq":8,"ply":3,"reason":"slide","san":"Bd3","uci":"f1d3"}`},
		{Event{Type: TypePosition, Board: "1", Seq: 9, FEN: "8/8/8/8/8/8/8/K6k w - - 0 1", Orientation: "black-bottom"},
			`{"type":"position","board":"1","t":0.000000,"seq":9,"fen":"8/8/8/8/8/8/8/K6k w - - 0 1","orientation":"black-bottom"}`},
	}
	for _, c := range cases {
		got := string(Marshal(c.e))
		if got != c.want {
			t.Errorf("Marshal:\n got %s\nwant %s", got, c.want)
		}
		if !json.Valid([]byte(got)) {
			t.Errorf("not JSON: %s", got)
		}
		b, err := json.Marshal(c.e)
		if err != nil || string(b) != c.want {
			t.Errorf("json.Marshal = %s, %v", b, err)
		}
	}
}

// Unmarshal reads back every event Marshal writes, to an equal event, for
// every type and each of the optional fields.
func TestUnmarshalReadsBack(t *testing.T) {
	W, B := clockd.White, clockd.Black
	clock := clockd.Times{White: 5541 * time.Second, Black: 5671250 * time.Millisecond}
	for _, e := range []Event{
		{Type: TypeSession, Board: "1", Seq: 1, State: StateStart, Port: "board"},
		{Type: TypePosition, Board: "1", At: 1953428 * time.Microsecond, Seq: 2, FEN: "8/8/8/8/8/8/8/K6k w - - 0 1", Orientation: "white-bottom"},
		{Type: TypeMove, Board: "1", Seq: 3, Ply: 1, Side: W, SAN: "e4", UCI: "e2e4", FEN: "f"},
		{Type: TypeRetract, Board: "1", Seq: 4, Ply: 2, Reason: ReasonSlide, SAN: "e6", UCI: "e7e6"},
		{Type: TypePress, Board: "1", Seq: 5, Side: B, Clock: clock, Inferred: true},
		{Type: TypePress, Board: "1", Seq: 5, Side: W, Clock: clock},
		{Type: TypeComplete, Board: "1", Seq: 6, Ply: 1, Side: W, By: ByNextMove, Moves: Moves{1, 0}, Clock: clock, SAN: "e4"},
		{Type: TypeAnomaly, Board: "1", Seq: 7, Kind: KindIllegalMove, Side: B, Article: "7.5.1", Detail: "d"},
		{Type: TypeAnomaly, Board: "1", Seq: 8, Kind: KindClockStopped, NoSide: true, Article: "6.11", Detail: "d"},
		{Type: TypeAnomaly, Board: "3", Seq: 40, Kind: KindUnverified, NoSide: true, Article: "6.10", Detail: "back",
			Ply: 2, Made: 3, Plies: []string{"Nf3", "Nc6", "Bb5"}, FEN: "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"},
		{Type: TypeAnomaly, Board: "3", Seq: 41, Kind: KindUnverified, NoSide: true, Article: "6.10", Detail: "rebuilt",
			Ply: 5, Made: 9, FEN: "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 8"},
		{Type: TypePeriod, Board: "1", Seq: 9, Side: B, Period: 2, Added: 1800 * time.Second},
		{Type: TypeFlag, Board: "1", Seq: 10, Side: B, Clock: clock, Period: 1, MovesCompleted: 18, MovesRequired: 40,
			OpponentCanMate: MateYes, MateLine: []string{"g1b6", "a2a3"}, Verdict: VerdictLoss, Article: "6.9", Reason: "r"},
		{Type: TypeFlag, Board: "1", Seq: 11, Side: W, Clock: clock, Period: 2, MovesCompleted: 61, ControlReached: false,
			OpponentCanMate: MateNo, Verdict: VerdictDraw, Article: "6.9", Reason: "r"},
		{Type: TypeEnd, Board: "1", Seq: 12, Result: "1-0", Reason: "flag", Article: "6.9"},
		{Type: TypeAdjust, Board: "1", Seq: 13, Side: W, From: 5571 * time.Second, To: 5541 * time.Second, Delta: -30 * time.Second,
			Clock: clock, Article: "7.5.5", Reason: "r", SideUnsure: true, Closes: []int{3, 8}},
		{Type: TypeAdjust, Board: "1", Seq: 14, Side: B, From: 5551 * time.Second, To: 5671 * time.Second, Delta: 120 * time.Second,
			Clock: clock, Article: "6.10", Reason: "r"},
		{Type: TypePause, Board: "1", Seq: 15, State: StateStopped, By: ByArbiter, Clock: clock, Article: "6.11", Reason: "r"},
		{Type: TypeClaim, Board: "1", Seq: 16, Side: B, FEN: "f", Clock: clock, Quiet: 3, Recent: []string{"18...Bxg1"},
			OpponentCanMate: MateYes, MateLine: []string{"g1b6"}, Article: "10.2", Reason: "r", Arbiter: "A. Arbiter"},
		{Type: TypeClaim, Board: "1", Seq: 17, Side: B, FEN: "f", Clock: clock, Recent: []string{},
			OpponentCanMate: MateUnknown, Article: "10.2", Reason: "r"},
		{Type: TypeDecision, Board: "1", Seq: 18, Side: B, Claim: 16, Decision: "accepted", Article: "10.2", Reason: "r", Arbiter: "A. Arbiter"},
	} {
		line := Marshal(e)
		got, err := Unmarshal(line)
		if err != nil {
			t.Errorf("%s: %v", line, err)
			continue
		}
		if !reflect.DeepEqual(got, e) {
			t.Errorf("%s read back as\n%+v, want\n%+v", line, got, e)
		}
	}
}

// Unmarshal takes only what Marshal writes: a field out of its place, one
// too many, a time not written to the microsecond or a clock to the
// millisecond is no event of the stream.
func TestUnmarshalRejects(t *testing.T) {
	for _, line := range []string{
		``, `hello`, `{"type":"move"}`,
		`{"type":"press","board":"1","t":1.5,"seq":3,"side":"white","clock":{"white":1.0,"black":2.0}}`,
		`{"type":"session","board":"1","t":0.000000,"seq":1,"port":"board","state":"start"}`,
		`{"type":"session","board":"1","t":0.000000,"seq":1,"state":"start","port":"board","x":1}`,
		`{"type":"press","board":"1","t":1.000000,"seq":3,"side":"white","clock":{"white":1.0001,"black":2.0}}`,
		`{"type":"press","board":"1","t":1.000000,"seq":3,"side":"white","clock":{"white":"1.0","black":2.0}}`,
	} {
		if _, err := Unmarshal([]byte(line)); !errors.Is(err, ErrNotEvent) {
			t.Errorf("Unmarshal(%q) = %v, want ErrNotEvent", line, err)
		}
	}
	if e, err := UnmarshalCommon([]byte(`{"type":"newer","board":"1","t":1.000000,"seq":3,"what":1}`)); err != nil || e.Type != "newer" || e.Seq != 3 {
		t.Errorf("UnmarshalCommon = %+v, %v", e, err)
	}
}

func BenchmarkMarshalComplete(b *testing.B) {
	e := Event{Type: TypeComplete, Board: "12", At: 5321402113 * time.Microsecond, Seq: 811, Ply: 75, Side: W, By: ByPress, Moves: Moves{38, 37}, Clock: clockd.Times{White: 2 * time.Second, Black: 611 * time.Second}, SAN: "Qe2"}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = Marshal(e)
	}
}
