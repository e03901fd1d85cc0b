package clockd_test

import (
	"fmt"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
)

func ExampleParseTimeControl() {
	tc, err := clockd.ParseTimeControl("90'/40 + 30' + 30\"")
	fmt.Println(tc, tc.Class(), tc.Required(1), err)
	_, err = clockd.ParseTimeControl("40/5400+30;1800")
	fmt.Println(err)
	// Output:
	// 40/5400+30:1800+30 standard 40 <nil>
	// clockd: time control "40/5400+30;1800": at offset 10 (';'): unexpected character; expected ':' between periods, or '+N', 'dN', 'bN' after the seconds
}

func ExampleInterpreter() {
	tc, _ := clockd.ParseTimeControl("300+2")
	in := clockd.NewInterpreter(tc, clockd.WhiteAuto)
	show := func(at, left, right time.Duration, leftTurn bool) {
		r := clockd.Reading{At: at, Running: true, LeftTurn: leftTurn, RightTurn: !leftTurn,
			Left: clockd.FaceReading{Time: left}, Right: clockd.FaceReading{Time: right}}
		for _, e := range in.Feed(r) {
			fmt.Println(e.Kind, e.Side, e.Clock.White, e.Clock.Black, e.Inferred)
		}
	}
	s := time.Second
	show(0, 302*s, 302*s, false) // the right face runs first: it is White's
	show(1*s, 302*s, 297*s, false)
	show(2*s, 302*s, 299*s, true) // White pressed: +2 s
	show(3*s, 303*s, 298*s, true) // the idle face moved: two presses merged
	// Output:
	// started white 5m2s 5m2s false
	// press white 4m59s 5m2s false
	// press black 4m59s 5m3s true
	// press white 4m58s 5m3s true
}
