package live

import (
	"context"
	"time"

	"github.com/arbiterd/arbiterd/driver/lineclock"
	"github.com/arbiterd/arbiterd/internal/device/serialport"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// clockUp is the session state a clock port is marked with when it opens:
// "start", a port opened. Not "connected": to rules/reconcile a port that is
// connected again means the board may have changed unseen, and it searches
// the position afresh (resync) — which a clock coming back must not cause.
const clockUp = reconcile.StateStart

// readClock reads the separate clock's line into the journal until ctx is
// done. The clock needs no session — it talks by itself — so its bytes are
// only recorded; the pipeline decodes them from the journal's records like
// the board's. The port is kept open by serialport's Retry on
// cfg.ClockBackoff's schedule; each time it opens the clock port is marked
// clockUp ("start"), and when it goes away (or cannot be opened at first)
// "disconnected", once per outage. A journal failure that stops the run
// (no OnJournalError) cancels the run.
func readClock(ctx context.Context, stopRun context.CancelFunc, cfg Config, j *journal) {
	name := cfg.ClockPort
	down := false
	buf := make([]byte, 2*lineclock.MaxLine)
	cfg.ClockBackoff.Retry(ctx, func() serialport.Attempt {
		sp, err := serialport.Open(ctx, cfg.ClockPath, serialport.Options{})
		var upFor time.Duration
		if err == nil {
			opened := time.Now()
			j.marker(cfg.Now(), name, clockUp)
			down = false
			for {
				n, rerr := sp.Read(buf)
				if n > 0 {
					if _, jerr := j.data(name, capture.Read, buf[:n]); jerr != nil {
						sp.Close()
						stopRun()
						return serialport.Attempt{Done: true}
					}
				}
				if rerr != nil {
					err = rerr
					break
				}
			}
			sp.Close()
			upFor = time.Since(opened)
		}
		if ctx.Err() != nil {
			return serialport.Attempt{Done: true} // Run is ending: the clock was not lost
		}
		if !down {
			j.marker(cfg.Now(), name, reconcile.StateDisconnected)
			down = true
		}
		// A port that stayed open a while starts the schedule again.
		return serialport.Attempt{UpFor: upFor, Err: err}
	}, nil)
}
