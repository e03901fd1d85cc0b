package clockd

import (
	"testing"
	"time"
)

func TestSmoke(t *testing.T) {
	tc, err := ParseTimeControl("40/5400+30:1800+30")
	if err != nil || tc.String() != "40/5400+30:1800+30" {
		t.Fatalf("%v %v", tc, err)
	}
	c := NewClock(tc)
	c.Start(0)
	if got := c.Remaining(White, 10*time.Second); got != 5420*time.Second {
		t.Fatalf("got %v", got)
	}
}
