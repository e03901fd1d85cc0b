package emulator

import (
	"context"
	"sync"
	"time"
)

// A host that plays an emulated game to its end has two things to wait
// for. The players stopping the clock after the last move (the "stop"
// note) ends the game for the emulation; the host still needs the board's
// next answers (to its keep-alive polls) to settle the last press. So it
// learns of the stop through StopSignal and ends its session a settling
// time later through AfterStop.

// StopSignal wraps observe (nil: none) for Config.Observe: the function it
// returns passes every note on to observe, and closes the channel it
// returns at the first "stop" note.
func StopSignal(observe func(Note)) (func(Note), <-chan struct{}) {
	stopped := make(chan struct{})
	var once sync.Once
	return func(n Note) {
		if n.Kind == "stop" {
			once.Do(func() { close(stopped) })
		}
		if observe != nil {
			observe(n)
		}
	}, stopped
}

// AfterStop calls fn settle (real time) after stopped is closed, unless ctx
// is done first. It returns at once; fn runs on a goroutine of its own.
func AfterStop(ctx context.Context, stopped <-chan struct{}, settle time.Duration, fn func()) {
	go func() {
		select {
		case <-stopped:
		case <-ctx.Done():
			return
		}
		select {
		case <-time.After(settle):
			fn()
		case <-ctx.Done():
		}
	}()
}
