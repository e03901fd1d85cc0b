package reconcile

import (
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules"
)

// The board stage alone, as a table: a record of uncompleted plies, a board
// in step with it showing a position, and what boardView.read hands back
// for the Game to apply and holds on the view. No Game is built.
func TestBoardRead(t *testing.T) {
	for _, c := range []struct {
		name        string
		record      []string // plies on the record, made and not completed
		board       []string // plies to the position the board shows
		want        changeKind
		from, moves int  // the change's first ply and its plies
		held        int  // plies the view holds
		unexplained bool // the board shows what nothing explains
	}{
		{name: "the board shows the record", record: []string{"e4"}, board: []string{"e4"}, want: changeNone},
		{name: "one ply added", record: []string{"e4"}, board: []string{"e4", "e5"}, want: changeReplace, from: 1, moves: 1},
		{name: "the last ply replaced", record: []string{"e4", "e5"}, board: []string{"e4", "d5"}, want: changeReplace, from: 1, moves: 1},
		{name: "the last ply taken back", record: []string{"e4", "e5"}, board: []string{"e4"}, want: changeTakeBack, from: 1},
		// held plies are no position of the record yet: the board is
		// unexplained until they settle
		{name: "two plies at once are held", record: []string{"e4"}, board: []string{"e4", "e5", "Nf3"}, want: changeNone, held: 2, unexplained: true},
		{name: "nothing explains the board", record: []string{"e4"}, board: []string{"d4", "d5", "c4", "c5"}, want: changeNone, unexplained: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			led, v := recorded(t, c.record)
			shown, err := rules.NewGame("")
			if err != nil {
				t.Fatal(err)
			}
			for _, san := range c.board {
				if err := shown.MoveSAN(san); err != nil {
					t.Fatalf("board %s: %v", san, err)
				}
			}
			v.see(led.rec, rules.SnapshotOf(shown.Position()))
			// no press waits and the board was never away: the press
			// queue's answers and the absence's, as the Game hands them
			var a awayFacts
			in := boardInput{led: led.record, cfg: Config{ScanLag: DefaultScanLag, MaxPlies: DefaultMaxPlies}, inputs: 10, at: 10 * time.Second,
				away: a, plies: pressFacts{}.ofRecord(led.record, a, v.snap)}
			got := v.read(in)
			if got.kind != c.want || (c.want != changeNone && (got.from != c.from || len(got.moves) != c.moves)) {
				t.Errorf("read = kind %d from %d with %d plies, want kind %d from %d with %d plies", got.kind, got.from, len(got.moves), c.want, c.from, c.moves)
			}
			if len(v.held.plies) != c.held {
				t.Errorf("held %d plies, want %d", len(v.held.plies), c.held)
			}
			if v.unexplained.on() != c.unexplained {
				t.Errorf("unexplained: %v, want %v", v.unexplained.on(), c.unexplained)
			}
			if len(led.plies) != len(c.record) {
				t.Errorf("the stage changed the record: %d plies, want %d", len(led.plies), len(c.record))
			}
		})
	}
}

// The press stage alone: a record, a press waiting, and what
// pressQueue.judge hands back. No Game is built.
func TestPressJudge(t *testing.T) {
	for _, c := range []struct {
		name   string
		record []string // plies on the record, made and not completed, one a second
		side   clockd.Side
		at     float64 // when the press was made
		want   pressDecision
		ply    int // the ply it completes (-1: none)
	}{
		{name: "the presser's move", record: []string{"e4"}, side: clockd.White, at: 1.3, want: pressCompletesPly, ply: 0},
		{name: "the presser's latest move of two", record: []string{"e4", "e5", "Nf3"}, side: clockd.White, at: 3.3, want: pressCompletesPly, ply: 2},
		{name: "no move of the presser's", record: []string{"e4"}, side: clockd.Black, at: 1.3, want: pressNoMove, ply: -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			led, v := recorded(t, c.record)
			v.see(led.rec, rules.SnapshotOf(led.rec.Position()))
			pr := pendingPress{ev: clockd.ClockEvent{Kind: clockd.Press, Side: c.side, At: sec(c.at)}, in: len(c.record) + 1}
			q := pressQueue{back: whiteBackExpected}
			// the board was never away, the game goes on
			in := pressInput{board: v.boardFacts, led: led.record, cfg: Config{ScanLag: DefaultScanLag, UnexplainedAfter: DefaultUnexplainedAfter},
				at: sec(c.at + 2)}
			got := q.judge(in, pr)
			if got.decision != c.want || got.ply != c.ply {
				t.Errorf("judge = %s, ply %d; want %s, ply %d", got.decision, got.ply, c.want, c.ply)
			}
			if q.back != noBackExpected {
				t.Errorf("the press back is still expected after a press was judged")
			}
			for i, p := range led.plies {
				if p.completed() {
					t.Errorf("the stage completed ply %d: the Game applies what it decides", i)
				}
			}
		})
	}
}

// recorded is a record of the given moves, each completed a second after
// the one before, and a view of the starting position.
func recorded(t *testing.T, sans []string) (ledger, boardView) {
	t.Helper()
	var em emitter
	var out []Event
	var led ledger
	rec, err := rules.NewGame("")
	if err != nil {
		t.Fatal(err)
	}
	led.reset(rec, Moves{})
	var v boardView
	v.reset(rec.Position())
	for i, san := range sans {
		next := led.rec.Clone()
		if err := next.MoveSAN(san); err != nil {
			t.Fatalf("record %s: %v", san, err)
		}
		led.apply(&em, i+1, &out, time.Duration(i+1)*time.Second, next.Moves()[len(next.Moves())-1:])
	}
	return led, v
}
