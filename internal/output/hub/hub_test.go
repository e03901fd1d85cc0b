package hub

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

func sec(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

func TestStateFollowsEvents(t *testing.T) {
	wall := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	h := New(Options{Now: func() time.Time { return wall }})
	h.AddBoard(Info{ID: "12", White: "A", Black: "B", TimeControl: "40/5400+30:1800+30"})
	evs := []reconcile.Event{
		{Type: reconcile.TypeSession, Seq: 1, State: "connected"},
		{Type: reconcile.TypeMove, Seq: 2, Ply: 1, Side: clockd.White, SAN: "e4", UCI: "e2e4", FEN: "fen1"},
		{Type: reconcile.TypePress, Seq: 3, Side: clockd.White, At: sec(10), Clock: clockd.Times{White: sec(5420), Black: sec(5430)}},
		{Type: reconcile.TypeComplete, Seq: 4, Ply: 1, Side: clockd.White, SAN: "e4", At: sec(11), Moves: reconcile.Moves{White: 1}, Clock: clockd.Times{White: sec(5420), Black: sec(5430)}},
		{Type: reconcile.TypeAnomaly, Seq: 5, Kind: reconcile.KindPressWithoutMove, Side: clockd.Black, Article: "7.5.3", Detail: "no move"},
		{Type: reconcile.TypeFlag, Seq: 6, Side: clockd.Black, Verdict: reconcile.VerdictLoss, Article: "6.9", Reason: "Black's flag fell", MovesRequired: 40, Clock: clockd.Times{White: sec(5420)}},
		{Type: reconcile.TypeEnd, Seq: 7, Result: "1-0", Reason: "flag", Article: "6.9"},
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch := h.Subscribe(ctx, "12", 16)
	for _, e := range evs {
		h.Publish("12", e)
	}
	b, err := h.Board("12")
	if err != nil {
		t.Fatal(err)
	}
	if b.Moves.White != 1 || b.Required.White != 40 || b.SAN[0] != "e4" || b.Clock.White != 5420 || b.Running != "" ||
		b.Result != "1-0" || b.Verdict != "loss" || len(b.Alerts) != 2 || b.Alerts[1].Level != Red || b.Alerts[0].Level != Amber {
		t.Fatalf("state %+v", b)
	}
	if !b.ClockAt.Equal(wall) || b.Connection != "connected" {
		t.Errorf("clock at %v, connection %s", b.ClockAt, b.Connection)
	}
	if err := h.Ack("12", b.Alerts[1].ID); err != nil {
		t.Fatal(err)
	}
	if b, _ := h.Board("12"); !b.Alerts[1].Acked {
		t.Error("alert not acknowledged")
	}
	if err := h.Ack("12", 99); err == nil {
		t.Error("acknowledging an unknown alert succeeded")
	}
	got, _ := h.Events("12", 4)
	if len(got) != 3 || got[0].Seq != 5 {
		t.Errorf("events since 4: %d", len(got))
	}
	for i := range evs {
		u := <-ch
		if u.Event.Seq != evs[i].Seq {
			t.Fatalf("update %d has seq %d", i, u.Event.Seq)
		}
	}
	js, _ := json.Marshal(b)
	if !strings.Contains(string(js), `"flag":{"type":"flag"`) || !strings.Contains(string(js), `"moves":{"white":1,"black":0}`) {
		t.Errorf("JSON %s", js)
	}
	if _, err := h.Board("nope"); err == nil {
		t.Error("unknown board found")
	}
}

func TestSlowSubscriberDropped(t *testing.T) {
	h := New(Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch := h.Subscribe(ctx, "", 2)
	for i := 1; i <= 5; i++ {
		h.Publish("1", reconcile.Event{Type: reconcile.TypeSession, Seq: i, State: "connected"})
	}
	n := 0
	for range ch {
		n++
	}
	if n != 2 || h.Dropped() != 1 {
		t.Errorf("received %d, dropped %d; want 2 then the channel closed", n, h.Dropped())
	}
}

func TestBoardsOrderedNumerically(t *testing.T) {
	h := New(Options{})
	for _, id := range []string{"10", "2", "1", "b"} {
		h.AddBoard(Info{ID: id})
	}
	var ids []string
	for _, b := range h.Boards() {
		ids = append(ids, b.ID)
	}
	if strings.Join(ids, ",") != "1,2,10,b" {
		t.Errorf("order %v", ids)
	}
}

func TestRaiseAlertWithoutEvent(t *testing.T) {
	h := New(Options{})
	if err := h.Raise("1", Amber, "journal-write-failed", "", "disk full"); err == nil {
		t.Error("raising on an unknown board succeeded")
	}
	h.Publish("1", reconcile.Event{Type: reconcile.TypeSession, Seq: 1, State: "connected"})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch := h.Subscribe(ctx, "1", 4)
	if err := h.Raise("1", Amber, "journal-write-failed", "", "disk full"); err != nil {
		t.Fatal(err)
	}
	u := <-ch
	if len(u.State.Alerts) != 1 || u.State.Alerts[0].Kind != "journal-write-failed" || u.Event.Type != "" {
		t.Errorf("update %+v", u)
	}
	if evs, _ := h.Events("1", 0); len(evs) != 1 {
		t.Errorf("the alert went into the event stream: %d events", len(evs))
	}
	// Acknowledging it reaches the subscribers through the same fan-out.
	other := h.Subscribe(ctx, "2", 4)
	if err := h.Ack("1", u.State.Alerts[0].ID); err != nil {
		t.Fatal(err)
	}
	u = <-ch
	if len(u.State.Alerts) != 1 || !u.State.Alerts[0].Acked || u.Event.Type != "" {
		t.Errorf("update after the ack %+v", u)
	}
	select {
	case u := <-other:
		t.Errorf("board 1's ack reached a board-2 subscriber: %+v", u)
	default:
	}
}

// A separate clock that stops answering leaves the board connected; only
// the clock's state (and whether a clock runs) changes.
func TestClockPortStateIsSeparate(t *testing.T) {
	h := New(Options{})
	// The clock is the port the board's description names, whatever its
	// name: not a name starting with "clock".
	h.AddBoard(Info{ID: "3", ClockPort: "timer"})
	pub := func(seq int, state, port string) Board {
		t.Helper()
		h.Publish("3", reconcile.Event{Type: reconcile.TypeSession, Seq: seq, State: reconcile.State(state), Port: port})
		b, err := h.Board("3")
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if b := pub(1, "connected", "board"); b.Connection != "connected" || b.ClockConnection != "" {
		t.Fatalf("after the board connected: %q / %q", b.Connection, b.ClockConnection)
	}
	if b := pub(2, "start", "timer"); b.Connection != "connected" || b.ClockConnection != "connected" {
		t.Fatalf("after the clock started: %q / %q", b.Connection, b.ClockConnection)
	}
	h.Publish("3", reconcile.Event{Type: reconcile.TypePress, Seq: 3, Side: clockd.White, At: sec(4)})
	if b, _ := h.Board("3"); b.Running != "black" {
		t.Fatalf("running %q after White's press", b.Running)
	}
	b := pub(4, "disconnected", "timer")
	if b.Connection != "connected" || b.ClockConnection != "disconnected" || b.Running != "" {
		t.Fatalf("after the clock went away: board %q, clock %q, running %q", b.Connection, b.ClockConnection, b.Running)
	}
	if js, _ := json.Marshal(b); !strings.Contains(string(js), `"clock_connection":"disconnected"`) {
		t.Errorf("JSON %s", js)
	}
	if b := pub(5, "connected", "timer"); b.ClockConnection != "connected" || b.Connection != "connected" {
		t.Fatalf("after the clock came back: %q / %q", b.Connection, b.ClockConnection)
	}
	if b := pub(6, "disconnected", "board"); b.Connection != "disconnected" || b.ClockConnection != "connected" {
		t.Fatalf("after the board went away: %q / %q", b.Connection, b.ClockConnection)
	}
	if b := pub(7, "connected", "clock"); b.Connection != "connected" {
		t.Fatalf("a port named clock the description does not name is the board's: %q / %q", b.Connection, b.ClockConnection)
	}
	// A new game on the board keeps its description.
	h.Reset("3")
	if b := pub(1, "disconnected", "timer"); b.ClockConnection != "disconnected" || b.Connection == "disconnected" {
		t.Fatalf("after a reset: %q / %q", b.Connection, b.ClockConnection)
	}
}

// Plies that arbiterd could not verify (made while the board was not
// read) keep their places in the SAN list, so that a later take-back
// still cuts at the right ply.
func TestUnverifiedPliesKeepTheirPlaces(t *testing.T) {
	h := New(Options{})
	h.AddBoard(Info{ID: "4"})
	complete := func(seq, ply int, san string) {
		side := clockd.White
		if ply%2 == 0 {
			side = clockd.Black
		}
		h.Publish("4", reconcile.Event{Type: reconcile.TypeComplete, Seq: seq, Ply: ply, Side: side, SAN: san})
	}
	complete(1, 1, "e4")
	complete(2, 2, "e5")
	h.Publish("4", reconcile.Event{Type: reconcile.TypeAnomaly, Seq: 3, Kind: reconcile.KindUnverified, NoSide: true, Article: "6.10"})
	complete(4, 6, "Nf6") // plies 3 to 5 were made while the board was away
	b, _ := h.Board("4")
	if got := strings.Join(b.SAN, " "); got != "e4 e5 ? ? ? Nf6" {
		t.Fatalf("SAN %q", got)
	}
	h.Publish("4", reconcile.Event{Type: reconcile.TypeRetract, Seq: 5, Ply: 6, Reason: reconcile.ReasonTakeback})
	b, _ = h.Board("4")
	if got := strings.Join(b.SAN, " "); got != "e4 e5 ? ? ?" || b.Ply != 5 {
		t.Fatalf("after taking back ply 6: SAN %q, ply %d", got, b.Ply)
	}
}

// A forgotten press: ply 4 is made but not pressed, the reply (ply 5)
// cannot be pressed, ply 6 is pressed. Ply 6 is completed before ply 5;
// the SAN list keeps the board's order, with ply 5 as made.
func TestSANInBoardOrderWhenPressesAreNot(t *testing.T) {
	h := New(Options{})
	h.AddBoard(Info{ID: "5"})
	game := strings.Fields("e4 e5 Nf3 Nc6 Bb5 a6 Ba4")
	seq := 0
	side := func(ply int) clockd.Side { return clockd.Side(1 - ply%2) }
	pub := func(tp reconcile.Type, ply int) {
		seq++
		h.Publish("5", reconcile.Event{Type: tp, Seq: seq, Ply: ply, Side: side(ply), SAN: game[ply-1]})
	}
	san := func() string {
		b, _ := h.Board("5")
		return strings.Join(b.SAN, " ")
	}
	for ply := 1; ply <= 3; ply++ {
		pub(reconcile.TypeMove, ply)
		pub(reconcile.TypeComplete, ply)
	}
	pub(reconcile.TypeMove, 4)
	pub(reconcile.TypeMove, 5)
	pub(reconcile.TypeMove, 6)
	pub(reconcile.TypeComplete, 4) // by next-move
	pub(reconcile.TypeComplete, 6) // by press
	if got := san(); got != "e4 e5 Nf3 Nc6 Bb5 a6" {
		t.Fatalf("after ply 6 was completed: SAN %q", got)
	}
	pub(reconcile.TypeMove, 7)
	pub(reconcile.TypeComplete, 5) // by next-move
	pub(reconcile.TypeComplete, 7)
	if got := san(); got != strings.Join(game, " ") {
		t.Fatalf("after ply 7 was completed: SAN %q", got)
	}
	// a take-back of plies 7 and 6 leaves ply 5
	seq++
	h.Publish("5", reconcile.Event{Type: reconcile.TypeRetract, Seq: seq, Ply: 7, Reason: reconcile.ReasonTakeback})
	seq++
	h.Publish("5", reconcile.Event{Type: reconcile.TypeRetract, Seq: seq, Ply: 6, Reason: reconcile.ReasonTakeback})
	if got := san(); got != "e4 e5 Nf3 Nc6 Bb5" {
		t.Fatalf("after the take-back: SAN %q", got)
	}
}

// TestRetractPutsTheBoardBack: a made move taken back or replaced (a
// slide) lowers the ply and puts the board back where the ply before left
// it, so the board is always the position after ply moves.
func TestRetractPutsTheBoardBack(t *testing.T) {
	const (
		start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
		e4    = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
		e5    = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
		e6    = "rnbqkbnr/pppp1ppp/4p3/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
	)
	h := New(Options{})
	seq := 0
	pub := func(e reconcile.Event) Board {
		seq++
		e.Seq = seq
		h.Publish("1", e)
		b, err := h.Board("1")
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	pub(reconcile.Event{Type: reconcile.TypePosition, FEN: start, Orientation: "white-bottom"})
	pub(reconcile.Event{Type: reconcile.TypeMove, Ply: 1, Side: clockd.White, SAN: "e4", UCI: "e2e4", FEN: e4})
	pub(reconcile.Event{Type: reconcile.TypeMove, Ply: 2, Side: clockd.Black, SAN: "e6", UCI: "e7e6", FEN: e6})
	// the black pawn slides on to e5: e6 is retracted, e5 made
	b := pub(reconcile.Event{Type: reconcile.TypeRetract, Ply: 2, Reason: reconcile.ReasonSlide, SAN: "e6", UCI: "e7e6"})
	if b.Ply != 1 || b.FEN != e4 || b.LastMove != "e2e4" {
		t.Fatalf("after the retract of ply 2: ply %d, fen %q, last move %q; want 1, %q, e2e4", b.Ply, b.FEN, b.LastMove, e4)
	}
	b = pub(reconcile.Event{Type: reconcile.TypeMove, Ply: 2, Side: clockd.Black, SAN: "e5", UCI: "e7e5", FEN: e5})
	if b.Ply != 2 || b.FEN != e5 {
		t.Fatalf("after e5: ply %d, fen %q", b.Ply, b.FEN)
	}
	pub(reconcile.Event{Type: reconcile.TypeRetract, Ply: 2, Reason: reconcile.ReasonTakeback, SAN: "e5", UCI: "e7e5"})
	b = pub(reconcile.Event{Type: reconcile.TypeRetract, Ply: 1, Reason: reconcile.ReasonTakeback, SAN: "e4", UCI: "e2e4"})
	if b.Ply != 0 || b.FEN != start || b.LastMove != "" {
		t.Fatalf("both plies taken back: ply %d, fen %q, last move %q", b.Ply, b.FEN, b.LastMove)
	}
}

// An adjust event that gives the time an alert asked for closes that alert
// (and no other), and is itself kept as an acknowledged note.
func TestAdjustClosesTheAlertItSettles(t *testing.T) {
	h := New(Options{})
	h.AddBoard(Info{ID: "3"})
	h.Publish("3", reconcile.Event{Type: reconcile.TypeAnomaly, Seq: 5, Kind: reconcile.KindPressWithoutMove, Side: clockd.Black, Article: "7.5.3", Detail: "add 2 minutes to White's clock"})
	h.Publish("3", reconcile.Event{Type: reconcile.TypeAnomaly, Seq: 6, Kind: reconcile.KindClockReading, NoSide: true, Article: "6.10", Detail: "other"})
	h.Publish("3", reconcile.Event{Type: reconcile.TypePause, Seq: 7, State: "stopped", By: "arbiter"})
	h.Publish("3", reconcile.Event{Type: reconcile.TypeAdjust, Seq: 8, Side: clockd.White, Delta: 2 * time.Minute,
		Clock: clockd.Times{White: sec(5520), Black: sec(5300)}, Article: "7.5.5", Reason: "+2:00", Closes: []int{5}})
	b, err := h.Board("3")
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Alerts) != 3 {
		t.Fatalf("alerts %+v, want 3", b.Alerts)
	}
	if a := b.Alerts[0]; a.ClosedBy != 8 || !a.Acked {
		t.Errorf("the press-without-move alert %+v is not closed by seq 8", a)
	}
	if a := b.Alerts[1]; a.ClosedBy != 0 || a.Acked {
		t.Errorf("an unrelated alert %+v was closed", a)
	}
	if a := b.Alerts[2]; a.Level != Note || a.Kind != "adjust" || !a.Acked {
		t.Errorf("the adjust note %+v", a)
	}
	if b.Clock.White != 5520 || b.Running != "" {
		t.Errorf("clock %+v running %q after the adjust", b.Clock, b.Running)
	}
}

// A claim is an alert until the arbiter decides; a rejection stays open
// as its own alert (two minutes to add), an acceptance is a note.
func TestClaimAlertClosedByTheDecision(t *testing.T) {
	h := New(Options{})
	h.AddBoard(Info{ID: "7"})
	h.Publish("7", reconcile.Event{Type: reconcile.TypeClaim, Seq: 4, Side: clockd.White, Article: "10.2", Reason: "White claims"})
	h.Publish("7", reconcile.Event{Type: reconcile.TypeDecision, Seq: 5, Side: clockd.White, Claim: 4, Decision: reconcile.DecisionRejected, Article: "10.2", Reason: "rejected"})
	b, _ := h.Board("7")
	if len(b.Alerts) != 2 || b.Alerts[0].Kind != "claim" || b.Alerts[0].ClosedBy != 5 || b.Alerts[1].Level != Amber || b.Alerts[1].Acked {
		t.Errorf("alerts %+v", b.Alerts)
	}
}
