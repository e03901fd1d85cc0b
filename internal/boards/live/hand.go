package live

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// ErrNotRunning is returned by a Hand whose board is not being read (its
// line is down, or the game is over).
var ErrNotRunning = errors.New("the board's line is not up")

// Hand takes the arbiter's acts for one board (a player's draw claim, the
// decision on it) while Run reads the board: each is written to the
// capture as an arbiter marker and fed to the pipeline in its place among
// the devices' records, so that replay gives the same events. It is safe
// for concurrent use.
type Hand struct {
	mu sync.Mutex
	j  *journal
}

func (h *Hand) bind(j *journal) {
	h.mu.Lock()
	h.j = j
	h.mu.Unlock()
}

// Claim records side's claim of a draw (10.2), by arbiter ("" when not
// known).
func (h *Hand) Claim(side clockd.Side, arbiter string) error {
	if side != clockd.White && side != clockd.Black {
		return fmt.Errorf("live: a claim by side %d", side)
	}
	return h.act(func(at time.Duration) capture.Record { return capture.Claim(at, side.String(), arbiter) })
}

// Decide records the arbiter's decision on the claim whose claim event has
// seq claim.
func (h *Hand) Decide(claim int, decision, arbiter string) error {
	switch decision {
	case reconcile.DecisionAccepted, reconcile.DecisionRejected, reconcile.DecisionPostponed:
	default:
		return fmt.Errorf("live: decision %q is not %s, %s or %s", decision, reconcile.DecisionAccepted, reconcile.DecisionRejected, reconcile.DecisionPostponed)
	}
	if claim < 1 {
		return fmt.Errorf("live: claim %d is not an event's seq", claim)
	}
	return h.act(func(at time.Duration) capture.Record { return capture.Decide(at, claim, decision, arbiter) })
}

// Ack records arbiter's acknowledgement of the alert of kind kind that
// the event of seq seq raised. It goes to the capture only: an
// acknowledgement is no event of the game.
func (h *Hand) Ack(seq int, kind, arbiter string) error {
	return h.act(func(at time.Duration) capture.Record { return capture.Ack(at, seq, kind, arbiter) })
}

func (h *Hand) act(marker func(time.Duration) capture.Record) error {
	h.mu.Lock()
	j := h.j
	h.mu.Unlock()
	if j == nil {
		return ErrNotRunning
	}
	return j.arbiter(marker)
}

// arbiter records the arbiter marker made by marker at the current time.
func (j *journal) arbiter(marker func(time.Duration) capture.Record) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	at := max(j.now().Truncate(time.Microsecond), j.cw.Last(), j.last)
	rec := marker(at)
	if err := j.cw.Marker(rec); err != nil {
		j.fail(err)
		if j.onErr == nil {
			return fmt.Errorf("live: recording the arbiter's act: %w", err)
		}
	}
	j.last = at
	j.push(rec)
	return nil
}
