package clockd

import (
	"strings"
	"testing"
	"time"
)

// rd builds a reading: times in seconds; turn "L", "R" or "" (no turn
// bits); running.
func rd(at int64, l, r int64, turn string, running bool) Reading {
	return Reading{At: sec(at), Left: FaceReading{Time: sec(l)}, Right: FaceReading{Time: sec(r)},
		LeftTurn: turn == "L", RightTurn: turn == "R", Running: running}
}

func with(r Reading, f func(*Reading)) Reading { f(&r); return r }

// kinds summarises events as "kind:side" words, Inferred marked with '~'.
func kinds(evs []ClockEvent) string {
	var b []string
	for _, e := range evs {
		w := e.Kind.String()
		switch e.Kind {
		case Press, Flag, PeriodAdded, Adjusted, Running:
			w += ":" + e.Side.String()
		}
		if e.Inferred {
			w += "~"
		}
		b = append(b, w)
	}
	return strings.Join(b, " ")
}

func TestInterpreterTable(t *testing.T) {
	tests := []struct {
		name  string
		tc    string
		white WhiteFace
		reads []Reading
		want  string // kinds of all events, in order
		check func(t *testing.T, evs []ClockEvent, in *Interpreter)
	}{
		{"auto: the face that runs first is White's", "300+2", WhiteAuto,
			[]Reading{rd(0, 302, 302, "", false), rd(1, 302, 301, "R", true), rd(2, 302, 300, "R", true), rd(3, 302, 299, "L", true)},
			"started press:white",
			func(t *testing.T, evs []ClockEvent, in *Interpreter) {
				if f, ok := in.WhiteFace(); !ok || f != Right {
					t.Errorf("white face %v %v", f, ok)
				}
				if p := evs[1]; p.Clock != (Times{White: sec(299), Black: sec(302)}) || p.Inferred {
					t.Errorf("press %v", p)
				}
			}},
		{"fixed face: a wrong first runner is pointed out", "300", WhiteLeft,
			// The displays, not the turn bits, show the right face running.
			[]Reading{rd(0, 300, 300, "R", true), rd(1, 300, 299, "R", true)}, "started convention",
			func(t *testing.T, evs []ClockEvent, _ *Interpreter) {
				if !strings.Contains(evs[1].Detail, "orientation") {
					t.Errorf("detail %q", evs[1].Detail)
				}
			}},
		{"times confirmed beyond the limit leave room for the presses that follow", "900+10", WhiteLeft,
			// The clock was not read while many moves were played (the
			// board relaying it was away): times beyond what the counted
			// presses allow, shown twice, are taken as they are, and each
			// press after that is a press, not another untrusted reading.
			[]Reading{rd(0, 900, 900, "L", true), rd(100, 1000, 995, "R", true), rd(101, 1000, 994, "R", true),
				rd(105, 999, 1001, "L", true), rd(109, 1006, 1000, "R", true), rd(113, 1005, 1007, "L", true)},
			"started impossible impossible running:black press:black press:white press:black", nil},
		{"a clock first read with the game under way makes no claim on White's face", "900+10", WhiteLeft,
			// arbiterd started eleven plies into the game: Black's time
			// runs, both faces show more than the control's start (the
			// increments of the presses before), and nothing of it is
			// an untrusted reading or a clock set the wrong way round.
			[]Reading{rd(33, 954, 943, "R", true), rd(34, 954, 942, "R", true), rd(37, 954, 949, "L", true), rd(39, 963, 949, "R", true)},
			"started press:black press:white",
			func(t *testing.T, evs []ClockEvent, in *Interpreter) {
				if s := evs[0]; !s.UnderWay || s.Side != Black {
					t.Errorf("start %v: want under way, Black's time running", s)
				}
				if f, ok := in.WhiteFace(); !ok || f != Left {
					t.Errorf("white face %v %v, want left as set", f, ok)
				}
			}},
		{"auto: a clock first read under way does not tell White's face", "900+10", WhiteAuto,
			[]Reading{rd(33, 954, 943, "R", true), rd(34, 954, 942, "R", true)}, "started",
			func(t *testing.T, evs []ClockEvent, in *Interpreter) {
				if !evs[0].UnderWay {
					t.Errorf("start %v: want under way", evs[0])
				}
				if f, ok := in.WhiteFace(); ok {
					t.Errorf("white face %v known; the face that runs mid-game is not White's by 6.6", f)
				}
			}},
		{"a start whose turn bits are read the other way round is still a start", "900+10", WhiteLeft,
			// the bits name the right face, the left one runs down: one
			// face at the starting time is a game starting, whichever runs
			[]Reading{rd(0, 899, 900, "R", true), rd(1, 898, 900, "R", true)}, "started",
			func(t *testing.T, evs []ClockEvent, _ *Interpreter) {
				if evs[0].UnderWay {
					t.Errorf("start %v: taken as a game under way", evs[0])
				}
			}},
		{"a Fischer clock that gives the increment before the first move starts", "900+10", WhiteLeft,
			[]Reading{rd(0, 910, 910, "L", true), rd(1, 909, 910, "L", true)}, "started",
			func(t *testing.T, evs []ClockEvent, _ *Interpreter) {
				if evs[0].UnderWay {
					t.Errorf("start %v: taken as a game under way", evs[0])
				}
			}},
		{"a clock joined under way without increment is still seen reset", "5400", WhiteLeft,
			// no increment: no press can be counted from the times, yet a
			// clock set back to the start mid-game is a reset
			[]Reading{rd(0, 3000, 4000, "L", true), rd(1, 2999, 4000, "L", true), rd(2, 5400, 5400, "", false)},
			"started reset", nil},
		{"lever position when there are no turn bits", "300", WhiteAuto,
			[]Reading{
				with(rd(0, 300, 300, "", true), func(r *Reading) { r.LeverKnown, r.LeverRightHigh = true, false }),
				with(rd(1, 295, 300, "", true), func(r *Reading) { r.LeverKnown, r.LeverRightHigh = true, true }),
			}, "started press:white", nil},
		{"turn from the falling time when nothing else is reported", "300", WhiteLeft,
			[]Reading{rd(0, 300, 300, "", true), rd(1, 299, 300, "", true), rd(2, 297, 300, "", true), rd(3, 297, 299, "", true)},
			"started press:white", nil},
		{"merged pair seen in the idle face's time", "300+2", WhiteLeft,
			[]Reading{rd(0, 302, 302, "L", true), rd(5, 297, 302, "L", true), rd(6, 298, 303, "L", true)},
			"started press:white~ press:black~",
			func(t *testing.T, evs []ClockEvent, _ *Interpreter) {
				if evs[2].Clock.Black != sec(303) {
					t.Errorf("black after its press: %v", evs[2])
				}
			}},
		{"merged pair seen only in the running face's increment", "300+2", WhiteLeft,
			[]Reading{rd(0, 302, 302, "L", true), rd(5, 297, 302, "L", true), rd(6, 299, 302, "L", true)},
			"started press:white~ press:black~", nil},
		{"merged pair in bronstein: given-back time", "300b5", WhiteLeft,
			[]Reading{rd(0, 300, 300, "L", true), rd(5, 296, 300, "L", true), rd(6, 300, 300, "L", true)},
			"started press:white~ press:black~", nil},
		{"merged pair in delay mode when the second move outlasts the delay", "300d5", WhiteLeft,
			// The turn bits have changed and the displays have confirmed
			// what they mean (at 12 s): only then can the idle face's fall
			// be two merged presses rather than turn bits read the wrong
			// way round.
			[]Reading{rd(0, 300, 300, "L", true), rd(5, 300, 300, "L", true), rd(7, 298, 300, "L", true),
				rd(8, 298, 300, "R", true), rd(12, 298, 297, "R", true), rd(13, 298, 297, "L", true), rd(20, 298, 297, "L", true),
				rd(30, 298, 293, "L", true)},
			"started press:white press:black press:white~ press:black~", nil},
		{"a clock reset mid-game starts afresh, no period added", "2/60+2:30+2", WhiteLeft,
			[]Reading{rd(0, 62, 62, "L", true), rd(5, 57, 62, "L", true), rd(6, 59, 62, "R", true), rd(10, 59, 58, "R", true),
				rd(11, 59, 58, "R", false), rd(20, 62, 62, "R", false), rd(21, 62, 62, "L", true), rd(22, 61, 62, "L", true)},
			"started press:white stopped reset started",
			func(t *testing.T, evs []ClockEvent, _ *Interpreter) {
				if evs[4].Period != 1 {
					t.Errorf("reset %v: want period 1", evs[4])
				}
			}},
		{"a lever bit that never changes is stuck, and the turn bits decide", "300d5", WhiteAuto,
			// White on the right; the clock leaves the lever bit at 0
			// ("left high") whatever happens; a delay keeps the displays
			// still, so only the indicators tell.
			[]Reading{
				with(rd(0, 300, 300, "R", true), func(r *Reading) { r.LeverKnown = true }),
				with(rd(1, 300, 300, "L", true), func(r *Reading) { r.LeverKnown = true }),
				with(rd(2, 300, 300, "R", true), func(r *Reading) { r.LeverKnown = true }),
			}, "started press:white press:black",
			func(t *testing.T, _ []ClockEvent, in *Interpreter) {
				if f, _ := in.WhiteFace(); f != Right {
					t.Errorf("White's face %v, want right", f)
				}
			}},
		{"a counter's period at the first of two merged presses is no flag", "2/30:41", WhiteLeft,
			// White's second press earns the next period (its old time is
			// kept: no flag took it), and Black presses back at once.
			[]Reading{rd(0, 30, 30, "L", true), rd(2, 28, 30, "L", true), rd(3, 28, 30, "R", true), rd(5, 28, 28, "R", true),
				rd(6, 28, 28, "L", true), rd(8, 26, 28, "L", true), rd(9, 67, 28, "L", true), rd(11, 65, 28, "L", true)},
			"started press:white press:black press:white~ period-added:white press:black~", nil},
		{"a counter's period at the second of two merged presses", "2/60:30", WhiteLeft,
			[]Reading{rd(0, 60, 60, "L", true), rd(2, 58, 60, "L", true), rd(3, 58, 60, "R", true), rd(5, 58, 58, "R", true),
				rd(6, 58, 58, "L", true), rd(8, 56, 58, "L", true), rd(9, 56, 88, "L", true)},
			"started press:white press:black press:white~ press:black~ period-added:black", nil},
		{"the next period's time equal to the start's is no reset", "2/50+2:52+2", WhiteLeft,
			[]Reading{rd(0, 52, 52, "L", true), rd(2, 50, 52, "L", true), rd(3, 52, 52, "R", true), rd(5, 52, 50, "R", true),
				rd(6, 52, 52, "L", true), rd(40, 18, 52, "L", true),
				with(rd(59, 52, 52, "L", true), func(r *Reading) { r.Left.FlagShown = true })},
			"started press:white press:black flag:white period-added:white", nil},
		{"turn bits that mean the other face are learned from the displays", "300", WhiteAuto,
			// The clock sets the bit read as "right" while the left face
			// counts down: White's face is the left one all the same.
			[]Reading{rd(0, 300, 300, "R", true), rd(1, 299, 300, "R", true), rd(2, 298, 300, "R", true),
				rd(3, 298, 300, "L", true), rd(4, 298, 299, "L", true), rd(5, 298, 298, "L", true), rd(6, 298, 298, "R", true), rd(7, 297, 298, "R", true)},
			"started press:white press:black",
			func(t *testing.T, evs []ClockEvent, in *Interpreter) {
				if f, ok := in.WhiteFace(); !ok || f != Left {
					t.Errorf("White's face %v (known %v), want left", f, ok)
				}
				if evs[1].Clock.White != sec(298) || evs[2].Clock.Black != sec(298) {
					t.Errorf("times at the presses: %v / %v", evs[1], evs[2])
				}
			}},
		{"a lever read the other way round is learned from the displays", "300", WhiteAuto,
			[]Reading{
				with(rd(0, 300, 300, "", true), func(r *Reading) { r.LeverKnown, r.LeverRightHigh = true, true }),
				with(rd(1, 299, 300, "", true), func(r *Reading) { r.LeverKnown, r.LeverRightHigh = true, true }),
				with(rd(2, 299, 300, "", true), func(r *Reading) { r.LeverKnown, r.LeverRightHigh = true, false }),
				with(rd(3, 299, 299, "", true), func(r *Reading) { r.LeverKnown, r.LeverRightHigh = true, false }),
			}, "started press:white",
			func(t *testing.T, _ []ClockEvent, in *Interpreter) {
				if f, _ := in.WhiteFace(); f != Left {
					t.Errorf("White's face %v, want left", f)
				}
			}},
		{"turn bits that change meaning mid-game are announced", "300", WhiteLeft,
			[]Reading{rd(0, 300, 300, "L", true), rd(1, 299, 300, "L", true), rd(2, 299, 300, "R", true), rd(3, 299, 299, "R", true),
				rd(4, 299, 299, "L", true), rd(5, 298, 299, "L", true), rd(6, 298, 299, "R", true), rd(7, 298, 298, "R", true),
				// From 8 s the bits say "left" while the right face runs. The
				// change itself reads as a press, and the first contradiction
				// as two merged presses; the second makes the new meaning
				// certain, and it is announced.
				rd(8, 298, 297, "L", true), rd(9, 298, 296, "L", true), rd(10, 298, 295, "L", true), rd(11, 298, 295, "R", true), rd(12, 297, 295, "R", true)},
			"started press:white press:black press:white press:black press:white~ press:black~ convention press:black", nil},
		{"three presses in one interval", "300+10", WhiteLeft,
			[]Reading{rd(0, 310, 310, "L", true), rd(5, 305, 310, "L", true), rd(6, 325, 319, "R", true)},
			"started press:white~ press:black~ press:white~", nil},
		{"period added at the 40th press by a clock counting presses", "2/60+1:30+1", WhiteLeft,
			[]Reading{rd(0, 61, 61, "L", true), rd(1, 61, 61, "R", true), rd(2, 61, 61, "L", true), rd(3, 91, 61, "R", true)},
			"started press:white press:black press:white period-added:white",
			func(t *testing.T, evs []ClockEvent, _ *Interpreter) {
				p := evs[4]
				if p.Period != 2 || p.Added != sec(30) || evs[3].Period != 2 {
					t.Errorf("period event %v / press %v", p, evs[3])
				}
			}},
		{"a short period is not mistaken for an increment", "2/60+20:15+20", WhiteLeft,
			[]Reading{rd(0, 80, 80, "L", true), rd(5, 75, 80, "L", true), rd(6, 95, 80, "R", true), rd(7, 95, 78, "R", true),
				rd(8, 95, 98, "L", true), rd(9, 90, 98, "L", true), rd(10, 125, 98, "R", true)},
			"started press:white press:black press:white period-added:white",
			func(t *testing.T, evs []ClockEvent, _ *Interpreter) {
				if evs[1].Period != 1 || evs[3].Period != 2 || evs[4].Added != sec(15) {
					t.Errorf("first press (+20 only) %v; second (+15 period, +20) %v %v", evs[1], evs[3], evs[4])
				}
			}},
		{"period added to both at a flag", "2/10:30", WhiteLeft,
			[]Reading{rd(0, 10, 10, "L", true), rd(5, 1, 10, "L", true),
				with(rd(6, 30, 40, "L", true), func(r *Reading) { r.Left.FlagShown = true }),
				with(rd(7, 29, 40, "L", true), func(r *Reading) { r.Left.FlagShown = true })},
			"started flag:white period-added:white period-added:black",
			func(t *testing.T, evs []ClockEvent, _ *Interpreter) {
				if evs[1].Period != 1 || evs[2].Period != 2 || evs[3].Period != 2 {
					t.Errorf("flag %v should be in period 1, additions %v %v start period 2", evs[1], evs[2], evs[3])
				}
			}},
		{"flag bit reported once", "10", WhiteLeft,
			[]Reading{rd(0, 10, 10, "L", true), rd(5, 1, 10, "L", true),
				with(rd(6, 0, 10, "L", true), func(r *Reading) { r.Left.Flag = true }),
				with(rd(7, 0, 10, "L", true), func(r *Reading) { r.Left.Flag = true })},
			"started flag:white", nil},
		{"zero time without a flag bit is a flag", "10", WhiteLeft,
			[]Reading{rd(0, 10, 10, "L", true), rd(5, 0, 10, "L", true), rd(6, 0, 10, "L", true)},
			"started flag:white", nil},
		{"stop, adjust, resume", "300", WhiteLeft,
			[]Reading{rd(0, 300, 300, "L", true), rd(5, 295, 300, "L", true), rd(6, 295, 300, "L", false),
				rd(7, 295, 420, "L", false), rd(8, 295, 420, "L", true)},
			"started stopped adjusted:black resumed",
			func(t *testing.T, evs []ClockEvent, _ *Interpreter) {
				if evs[2].Added != sec(120) {
					t.Errorf("adjusted %v", evs[2])
				}
			}},
		{"one face set back to the start time is an adjustment, not a reset", "300", WhiteLeft,
			// Black's face still shows the start; the arbiter sets White's
			// to it as well (both at 300 is what a reset shows too).
			[]Reading{rd(0, 300, 300, "L", true), rd(5, 295, 300, "L", true), rd(6, 295, 300, "R", true),
				rd(7, 295, 300, "R", false), rd(9, 300, 300, "R", false), rd(10, 300, 300, "R", true)},
			"started press:white stopped adjusted:white resumed", nil},
		{"before the displays show who runs, an adjustment's side is inferred", "300d5", WhiteAuto,
			// a simple delay: no face's time has moved yet
			[]Reading{rd(0, 300, 300, "L", false), rd(1, 300, 300, "L", true), rd(2, 300, 300, "L", false),
				rd(4, 360, 300, "L", false), rd(5, 360, 300, "L", true)},
			"started stopped adjusted:white~ resumed", nil},
		{"a period credited at a press shows whose face pressed", "2/28d3:42d3", WhiteAuto,
			// White on the right; turn bits the other way round from the
			// belief, no lever, a simple delay: no time moves between the
			// presses, so only the period the counter adds at White's
			// second press shows which face is whose.
			[]Reading{rd(0, 28, 28, "", false), rd(1, 28, 28, "L", true), rd(3, 28, 28, "R", true), rd(5, 28, 28, "L", true),
				rd(7, 28, 70, "R", true)},
			"started press:white press:black press:white period-added:white",
			func(t *testing.T, evs []ClockEvent, in *Interpreter) {
				if f, ok := in.WhiteFace(); !ok || f != Right {
					t.Errorf("white face %v %v, want right", f, ok)
				}
			}},
		{"time above what the control can give", "300+2", WhiteLeft,
			[]Reading{rd(0, 302, 302, "L", true), rd(1, 302, 9000, "L", true), rd(2, 301, 302, "L", true)},
			"started impossible", nil},
		{"a glitch is reported and ignored", "300", WhiteLeft,
			[]Reading{rd(0, 300, 300, "L", true), rd(1, 299, 300, "L", true), rd(2, 398, 300, "L", true), rd(3, 298, 300, "L", true), rd(4, 298, 299, "R", true)},
			"started impossible press:white", nil},
		{"a confirmed impossible reading becomes the reference", "300", WhiteLeft,
			[]Reading{rd(0, 300, 300, "L", true), rd(1, 299, 300, "L", true), rd(2, 398, 300, "L", true), rd(3, 397, 300, "L", true), rd(4, 397, 299, "R", true)},
			"started impossible impossible running:white press:white", nil},
		{"running time rising in delay mode", "300d5", WhiteLeft,
			[]Reading{rd(0, 300, 300, "L", true), rd(1, 299, 300, "L", true), rd(2, 300, 300, "L", true), rd(3, 299, 300, "L", true)},
			"started impossible", nil},
		{"negative time", "300", WhiteLeft,
			[]Reading{rd(0, 300, 300, "L", true), rd(1, -1, 300, "L", true)},
			"started impossible", nil},
		{"rise at a press larger than the increment", "300+2", WhiteLeft,
			[]Reading{rd(0, 302, 302, "L", true), rd(5, 297, 302, "L", true), rd(6, 330, 302, "R", true)},
			"started impossible", nil},
		{"disconnect and reconnect", "300", WhiteLeft,
			[]Reading{rd(0, 300, 300, "L", true), {At: sec(1), NoClock: true}, {At: sec(2), NoClock: true}, rd(3, 250, 300, "R", true), rd(4, 250, 299, "R", true)},
			"started disconnected connected", nil},
		{"a run of inconsistent impossible readings is reported once", "300", WhiteLeft,
			[]Reading{rd(0, 300, 300, "L", true), rd(1, 9000, 300, "L", true), rd(2, 300, 9000, "L", true), rd(3, 9000, 300, "L", true), rd(4, 298, 300, "L", true), rd(5, 298, 299, "R", true)},
			"started impossible press:white", nil},
		{"low battery reported once", "300", WhiteLeft,
			[]Reading{rd(0, 300, 300, "L", true), with(rd(1, 299, 300, "L", true), func(r *Reading) { r.BatteryLow = true }),
				with(rd(2, 298, 300, "L", true), func(r *Reading) { r.BatteryLow = true })},
			"started battery-low", nil},
		{"readings before the start", "300", WhiteAuto,
			[]Reading{rd(0, 300, 300, "", false), rd(1, 300, 300, "", false), rd(2, 300, 300, "L", true)},
			"started", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tc, err := ParseTimeControl(tt.tc)
			if err != nil {
				t.Fatal(err)
			}
			in := NewInterpreter(tc, tt.white)
			var evs []ClockEvent
			for _, r := range tt.reads {
				evs = append(evs, in.Feed(r)...)
			}
			if got := kinds(evs); got != tt.want {
				t.Fatalf("events %q, want %q\n%v", got, tt.want, evs)
			}
			if tt.check != nil {
				tt.check(t, evs, in)
			}
		})
	}
}

// TestInterpreterOneMoveEarly: a clock that counts presses adds the second
// period at White's 40th press; if one of those presses completed no move
// (7.5.3), the reference clock, which counts completed moves, adds it one
// press later. The interpreter reports what the clock did; judging it is
// the reconciliation's job.
func TestInterpreterOneMoveEarly(t *testing.T) {
	tc, _ := ParseTimeControl("40/5400+30:1800+30")
	hw := newHW(tc, Left, true)
	g := &game{hw: hw, poll: 500 * time.Millisecond, speedup: 1}
	ref := NewClock(tc)
	hw.start()
	ref.Start(0)
	completed := 0
	in := NewInterpreter(tc, WhiteLeft)
	hwAt, refAt := 0, 0
	for p := 1; p <= 41; p++ {
		g.run(3 * time.Second)
		if p != 10 {
			completed++
		}
		g.press()
		if evs := ref.Press(White, g.now, completed); len(evs) > 0 && refAt == 0 {
			refAt = p
		}
		g.run(3 * time.Second)
		g.press()
		ref.Press(Black, g.now, p)
	}
	g.run(time.Second)
	pressN := 0
	for _, r := range g.reads {
		for _, e := range in.Feed(r) {
			if e.Kind == Press && e.Side == White {
				pressN++
			}
			if e.Kind == PeriodAdded && e.Side == White && hwAt == 0 {
				hwAt = pressN
			}
		}
	}
	if hwAt != 40 || refAt != 41 {
		t.Fatalf("clock added the period at white's press %d, reference at press %d; want 40 and 41", hwAt, refAt)
	}
}
