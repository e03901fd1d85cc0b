package serve

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/driver/dgt"
	"github.com/arbiterd/arbiterd/driver/drivertest"
	"github.com/arbiterd/arbiterd/internal/config"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/internal/output/livechess"
	"github.com/arbiterd/arbiterd/internal/testkit/feedtest"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// handSerial is the serial number the hand's board reports.
const handSerial = "70812"

// handBoard is a DGT board without a clock on a pty, moved by a hand:
// it answers the host's requests (its board, its serial number, its
// version) and reports each touch of the hand as a field update, in real
// time, once play starts.
type handBoard struct {
	path   string // the pty's slave
	master *os.File
	mu     sync.Mutex // one write at a time
	fields [64]byte
	play   chan struct{} // closed: the hand begins
	done   chan error    // the hand is done (nil) or the board failed
}

func startHandBoard(t *testing.T, touches []feedtest.Touch) *handBoard {
	t.Helper()
	master, slave, err := emulator.OpenPTY()
	if err != nil {
		t.Fatal(err)
	}
	b := &handBoard{path: slave, master: master, fields: drivertest.DGTStartPosition(), play: make(chan struct{}),
		done: make(chan error, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	t.Cleanup(func() {
		cancel()
		master.Close()
		wg.Wait()
	})
	wg.Go(func() { b.answer() })
	wg.Go(func() { b.done <- b.touch(ctx, touches) })
	return b
}

func (b *handBoard) write(p []byte) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	_, err := b.master.Write(p)
	return err
}

// answer answers the host's requests until the pty is closed. Until the
// host has opened the port, reads fail (EIO): the board waits for it.
func (b *handBoard) answer() {
	buf := make([]byte, 64)
	for {
		n, err := b.master.Read(buf)
		if err != nil && !errors.Is(err, os.ErrClosed) {
			time.Sleep(20 * time.Millisecond)
			continue
		}
		for _, c := range buf[:n] {
			var reply []byte
			switch c {
			case dgt.CmdSendBoard:
				b.mu.Lock()
				f := b.fields
				b.mu.Unlock()
				reply = drivertest.DGTBoardDump(f)
			case dgt.CmdSerialNr:
				reply = drivertest.DGTSerial(handSerial)
			case dgt.CmdVersion:
				reply = drivertest.DGTFrame(dgt.MsgVersion, 1, 2)
			}
			if reply != nil && b.write(reply) != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// touch makes the hand's touches, from when play is closed.
func (b *handBoard) touch(ctx context.Context, touches []feedtest.Touch) error {
	select {
	case <-b.play:
	case <-ctx.Done():
		return ctx.Err()
	}
	next := time.Now()
	for _, x := range touches {
		next = next.Add(x.After)
		select {
		case <-time.After(time.Until(next)):
		case <-ctx.Done():
			return ctx.Err()
		}
		b.mu.Lock()
		b.fields[x.Field] = x.Piece
		b.mu.Unlock()
		if err := b.write(drivertest.DGTFieldUpdate(x.Field, x.Piece)); err != nil {
			return err
		}
	}
	return nil
}

// startHandRun plays feedtest.HesitatingHand on a board of a daemon of its
// own, at real time (the hand's timing is the board's: a piece left 0.8 s
// on a square must not look like one left a second), with a Go and, when
// node is there, a Node client that join at the start. The board is
// subscribed to by the serial number it reports. The returned function
// waits for the clients and checks that each would have sent exactly the
// game's moves: none of the hand's provisional ones (Nh6, Be3, Kf8).
func startHandRun(t *testing.T, node *nodeEnv) (check func()) {
	t.Helper()
	hand, moves := feedtest.HesitatingHand()
	b := startHandBoard(t, hand.Touches())
	dir := t.TempDir()
	port := filepath.Join(dir, "usb-DGT_hand")
	link(t, port, b.path)
	c := testConfig(t.TempDir(), port)
	lcAddr := freeAddr(t)
	c.LiveChess = &config.LiveChess{Listen: lcAddr}
	w := newWatcher()
	runDaemonAt(t, c, w, 1)
	url := "ws://" + lcAddr + livechess.Prefix

	// the board is listed under its serial number once it was read
	deadline := time.Now().Add(30 * time.Second)
	for {
		st := eboardStatesOK(lcAddr)
		if st[handSerial] == livechess.Active {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the hand's board is not listed ACTIVE under its serial number %s: %v", handSerial, st)
		}
		time.Sleep(50 * time.Millisecond)
	}
	g := lcGame{moves: moves}
	type run struct {
		name string
		done <-chan lcResult
	}
	var runs []run
	j, d := goClient(t, url, handSerial, g)
	var joins []<-chan struct{}
	joins = append(joins, j)
	runs = append(runs, run{name: "go", done: d})
	if node != nil {
		j, d := nodeClient(t, node, url, handSerial, g)
		joins = append(joins, j)
		runs = append(runs, run{name: "node", done: d})
	}
	for i, j := range joins {
		select {
		case <-j:
		case <-time.After(60 * time.Second):
			t.Fatalf("%s client on the hand's board did not join", runs[i].name)
		}
	}
	close(b.play)
	return func() {
		t.Helper()
		select {
		case err := <-b.done:
			if err != nil && !errors.Is(err, context.Canceled) {
				t.Errorf("the hand's board: %v", err)
			}
		case <-time.After(180 * time.Second):
			t.Error("the hand did not finish")
		}
		for _, r := range runs {
			var res lcResult
			select {
			case res = <-r.done:
			case <-time.After(60 * time.Second):
				t.Errorf("%s client on the hand's board did not finish", r.name)
				continue
			}
			feed := res.Feed
			res.Feed = nil
			if !res.OK || len(res.Errors) > 0 || len(res.Rejected) > 0 || res.Joined != 0 || !slices.Equal(res.Sent, moves) {
				t.Errorf("%s client on the hand's board: %+v; want it to send %v", r.name, res, moves)
				for _, m := range feed {
					t.Logf("  feed %s", m)
				}
				for _, e := range w.stream("1") {
					if e.Type == reconcile.TypeMove || e.Type == reconcile.TypeRetract {
						t.Logf("  %9.3f %-9s ply=%d %s %s", e.At.Seconds(), e.Type, e.Ply, e.SAN, e.Reason)
					}
				}
			}
			if res.SerialNr != handSerial {
				t.Errorf("%s client on the hand's board: serialnr %q, want %s", r.name, res.SerialNr, handSerial)
			}
		}
		// the hand's provisional squares were taken for moves: the case
		// is the one meant
		var made []string
		for _, e := range w.stream("1") {
			if e.Type == reconcile.TypeMove {
				made = append(made, e.SAN)
			}
		}
		for _, p := range []string{"Nh6", "Be3", "Kf8"} {
			if !slices.Contains(made, p) {
				t.Errorf("the reconciler never took %s for a move (moves %v): the hand did not hesitate as meant", p, made)
			}
		}
	}
}
