package emulator

import (
	"cmp"
	"container/heap"
	"fmt"
	"math"
	"math/rand"
	"time"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/internal/i18n"
)

// UpdateMode is what the board sends without being asked.
type UpdateMode int

const (
	// ModeUpdateNice (0x4b): field updates, and clock frames when the
	// display changes. The emulator's default before any host command.
	ModeUpdateNice UpdateMode = iota
	// ModeIdle (after 0x40 reset): nothing unless asked.
	ModeIdle
	// ModeUpdate (0x43): field updates and clock frames. The emulated clock
	// reports on every display change, so this sends what update-nice does.
	ModeUpdate
	// ModeUpdateBoard (0x44): field updates only.
	ModeUpdateBoard
)

type evKind int

const (
	evPly      evKind = iota // the player to move starts on ply i
	evPhys                   // a physical square change
	evScan                   // the board scans its sensors
	evPress                  // a player pushes its lever
	evTick                   // the running clock's display changes
	evZero                   // the running clock reaches zero
	evStop                   // the players stop the clock (game over)
	evGarbage                // random bytes on the line
	evUnplug                 // the board goes silent
	evReplug                 // the board answers again
	evClockOff               // the clock's cable comes out
	evClockOn                // the clock's cable goes back in
	evPause                  // the arbiter stops the clock
	evAdjust                 // the arbiter changes a side's time (side, by)
	evResume                 // the arbiter starts the clock again
)

type event struct {
	at    time.Duration
	seq   uint64
	kind  evKind
	ply   int // 0-based ply the event belongs to (-1: none)
	op    physOp
	side  Player
	gen   int // clock generation for evTick/evZero
	early bool
	last  bool // the last physical op of a ply: the move is made
	n     int
	by    time.Duration // evAdjust: the change
}

type eventQueue []*event

func (q eventQueue) Len() int { return len(q) }
func (q eventQueue) Less(i, j int) bool {
	if q[i].at != q[j].at {
		return q[i].at < q[j].at
	}
	return q[i].seq < q[j].seq
}
func (q eventQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *eventQueue) Push(x any)   { *q = append(*q, x.(*event)) }
func (q *eventQueue) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}

// scanPeriod is how long one sweep of the board's sensors takes; changes
// between two sweeps are reported together, in a random order.
const scanPeriod = 225 * time.Millisecond

// sim is the emulation as a pure, deterministic state machine in emulated
// time (durations since play began). Run feeds it the time and the host's
// bytes and writes out what it produces.
type sim struct {
	cfg    *Config
	rng    *rand.Rand
	start  *chess.Position
	plies  []ply
	script map[int][]Action // by 0-based ply

	q   eventQueue
	seq uint64

	clock    *hwClock
	clockGen int

	phys     [64]chess.Piece // by chess.Square
	reported [64]byte        // by board field: what the host was last told
	scanDue  bool
	mode     UpdateMode

	started bool // play began
	over    bool // the game stopped being played
	// opsBegun marks plies whose physical ops have started (a ply begun
	// before a flag is finished by the player's hand).
	opsBegun map[int]bool

	dropField   int  // field updates still to lose
	dropClock   int  // clock frames still to lose
	dropArmed   int  // ply whose press starts dropping clock frames (-1 none)
	dropArmedN  int  // how many
	holdClock   bool // merged press: no clock frame until the next accepted press
	mergeAt     int  // ply whose press starts a merged pair (-1 none)
	unplugged   bool
	clockOff    bool // the clock is disconnected from the board
	unplugDone  bool // unplugged for good
	lastDisplay []byte
	out         [][]byte
	cmd         cmdParser
}

func newSim(cfg *Config, start *chess.Position, plies []ply) *sim {
	s := &sim{
		cfg:       cfg,
		rng:       rand.New(rand.NewSource(cfg.Seed)),
		start:     start,
		plies:     plies,
		script:    map[int][]Action{},
		clock:     newHWClock(cfg.Periods, cfg.PeriodBy, cfg.WhiteOnRight, cfg.TurnBits2015),
		mode:      cfg.Mode,
		opsBegun:  map[int]bool{},
		dropArmed: -1,
		mergeAt:   -1,
		clockOff:  cfg.NoClock, // a clock on its own line: the board has none
	}
	for _, a := range cfg.Script {
		s.script[a.Ply-1] = append(s.script[a.Ply-1], a)
	}
	s.phys = boardOf(start)
	s.reported = s.fields()
	return s
}

func (s *sim) push(e *event) {
	s.seq++
	e.seq = s.seq
	heap.Push(&s.q, e)
}

// nextAt is the time of the next event (ok false when none is pending).
func (s *sim) nextAt() (time.Duration, bool) {
	if len(s.q) == 0 {
		return 0, false
	}
	return s.q[0].at, true
}

// begin starts play at at: White's clock runs and the first ply begins.
func (s *sim) begin(at time.Duration) {
	if s.started {
		return
	}
	s.started = true
	s.clock.start(at)
	s.clockChanged(at, true)
	s.push(&event{at: at, kind: evPly, ply: 0})
}

// step handles the next event.
func (s *sim) step() {
	e := heap.Pop(&s.q).(*event)
	switch e.kind {
	case evPly:
		s.doPly(e.at, e.ply)
	case evPhys:
		s.handOp(e)
	case evScan:
		s.scan()
	case evPress:
		if s.over {
			return
		}
		s.doPress(e.at, e.side, e.ply, e.early)
	case evTick:
		if e.gen != s.clockGen {
			return
		}
		s.clockChanged(e.at, false)
	case evZero:
		if e.gen != s.clockGen {
			return
		}
		s.flagFalls(e.at)
	case evStop:
		s.over = true
		s.note(e.at, 0, "stop", "emulate.note.stop", s.times(e.at))
		s.clock.stop(e.at)
		s.clockGen++
		s.clockChanged(e.at, true)
	case evGarbage:
		s.emit(s.garbage(e.n))
	case evUnplug:
		s.unplugged = true
		if e.n == 0 {
			s.unplugDone = true
		}
	case evClockOff:
		s.clockOff = true
		s.lastDisplay = nil
		if s.mode != ModeIdle && s.mode != ModeUpdateBoard {
			s.emit(bwtime(Display{NoClock: true}))
		}
	case evClockOn:
		s.clockOff = false
		s.clockChanged(e.at, true)
	case evPause:
		s.clock.pause(e.at)
		s.arbiterSetClock(e.at, i18n.M("emulate.note.arbiter-stops"))
	case evAdjust:
		s.clock.adjust(e.side, e.by)
		s.arbiterSetClock(e.at, i18n.M("emulate.note.arbiter-adjusts", sideWord(e.side, false), e.by.String()))
	case evResume:
		s.clock.resume(e.at)
		s.arbiterSetClock(e.at, i18n.M("emulate.note.arbiter-starts"))
	case evReplug:
		s.unplugged = false
		s.mode = ModeIdle
		s.cmd = cmdParser{}
		s.reported = s.fields()
		s.lastDisplay = nil
	}
}

// handOp is one hand operation of a ply on the physical board (a piece
// lifted or set down); the board is scanned at its next scan period. Once
// the game is over, a ply not begun yet is not played.
func (s *sim) handOp(e *event) {
	if s.over && !s.opsBegun[e.ply] {
		return
	}
	s.opsBegun[e.ply] = true
	s.phys[e.op.sq] = e.op.piece
	if e.last && e.ply >= 0 && e.ply < len(s.plies) {
		pl := s.plies[e.ply]
		s.note(e.at, e.ply+1, "move", "emulate.note.move", title(colorPlayer(pl.before.Turn())), pl.san)
	}
	if !s.scanDue {
		s.scanDue = true
		next := (e.at/scanPeriod + 1) * scanPeriod
		s.push(&event{at: next, kind: evScan, ply: -1})
	}
}

// flagFalls is a time reaching zero at at: in the last period the game is
// over, else the next period is added and the clock runs on.
func (s *sim) flagFalls(at time.Duration) {
	res := s.clock.flag(at)
	if !res.periodAdded {
		s.over = true
		s.note(at, 0, "flag", "emulate.note.flag-last", sideWord(res.side, true))
	} else {
		s.note(at, 0, "flag", "emulate.note.flag", sideWord(res.side, true), s.times(at))
	}
	s.clockGen++
	s.clockChanged(at, true)
}

// garbage is n random bytes, as line noise.
func (s *sim) garbage(n int) []byte {
	g := make([]byte, n)
	for i := range g {
		g[i] = byte(s.rng.Intn(256))
	}
	return g
}

// finished says nothing more will happen by itself: the game is over and
// no event is pending.
func (s *sim) finished() bool { return s.over && len(s.q) == 0 }

// fields is the physical board in the board's field numbering.
func (s *sim) fields() [64]byte {
	var f [64]byte
	for sq, p := range s.phys {
		f[field(chess.Square(sq), s.cfg.Reversed)] = pieceCode(p)
	}
	return f
}

// scan reports every field that differs from what the host was last told,
// in a random order (the sweep and the bus jumble them).
func (s *sim) scan() {
	s.scanDue = false
	now := s.fields()
	var changed []int
	for f := 0; f < 64; f++ {
		if now[f] != s.reported[f] {
			changed = append(changed, f)
		}
	}
	s.rng.Shuffle(len(changed), func(i, j int) { changed[i], changed[j] = changed[j], changed[i] })
	for _, f := range changed {
		s.reported[f] = now[f]
		if s.mode == ModeIdle || s.unplugged {
			continue
		}
		if s.dropField > 0 {
			s.dropField--
			continue
		}
		s.emit(fieldUpdate(f, now[f]))
	}
}

func (s *sim) emit(b []byte) {
	if s.unplugged {
		return
	}
	s.out = append(s.out, b)
}

// clockChanged reschedules the clock's next display change and flag, and
// reports the display when it changed (always when force).
func (s *sim) clockChanged(at time.Duration, force bool) {
	s.clockGen++
	gen := s.clockGen
	if t, ok := s.clock.nextChange(at); ok {
		s.push(&event{at: t, kind: evTick, ply: -1, gen: gen})
	}
	if t, ok := s.clock.zeroAt(); ok {
		s.push(&event{at: t, kind: evZero, ply: -1, gen: gen})
	}
	if s.clockOff {
		return
	}
	frame := bwtime(s.clock.display(at))
	if !force && string(frame) == string(s.lastDisplay) {
		return
	}
	s.lastDisplay = frame
	if s.mode == ModeIdle || s.mode == ModeUpdateBoard || s.holdClock {
		return
	}
	if s.dropClock > 0 {
		s.dropClock--
		return
	}
	s.emit(frame)
}

func (s *sim) doPress(at time.Duration, p Player, plyIdx int, early bool) {
	if plyIdx >= 0 && s.dropArmed == plyIdx {
		s.dropClock = s.dropArmedN
		s.dropArmed = -1
	}
	res := s.clock.press(p, at, early)
	if !res.accepted {
		return
	}
	s.note(at, plyIdx+1, "press", "emulate.note.press", title(p), s.times(at))
	if res.periodAdded {
		s.note(at, plyIdx+1, "period", "emulate.note.period", sideWord(p, true), s.times(at))
	}
	if s.holdClock && (plyIdx < 0 || s.mergeAt != plyIdx) {
		s.holdClock = false
	}
	if plyIdx >= 0 && s.mergeAt == plyIdx {
		s.mergeAt = -1
		s.lastDisplay = nil
		s.clockGen++
		s.holdClock = true
	}
	s.clockChanged(at, true)
}

func (s *sim) has(plyIdx int, k ActionKind) (Action, bool) {
	for _, a := range s.script[plyIdx] {
		if a.Kind == k {
			return a, true
		}
	}
	return Action{}, false
}

func (s *sim) randDur(min, max time.Duration) time.Duration {
	return min + time.Duration(s.rng.Int63n(int64(max-min)+1))
}

// thinkTime is how long the player to move takes on ply i (0-based)
// before pressing, given its remaining time.
func (s *sim) thinkTime(i int, p Player, at time.Duration) time.Duration {
	if s.cfg.ThinkTime != nil {
		return s.cfg.ThinkTime(i + 1)
	}
	rem := s.clock.remaining(p, at)
	pd := s.clock.cur(p)
	movesLeft := 40
	if pd.Moves > 0 {
		done := s.clock.presses[p]
		movesLeft = pd.Moves - done
		if movesLeft < 1 {
			movesLeft = 1
		}
	}
	budget := float64(rem+time.Duration(movesLeft)*pd.Increment) / float64(movesLeft+3)
	if m := s.cfg.MeanThink; m > 0 && float64(m) < budget {
		budget = float64(m) // plenty of time: the player's own pace
	}
	// Log-normal spread around the budget: most moves quick, some long.
	f := math.Exp(s.rng.NormFloat64() * 0.7)
	if f > 2.5 {
		f = 2.5
	}
	t := time.Duration(budget * f * 0.8)
	if limit := rem * 6 / 10; t > limit {
		t = limit
	}
	if pd.Mode == Delay && t > pd.Increment && rem < 30*time.Second {
		t = pd.Increment * 9 / 10 // scramble: live on the delay
	}
	if t < 1500*time.Millisecond {
		t = 1500*time.Millisecond + time.Duration(s.rng.Int63n(int64(time.Second)))
	}
	return t
}

// doPly plans ply i: thinking, the physical move, the press, and the
// scripted actions of that ply.
func (s *sim) doPly(t0 time.Duration, i int) {
	if s.over {
		return
	}
	s.lineFaults(t0, i)
	mover := s.mover(i)

	if a, ok := s.has(i, Kings); ok {
		s.kingsSignal(t0+s.randDur(2*time.Second, 6*time.Second), a.Result)
		return
	}
	t0 = s.arbiter(t0, i)
	if _, ok := s.has(i, PressNoMove); ok {
		t1 := t0 + s.randDur(2*time.Second, 8*time.Second)
		s.push(&event{at: t1, kind: evPress, side: mover, ply: -1})
		t0 = t1 + s.randDur(time.Second, 4*time.Second)
		s.push(&event{at: t0, kind: evPress, side: mover.Other(), ply: -1})
	}
	if _, ok := s.has(i, Flag); ok {
		// Think past the flag: the remaining time (as it will be once the
		// clock runs for this player), any delay, and a margin.
		rem := s.clock.remaining(mover, t0) + s.clock.cur(mover).Increment
		think := rem + s.randDur(5*time.Second, 30*time.Second)
		if i < len(s.plies) {
			s.planMove(t0, i, mover, think, true)
		}
		return
	}
	if i >= len(s.plies) {
		if s.cfg.End == EndStop {
			s.push(&event{at: t0 + s.randDur(time.Second, 3*time.Second), kind: evStop, ply: -1})
		}
		// EndFlag: the side to move thinks until its flag falls.
		return
	}
	think := s.thinkTime(i, mover, t0)
	if i > 0 {
		if _, ok := s.has(i-1, MergedPress); ok {
			think = s.randDur(300*time.Millisecond, 700*time.Millisecond)
		}
	}
	if _, ok := s.has(i, MergedPress); ok {
		s.mergeAt = i
	}
	s.planMove(t0, i, mover, think, true)
}

// lineFaults notes each scripted action of ply i at t0 and schedules the
// faults of the line and the clock among them: noise, dropped messages,
// the clock cut off and an unplugged board.
func (s *sim) lineFaults(t0 time.Duration, i int) {
	for _, a := range s.script[i] {
		s.note(t0, i+1, "action", "emulate.note.action", a.String())
		switch a.Kind {
		case Garbage:
			s.push(&event{at: t0 + 50*time.Millisecond, kind: evGarbage, ply: i, n: cmp.Or(a.N, 8)})
		case DropField:
			s.dropField = cmp.Or(a.N, 1)
		case DropClock:
			s.dropArmed, s.dropArmedN = i, cmp.Or(a.N, 1)
		case ClockOff:
			s.push(&event{at: t0, kind: evClockOff, ply: i})
			if a.For > 0 {
				s.push(&event{at: t0 + a.For, kind: evClockOn, ply: i})
			}
		case Unplug:
			if a.For > 0 {
				s.push(&event{at: t0, kind: evUnplug, ply: i, n: 1})
				s.push(&event{at: t0 + a.For, kind: evReplug, ply: i})
			} else {
				s.push(&event{at: t0, kind: evUnplug, ply: i})
			}
		}
	}
}

// mover is the player who makes ply i (after the last ply: the side to
// move in the final position).
func (s *sim) mover(i int) Player {
	if i < len(s.plies) {
		return colorPlayer(s.plies[i].before.Turn())
	}
	return colorPlayer(s.lastPosition().Turn())
}

// arbiter plays ply i's arbiter actions: one stop, each change of time a
// couple of seconds apart, the restart; it returns when play goes on.
func (s *sim) arbiter(t0 time.Duration, i int) time.Duration {
	var acts []Action
	for _, a := range s.script[i] {
		if a.Kind == Arbiter {
			acts = append(acts, a)
		}
	}
	if len(acts) == 0 {
		return t0
	}
	stop := t0 + s.randDur(500*time.Millisecond, 1500*time.Millisecond)
	s.push(&event{at: stop, kind: evPause, ply: -1})
	hold := 20 * time.Second
	at := stop
	for _, a := range acts {
		if a.For > 0 {
			hold = max(hold, a.For)
		}
		if a.By != 0 {
			at += s.randDur(2*time.Second, 4*time.Second)
			s.push(&event{at: at, kind: evAdjust, side: a.Side, by: a.By, ply: -1})
		}
	}
	end := max(stop+hold, at+time.Second)
	s.push(&event{at: end, kind: evResume, ply: -1})
	return end
}

func colorPlayer(c chess.Color) Player {
	if c == chess.Black {
		return Black
	}
	return White
}

func (s *sim) lastPosition() *chess.Position {
	if len(s.plies) == 0 {
		return s.start
	}
	return s.plies[len(s.plies)-1].after
}

// planMove schedules the physical ops of ply i to end shortly before t0 +
// think, then the press (unless the script says otherwise) and the next ply.
func (s *sim) planMove(t0 time.Duration, i int, mover Player, think time.Duration, press bool) {
	pl := s.plies[i]
	_, wrong := s.has(i, SlideWrong)
	ops := moveOps(s.rng, pl.before, pl.move, wrong)
	if _, ok := s.has(i, Takeback); ok {
		ops = s.takebackOps(pl, ops)
	}
	fast := false
	if _, ok := s.has(i, TwoPlies); ok {
		fast = true
	}
	if i > 0 {
		if _, ok := s.has(i-1, TwoPlies); ok {
			fast = true
		}
	}
	pressGap := s.randDur(200*time.Millisecond, 800*time.Millisecond)
	var opsStart, pressAt time.Duration
	if fast {
		// Both plies' ops fit in one scan interval: squeeze the ops 4 ms
		// apart, right after a scan.
		for k := range ops {
			ops[k].at = time.Duration(k+1) * 4 * time.Millisecond
		}
		if _, first := s.has(i, TwoPlies); first {
			opsStart = (t0+think)/scanPeriod*scanPeriod + scanPeriod + time.Millisecond
			pressAt = opsStart + ops[len(ops)-1].at + 4*time.Millisecond
		} else {
			opsStart = t0 + 4*time.Millisecond
			pressAt = opsStart + ops[len(ops)-1].at + pressGap
		}
	} else {
		dur := ops[len(ops)-1].at
		opsStart = t0 + think - pressGap - dur
		if min := t0 + 100*time.Millisecond; opsStart < min {
			opsStart = min
		}
		pressAt = opsStart + dur + pressGap
	}
	for k, op := range ops {
		s.push(&event{at: opsStart + op.at, kind: evPhys, ply: i, op: op, last: k == len(ops)-1})
	}
	_, early := s.has(i, EarlyPeriod)
	_, noPress := s.has(i, NoPress)
	next := pressAt
	if press && !noPress {
		s.push(&event{at: pressAt, kind: evPress, side: mover, ply: i, early: early})
		if _, ok := s.has(i, ExtraPress); ok {
			t1 := pressAt + s.randDur(300*time.Millisecond, 800*time.Millisecond)
			t2 := t1 + s.randDur(300*time.Millisecond, 800*time.Millisecond)
			s.push(&event{at: t1, kind: evPress, side: mover.Other(), ply: -1})
			s.push(&event{at: t2, kind: evPress, side: mover, ply: -1})
			next = t2
		}
	}
	if !press {
		return // a flag will stop the game first
	}
	s.push(&event{at: next, kind: evPly, ply: i + 1})
}

// takebackOps prefixes the ops of ply pl with another legal move made and
// taken back.
func (s *sim) takebackOps(pl ply, ops []physOp) []physOp {
	valid := pl.before.ValidMoves()
	alt := pl.move
	if len(valid) > 1 {
		for {
			alt = valid[s.rng.Intn(len(valid))]
			if alt.S1() != pl.move.S1() || alt.S2() != pl.move.S2() || alt.Promo() != pl.move.Promo() {
				break
			}
		}
	}
	altOps := moveOps(s.rng, pl.before, alt, false)
	back := diffOps(s.rng, boardOf(pl.before.Update(alt)), boardOf(pl.before))
	var out []physOp
	t := time.Duration(0)
	add := func(list []physOp, pause time.Duration) {
		base := t
		for _, op := range list {
			op.at += base
			out = append(out, op)
			t = op.at
		}
		t += pause
	}
	add(altOps, s.randDur(800*time.Millisecond, 2*time.Second))
	add(back, s.randDur(500*time.Millisecond, 1500*time.Millisecond))
	add(ops, 0)
	return out
}

// kingsSignal puts both kings on the centre squares at at (1-0: light
// squares e4/d5; 0-1: dark squares d4/e5; draw: e4 and e5) and stops the
// clock: the game is over.
func (s *sim) kingsSignal(at time.Duration, result string) {
	target := s.phys
	wk, bk := chess.NoSquare, chess.NoSquare
	for sq, p := range target {
		switch p {
		case chess.WhiteKing:
			wk = chess.Square(sq)
		case chess.BlackKing:
			bk = chess.Square(sq)
		}
	}
	ws, bs := chess.E4, chess.D5
	switch result {
	case "0-1":
		ws, bs = chess.D4, chess.E5
	case "1/2-1/2":
		ws, bs = chess.E4, chess.E5
	}
	if wk != chess.NoSquare {
		target[wk] = chess.NoPiece
	}
	if bk != chess.NoSquare {
		target[bk] = chess.NoPiece
	}
	target[ws] = chess.WhiteKing
	target[bs] = chess.BlackKing
	ops := diffOps(s.rng, s.phys, target)
	for _, op := range ops {
		s.push(&event{at: at + op.at, kind: evPhys, ply: -2, op: op})
	}
	s.opsBegun[-2] = true
	end := at + ops[len(ops)-1].at + s.randDur(time.Second, 2*time.Second)
	s.push(&event{at: end, kind: evStop, ply: -1})
	s.over = true
}

// Note is something the emulation did, for a log or a demo's commentary.
type Note struct {
	At   time.Duration // emulated time since play began
	Ply  int           // the 1-based ply it belongs to (0: none)
	Kind string        // "move", "press", "period", "flag", "stop", "action"
	Text string        // in words, in English
	// Msg is Text as a sentence of the catalogs, for a log in another
	// language (arbiterd emulate --lang).
	Msg i18n.Message
}

// note tells the observer, if any, of something the emulation did: the
// sentence of code with args.
func (s *sim) note(at time.Duration, plyNo int, kind, code string, args ...any) {
	if s.cfg.Observe == nil {
		return
	}
	if plyNo < 0 {
		plyNo = 0
	}
	m := i18n.M(code, args...)
	s.cfg.Observe(Note{At: at, Ply: plyNo, Kind: kind, Text: i18n.English.Text(m), Msg: m})
}

// arbiterSetClock follows the arbiter's change to the clock at at: a note
// of what was done with both times, and the display sent anew.
func (s *sim) arbiterSetClock(at time.Duration, what i18n.Message) {
	s.note(at, 0, "arbiter", "emulate.note.arbiter", what, s.times(at))
	s.clockGen++
	s.clockChanged(at, true)
}

// times renders both clocks as displayed at at.
func (s *sim) times(at time.Duration) i18n.Message {
	return i18n.M("emulate.note.times",
		clockText(ceilSecond(s.clock.remaining(White, at))), clockText(ceilSecond(s.clock.remaining(Black, at))))
}

func clockText(d time.Duration) string {
	secs := int(d / time.Second)
	return fmt.Sprintf("%d:%02d:%02d", secs/3600, secs/60%60, secs%60)
}

// title is p in words at the start of a sentence: "White", "Las blancas".
func title(p Player) i18n.Cap { return i18n.Cap{Arg: sideWord(p, true)} }

// sideWord is p in words: "White" (title) or "white"; "las blancas".
func sideWord(p Player, title bool) i18n.Message {
	code := "emulate.note.black"
	if p == White {
		code = "emulate.note.white"
	}
	if title {
		code += ".title"
	}
	return i18n.M(code)
}
