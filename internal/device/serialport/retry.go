package serialport

import (
	"context"
	"errors"
	"time"
)

// Backoff is the schedule for reopening a port that went away: the first
// retry waits Min, each next one Factor times longer, never more than Max.
type Backoff struct {
	Min, Max time.Duration
	Factor   float64
}

// DefaultBackoff retries quickly at first (a cable wiggle) and settles at
// once every five seconds (a board carried to another table).
func DefaultBackoff() Backoff {
	return Backoff{Min: 100 * time.Millisecond, Max: 5 * time.Second, Factor: 2}
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

// Retryable reports whether opening again later may succeed: the port is
// missing (unplugged), busy, or disconnected. Permission problems and
// devices that are not serial ports are not retried: a person must act.
func Retryable(err error) bool {
	return errors.Is(err, ErrNotFound) || errors.Is(err, ErrBusy) || errors.Is(err, ErrDisconnected)
}

// OpenRetry opens path, retrying retryable failures on the back-off
// schedule until it succeeds, a failure is not retryable, or ctx ends.
// onRetry, if not nil, is told of each failed attempt and the wait before
// the next one (for a "board disconnected" event).
func OpenRetry(ctx context.Context, path string, opts Options, b Backoff, onRetry func(attempt int, err error, wait time.Duration)) (*Port, error) {
	for attempt := 0; ; attempt++ {
		p, err := Open(ctx, path, opts)
		if err == nil {
			return p, nil
		}
		if !Retryable(err) {
			return nil, err
		}
		wait := b.Delay(attempt)
		if onRetry != nil {
			onRetry(attempt, err, wait)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, &Error{Port: path, Op: "open", Err: ErrClosed, Cause: errors.Join(ctx.Err(), err)}
		case <-t.C:
		}
	}
}
