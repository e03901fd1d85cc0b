package daemon

import (
	"errors"
	"fmt"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/boards/live"
	"github.com/arbiterd/arbiterd/internal/output/web"
)

// Claim records side's draw claim (10.2) on board id: it goes into the
// board's capture and through its reconciliation like a byte of the
// board (web.Arbiter).
func (d *Daemon) Claim(id string, side clockd.Side) error {
	b, err := d.boardByID(id)
	if err != nil {
		return err
	}
	return handErr(b.hand.Claim(side))
}

// Decide records the arbiter's decision on the claim whose claim event has
// seq claim (web.Arbiter).
func (d *Daemon) Decide(id string, claim int, decision string) error {
	b, err := d.boardByID(id)
	if err != nil {
		return err
	}
	return handErr(b.hand.Decide(claim, decision))
}

func (d *Daemon) boardByID(id string) (*board, error) {
	for _, b := range d.boards {
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

var _ web.Arbiter = (*Daemon)(nil)
