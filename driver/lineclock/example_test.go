package lineclock_test

import (
	"fmt"
	"strings"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/driver/lineclock"
)

func ExampleReader() {
	stream := "HELLO lineclock 1 LC-2 00A17*42\n" +
		"STATUS 17 5391000 5400000 L R - I -*4A\n" +
		"PRESS 18 L 5421000 5400000*00\n" + // corrupted checksum: skipped
		"STATUS 19 5421000 5399500 R R I I -*30\n"
	rd := lineclock.NewReader(strings.NewReader(stream))
	var tr lineclock.Tracker
	tc, _ := clockd.ParseTimeControl("40/5400+30:1800+30")
	in := clockd.NewInterpreter(tc, clockd.WhiteAuto)
	for {
		m, err := rd.Next()
		if err != nil {
			break
		}
		if r, ok := tr.Reading(m, 0); ok {
			for _, e := range in.Feed(r) {
				fmt.Println(e.Kind, e.Side, e.Clock.White, e.Clock.Black)
			}
		}
	}
	fmt.Println(rd.LastError())
	// Output:
	// started white 1h29m51s 1h30m0s
	// press white 1h30m21s 1h30m0s
	// lineclock: line 3, column 28: checksum mismatch: the line's checksum is 00, its body's is 01 ("PRESS 18 L 5421000 5400000*00")
}
