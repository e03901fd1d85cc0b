package clockd

import (
	"testing"
	"time"
)

func BenchmarkParseTimeControl(b *testing.B) {
	for _, s := range []string{"40/5400+30:1800+30", "90'/40 + 30' + 30\""} {
		b.Run(s, func(b *testing.B) {
			for b.Loop() {
				if _, err := ParseTimeControl(s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkClockPress(b *testing.B) {
	tc, _ := ParseTimeControl("40/5400+30:1800+30")
	c := NewClock(tc)
	c.Start(0)
	at := time.Duration(0)
	n := 0
	for b.Loop() {
		at += time.Second
		n++
		side, _ := c.Running()
		c.Press(side, at, n/2)
		if n%400 == 0 {
			c = NewClock(tc)
			c.Start(at)
		}
	}
}

// BenchmarkInterpreterFeed: readings per second through the interpreter
// for a simulated 100-move game with merged presses.
func BenchmarkInterpreterFeed(b *testing.B) {
	think := func(r *lcg) time.Duration { return 2*time.Second + time.Duration(r.intn(38000))*time.Millisecond }
	g := simulate(b, "40/5400+30:1800+30", Right, true, 100, think, 13, 0)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		in := NewInterpreter(g.hw.tc, WhiteAuto)
		for _, r := range g.reads {
			in.Feed(r)
		}
	}
	b.ReportMetric(float64(len(g.reads))*float64(b.N)/b.Elapsed().Seconds(), "readings/s")
}
