package live

import (
	"context"
	"time"

	"github.com/arbiterd/arbiterd/driver/lineclock"
	"github.com/arbiterd/arbiterd/internal/device/serialport"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
)

// clockUp is the session state a clock port is marked with when it opens:
// "start", a port opened. Not "connected": to rules/reconcile a port that is
// connected again means the board may have changed unseen, and it searches
// the position afresh (resync) — which a clock coming back must not cause.
const clockUp = "start"

// readClock reads the separate clock's line into the journal until ctx is
// done. The clock needs no session — it talks by itself — so its bytes are
// only recorded; the pipeline decodes them from the journal's records like
// the board's. Opening it is retried on cfg.ClockBackoff's schedule; each
// time it comes up the clock port is marked "connected", and when it goes
// away (or cannot be opened at first) "disconnected", once per outage. A
// journal failure that stops the run (no OnJournalError) cancels the run.
func readClock(ctx context.Context, stopRun context.CancelFunc, cfg Config, j *journal) {
	name := cfg.ClockPort
	down := false
	attempt := 0
	buf := make([]byte, 2*lineclock.MaxLine)
	for ctx.Err() == nil {
		sp, err := serialport.Open(ctx, cfg.ClockPath, serialport.Options{})
		if err == nil {
			j.marker(cfg.Now(), name, clockUp)
			down, attempt = false, 0
			for {
				n, rerr := sp.Read(buf)
				if n > 0 {
					if _, jerr := j.data(name, capture.Read, buf[:n]); jerr != nil {
						sp.Close()
						stopRun()
						return
					}
				}
				if rerr != nil {
					break
				}
			}
			sp.Close()
		}
		if ctx.Err() != nil {
			return // Run is ending: the clock was not lost
		}
		if !down {
			j.marker(cfg.Now(), name, "disconnected")
			down = true
		}
		wait := cfg.ClockBackoff.Delay(attempt)
		attempt++
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
	}
}
