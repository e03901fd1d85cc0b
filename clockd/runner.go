package clockd

import (
	"context"
	"sync"
	"time"
)

// Runner drives a Clock in real time for clocks that report only presses
// (so no flag bit will ever arrive): it owns the one timer that fires when
// the running side's flag falls. The Clock stays a pure model; Runner maps
// wall time to `at` as the time elapsed since origin.
//
// Use Do for every operation on the clock (it runs under the runner's
// lock and re-arms the timer), and Run in one goroutine until ctx ends.
type Runner struct {
	mu     sync.Mutex
	clock  *Clock
	origin time.Time
	flags  func(Event)
	wake   chan struct{}
}

// NewRunner returns a runner for c whose `at` is the time since origin.
// flags is called, from Run's goroutine, with each Flag event when it
// falls.
func NewRunner(c *Clock, origin time.Time, flags func(Event)) *Runner {
	return &Runner{clock: c, origin: origin, flags: flags, wake: make(chan struct{}, 1)}
}

// At returns the current offset since origin.
func (r *Runner) At() time.Duration { return time.Since(r.origin) }

// Do runs f on the clock with the current `at`, under the runner's lock,
// returns what f returns and re-arms the flag timer.
func (r *Runner) Do(f func(c *Clock, at time.Duration) []Event) []Event {
	r.mu.Lock()
	evs := f(r.clock, r.At())
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default:
	}
	return evs
}

// Run fires flag events until ctx is done, then returns ctx.Err().
func (r *Runner) Run(ctx context.Context) error {
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		r.mu.Lock()
		when, _, ok := r.clock.NextFlag()
		r.mu.Unlock()
		var fire <-chan time.Time
		if ok {
			timer.Reset(max(0, when-r.At()))
			fire = timer.C
		} else {
			timer.Stop()
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-r.wake:
		case <-fire:
			r.mu.Lock()
			evs := r.clock.Flags(r.At())
			r.mu.Unlock()
			for _, e := range evs {
				r.flags(e)
			}
		}
	}
}
