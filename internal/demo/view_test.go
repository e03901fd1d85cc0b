package demo

import (
	"github.com/arbiterd/arbiterd/internal/testkit/golden"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// viewEvents are events of every type the demo shows.
func viewEvents() []reconcile.Event {
	s := time.Second
	// The texts of the sentences (English prints detail and reason).
	tx := func(code string, args ...any) reconcile.Text { return reconcile.Text{Code: code, Args: args} }
	white, black := tx(reconcile.TextWhite), tx(reconcile.TextBlack)
	whites, blacks := tx(reconcile.TextWhitePossessive), tx(reconcile.TextBlackPossessive)
	return []reconcile.Event{
		{Type: reconcile.TypePosition, Orientation: "white-bottom"},
		{Type: reconcile.TypeComplete, Ply: 1, Side: clockd.White, SAN: "e4", By: reconcile.ByPress, Moves: reconcile.Moves{White: 1},
			Clock: clockd.Times{White: 5425 * s, Black: 5400 * s}},
		{Type: reconcile.TypeComplete, Ply: 2, Side: clockd.Black, SAN: "e5", By: reconcile.ByNextMove, Moves: reconcile.Moves{White: 1, Black: 1},
			Clock: clockd.Times{White: 5425 * s, Black: 5412 * s}},
		{Type: reconcile.TypeAnomaly, Kind: reconcile.KindPressWithoutMove, Side: clockd.Black, Article: "7.5.3", Detail: "Black pressed the clock but no move appeared.",
			Text: tx(reconcile.TextPressWithoutMove, black, tx(reconcile.TextWhen, tx(reconcile.TextWhenAfter, "1...e5"), "1:30:25", "1:30:12"), blacks,
				tx(reconcile.TextPenaltyFirst, blacks, tx(reconcile.TextMinutes, 2), whites, "7.5.5"))},
		{Type: reconcile.TypeSession, State: reconcile.StateDisconnected},
		{Type: reconcile.TypeSession, State: reconcile.StateConnected},
		{Type: reconcile.TypePeriod, Side: clockd.White, Period: 2, Added: 30 * time.Minute},
		{Type: reconcile.TypeFlag, Side: clockd.Black, Period: 1, MovesCompleted: 18, MovesRequired: 40, OpponentCanMate: reconcile.MateYes,
			MateLine: []string{"f6g7", "e7e8"}, Verdict: reconcile.VerdictLoss, Article: "6.9", Reason: "Black's flag fell after 18 completed moves.",
			Text: tx(reconcile.TextFlagVerdict, tx(reconcile.TextFlagWhere, blacks, tx(reconcile.TextPeriodNames[0]), 18),
				tx(reconcile.TextFlagRequires, tx(reconcile.TextPeriodNames[0]), 40), "", tx(reconcile.TextMateYes, white, black, ""))},
		{Type: reconcile.TypeFlag, Side: clockd.White, Period: 2, MovesCompleted: 60, ControlReached: true, OpponentCanMate: reconcile.MateNo,
			Verdict: reconcile.VerdictDraw, Article: "6.9", Reason: "White's flag fell; Black cannot mate."},
		{Type: reconcile.TypeEnd, Result: "1-0", Reason: "flag", Article: "6.9"},
	}
}

// TestViewGolden pins what the demo prints around the game and of each
// event, in English and in Spanish (the events' sentences from their
// texts, but the draw's, which has none, as a stream written before texts
// has it; English prints detail and reason).
func TestViewGolden(t *testing.T) {
	tc, err := clockd.ParseTimeControl(DefaultTimeControl)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		p    *i18n.Printer
		lang string
	}{{i18n.English, "en"}, {i18n.Spanish, "es"}} {
		var b strings.Builder
		v := newView(&b, tc)
		v.p = c.p
		for _, e := range viewEvents() {
			v.show(e)
		}
		golden.Check(t, "view."+c.lang+".golden", b.String())

		b.Reset()
		v.start(InProcessDevice, "/tmp/arbiterd-demo-1", LineInProcess, 50)
		v.start("/dev/pts/3", "/tmp/arbiterd-demo-2", LineAuto, 12.5)
		v.done(&Result{Dir: "/tmp/arbiterd-demo-2", Capture: "/tmp/arbiterd-demo-2/game.capture",
			Events: "/tmp/arbiterd-demo-2/events.jsonl", PGN: "/tmp/arbiterd-demo-2/game.pgn"})
		golden.Check(t, "frame."+c.lang+".golden", b.String())
	}
}
