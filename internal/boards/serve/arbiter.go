package serve

import (
	"errors"
	"fmt"
	"slices"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/boards/live"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/internal/output/web"
)

// Claim records side's draw claim (10.2) on board id, by arbiter ("" when
// not known): it goes into the board's capture and through its
// reconciliation like a byte of the board (web.Arbiter).
func (d *Daemon) Claim(id string, side clockd.Side, arbiter string) error {
	b, err := d.boardByID(id)
	if err != nil {
		return err
	}
	return handErr(b.hand.Claim(side, arbiter))
}

// Decide records arbiter's decision on the claim whose claim event has
// seq claim (web.Arbiter).
func (d *Daemon) Decide(id string, claim int, decision, arbiter string) error {
	b, err := d.boardByID(id)
	if err != nil {
		return err
	}
	return handErr(b.hand.Decide(claim, decision, arbiter))
}

// Ack acknowledges the alert of board id whose hub id is alert, and
// records who did so in the board's capture (an ack marker naming the
// event that raised the alert, its kind and the arbiter; web.Acker). An
// alert acknowledged already is not recorded again. The acknowledgement
// is recorded whether the board's line is up or not, and after the game
// ended too: a marker after the game's last data changes none of its
// events.
func (d *Daemon) Ack(id string, alert int, arbiter string) error {
	b, err := d.boardByID(id)
	if err != nil {
		return fmt.Errorf("%w %q", hub.ErrNoBoard, id)
	}
	hb, err := d.hub.Board(id)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(hb.Alerts, func(a hub.Alert) bool { return a.ID == alert })
	if i < 0 {
		return fmt.Errorf("board %s has no alert %d", id, alert)
	}
	a := hb.Alerts[i]
	if err := d.hub.Ack(id, alert); err != nil {
		return err
	}
	if !a.Acked {
		b.recordAck(a.Seq, a.Kind, arbiter)
	}
	return nil
}

// recordAck writes an ack marker into the board's capture: through the
// live journal while the line is up, straight into the open capture while
// it is down, and appended to the closed capture of a finished game. A
// capture that cannot take it is the journal's failure (an alert).
func (b *board) recordAck(seq int, kind, arbiter string) {
	b.ackMu.Lock()
	defer b.ackMu.Unlock()
	err := b.hand.Ack(seq, kind, arbiter)
	if errors.Is(err, live.ErrNotRunning) {
		err = b.ackOffLine(seq, kind, arbiter)
	}
	if err != nil {
		b.journalFailed(fmt.Errorf("recording an acknowledgement: %w", err))
		return
	}
	b.log.Info("alert acknowledged", "alert_seq", seq, "kind", kind, "arbiter", arbiter)
}

// ackOffLine writes an ack marker while no live journal runs.
func (b *board) ackOffLine(seq int, kind, arbiter string) error {
	b.cwMu.Lock()
	defer b.cwMu.Unlock()
	cw := b.cw
	if cw == nil {
		var err error
		if cw, err = b.d.o.OpenCapture(capturePath(b.dir, b.id), true); err != nil {
			return err
		}
		defer cw.Close()
	}
	if err := cw.Marker(capture.Ack(max(b.now(), cw.Last()), seq, kind, arbiter)); err != nil {
		return err
	}
	return cw.Sync()
}

func (d *Daemon) boardByID(id string) (*board, error) {
	d.mu.Lock()
	boards := d.boards
	d.mu.Unlock()
	for _, b := range boards {
		if b.id == id {
			return b, nil
		}
	}
	return nil, fmt.Errorf("no board %q", id)
}

// handErr says a board that cannot take an act now in the web's terms.
func handErr(err error) error {
	if errors.Is(err, live.ErrNotRunning) {
		return fmt.Errorf("%w: %v (a game over, or a line down: wait for the board to be back)", web.ErrBoardIdle, err)
	}
	return err
}

var (
	_ web.Arbiter = (*Daemon)(nil)
	_ web.Acker   = (*Daemon)(nil)
)
