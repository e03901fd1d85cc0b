package hub

import (
	"context"
	"testing"
	"time"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/rules"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// A board's squares reach only the subscribers that asked for them, in
// order with its events; the same squares again are no change; a new game
// forgets them.
func TestSquares(t *testing.T) {
	h := New(Options{})
	h.AddBoard(Info{ID: "1"})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	plain := h.Subscribe(ctx, "", 16)
	withSquares := h.SubscribeSquares(ctx, "1", 16)

	start := rules.SnapshotOf(chess.StartingPosition())
	lifted := start
	lifted.Squares[chess.E2] = chess.NoPiece
	h.PublishSquares("1", time.Second, start)
	h.PublishSquares("1", 2*time.Second, start) // no change
	h.Publish("1", reconcile.Event{Type: reconcile.TypeSession, Seq: 1, State: reconcile.StateConnected})
	h.PublishSquares("1", 3*time.Second, lifted)
	h.PublishSquares("9", 3*time.Second, lifted) // no such board

	if u := <-plain; u.Event.Seq != 1 || u.Squares != nil {
		t.Fatalf("plain subscriber: %+v, want the session event", u)
	}
	select {
	case u := <-plain:
		t.Fatalf("plain subscriber got %+v", u)
	default:
	}
	want := []string{"squares 1s", "event 1", "squares 3s"}
	for _, w := range want {
		u := <-withSquares
		got := "event " + string(rune('0'+u.Event.Seq))
		if u.Squares != nil {
			got = "squares " + u.Squares.At.String()
		}
		if got != w {
			t.Fatalf("got %s, want %s", got, w)
		}
	}
	if sq, ok := h.Squares("1"); !ok || sq.At != 3*time.Second || sq.Snapshot != lifted {
		t.Errorf("Squares: %v %v", sq.At, ok)
	}
	h.Reset("1")
	if _, ok := h.Squares("1"); ok {
		t.Error("a new game kept the squares of the last")
	}
}

// A device's serial number is the board's when no other board has it.
func TestSerial(t *testing.T) {
	h := New(Options{})
	for _, id := range []string{"1", "2", "3"} {
		h.AddBoard(Info{ID: id})
	}
	serials := func() string {
		s := ""
		for _, b := range h.Boards() {
			s += b.ID + "=" + b.Serial + " "
		}
		return s
	}
	h.SetSerial("1", "20260")
	h.SetSerial("2", "31415")
	if got, want := serials(), "1=20260 2=31415 3= "; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	h.SetSerial("3", "20260") // emulated boards all report one number
	if got, want := serials(), "1= 2=31415 3= "; got != want {
		t.Errorf("two boards with one serial: %q, want %q", got, want)
	}
	h.SetSerial("2", "3") // another board's id
	if got, want := serials(), "1= 2= 3= "; got != want {
		t.Errorf("a serial that is another board's id: %q, want %q", got, want)
	}
	h.Reset("3")
	if b, _ := h.Board("1"); b.Serial != "" {
		t.Errorf("board 1: %q", b.Serial)
	}
}
