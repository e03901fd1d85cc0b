package dgtmodel_test

import (
	"container/heap"
	"fmt"
	"github.com/arbiterd/arbiterd/rules/reconcile"
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/internal/journal/capture"
)

// What the sim does, in order of time (ms since the capture started).
type evKind int

const (
	evStart     evKind = iota // the clock is started
	evPlyStart                // a player's turn begins
	evOp                      // a physical act on the board
	evPress                   // a press of a face's lever
	evAfterFlag               // the flagging player, play going on, carries on
	evScan                    // the board scans its fields
	evStop                    // the clock is stopped after the game
	evEnd                     // the capture ends
	evPause                   // the arbiter stops the clock
	evAdjust                  // the arbiter changes a face's time (face, by)
	evResume                  // the arbiter starts the clock again
)

type simEvent struct {
	at   int64
	seq  int
	kind evKind
	ply  int // evPlyStart, evOp, evPress (-1: a press without a move), evAfterFlag
	face int // evPress
	// noMove: a press without a move (not the opponent's press back) whose
	// alert is required once it happens; why says which.
	noMove bool
	why    string
	o      op // evOp
	last   bool
	by     int64 // evAdjust: ms
}

type eventQueue []simEvent

func (q eventQueue) Len() int { return len(q) }
func (q eventQueue) Less(i, j int) bool {
	if q[i].at != q[j].at {
		return q[i].at < q[j].at
	}
	return q[i].seq < q[j].seq
}
func (q eventQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *eventQueue) Push(x any)   { *q = append(*q, x.(simEvent)) }
func (q *eventQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// outMsg is a message the board sends, at the time it reaches the host.
type outMsg struct {
	at   int64
	seq  int
	data []byte
}

// wantFlag is a flag verdict the model expects.
type wantFlag struct {
	side      string // "white" or "black"
	ranOut    int    // the period whose time ran out (the clock's count)
	completed int
	judgement
	mate string
	// close: a move of the flagging side was made within 600 ms before
	// the flag fell; the board reports a move up to a scan later, so
	// arbiterd cannot tell whether it came before the flag. It may count
	// one move fewer, with the same verdict or "unknown".
	close bool
	// generous: a piece of the flagging side was on its way when the flag
	// fell, set down for the moment where the board shows a legal move of
	// it. The board cannot tell a piece set down from one released (4.6),
	// so arbiterd may take that move as made, completing the side's
	// unpressed move before it (6.2.1): one move more, judged so
	// (generously; the verdict for that count).
	generous        bool
	generousVerdict string
}

type anomKey struct{ kind, side string }

// wantAdjust is an adjust event the model expects: side's time changed by
// delta ms; closes names the anomaly kind whose alert it must close ("":
// none, "clock-stopped": that alarm's, if it was raised).
type wantAdjust struct {
	side   string
	delta  int64
	closes reconcile.Kind
}

// allowance bounds how many anomalies of a kind for a side are right.
type allowance struct {
	min, max int
	why      string
}

type sim struct {
	sc   *scenario
	rng  *rand.Rand
	c    *dgt3000
	b    *board
	now  int64
	q    eventQueue
	seq  int
	out  []outMsg
	over bool // the game is decided: the players stop

	clockLat, boardLat, scanMs int64
	suppress                   bool // scramble: the clock's readings are not relayed

	made    []bool
	pressed []bool
	opsLast []int64 // time of the last act of a ply whose acts are scheduled (0: none)
	// shows[i]: ply i's acts are under way and the board shows, for the
	// moment, the position after a legal move of ply i's side (a slider
	// set down on its way)
	shows []bool
	// maybe: plies arbiterd may complete by a next move the board showed
	// as made when it was a piece on its way (see wantFlag.generous)
	maybe     []int
	waiting   int // the ply whose player thinks until the flag, -1
	unplanned bool

	// expectations
	flags   []wantFlag
	allow   map[anomKey]*allowance
	result  string // the end event's result, "" when no end is expected
	endedAt int64
	adjusts []wantAdjust
	pauses  int // pause events (stopped) that must be there
	// ambiguous: plies completed by a next move made so close before a
	// flag that the board's report comes after it: completed or not,
	// both are right
	ambiguous []int
	arbDone   []bool
}

func sideName(white bool) string {
	if white {
		return "white"
	}
	return "black"
}

func (s *sim) faceOf(ply int) int {
	if ply%2 == 0 {
		return s.sc.whiteFace
	}
	return 1 - s.sc.whiteFace
}

func (s *sim) sideOfFace(f int) string { return sideName(f == s.sc.whiteFace) }

func (s *sim) push(e simEvent) {
	s.seq++
	e.seq = s.seq
	heap.Push(&s.q, e)
}

func (s *sim) allowAnom(kind, side string, lo, hi int, why string) {
	k := anomKey{kind, side}
	a := s.allow[k]
	if a == nil {
		a = &allowance{}
		s.allow[k] = a
	}
	a.min += lo
	a.max += hi
	if a.why != "" {
		a.why += "; "
	}
	a.why += why
}

func (s *sim) send(at int64, data []byte) {
	s.seq++
	s.out = append(s.out, outMsg{at: at, seq: s.seq, data: data})
}

// report relays the clock's current message.
func (s *sim) report() {
	if s.suppress {
		return
	}
	m := s.c.message()
	if s.sc.leverZero {
		m[9] &^= stLeverRight
	}
	s.send(s.now+s.clockLat, m)
}

// done reports whether ply i is completed now (6.2.1): its player pressed
// the clock after making it, or has made its next move.
func (s *sim) done(i int) bool {
	if s.pressed[i] {
		return true
	}
	for j := i + 2; j < len(s.made); j += 2 {
		if s.made[j] {
			return true
		}
	}
	return false
}

// completed returns the plies completed now and the moves per side.
func (s *sim) completed() (plies []bool, white, black int) {
	plies = make([]bool, len(s.made))
	for i := range plies {
		if plies[i] = s.done(i); plies[i] {
			if i%2 == 0 {
				white++
			} else {
				black++
			}
		}
	}
	return plies, white, black
}

// firstOpen is the first ply not completed.
func firstOpen(plies []bool) int {
	for i, d := range plies {
		if !d {
			return i
		}
	}
	return len(plies)
}

func run(sc *scenario) *sim {
	rng := rand.New(rand.NewPCG(sc.seed, 0x73696d))
	s := &sim{
		sc: sc, rng: rng, c: newClock(sc.cfg, sc.whiteFace), b: newBoard(sc.pos[0], sc.rotated),
		clockLat: ms(10, 60, rng), boardLat: ms(5, 50, rng), scanMs: ms(200, 250, rng),
		made: make([]bool, len(sc.moves)), pressed: make([]bool, len(sc.moves)),
		opsLast: make([]int64, len(sc.moves)), shows: make([]bool, len(sc.moves)), waiting: -1, allow: map[anomKey]*allowance{},
		arbDone: make([]bool, len(sc.moves)),
	}
	var dump [64]byte
	dump = s.b.phys
	s.send(30, boardDump(dump))
	s.now = 200
	s.report() // the clock before the start
	s.push(simEvent{at: ms(500, 2500, rng), kind: evStart})
	s.push(simEvent{at: 100 + rng.Int64N(s.scanMs), kind: evScan})
	for s.q.Len() > 0 {
		e := heap.Pop(&s.q).(simEvent)
		s.clockUntil(e.at)
		s.now = e.at
		if s.handle(e) {
			break
		}
	}
	return s
}

// clockUntil runs the clock up to t: its display ticks and flags.
func (s *sim) clockUntil(t int64) {
	for {
		d := min(s.c.untilFlag(), s.c.untilTick())
		if d == never || s.now+d > t {
			break
		}
		s.c.advance(d)
		s.now += d
		if s.c.untilFlag() == 0 {
			s.c.flag(s.now)
			s.onFlag(s.c.flags[len(s.c.flags)-1])
		}
		s.report()
	}
	s.c.advance(t - s.now)
}

func (s *sim) onFlag(rec flagRec) {
	if s.over {
		return
	}
	white := rec.face == s.sc.whiteFace
	side := sideName(white)
	plies, cw, cb := s.completed()
	k := firstOpen(plies)
	c := cb
	if white {
		c = cw
	}
	opp := chess.Black
	if !white {
		opp = chess.White
	}
	mate := canMate(s.sc.pos[k], opp)
	for i := k; i < len(s.made) && s.made[i]; i++ {
		if canMate(s.sc.pos[i+1], opp) != mate {
			mate = ""
		}
	}
	j := judge(s.sc.cfg.tc, rec.period, c, mate)
	close := false
	for i := k; i < len(s.made); i++ {
		if s.made[i] && s.faceOf(i) == rec.face && s.now-s.opsLast[i] <= 600 {
			close = true
			// the same move completes the side's unpressed move before
			// it (6.2.1) only if it came before the flag: a board that
			// reports it just after the flag leaves that open
			if j := i - 2; j >= 0 && !s.pressed[j] {
				s.ambiguous = append(s.ambiguous, j)
			}
		}
	}
	w := wantFlag{side: side, ranOut: rec.period, completed: c, judgement: j, mate: mate, close: close}
	for i := k; i < len(s.made); i++ {
		if !s.made[i] && s.shows[i] && s.faceOf(i) == rec.face {
			if j := i - 2; j >= 0 && !s.done(j) {
				w.generous, w.generousVerdict = true, judge(s.sc.cfg.tc, rec.period, c+1, mate).verdict
				s.maybe = append(s.maybe, j)
			}
		}
	}
	s.flags = append(s.flags, w)
	// A move made by the flagging side and not completed is noted (6.2.1).
	pending := -1
	for i := k; i < len(s.made); i++ {
		if s.made[i] && s.faceOf(i) == rec.face {
			pending = i
		}
	}
	inHand := false
	for i := k; i < len(s.made); i++ {
		if s.opsLast[i] != 0 && !s.made[i] {
			inHand = true
		}
	}
	if pending >= 0 {
		// One alert for one unpressed move: when it is a forgotten press
		// already expected to be reported, the flag may report it instead.
		// When it was made so close before the flag that the board
		// reports it after the flag's reading, arbiterd cannot tell it
		// from a move made after the flag (see close): not required.
		lo := 1
		if s.sc.plan[pending].forgot || s.now-s.opsLast[pending] <= 600 {
			lo = 0
		}
		s.allowAnom("move-without-press", side, lo, 1, fmt.Sprintf("ply %d made, not pressed, at the flag", pending+1))
	}
	planned := s.waiting >= 0 && s.faceOf(s.waiting) == rec.face
	if !planned || inHand {
		s.unplanned = true
		s.allowAnom("move-without-press", side, 0, 1, "a flag during a move")
		s.allowAnom("unexplained-position", "", 0, 1, "a flag during a move")
	}
	if j.verdict == "none" && rec.added {
		if planned {
			s.push(simEvent{at: s.now + ms(300, 3000, s.rng), kind: evAfterFlag, ply: s.waiting})
		}
		return
	}
	s.over = true
	switch j.verdict {
	case "loss":
		s.result = map[bool]string{true: "0-1", false: "1-0"}[white]
	case "draw":
		s.result = "1/2-1/2"
	default:
		s.result = "?" // a verdict of none with the clock blocked: nothing more happens
	}
	s.finish(true)
}

// finish schedules the end of the capture (and the arbiter stopping the
// clock, in some scenarios).
func (s *sim) finish(decided bool) {
	end := s.now + ms(1500, 4000, s.rng)
	if s.sc.endStop && s.c.running {
		why := ""
		if !decided {
			why = "undecided"
		}
		s.push(simEvent{at: s.now + ms(300, 1200, s.rng), kind: evStop, why: why})
	}
	s.push(simEvent{at: end, kind: evEnd})
}

// stopped expects the alarm of a clock stopped with the game going on
// (unless a flag fell first: then the flag is the news).
func (s *sim) stopped(e simEvent) {
	if e.why != "undecided" || s.over {
		return
	}
	// A stop just after an alert the arbiter settles at the clock (a
	// press without a move, a counter's early period) may be taken for
	// the arbiter's pause, and recorded as one.
	lo := 1
	for i := max(0, len(s.sc.plan)-4); i < len(s.sc.plan); i++ {
		if s.sc.plan[i].pressNoMove || s.sc.plan[i].forgot {
			lo = 0
		}
	}
	for k, a := range s.allow {
		if k.kind == "clock-counter" && a.max > 0 {
			lo = 0
		}
	}
	s.allowAnom("clock-stopped", "", lo, 1, "the clock was stopped with the game going on")
}

// handle processes one event; true ends the run.
func (s *sim) handle(e simEvent) bool {
	switch e.kind {
	case evEnd:
		// The capture ends once what the devices sent by now has
		// arrived: a flag the clock showed just before the end is in it.
		s.endedAt = s.now
		for _, m := range s.out {
			s.endedAt = max(s.endedAt, m.at)
		}
		return true
	case evScan:
		for k, m := range s.b.scan(s.rng) {
			s.send(s.now+s.boardLat+int64(k)*5, m)
		}
		s.push(simEvent{at: s.now + s.scanMs, kind: evScan})
	case evStop:
		s.stopped(e)
		s.c.stop()
		s.report()
	case evPause:
		if s.over {
			return false // the game ended (a flag) before the arbiter came
		}
		s.c.pause()
		s.report()
		switch e.why {
		case "penalty":
			s.pauses++ // the stop settles a press without a move
		case "pause":
			// With an alert of the last moves open the stop may be taken
			// for the arbiter settling it.
			lo := 1
			if s.sc.dims["forgot"] == "yes" || s.sc.dims["nomove"] == "yes" {
				lo = 0
			}
			s.allowAnom("clock-stopped", "", lo, 1, "the arbiter stopped the clock")
		case "set":
			s.allowAnom("clock-stopped", "", 0, 1, "the arbiter stopped the clock and set a time")
		}
	case evAdjust:
		if s.over {
			return false
		}
		s.c.adjust(e.face, e.by)
		s.report()
		s.adjusts = append(s.adjusts, wantAdjust{side: s.sideOfFace(e.face), delta: e.by, closes: reconcile.Kind(e.why)})
	case evResume:
		if s.over {
			return false
		}
		s.c.resume()
		s.report()
	case evStart:
		s.c.start()
		s.report()
		s.push(simEvent{at: s.now, kind: evPlyStart, ply: 0})
	case evOp:
		if s.over {
			return false
		}
		s.b.apply(e.o)
		s.shows[e.ply] = !e.last && s.b.showsAMoveFrom(s.sc.pos[e.ply])
		if e.last {
			s.made[e.ply] = true
			if s.sc.plan[e.ply].forgot {
				// made and never to be pressed: reported once the reply
				// (or a flag) comes
				s.allowAnom("move-without-press", sideName(e.ply%2 == 0), 1, 0, fmt.Sprintf("ply %d: made, press forgotten", e.ply+1))
			}
		}
	case evPress:
		if s.over {
			return false
		}
		p := e.ply
		// Two presses merged into one reading are visible only through
		// a Fischer increment: with no increment, a simple delay, or a
		// Bronstein delay (which gives back the little time a scramble's
		// move takes, so the display does not change) they leave every
		// displayed time as it was (clockd's documented limit), so there
		// the clock's readings of the scramble are all relayed and only
		// the board is fast.
		merge := s.sc.cfg.tc.mode == modeFischer
		first := merge && p >= 0 && p+1 < len(s.sc.plan) && s.sc.plan[p].fast && s.sc.plan[p+1].fast && !s.suppress
		if first {
			s.suppress = true
		} else if p >= 0 && s.sc.plan[p].fast {
			s.suppress = false
		}
		if e.noMove {
			s.allowAnom("press-without-move", sideName(e.face == s.sc.whiteFace), 1, 0, e.why+" (it happened)")
		}
		if !s.c.press(e.face) {
			panic(fmt.Sprintf("model: the press of ply %d on the %s face was refused", p+1, faceName(e.face)))
		}
		if n := len(s.c.adds); n > 0 && s.c.adds[n-1].presses == s.c.presses[e.face] {
			// A counter clock added a period at this press: right only if
			// the press count equals the moves completed.
			white := e.face == s.sc.whiteFace
			_, cw, cb := s.completed()
			done := cb
			if white {
				done = cw
			}
			if p >= 0 && !s.pressed[p] {
				done++ // this press completes ply p
			}
			if done != s.c.presses[e.face] {
				s.allowAnom("clock-counter", sideName(white), 0, 1, "the counter's presses differ from the completed moves")
			}
		}
		s.report()
		if p >= 0 {
			s.pressed[p] = true
			s.push(simEvent{at: s.now, kind: evPlyStart, ply: p + 1})
		}
	case evAfterFlag:
		if s.over {
			return false
		}
		p := e.ply
		s.waiting = -1
		last := s.opsLast[p]
		if last == 0 {
			last = s.scheduleOps(p, s.now+ms(200, 1500, s.rng), false)
		}
		s.push(simEvent{at: max(last, s.now) + ms(150, 700, s.rng), kind: evPress, ply: p, face: s.faceOf(p)})
	case evPlyStart:
		if s.over {
			return false
		}
		s.plyStart(e.ply)
	}
	return false
}

// scheduleOps schedules ply p's acts from t on and returns the time of the last.
func (s *sim) scheduleOps(p int, t int64, fast bool) int64 {
	ops := moveOps(s.rng, s.sc.pos[p], s.sc.moves[p], s.sc.plan[p].how)
	for k, o := range ops {
		if k > 0 {
			if fast {
				t += ms(30, 120, s.rng)
			} else {
				t += ms(300, 700, s.rng)
			}
		}
		s.push(simEvent{at: t, kind: evOp, ply: p, o: o, last: k == len(ops)-1})
	}
	s.opsLast[p] = t
	return t
}

func (s *sim) plyStart(p int) {
	L := len(s.sc.moves)
	if p >= L {
		s.finish(false)
		return
	}
	pl := s.sc.plan[p]
	face := s.faceOf(p)
	side := sideName(p%2 == 0)
	if pl.arbiter != "" && !s.arbDone[p] && !s.over {
		s.arbDone[p] = true
		s.arbiter(p)
		return
	}
	if s.c.run != face || !s.c.counting() {
		if !pl.noPress {
			panic(fmt.Sprintf("model: ply %d starts with the %s face not running", p+1, faceName(face)))
		}
	}
	switch {
	case pl.flag:
		s.waiting = p
		if pl.madeBefore {
			flagAt := s.now + s.c.untilFlag()
			n := int64(len(moveOps(s.rng, s.sc.pos[p], s.sc.moves[p], pl.how)))
			start := flagAt - (n-1)*700 - ms(400, 1500, s.rng)
			if start >= s.now+200 {
				s.scheduleOps(p, start, false)
			}
		}
	case pl.pressNoMove:
		t1 := s.now + pl.think
		t2 := t1 + ms(400, 1200, s.rng)
		why := fmt.Sprintf("ply %d: pressed without moving", p+1)
		s.push(simEvent{at: t1, kind: evPress, ply: -1, face: face, noMove: true, why: why})
		s.push(simEvent{at: t2, kind: evPress, ply: -1, face: 1 - face})
		last := s.scheduleOps(p, t2+ms(800, 2000, s.rng), false)
		s.push(simEvent{at: last + ms(150, 700, s.rng), kind: evPress, ply: p, face: face})
		// required only if the press happens: a flag may end the game first
		s.allowAnom("press-without-move", side, 0, 1, why)
		s.allowAnom("press-without-move", sideName(p%2 != 0), 0, 1, fmt.Sprintf("ply %d: the opponent pressed back", p+1))
	default:
		think := pl.think
		second := pl.fast && p > 0 && s.sc.plan[p-1].fast
		if second {
			think = ms(50, 250, s.rng)
		}
		last := s.scheduleOps(p, s.now+think, pl.fast)
		if pl.forgot || pl.noPress {
			s.push(simEvent{at: last + ms(500, 1500, s.rng), kind: evPlyStart, ply: p + 1})
			if pl.forgot {
				// required once the move is made (a flag may come first)
				s.allowAnom("move-without-press", side, 0, 1, fmt.Sprintf("ply %d: press forgotten", p+1))
			}
			return
		}
		gap := ms(150, 700, s.rng)
		if pl.fast {
			gap = ms(40, 120, s.rng)
		}
		s.push(simEvent{at: last + gap, kind: evPress, ply: p, face: face})
	}
}

// arbiter plays the arbiter's action at the start of ply p: a stop, the
// changes of time, the restart, and then the ply as planned.
func (s *sim) arbiter(p int) {
	pl := s.sc.plan[p]
	stop := s.now + ms(300, 1000, s.rng)
	s.push(simEvent{at: stop, kind: evPause, why: pl.arbiter})
	at := stop
	// expected once they happen (a flag may end the game first)
	change := func(face int, by int64, closes reconcile.Kind) {
		at += ms(2000, 4000, s.rng)
		s.push(simEvent{at: at, kind: evAdjust, face: face, by: by, why: string(closes)})
	}
	switch pl.arbiter {
	case "penalty":
		// The previous ply's player pressed without moving (7.5.3): the
		// opponent, to move now, gets the penalty; in Fischer mode the
		// increment the press earned may be taken off too (7.5.5).
		offender := s.faceOf(p - 1)
		change(1-offender, penaltyMs(s.sc.cfg.tc), "press-without-move")
		if s.sc.cfg.tc.mode == modeFischer && s.rng.IntN(2) == 0 {
			change(offender, -s.sc.cfg.tc.perMove, "")
		}
	case "set":
		change(pl.arbFace, pl.arbBy, "clock-stopped")
	}
	resume := max(stop+ms(5000, 20000, s.rng), at+ms(1000, 3000, s.rng))
	s.push(simEvent{at: resume, kind: evResume})
	s.push(simEvent{at: resume + ms(200, 800, s.rng), kind: evPlyStart, ply: p})
}

// penaltyMs is what the opponent of a first completed illegal move gets:
// two minutes, one in rapid and blitz (7.5.5, A.3); the class by the
// first period's time plus 60 increments (under an hour: rapid or blitz).
func penaltyMs(tc control) int64 {
	if tc.periods[0].ms+60*tc.perMove < 60*60*1000 {
		return 60 * 1000
	}
	return 120 * 1000
}

// captureBytes writes the sim's output as a capture v1 file.
func (s *sim) captureBytes() ([]byte, error) {
	var buf strings.Builder
	w, err := capture.NewWriter(&buf)
	if err != nil {
		return nil, err
	}
	d := func(ms int64) time.Duration { return time.Duration(ms) * time.Millisecond }
	steps := []error{
		w.Port("board", "dgt"),
		w.Meta("board", "1"),
		w.Meta("timecontrol", s.sc.cfg.tc.String()),
		w.Meta("clock-white", s.sc.whiteMeta),
		w.Comment(fmt.Sprintf("dgtmodel seed %d: %s", s.sc.seed, s.sc.describe())),
		w.Data(0, "board", capture.Write, []byte{cmdUpdateNice}),
		w.Data(0, "board", capture.Write, []byte{cmdSendBoard}),
	}
	for _, err := range steps {
		if err != nil {
			return nil, err
		}
	}
	msgs := s.out
	sort.SliceStable(msgs, func(i, j int) bool {
		if msgs[i].at != msgs[j].at {
			return msgs[i].at < msgs[j].at
		}
		return msgs[i].seq < msgs[j].seq
	})
	rng := rand.New(rand.NewPCG(s.sc.seed, 0x636875))
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		if m.at > s.endedAt {
			break
		}
		data := m.data
		if s.sc.chunk {
			for i+1 < len(msgs) && msgs[i+1].at == m.at && rng.IntN(2) == 0 {
				i++
				data = append(append([]byte(nil), data...), msgs[i].data...)
			}
			if len(data) > 1 && rng.IntN(4) == 0 {
				cut := 1 + rng.IntN(len(data)-1)
				if err := w.Data(d(m.at), "board", capture.Read, data[:cut]); err != nil {
					return nil, err
				}
				data = data[cut:]
			}
		}
		if err := w.Data(d(m.at), "board", capture.Read, data); err != nil {
			return nil, err
		}
	}
	return []byte(buf.String()), nil
}
