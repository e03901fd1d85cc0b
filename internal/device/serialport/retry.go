package serialport

import (
	"cmp"
	"context"
	"errors"
	"time"
)

// Backoff is the schedule for reopening a port that went away: the first
// retry waits Min, each next one Factor times longer, never more than Max.
type Backoff struct {
	Min, Max time.Duration
	Factor   float64
	// Steady is how long a line must stay up for the schedule to start
	// over (0: a minute): a device that opens and fails at once is
	// retried on the schedule, not every Min.
	Steady time.Duration
}

// DefaultBackoff retries quickly at first (a cable wiggle) and settles at
// once every five seconds (a board carried to another table).
func DefaultBackoff() Backoff {
	return Backoff{Min: 100 * time.Millisecond, Max: 5 * time.Second, Factor: 2, Steady: time.Minute}
}

// Delay returns the wait before retry number attempt (0-based).
func (b Backoff) Delay(attempt int) time.Duration {
	if b.Min <= 0 {
		b.Min = DefaultBackoff().Min
	}
	if b.Max < b.Min {
		b.Max = b.Min
	}
	if b.Factor < 1 {
		b.Factor = 1
	}
	d := float64(b.Min)
	for i := 0; i < attempt; i++ {
		d *= b.Factor
		if d >= float64(b.Max) {
			return b.Max
		}
	}
	return time.Duration(d)
}

// Attempt is the outcome of one try of Retry.
type Attempt struct {
	// Done stops Retry, which returns Err (nil: the try succeeded, or the
	// caller wants no more tries).
	Done bool
	// UpFor is how long the line was up in this try before it went down
	// again (0: it did not come up). Up for Backoff.Steady or longer, the
	// schedule starts over (the wait is Min again).
	UpFor time.Duration
	// Err is why the line is down (for onRetry), or with Done what Retry
	// returns.
	Err error
}

// Retry is arbiterd's one reopen-with-back-off: the daemon's board lines
// and a board's separate clock are kept open by it. It calls try until a
// try is Done or ctx ends; after each try that is not done it tells
// onRetry (if not nil) the number of tries since the schedule last started
// (from 1), the try's error and the wait, then waits b.Delay before the
// next try. It returns the Done try's Err, or, when ctx ends first, ctx's
// error joined with the last try's.
func (b Backoff) Retry(ctx context.Context, try func() Attempt, onRetry func(attempt int, err error, wait time.Duration)) error {
	var last error
	for attempt := 0; ; {
		if err := ctx.Err(); err != nil {
			return errors.Join(err, last)
		}
		a := try()
		if a.Done {
			return a.Err
		}
		last = a.Err
		if err := ctx.Err(); err != nil {
			return errors.Join(err, last)
		}
		if steady := b.Steady; a.UpFor > 0 && a.UpFor >= cmp.Or(steady, time.Minute) {
			attempt = 0
		}
		wait := b.Delay(attempt)
		attempt++
		if onRetry != nil {
			onRetry(attempt, a.Err, wait)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return errors.Join(ctx.Err(), last)
		case <-t.C:
		}
	}
}
