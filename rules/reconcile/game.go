package reconcile

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules"
)

// Defaults of Config.
const (
	DefaultScanLag          = 1500 * time.Millisecond
	DefaultMaxPlies         = 4
	DefaultUnexplainedAfter = 10 * time.Second
	maxMaxPlies             = 8
	// resyncPlies is how deep arbiterd searches, once, for the moves made
	// while the board was not read, when the board has come back showing
	// a position MaxPlies do not reach.
	resyncPlies = 8
)

// MateOracle answers the 6.9 question: can side still checkmate by any
// series of legal moves from the position fen? The answer is "yes" (with a
// line of UCI moves ending in mate), "no" or "unknown". It must be sound:
// "no" only when provably so.
type MateOracle interface {
	CanMate(fen string, side clockd.Side) (answer Mate, line []string)
}

// Config sets up one game.
type Config struct {
	Board       string             // board id written into every event
	StartFEN    string             // "" = the standard starting position
	TimeControl clockd.TimeControl // zero value: unknown, and flag verdicts say so
	Class       clockd.Class       // illegal-move penalties: Standard 2 minutes, Rapid/Blitz 1 minute (7.5.5, A.3)
	Oracle      MateOracle         // nil: a sound built-in test that answers "no" only for evident cases
	// ScanLag is how far a press and the board may disagree in time: a
	// press waits this long for the board to show its move, and a move that
	// seems to complete another one without a press waits this long for
	// the press reading. Default DefaultScanLag.
	ScanLag time.Duration
	// MaxPlies is the longest move sequence searched between two board
	// states (default 4).
	MaxPlies int
	// DefaultTime is the event's default time (6.7.1): how long after the
	// start of the round a player may arrive at the board. The start of
	// the round is the moment the clock starts. When it passes with the
	// first move of White (or Black's reply) not made, an anomaly asks the
	// arbiter to check that player's presence; the decision is the
	// arbiter's. 0: not checked (a default time of 0, players present at
	// the start, is not something a board can see).
	DefaultTime time.Duration
	// UnexplainedAfter is how long the board may show a position nothing
	// explains, with no press, before an unexplained-position (or
	// two-moves) anomaly is raised. Default DefaultUnexplainedAfter.
	UnexplainedAfter time.Duration
}

// Game is the per-game reconciliation state machine. It is not safe for
// concurrent use; feed it inputs in time order from one goroutine.
//
// Its state comes in two lifetimes. The session's (the sequence of events,
// the board's orientation, the clock's last readings, the inputs so far)
// outlives a game: a board that shows the start position after a game
// ended begins a new game in the same Game. Everything else belongs to one
// game and is set anew by reset, one whole group at a time: the record,
// the presses waiting for moves, the periods and flags, the board's
// absences, the plies held back, the unexplained board, the arbiter's hand
// and the claims.
type Game struct {
	cfg   Config
	start *chess.Position
	base  Moves // moves completed before StartFEN (from its move number)

	// The session: not reset by a new game.
	em     emitter       // the event stream: the board id and the last seq
	facing facing        // which way round the board stands, once it has shown the game
	clock  clockd.Times  // the last displayed clock values
	now    time.Duration // the latest input time
	inputs int           // board and clock inputs so far
	// first: the board's latest reading before it showed the game, and
	// whether it was searched as a game under way (see gameUnderWay).
	first firstRead
	// round: whether the clock has started, and whether the default
	// time (6.7.1) was checked since; startedAt: when it started first.
	round     roundState
	startedAt time.Duration
	// join: the clock was first read with the game under way
	// (clockd.ClockEvent.UnderWay; on), at, and whether the board was
	// checked for the starting position a scan lag later (checked; see
	// joinedAtTheStart).
	join joined

	// The record (see ledger.go), and what the board shows of it.
	led  ledger
	view boardView     // what the board shows, against the record
	ref  *clockd.Clock // reference clock driven by completed presses (expected times)
	end  *gameEnd      // the game's end (nil: not ended)
	// atStart: since when the board shows the starting position in the
	// middle of the game (reset, or another board put in its place); nil
	// when it does not. The record is kept; presses are not judged until
	// the board shows a position that follows from the record again.
	atStart *time.Duration

	waiting pressQueue // presses waiting for the moves they complete
	flag    flagState  // periods, flags, the clock's stops
	away    absence    // the board's absences and the search after them
	hand    hand       // the arbiter's touches of the clock (see hand.go)
	claims  claimBook  // draw claims (see claim.go)

	work work // the loop's steps (see loop.go)
}

// gameEnd is how a game ended: its result and the reason.
type gameEnd struct{ result, reason string }

// facing is which way round the board stands: unknown until it has shown
// the game (see orientTo), then with White's pieces at its own first ranks
// or with Black's.
type facing uint8

const (
	facingUnknown facing = iota
	facingWhiteBottom
	facingBlackBottom
)

// facingOf is the facing of a board oriented o.
func facingOf(o rules.Orientation) facing {
	if o == rules.BlackBottom {
		return facingBlackBottom
	}
	return facingWhiteBottom
}

// known reports whether the board has shown the game.
func (f facing) known() bool { return f != facingUnknown }

// orientation is the board's orientation; rules.WhiteBottom while unknown.
func (f facing) orientation() rules.Orientation {
	if f == facingBlackBottom {
		return rules.BlackBottom
	}
	return rules.WhiteBottom
}

const (
	notJoined joinState = iota
	joinedUnchecked
	joinedChecked
)

const (
	facesSet      clockFaces = iota // as configured, or learnt
	facesGuessed                    // a guess: the left face White's
	facesMirrored                   // learnt from the presses: the guess turned round
)

// firstRead is the board's latest reading before it showed the game, and
// whether it was searched as a game under way.
type firstRead struct {
	snap  rules.Snapshot
	state firstReading
}

// firstReading is where the board's first reading, before it showed the
// game, stands.
type firstReading uint8

const (
	notRead         firstReading = iota
	readNotSearched              // read, not yet searched as a game under way
	readAndSearched              // searched once (see gameUnderWay)
)

// New returns a Game for cfg, or an error naming the bad setting.
func New(cfg Config) (*Game, error) {
	if cfg.ScanLag < 0 {
		return nil, fmt.Errorf("reconcile: ScanLag %v is negative", cfg.ScanLag)
	}
	if cfg.ScanLag == 0 {
		cfg.ScanLag = DefaultScanLag
	}
	if cfg.MaxPlies < 0 || cfg.MaxPlies > maxMaxPlies {
		return nil, fmt.Errorf("reconcile: MaxPlies %d is outside 1..%d", cfg.MaxPlies, maxMaxPlies)
	}
	if cfg.MaxPlies == 0 {
		cfg.MaxPlies = DefaultMaxPlies
	}
	if cfg.DefaultTime < 0 {
		return nil, fmt.Errorf("reconcile: DefaultTime %v is negative", cfg.DefaultTime)
	}
	if cfg.UnexplainedAfter < 0 {
		return nil, fmt.Errorf("reconcile: UnexplainedAfter %v is negative", cfg.UnexplainedAfter)
	}
	if cfg.UnexplainedAfter == 0 {
		cfg.UnexplainedAfter = DefaultUnexplainedAfter
	}
	for i, p := range cfg.TimeControl.Periods {
		if p.Time < 0 || p.Moves < 0 || p.Increment < 0 {
			return nil, fmt.Errorf("reconcile: time control period %d has a negative field", i+1)
		}
	}
	rec, err := rules.NewGame(cfg.StartFEN)
	if err != nil {
		return nil, fmt.Errorf("reconcile: start position: %w", err)
	}
	g := &Game{cfg: cfg, em: emitter{board: cfg.Board}}
	g.start = rec.Position()
	g.base = movesBefore(g.start)
	g.reset(rec)
	return g, nil
}

// reset starts a new game from the start position with the record rec.
func (g *Game) reset(rec *rules.Game) {
	g.led.reset(rec, g.base)
	g.view.reset(g.start)
	g.end = nil
	g.atStart = nil
	g.waiting = pressQueue{}
	g.flag = flagState{}
	g.away = absence{}
	g.hand = hand{}
	g.claims = nil
	g.join = joined{} // a new game: its clock speaks afresh (a mirror learned for the last one included)
	g.ref = clockd.NewClock(g.cfg.TimeControl)
	for _, s := range []clockd.Side{clockd.White, clockd.Black} {
		g.ref.SetPeriod(s, g.flag.startPeriod(s, g.cfg.TimeControl, g.led.counts.Of(s)), g.led.counts.Of(s))
	}
}

// movesBefore derives the moves each side completed before a position
// from its FEN move number and side to move.
func movesBefore(p *chess.Position) Moves {
	f := strings.Fields(p.String())
	n := 1
	if len(f) == 6 {
		if v, err := strconv.Atoi(f[5]); err == nil && v >= 1 {
			n = v
		}
	}
	m := Moves{White: n - 1, Black: n - 1}
	if p.Turn() == chess.Black {
		m.White++
	}
	return m
}

// Advance tells the Game that time has reached at: deadlines that have
// passed (a press waiting for its move, a move waiting for its press, a
// settled game end, a flag verdict) are resolved.
func (g *Game) Advance(at time.Duration) []Event {
	var out []Event
	g.advance(&out, at, at)
	return out
}

// Session reports a session event (state start/connected/disconnected/
// resync/end) on a board's port. At "end" every pending decision is taken.
func (g *Game) Session(at time.Duration, state State, port string) []Event {
	return g.session(at, state, port, false)
}

// ClockSession is Session on the port of a separate clock, a port whose
// declared driver is a clock's (lineclock): a clock going away or coming
// back says nothing about the board.
func (g *Game) ClockSession(at time.Duration, state State, port string) []Event {
	return g.session(at, state, port, true)
}

func (g *Game) session(at time.Duration, state State, port string, clock bool) []Event {
	var out []Event
	switch state {
	case StateStart, StateConnected, StateDisconnected, StateResync, StateEnd:
	default:
		g.em.anomaly(&out, at, KindBadInput, 0, true, "–",
			say(TextSessionUnknown, string(state), port))
		return out
	}
	if (state == StateConnected || state == StateResync) && !clock {
		// The board is back: what it shows may be several plies on. A
		// clock coming back changes nothing on the board.
		g.away.resync()
		g.away.connected()
	}
	if state == StateEnd {
		g.advance(&out, at, noDeadline)
	} else {
		g.advance(&out, at, at)
	}
	g.em.emit(&out, at, Event{Type: TypeSession, State: state, Port: port})
	if state == StateDisconnected {
		kind, what := KindBoardDisconnected, TextBoardStopped
		if clock {
			kind, what = KindClockDisconnected, TextClockStoppedPort
		} else {
			g.away.disconnect(at, g.inputs)
		}
		g.em.anomaly(&out, at, kind, 0, true, "–",
			say(what, port))
	}
	return out
}

// Board reports the board's state at time at (after every change, settled
// or not), in the board's own frame.
func (g *Game) Board(at time.Duration, s rules.Snapshot) []Event {
	return g.board(at, s, false)
}

// board reports the board's state; dump: as read afresh (Dump).
func (g *Game) board(at time.Duration, s rules.Snapshot, dump bool) []Event {
	var out []Event
	g.inputs++
	g.advance(&out, at, at)
	if dump {
		first := g.away.dumpRead()
		if g.facing.known() && g.end == nil && g.view.dumped(first, g.facing.orientation(), s) {
			g.away.contradicted(first, g.view.boardRead)
		}
	}
	if g.away.disconnected {
		// The board is read again: how long it has shown what it shows
		// counts from now, not across the time it was not read.
		g.view.readAgain(at, g.inputs)
		if g.waiting.turn.board == wordUnread {
			// The clock spoke while the board was not read: its word is
			// about the position the board is first read with if this
			// reading is a dump, and goes stale as that changes (see
			// clockTurn); a field update is a change, so the word is
			// about the position before it.
			g.waiting.tieWord(g.view.snap)
			if dump {
				defer func() { g.waiting.wordAbout(g.view.snap) }()
			}
		}
		defer g.away.reconnected()
	}
	if dump && g.waiting.turn.board == wordUndumped {
		g.waiting.wordOnDump()
		defer func() { g.waiting.wordAbout(g.view.snap) }()
	}
	if (!g.facing.known() || g.end != nil) && !g.orientTo(&out, at, s) {
		return out
	}
	g.show(&out, at, s)
	g.view.boardWasRead(at, g.inputs)
	return out
}

// show takes s, in the board's own frame, as what the board shows of the
// game.
func (g *Game) show(out *[]Event, at time.Duration, s rules.Snapshot) {
	raw := s
	if g.facing == facingBlackBottom {
		s = s.Rotated()
	}
	g.view.see(g.led.rec, s)
	if !g.boardReset(out, at, raw) {
		g.process(out, at)
		g.drain(out, at) // what the board decided is done before the input goes on
	}
}

// orientTo looks for the game on a board not yet oriented (or after the
// game ended, for the next one), as decideOrient decides, and applies what
// it found. It reports whether s is to be followed as a position of the
// game now (false: waiting for the start, or the start itself, which the
// orientation event reports).
func (g *Game) orientTo(out *[]Event, at time.Duration, s rules.Snapshot) bool {
	spoke := !g.facing.known() && g.waiting.clockSpoke(g.round.started())
	d := decideOrient(s, g.start, g.facing.known(), g.first, spoke, g.led.rec, g.join.state)
	g.first = d.first
	if !d.found {
		if !g.facing.known() && !g.view.unexplained.on() {
			// pieces being set up; said once if it lasts (see advance)
			g.view.unexplained.begin(stamp{at, g.inputs})
		}
		return false
	}
	g.view.unexplained.clear()
	if g.end != nil {
		rec, err := rules.NewGame(g.cfg.StartFEN)
		if err != nil { // New checked the FEN; keep the old record
			return false
		}
		g.reset(rec)
	}
	g.facing = facingOf(d.o)
	g.em.emit(out, at, Event{Type: TypePosition, FEN: g.start.String(), Orientation: d.o.String()})
	if !d.underWay {
		// Presses read before the board showed the game were made
		// when arbiterd could not see what was on it: not judged.
		g.waiting.dropAll()
		return false
	}
	// The board is first read with the game under way (arbiterd
	// started, or restarted, after the first moves): the moves made
	// before are those of an absence from the start, searched to the
	// full depth, held until they settle, and reported as unverified
	// when more than a quick pair; the presses read meanwhile wait.
	g.away.fromTheStart()
	return true
}

// boardReset applies what decideReset decides of a board showing the
// starting position in the middle of the game: the arbiter is told once,
// and the record, its completed moves included, is kept. It reports
// whether the snapshot was taken care of (raw is in the board's own
// frame).
func (g *Game) boardReset(out *[]Event, at time.Duration, raw rules.Snapshot) bool {
	d := decideReset(g.led.rec, g.led.boards, g.start, g.facing, g.atStart != nil, g.view.snap, raw)
	if d.turned {
		g.view.turned(d.alt)
		g.facing = facingOf(d.other)
	}
	switch d.kind {
	case resetNone:
		return false
	case resetGoesOn:
		return true
	case resetEnds:
		g.atStart = nil
		return false
	}
	g.atStart = &at
	g.view.letGo()
	g.away.nothingFar()
	var turned any = ""
	if d.o != g.facing.orientation() {
		turned = Text{Code: TextBoardResetTurned}
	}
	n := g.led.plyBase + g.led.rec.Ply()
	after := say(TextBoardResetPly, n)
	if k := len(g.led.plies); k > 0 && !g.led.plies[k-1].unverified() {
		after = say(TextBoardResetPlyMove, n, g.led.moveText(k-1))
	}
	g.em.anomaly(out, at, KindBoardReset, 0, true, "–", say(TextBoardReset,
		turned, after, g.led.counts.White, g.led.counts.Black, n, g.led.rec.FEN(), hms(g.clock.White), hms(g.clock.Black)))
	return true
}

// Dump reports the board's whole state as read afresh from the device (a
// DGT board dump, answering a poll or a reconnection), where Board reports
// a change. A dump that contradicts the last state reported means changes
// were lost (dropped field updates, a board that lost power and came back):
// the plies made meanwhile were not seen, so the board is treated as back
// from an absence — searched to the full depth, several plies held until
// they settle and reported as unverified rather than completed.
func (g *Game) Dump(at time.Duration, s rules.Snapshot) []Event {
	return g.board(at, s, true)
}

// Clock reports an interpreted clock event.
func (g *Game) Clock(ev clockd.ClockEvent) []Event {
	var out []Event
	g.inputs++
	if g.join.faces == facesMirrored {
		ev = mirrored(ev)
	}
	at := ev.At
	if t := g.waiting.turn; ev.Kind == clockd.Running && (!t.seen() || t.toMove != ev.Side || t.at <= g.away.at) {
		// What a reading taken as a whole says of the turn is known
		// before what falls due with it is decided: the board's deadline
		// after an absence may fall due with this very reading. A reading
		// that names the side the clock already said was to move since
		// the absence says nothing new, and the board may have changed
		// since by that side's own move, not yet pressed: the word stays
		// tied to the position the board showed when it was given.
		g.waiting.clockSays(g.away.awayFacts, g.view.snap, ev.Side, at)
	}
	g.advance(&out, at, at)
	switch ev.Kind {
	case clockd.Started:
		g.clockStarted(&out, at, ev)
	case clockd.Press:
		g.clockPressed(&out, at, ev)
	case clockd.Flag:
		g.clock = ev.Clock
		g.flag.clockFlag(g.inputs, ev)
	case clockd.PeriodAdded:
		g.clock = ev.Clock
		g.flag.clockPeriodAdded(&g.em, g.waiting.firstIn(ev.Side), g.led.counts, g.inputs, len(g.cfg.TimeControl.Periods) > 0 && g.end == nil && g.atStart == nil, &out, at, ev)
	case clockd.Stopped:
		g.clock = ev.Clock
		g.ref.Stop(at)
		g.hand.clockPaused(ev)
		if g.end == nil {
			g.flag.stopped(ev)
		}
	case clockd.Resumed:
		g.ref.Resume(at)
		g.clock = ev.Clock
		if g.hand.clockRuns(&g.em, g.end != nil, len(g.flag.stops) > 0, g.led.counts.White+g.led.counts.Black, &out, at, ev.Clock) {
			g.flag.takeStop() // decided by the time changed meanwhile
		}
	case clockd.Adjusted:
		g.clock = ev.Clock
		g.hand.timeChanged(g.ref, g.round.started() && g.end == nil, at, ev)
	case clockd.Impossible:
		g.em.anomaly(&out, at, KindClockReading, 0, true, "6.10",
			say(TextReadingImpossible, ev.Detail))
	case clockd.Disconnected:
		g.em.anomaly(&out, at, KindClockDisconnected, 0, true, "–",
			Text{Code: TextNoClock})
	case clockd.Connected, clockd.Running:
		g.clock = ev.Clock
	case clockd.Convention:
		// What the clock's signs of whose time runs mean changed, or the
		// displays contradict White's face as set: rare, and the arbiter
		// should know.
		g.em.anomaly(&out, at, KindClockReading, 0, true, "6.10", say(TextReadingLook, ev.Detail))
	case clockd.Reset:
		before := g.clock
		g.clock = ev.Clock
		g.flag.clockWasReset()
		g.hand.clockWasReset(&g.em, g.led.counts.White+g.led.counts.Black, g.end != nil, before, &out, at, ev)
	}
	if !g.facing.known() && g.first.state == readNotSearched && g.waiting.clockSpoke(g.round.started()) && g.orientTo(&out, at, g.first.snap) {
		// The board shows something else than the start: now that the
		// clock has spoken, it may be a game under way (see gameUnderWay).
		g.show(&out, at, g.first.snap)
	}
	return out
}

// clockStarted handles the clock started: the round begins for this board
// (6.7.1), or, after a reset, the clock runs again with the times the
// arbiter set back.
func (g *Game) clockStarted(out *[]Event, at time.Duration, ev clockd.ClockEvent) {
	if g.round.started() {
		// the clock runs again after a reset: the times the
		// arbiter set back are an adjustment
		if g.hand.clockRuns(&g.em, g.end != nil, len(g.flag.stops) > 0, g.led.counts.White+g.led.counts.Black, out, at, ev.Clock) {
			g.flag.takeStop() // decided by the time changed meanwhile
		}
		g.ref.Resume(at)
		refTimes(g.ref, ev.Clock, at)
	} else {
		g.startedAt = at // the round starts for this board (6.7.1)
	}
	if g.round == roundNotStarted {
		g.round = roundStarted
	}
	g.clock = ev.Clock
	g.ref.Start(at)
	if ev.UnderWay && g.join.state == notJoined {
		// The clock was first read with the game under way: the round
		// started before arbiterd read this board (no default time to
		// check), and the board may show a position too far on for the
		// search from the start (see joinedAt).
		g.join, g.round = joined{state: joinedUnchecked, at: at, faces: guessedIf(ev.WhiteGuessed)}, roundDefaultChecked
		if ev.Side == clockd.Black {
			g.ref.Press(clockd.White, at, 0)
		}
		refTimes(g.ref, ev.Clock, at)
	}
}

// clockPressed records a press: it waits to be resolved against the board
// (resolvePress).
func (g *Game) clockPressed(out *[]Event, at time.Duration, ev clockd.ClockEvent) {
	ev, turned := g.join.learnFaces(g.led.record, ev)
	if turned {
		g.waiting.mirror()
		refTimes(g.ref, ev.Clock, ev.At)
		g.led.misnamed()
	}
	g.clock = ev.Clock
	g.flag.pressRead()
	g.waiting.pressed(g.away.awayFacts, g.view.snap, ev, g.inputs, g.end != nil)
	g.em.emit(out, at, Event{Type: TypePress, Side: ev.Side, Clock: ev.Clock, Inferred: ev.Inferred})
}

// State summarises the game for dashboards and tests.
func (g *Game) State() Summary {
	s := Summary{
		Ply:       g.led.plyBase + g.led.rec.Ply(),
		FEN:       g.led.rec.FEN(),
		Completed: g.led.counts,
		Clock:     g.clock,
		Expected:  g.ref.Times(g.now),
		Period:    g.flag.hwPeriod,
		Illegal:   g.hand.illegal,
	}
	if g.end != nil {
		s.Result, s.EndReason = g.end.result, g.end.reason
	}
	switch {
	case !g.facing.known():
		s.Status = StatusWaiting
	case g.end != nil:
		s.Status = StatusEnded
	default:
		s.Status = StatusPlaying
	}
	if g.facing.known() {
		s.Orientation = g.facing.orientation().String()
	}
	for i, p := range g.led.plies {
		if !p.completed() {
			s.Uncompleted = append(s.Uncompleted, g.led.plyBase+i+1)
		}
	}
	for _, p := range g.waiting.presses {
		s.Pending = append(s.Pending, fmt.Sprintf("%s press at %s waits for its move", p.ev.Side, seconds(p.ev.At)))
	}
	for _, f := range g.flag.flags {
		s.Pending = append(s.Pending, fmt.Sprintf("%s flag at %s awaits its verdict", f.Side, seconds(f.At)))
	}
	if g.view.unexplained.on() {
		s.Pending = append(s.Pending, fmt.Sprintf("board unexplained since %s", seconds(g.view.unexplained.since.at)))
	}
	if g.atStart != nil {
		s.Pending = append(s.Pending, fmt.Sprintf("board shows the starting position since %s; the game's position is awaited", seconds(*g.atStart)))
	}
	return s
}

// ActionKind is what an arbiter did.
type ActionKind int

// Arbiter actions.
const (
	ActTakeBack ActionKind = iota + 1 // restore the position after Ply (7.1)
	ActSetClock                       // the arbiter set Side's clock to Time (6.10, 7.5.5)
	ActClaim                          // Side claims a draw near the end of a period (10.2)
	ActDecide                         // the arbiter's Decision on the claim of seq Claim
)

// ArbiterAction is an explicit decision of the arbiter, fed alongside the
// devices' inputs.
type ArbiterAction struct {
	Kind     ActionKind
	Ply      int
	Side     clockd.Side
	Time     time.Duration
	Claim    int    // ActDecide: the claim event's seq
	Decision string // ActDecide: DecisionAccepted, DecisionRejected or DecisionPostponed
	Arbiter  string // ActClaim, ActDecide: who recorded it (the claim or decision event's arbiter), when known
}

// ErrBadAction is wrapped by the anomaly detail of an action that cannot
// be applied; Arbiter reports it through Event.Detail.
var ErrBadAction = errors.New("reconcile: bad arbiter action")

// Arbiter applies an explicit arbiter action.
func (g *Game) Arbiter(at time.Duration, a ArbiterAction) []Event {
	var out []Event
	g.advance(&out, at, at)
	switch a.Kind {
	case ActTakeBack:
		if a.Ply < g.led.plyBase || a.Ply > g.led.plyBase+g.led.rec.Ply() {
			g.em.anomaly(&out, at, KindBadInput, 0, true, "7.1",
				say(TextBadTakeBack, badAction, a.Ply, g.led.plyBase, g.led.plyBase+g.led.rec.Ply()))
			return out
		}
		g.away.unlaid(g.led.retract(&g.em, &out, at, a.Ply-g.led.plyBase, nil, retractByArbiter))
		if g.end != nil {
			g.end = nil
		}
	case ActSetClock:
		if a.Time < 0 {
			g.em.anomaly(&out, at, KindBadInput, a.Side, false, "6.10",
				say(TextBadClockTime, badAction, a.Time.String()))
			return out
		}
		if a.Side == clockd.Black {
			g.clock.Black = a.Time
		} else {
			g.clock.White = a.Time
		}
	case ActClaim:
		if g.end != nil {
			g.em.anomaly(&out, at, KindBadInput, a.Side, false, "10.2", say(TextBadClaimEnded, badAction))
			return out
		}
		g.claims.claimed(&g.em, g.cfg, g.led.record, g.led.movesSince(at-recentWindow), g.clock, &out, at, a.Side)
	case ActDecide:
		drawn, rejected := g.claims.decided(&g.em, &out, at, a.Claim, a.Decision)
		if rejected != nil {
			g.hand.claimRejected(out[len(out)-1], g.led.counts.White+g.led.counts.Black, rejected)
		}
		if drawn && g.end == nil {
			g.finish(&out, at, "1/2-1/2", "claim", "10.2")
		}
	default:
		g.em.anomaly(&out, at, KindBadInput, 0, true, "–", say(TextBadKind, badAction, int(a.Kind)))
	}
	for i := range out {
		if out[i].Type == TypeClaim || out[i].Type == TypeDecision {
			out[i].Arbiter = a.Arbiter
		}
	}
	return out
}
