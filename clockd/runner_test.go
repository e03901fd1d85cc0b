package clockd

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// TestRunner fires flags on time in a fake-time bubble: after White's
// press Black's flag falls exactly when its time runs out, and a press
// before then moves the timer.
func TestRunner(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tc, _ := ParseTimeControl("60+1")
		origin := time.Now()
		var mu sync.Mutex
		var got []Event
		r := NewRunner(NewClock(tc), origin, func(e Event) {
			mu.Lock()
			got = append(got, e)
			mu.Unlock()
		})
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error)
		go func() { done <- r.Run(ctx) }()

		r.Do(func(c *Clock, at time.Duration) []Event { c.Start(at); return nil })
		time.Sleep(10 * time.Second)
		r.Do(func(c *Clock, at time.Duration) []Event { return c.Press(White, at, 1) })
		// Black has 61 s; press after 30 s, White then has 52 s.
		time.Sleep(30 * time.Second)
		r.Do(func(c *Clock, at time.Duration) []Event { return c.Press(Black, at, 1) })
		time.Sleep(51 * time.Second)
		synctest.Wait()
		mu.Lock()
		if len(got) != 0 {
			t.Fatalf("flag too early: %v", got)
		}
		mu.Unlock()
		time.Sleep(2 * time.Second)
		synctest.Wait()
		mu.Lock()
		want := []Event{{Kind: Flag, Side: White, At: 92 * time.Second, Period: 1}}
		if len(got) != 1 || got[0] != want[0] {
			t.Fatalf("flags %v, want %v", got, want)
		}
		mu.Unlock()
		// Stopped clocks do not flag.
		r.Do(func(c *Clock, at time.Duration) []Event { c.SetTime(White, 5*time.Second, at); c.Stop(at); return nil })
		time.Sleep(time.Hour)
		synctest.Wait()
		mu.Lock()
		if len(got) != 1 {
			t.Fatalf("a stopped clock flagged: %v", got)
		}
		mu.Unlock()
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Fatalf("Run returned %v", err)
		}
	})
}
