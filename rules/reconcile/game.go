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

// plyInfo is what the Game knows about one ply of its record.
type plyInfo struct {
	side   clockd.Side
	made   stamp // the input that made it
	status plyStatus
	press  stamp // the press that completed it (when pressed)
	warned bool  // move-without-press already reported
}

// plyStatus is where a ply of the record stands (6.2.1).
type plyStatus uint8

const (
	plyMade       plyStatus = iota // on the board, not completed
	plyPressed                     // completed by its side's press
	plyByNextMove                  // completed by its side's next move
	plyByGameEnd                   // completed by ending the game
	// plyUnverified: made while the board was not read, and arbiterd could
	// not verify it. It stands in the record so that the record reaches
	// the board's position, but it is never completed, never counted and
	// never announced as a move; nothing waits for it.
	plyUnverified
)

// completedBy is the status a completion by gives.
func completedBy(by By) plyStatus {
	switch by {
	case ByPress:
		return plyPressed
	case ByGameEnd:
		return plyByGameEnd
	}
	return plyByNextMove
}

// completed reports whether nothing waits for the ply any more: it was
// completed, or it is unverified.
func (p plyInfo) completed() bool { return p.status != plyMade }

// pressed reports whether the ply was completed by its side's press.
func (p plyInfo) pressed() bool { return p.status == plyPressed }

// unverified reports whether the ply was made unseen (plyUnverified).
func (p plyInfo) unverified() bool { return p.status == plyUnverified }

// pendingPress is a press waiting for the move it completes.
type pendingPress struct {
	ev clockd.ClockEvent
	in int // the input that reported it (see Game.inputs)
}

// stamp is when the press was reported.
func (p pendingPress) stamp() stamp { return stamp{p.ev.At, p.in} }

// stamp is when an input came: its time, and its number among the inputs
// (Game.inputs). Inputs that carry the same time (several messages decoded
// from one read of a port) happened in the order they were fed, so that a
// press is paired with the board states that came before it in that
// order, not with the ones after it.
type stamp struct {
	at time.Duration
	in int
}

// before reports whether s came before o: by time, and by the order of
// input when the times are equal.
func (s stamp) before(o stamp) bool {
	return s.at < o.at || (s.at == o.at && s.in < o.in)
}

type periodCheck struct {
	ev clockd.ClockEvent
	in int // the input that reported it: presses after it are not its
	// done is the side's completed moves once every press up to the
	// addition was resolved (known): the count the addition is checked
	// against, whatever later presses completed before the check is due.
	done  int
	known bool
}

// snapChecks takes the count each period check of side s is judged by,
// once the presses up to its addition are resolved.
func (f *flagState) snapChecks(q *pressQueue, counts Moves, s clockd.Side) {
	for i := range f.checks {
		c := &f.checks[i]
		if c.ev.Side == s && !c.known && !q.pendingUpTo(s, c.in) {
			c.done, c.known = counts.Of(s), true
		}
	}
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
	em       emitter // the event stream: the board id and the last seq
	oriented bool
	orient   rules.Orientation
	clock    clockd.Times  // the last displayed clock values
	now      time.Duration // the latest input time
	inputs   int           // board and clock inputs so far
	// first: the board's latest reading before it showed the game, and
	// whether it was searched as a game under way (see gameUnderWay).
	first struct {
		snap  rules.Snapshot
		state firstReading
	}
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
	// atStart: the board shows the starting position in the middle of
	// the game (reset, or another board put in its place) since resetAt.
	// The record is kept; presses are not judged until the board shows a
	// position that follows from the record again.
	atStart bool
	resetAt time.Duration

	waiting pressQueue // presses waiting for the moves they complete
	flag    flagState  // periods, flags, the clock's stops
	away    absence    // the board's absences and the search after them
	hand    hand       // the arbiter's touches of the clock (see hand.go)
	claims  claimBook  // draw claims (see claim.go)

	work work // the loop's steps (see loop.go)
}

// boardView is what the board shows of the game: its latest snapshot and
// when it last changed, the plies it shows that are held, not yet
// accepted, and whether what it shows is explained. The board's latest
// reading (boardRead) outlives a game; the rest is set anew with it.
type boardView struct {
	snap      rules.Snapshot // the last snapshot, in White-bottom frame
	changed   stamp          // when the board last changed, and by which input
	boardRead stamp          // the latest board input
	// shown is the snapshot the board changed to at changed (nil: none
	// since the board was last read afresh); a snapshot equal to it
	// changes nothing.
	shown *rules.Snapshot
	// placed is the last snapshot that was not made from the one before by
	// lifting pieces only: while pieces are lifted (in a hand, or a taken
	// piece lifted before the capturing one lands) the game's position is
	// the one they were lifted from (see movedOnFrom).
	placed      rules.Snapshot
	held        held             // several plies the board shows, not yet accepted
	unexplained unexplainedBoard // the board shows what no legal sequence explains
}

// pressQueue is the presses that wait for the moves they complete (the press
// is the commit point, 6.2.1), and what the latest presses expect.
type pressQueue struct {
	presses []pendingPress
	// back: the latest press was the opponent's press without a move; the
	// press back of the side it names, with no move of its own, is
	// expected.
	back backExpected
	wait bool // the first pending press waits for the board to stand still (see resolvePress)
	// turn is the clock's latest word on the side to move (see clockTurn).
	turn clockWord
}

// backExpected names the side whose press back is expected, if any.
type backExpected uint8

const (
	noBackExpected backExpected = iota
	whiteBackExpected
	blackBackExpected
)

// backOf is the press back expected of side s.
func backOf(s clockd.Side) backExpected {
	if s == clockd.Black {
		return blackBackExpected
	}
	return whiteBackExpected
}

// clockWord is what the clock last said about the side to move: toMove,
// at at, when the board showed snap (see board: whether it had been read
// since it was last away). A press hands the move to the other side; a
// reading taken as a whole (clockd.Running) names the runner.
type clockWord struct {
	board  wordBoard // wordNone: the clock has said nothing
	toMove clockd.Side
	at     time.Duration
	snap   rules.Snapshot
}

// wordBoard is what the board showed when the clock gave its word.
type wordBoard uint8

const (
	wordNone wordBoard = iota // no word yet
	// wordUnread: given while the board was not read (disconnected):
	// snap is not known yet (see Game.board).
	wordUnread
	wordOnBoard // given about snap, the board as it was read
	// wordUndumped: given after the board was back and before it was
	// read whole (field updates laid on the image of before the
	// absence): it is about the position the board's first dump shows.
	wordUndumped
)

// seen reports whether the clock has given a word.
func (w clockWord) seen() bool { return w.board != wordNone }

// gameEnd is how a game ended: its result and the reason.
type gameEnd struct{ result, reason string }

// roundState is where the round stands for this board: the clock not yet
// started, started with the default time (6.7.1) still to check, or
// started and the default time checked (or not to be checked: a clock
// first read with the game under way).
type roundState uint8

const (
	roundNotStarted roundState = iota
	roundStarted
	roundDefaultChecked
)

// started reports whether the clock has started.
func (r roundState) started() bool { return r != roundNotStarted }

// joined is a clock first read with the game under way
// (clockd.ClockEvent.UnderWay), when (at), and whether the board was
// checked for the starting position a scan lag later (see
// joinedAtTheStart). faces: whether White's face is known, a guess
// (clock-white auto) until the presses read after the join say which
// (fits and misfits: see learnFaces), or learnt to be turned round.
type joined struct {
	state         joinState
	at            time.Duration
	faces         clockFaces
	fits, misfits int
}

// guessedIf is facesGuessed when guessed, else facesSet.
func guessedIf(guessed bool) clockFaces {
	if guessed {
		return facesGuessed
	}
	return facesSet
}

// joinState is whether the clock was first read with the game under way,
// and if so whether the board was checked for the start since.
type joinState uint8

const (
	notJoined joinState = iota
	joinedUnchecked
	joinedChecked
)

// clockFaces is what arbiterd knows of which face of the clock is White's.
type clockFaces uint8

const (
	facesSet      clockFaces = iota // as configured, or learnt
	facesGuessed                    // a guess: the left face White's
	facesMirrored                   // learnt from the presses: the guess turned round
)

// flagState is the periods and flags as the clock showed them and the
// checks they are due.
type flagState struct {
	flags      []fallen
	stops      []clockd.ClockEvent // clock stops not yet decided (6.11)
	checks     []periodCheck
	down       [2]bool // a side's flag has fallen
	sincePress bool    // a flag fell since the latest press
	hwPeriod   [2]int  // the period the clock shows for each side
}

// fallen is a flag awaiting its verdict, with the input that reported it:
// a press read after it, even at the same time, came after the flag.
type fallen struct {
	clockd.ClockEvent
	in int
}

// absence is what arbiterd knows of a board that went away (unplugged,
// powered off, changes lost) and of the plies made while it was.
type absence struct {
	disconnected bool // the board is disconnected: presses wait for it
	// search: whether the board's position is searched to the full
	// depth until it is explained again, and whether the board has been
	// away since at and is not yet explained (unsettled)
	search searchState
	at     time.Duration // when the board went away (or was last believed)
	in     int           // the last input read before it (see before)
	warned bool          // the unverified-moves anomaly of this absence was raised
	// unverified counts, by side, the plies made while the board was not read
	// that arbiterd could not verify (at least that many: the shortest
	// sequence that reaches the board's position, or more when none was
	// found); unverifiedFrom is the first of them (0: none). The counts of
	// completed moves do not include them, so a flag gets no verdict on a
	// count that may be short.
	unverified     [2]int
	unverifiedFrom int
	// unverifiedOpen is set when the count of unverified plies is only a lower
	// bound because no sequence reached the board's position (the record
	// was rebuilt from the board).
	unverifiedOpen bool
	// absorb[side]: presses of side that belong to its unverified plies
	// and may still be read (the clock, relayed by the board, is read
	// after the board is back): they complete nothing and are no presses
	// without a move.
	absorb  [2]int
	suspect bool // back from an absence, the board shows what nothing explains
	// far: back from an absence, the position not even the deeper search
	// reaches (see farPosition).
	far farPosition
	// stale: back from an absence, the board shows a position arbiterd
	// can neither reach nor start from; presses since the absence are not
	// judged. It is independent of suspect: the board can change again
	// to what nothing explains while stale, and both hold.
	stale   bool
	rebased bool // the record was rebuilt from the board in this absence
	// unchecked: unverified plies were laid when the clock had not shown
	// whose turn it was in the board's position; a side to move the clock
	// shows later may contradict them (see unverify). laid is how many
	// plies the first of them numbered from the last verified position:
	// the fewest that can have been made up to the position they reached.
	unchecked bool
	laid      int
	// undumped: the board has not been read whole (a dump) since it was
	// disconnected. Until it is, a field update is laid on the image of
	// before the absence, which may be stale: what it explains is held
	// for the dump, not accepted at once (see forward). (Since the
	// disconnection, not since the reconnection: the board's first dump
	// may be read before the session says it is connected.)
	undumped bool
	// starting: the board was disconnected and the session has not said
	// it is connected again: a board read meanwhile is answering the
	// driver's start-up, whose dump is on its way (see heldDue).
	starting bool
	// fromStart: the board was first read with the game under way: every
	// ply made before was made unseen, one or two included (see gameUnderWay).
	fromStart bool
}

// searchState is how far the board is from being explained again after
// it was away.
type searchState uint8

const (
	inStep    searchState = iota // the board's position follows from the record
	resyncing                    // back (connected, resync): searched to the full depth until explained
	unsettled                    // and away since absence.at, not yet explained again
	// unsettledLossy: unsettled, and the absence is lost field updates —
	// a dump contradicted the image while the board was connected. Until
	// the board is back in step, what it shows is known only as of its
	// latest reading: a press after that reading may complete a move the
	// board has not shown yet (the updates of a capture lost, the next
	// dump a second away), so nothing is settled or rebuilt on the
	// clock's word until the board has been read after it (see
	// waitsForTheBoard).
	unsettledLossy
)

// resyncing reports whether the board is searched to the full depth.
func (a *absence) resyncing() bool { return a.search != inStep }

// unsettled reports whether the board has been away since a.at and is not
// yet explained again.
func (a *absence) unsettled() bool { return a.search == unsettled || a.search == unsettledLossy }

// resync: the board is back, and searched to the full depth until its
// position is explained.
func (a *absence) resync() {
	if a.search == inStep {
		a.search = resyncing
	}
}

// before reports whether the input in, stamped at, was read before the
// board went away. Stamps alone cannot say when they are equal: a
// disconnection is stamped at the last record read before it, which may be
// a press (a killed daemon's journal), so an input stamped a.at is before
// the absence when it is no later than a.in.
func (a *absence) before(at time.Duration, in int) bool {
	return stamp{at, in}.before(stamp{a.at, a.in + 1})
}

// farPosition is a position the board showed back from an absence that not
// even the deeper search reaches from the record. Rebuilding the record from
// it is final, and a piece held in the hand looks the same, so the board
// must show it for UnexplainedAfter first — or show it with one legal move
// made (see movedOnFrom). A new snapshot is searched again at once.
type farPosition struct {
	in   int            // the input that showed it (its changed.in; 0: none)
	snap rules.Snapshot // the position
	// the fewest plies that can have been made to reach it (see least),
	// from the record's position below its trailing plies (from), while
	// the record is at position fen
	least, from int
	fen         string
	// placed: the position the pieces of snap were lifted from (see
	// Game.placed), snap itself when none was
	placed rules.Snapshot
}

// held is several plies the board shows at once, not yet accepted.
type held struct {
	plies  []*chess.Move
	from   int // the ply they start from
	backTo int // ≥ 0: the held plies may instead be a take-back to this ply
	// kind: the held plies continue a recorded slide, or were found after
	// an absence (a resync search), or neither
	kind heldKind
	// replaces: the held plies replace a completed move the board shows
	// was another (see miscommitted), or merge two recorded moves of one
	// piece around a reply into one (see fitsMerge)
	replaces  replacement
	in        int  // the input that showed the position they reach (its changed.in)
	ambiguous bool // after an absence, several sequences explain the board equally well
	// tried: the board and record miscommitted last searched in vain; the
	// same board against the same record is not searched again.
	tried struct {
		done   bool
		snap   rules.Snapshot
		fen    string
		counts Moves
	}
}

// heldKind is where held plies come from.
type heldKind uint8

const (
	heldPlain heldKind = iota // the board, in step
	heldSlide                 // the board, continuing a recorded slide (see fewer)
	heldAway                  // a resync search after an absence
	// heldAwayInHand: after an absence, and they leave the other side to
	// move than the clock says, and the board is, but for one piece
	// lifted off it, a position the clock agrees with (see pieceInHand):
	// a move or a capture in the making, held until the board has shown
	// it for UnexplainedAfter.
	heldAwayInHand
)

// awayInHand is heldAwayInHand when inHand, else heldAway.
func awayInHand(inHand bool) heldKind {
	if inHand {
		return heldAwayInHand
	}
	return heldAway
}

// away reports whether the held plies were found after an absence.
func (h *held) away() bool { return h.kind == heldAway || h.kind == heldAwayInHand }

// notAway: the held plies, if any, are not those of an absence.
func (h *held) notAway() {
	if h.away() {
		h.kind = heldPlain
	}
}

// slideOn says whether the held plies continue a recorded slide.
func (h *held) slideOn(slide bool) {
	if slide {
		h.kind = heldSlide
	} else if h.kind == heldSlide {
		h.kind = heldPlain
	}
}

// firstReading is where the board's first reading, before it showed the
// game, stands.
type firstReading uint8

const (
	notRead         firstReading = iota
	readNotSearched              // read, not yet searched as a game under way
	readAndSearched              // searched once (see gameUnderWay)
)

// replacement is what held plies do to the completed moves of the record.
type replacement uint8

const (
	replacesNothing   replacement = iota // they follow the record (or its uncompleted plies)
	replacesCompleted                    // they replace a completed move the board shows was another
	mergesCompleted                      // two completed moves of one piece around a reply were one
)

// unexplainedBoard is a board that shows what no legal sequence from the
// record explains: whether it does, since which input, and whether the
// arbiter was told.
type unexplainedBoard struct {
	state unexplainedState
	since stamp
}

// unexplainedState is where an unexplained board stands.
type unexplainedState uint8

const (
	boardExplained           unexplainedState = iota // the board shows what the record explains
	boardUnexplained                                 // it shows what nothing explains, not yet reported
	boardUnexplainedReported                         // and the arbiter was told (or the press judged it)
)

func (u *unexplainedBoard) on() bool       { return u.state != boardExplained }
func (u *unexplainedBoard) reported() bool { return u.state == boardUnexplainedReported }

// begin: the board shows what nothing explains, from s on.
func (u *unexplainedBoard) begin(s stamp) { u.state, u.since = boardUnexplained, s }

// clear: the board is explained again.
func (u *unexplainedBoard) clear() { u.state = boardExplained }

// report: the arbiter was told; an explained board has nothing to tell.
func (u *unexplainedBoard) report() {
	if u.on() {
		u.state = boardUnexplainedReported
	}
}

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
	g.led.rec = rec
	g.led.plies = nil
	g.led.boards = []rules.Snapshot{rules.SnapshotOf(rec.Position())}
	g.led.counts = g.base
	g.led.before, g.led.plyBase = g.base, 0
	g.view.snap = rules.SnapshotOf(g.start)
	g.view.placed = g.view.snap
	g.view.shown = nil
	g.end = nil
	g.atStart = false
	g.waiting = pressQueue{}
	g.flag = flagState{}
	g.away = absence{}
	g.view.held = held{backTo: -1}
	g.view.unexplained = unexplainedBoard{}
	g.hand = hand{}
	g.claims = nil
	g.join = joined{} // a new game: its clock speaks afresh (a mirror learned for the last one included)
	g.ref = clockd.NewClock(g.cfg.TimeControl)
	for _, s := range []clockd.Side{clockd.White, clockd.Black} {
		g.flag.hwPeriod[s] = g.cfg.TimeControl.PeriodOf(g.led.counts.Of(s))
		g.ref.SetPeriod(s, g.flag.hwPeriod[s], g.led.counts.Of(s))
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

func sideOf(c chess.Color) clockd.Side {
	if c == chess.Black {
		return clockd.Black
	}
	return clockd.White
}

// emitter writes the event stream: every event stamped with the board, its
// time and the next sequence number.
type emitter struct {
	board string // Config.Board
	seq   int    // the last event's
}

// emit stamps e with the board, time and the next sequence number.
func (em *emitter) emit(out *[]Event, at time.Duration, e Event) {
	em.seq++
	e.Board = em.board
	e.At = at
	e.Seq = em.seq
	e.setSentence()
	*out = append(*out, e)
}

func (em *emitter) anomaly(out *[]Event, at time.Duration, kind Kind, side clockd.Side, noSide bool, article string, detail Text) {
	em.emit(out, at, Event{Type: TypeAnomaly, Kind: kind, Side: side, NoSide: noSide, Article: article, Text: detail})
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
		g.away.starting = false
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
			g.away.disconnected = true // presses wait for the board to be back
			// What the board shows when it is read again may be several
			// plies on, and it may be read before the session says it is
			// connected (a restarted daemon's board answers first).
			g.away.undumped, g.away.starting = true, true
			if !g.away.unsettled() {
				g.away.search, g.away.at, g.away.in, g.away.warned, g.away.unchecked = unsettled, at, g.inputs, false, false
			}
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
		g.view.dumped(&g.away, g.oriented && g.end == nil, g.orient, s)
	}
	if g.away.disconnected {
		// The board is read again: how long it has shown what it shows
		// counts from now, not across the time it was not read.
		g.view.shown = nil
		if g.view.unexplained.on() {
			g.view.unexplained.since = stamp{at, g.inputs}
		}
		if t := &g.waiting.turn; t.board == wordUnread {
			// The clock spoke while the board was not read: its word is
			// about the position the board is first read with if this
			// reading is a dump, and goes stale as that changes (see
			// clockTurn); a field update is a change, so the word is
			// about the position before it.
			t.snap, t.board = g.view.snap, wordOnBoard
			if dump {
				defer func() { t.snap = g.view.snap }()
			}
		}
		defer func() { g.away.disconnected = false }()
	}
	if t := &g.waiting.turn; dump && t.board == wordUndumped {
		t.board = wordOnBoard
		defer func() { t.snap = g.view.snap }()
	}
	if (!g.oriented || g.end != nil) && !g.orientTo(&out, at, s) {
		return out
	}
	g.show(&out, at, s)
	g.view.boardRead.at, g.view.boardRead.in = at, g.inputs
	return out
}

// show takes s, in the board's own frame, as what the board shows of the
// game.
func (g *Game) show(out *[]Event, at time.Duration, s rules.Snapshot) {
	raw := s
	if g.orient == rules.BlackBottom {
		s = s.Rotated()
	}
	if s != g.view.snap && (lifted(g.view.snap, s) <= 0 || !g.led.legalBoard(g.view.snap)) {
		g.view.placed = s // a piece taken off a position no game has is a correction
	}
	g.view.snap = s
	if !g.boardReset(out, at, raw) {
		g.process(out, at)
		g.drain(out, at) // what the board decided is done before the input goes on
	}
}

// orientTo looks for the game on a board not yet oriented (or after the
// game ended, for the next one): the start position either way round, or a
// game under way (see gameUnderWay). It reports whether s is to be followed as
// a position of the game now (false: waiting for the start, or the start
// itself, which the orientation event reports).
func (g *Game) orientTo(out *[]Event, at time.Duration, s rules.Snapshot) bool {
	o, ok := rules.DetectOrientation(s, g.start)
	underWay := false
	if !ok && !g.oriented {
		if g.first.state == notRead || g.first.snap != s {
			g.first.snap, g.first.state = s, readNotSearched
		}
		if g.first.state == readNotSearched && g.waiting.clockSpoke(g.round.started()) {
			// searched once, and only once the clock runs: without one,
			// a board that is not at the start is being set up
			g.first.state = readAndSearched
			o, underWay = gameUnderWay(g.led.rec, g.join.state, s)
			ok = underWay
		}
	}
	if !ok {
		if !g.oriented && !g.view.unexplained.on() {
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
	g.oriented, g.orient = true, o
	g.em.emit(out, at, Event{Type: TypePosition, FEN: g.start.String(), Orientation: o.String()})
	if !underWay {
		// Presses read before the board showed the game were made
		// when arbiterd could not see what was on it: not judged.
		g.waiting.presses = nil
		return false
	}
	// The board is first read with the game under way (arbiterd
	// started, or restarted, after the first moves): the moves made
	// before are those of an absence from the start, searched to the
	// full depth, held until they settle, and reported as unverified
	// when more than a quick pair; the presses read meanwhile wait.
	g.away.search, g.away.at, g.away.in, g.away.warned, g.away.unchecked = unsettled, 0, 0, false, false
	g.away.fromStart = true
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

// dumped takes a dump (s, in the board's own frame) as the board read
// afresh, before it is shown: see Dump. It comes after the deadlines due
// by the dump's time were decided, so that what was laid on the image of
// before an absence and waits for the dump is not decided on that image
// at the dump's own input.
func (v *boardView) dumped(a *absence, followed bool, orient rules.Orientation, s rules.Snapshot) {
	first := a.undumped
	a.undumped = false // the board is read whole
	if !followed {
		return
	}
	r := s
	if orient == rules.BlackBottom {
		r = r.Rotated()
	}
	if first {
		// The first dump since the board was disconnected: plies
		// held on what field updates showed before it were laid on
		// the image of before the absence, and go.
		v.held.plies, v.held.ambiguous = nil, false
		v.held.notAway()
	}
	if r.Squares != v.snap.Squares || r.Unknown != v.snap.Unknown {
		a.resync()
		lossy := a.search == unsettledLossy || !a.disconnected
		if !a.unsettled() {
			a.search, a.warned, a.unchecked = unsettled, false, false
			if !first {
				// the image was last known right at the previous input
				a.at, a.in = v.boardRead.at, v.boardRead.in
			}
			// else the absence is the disconnection's, whatever field
			// updates laid on the image of before it seemed to say:
			// what was read since, presses included, was read after
			// it
		}
		if lossy {
			a.search = unsettledLossy
		}
	}
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
		g.waiting.clockSays(&g.away, g.view.snap, ev.Side, at)
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
		g.flag.clockPeriodAdded(&g.em, &g.waiting, g.led.counts, g.inputs, len(g.cfg.TimeControl.Periods) > 0 && g.end == nil && !g.atStart, &out, at, ev)
	case clockd.Stopped:
		g.clock = ev.Clock
		g.ref.Stop(at)
		g.hand.clockPaused(ev)
		if g.end == nil {
			// decided once the board has shown what ended the game, if
			// anything did (see clockStopped)
			g.flag.stops = append(g.flag.stops, ev)
		}
	case clockd.Resumed:
		g.ref.Resume(at)
		g.clock = ev.Clock
		g.hand.clockRuns(&g.em, g.end != nil, &g.flag.stops, g.led.counts.White+g.led.counts.Black, &out, at, ev.Clock)
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
		g.hand.clockWasReset(&g.em, &g.flag, g.led.counts.White+g.led.counts.Black, g.end != nil, before, &out, at, ev)
	}
	if !g.oriented && g.first.state == readNotSearched && g.waiting.clockSpoke(g.round.started()) && g.orientTo(&out, at, g.first.snap) {
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
		g.hand.clockRuns(&g.em, g.end != nil, &g.flag.stops, g.led.counts.White+g.led.counts.Black, out, at, ev.Clock)
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

// refTimes sets the reference clock to the times the clock shows.
func refTimes(ref *clockd.Clock, c clockd.Times, at time.Duration) {
	for _, s := range []clockd.Side{clockd.White, clockd.Black} {
		ref.SetTime(s, c.Of(s), at)
	}
}

// learnFaces learns which face of a clock joined under way is White's,
// when it is not set (facesGuessed): the side running mid-game says
// nothing of it. A press follows its own side's move: a press read while
// the last ply on the board is its side's and not completed fits the
// guess; one read while that ply is the other side's does not (a press
// read before the board shows its move finds the opponent's ply completed,
// and says nothing). The first presses after a join are the least sure
// (the last move before it may be pressed after the board showed the next
// one), so the guess is kept, or the clock's sides turned round (the press
// ev, the pending presses, the clock's word and its times with them), once
// one kind leads by two. Until then the presses' alerts are not raised
// (see pressWithoutMove and dueWarnMoveWithoutPress): they would name the wrong side. It
// returns ev as it is to be taken.
func (j *joined) learnFaces(led *ledger, q *pressQueue, ref *clockd.Clock, ev clockd.ClockEvent) clockd.ClockEvent {
	n := len(led.plies)
	if j.faces != facesGuessed || n == 0 || led.plies[n-1].completed() {
		return ev
	}
	if led.plies[n-1].side == ev.Side {
		j.fits++
	} else {
		j.misfits++
	}
	switch {
	case j.fits-j.misfits >= 2:
		j.faces = facesSet
	case j.misfits-j.fits >= 2:
		j.faces = facesMirrored
		ev = mirrored(ev)
		for i := range q.presses {
			q.presses[i].ev = mirrored(q.presses[i].ev)
		}
		q.turn.toMove = q.turn.toMove.Other()
		refTimes(ref, ev.Clock, ev.At)
		for i := range led.plies {
			// their presses were read under the other side's name:
			// not pressing them is no move-without-press
			led.plies[i].warned = led.plies[i].warned || !led.plies[i].completed()
		}
	}
	return ev
}

// mirrored is ev with the clock's sides turned round (see learnFaces).
func mirrored(ev clockd.ClockEvent) clockd.ClockEvent {
	switch ev.Kind {
	case clockd.Press, clockd.Flag, clockd.PeriodAdded, clockd.Adjusted, clockd.Running, clockd.Started:
		ev.Side = ev.Side.Other()
	}
	ev.Clock = clockd.Times{White: ev.Clock.Black, Black: ev.Clock.White}
	return ev
}

// joinedAtTheStart warns, once, when the clock was first read with the game
// under way (times that are not the control's starting ones) while the
// board, a scan lag later, shows the game at its start with no move made:
// most often a clock set to another control than the event's, which would
// count the periods wrong; else a game whose first moves arbiterd missed
// with every piece back on its square.
func (led *ledger) joinedAtTheStart(em *emitter, a *absence, clock clockd.Times, tc clockd.TimeControl, followed bool, out *[]Event, at time.Duration) {
	if !followed || a.fromStart || led.plyBase != 0 || led.rec.Ply() != 0 || len(led.plies) != 0 {
		return
	}
	em.anomaly(out, at, KindClockReading, 0, true, "6.10", say(TextReadingFirst,
		hms(clock.White), hms(clock.Black), tc.String()))
}

// clockPressed records a press: it waits to be resolved against the board
// (resolvePress).
func (g *Game) clockPressed(out *[]Event, at time.Duration, ev clockd.ClockEvent) {
	ev = g.join.learnFaces(&g.led, &g.waiting, g.ref, ev)
	g.clock = ev.Clock
	g.flag.sincePress = false
	g.waiting.clockSays(&g.away, g.view.snap, ev.Side.Other(), at)
	g.em.emit(out, at, Event{Type: TypePress, Side: ev.Side, Clock: ev.Clock, Inferred: ev.Inferred})
	if g.end == nil {
		g.waiting.presses = append(g.waiting.presses, pendingPress{ev: ev, in: g.inputs})
	}
}

// clockFlag records a flag, judged once the presses before it are resolved
// (resolveFlags).
func (f *flagState) clockFlag(inputs int, ev clockd.ClockEvent) {
	if f.down[ev.Side] {
		return
	}
	f.down[ev.Side] = true
	f.sincePress = true
	// The period whose time ran out is the interpreter's to say: it
	// alone sees whether the clock added the next one at the flag.
	if ev.Period < 1 {
		ev.Period = max(1, f.hwPeriod[ev.Side])
	}
	// A period the clock added in the same reading came with this
	// flag: it is not a counter's addition to check against the moves.
	kept := f.checks[:0]
	for _, c := range f.checks {
		if c.ev.Side != ev.Side || c.ev.At != ev.At {
			kept = append(kept, c)
		}
	}
	f.checks = kept
	f.flags = append(f.flags, fallen{ev, inputs})
}

// clockPeriodAdded records a period the clock added, and the check of the
// moves against it when a counter added it.
func (f *flagState) clockPeriodAdded(em *emitter, q *pressQueue, counts Moves, inputs int, check bool, out *[]Event, at time.Duration, ev clockd.ClockEvent) {
	period := ev.Period
	if period <= f.hwPeriod[ev.Side] {
		period = f.hwPeriod[ev.Side] + 1
	}
	f.hwPeriod[ev.Side] = period
	// A clock may show the flag at 0:00 and add the next period only
	// with the flagged side's next press: while that side's flag is
	// down, an addition is the flag's, not a counter's.
	flagged := f.down[ev.Side]
	f.down[ev.Side] = false
	em.emit(out, at, Event{Type: TypePeriod, Side: ev.Side, Period: period, Added: ev.Added})
	if !f.sincePress && !flagged && check {
		ev.Period = period
		f.checks = append(f.checks, periodCheck{ev: ev, in: inputs})
		f.snapChecks(q, counts, ev.Side)
	}
}

// clockWasReset handles the clock set back to the control's starting times
// mid-game: it counts afresh; the record and the move counts stand.
func (h *hand) clockWasReset(em *emitter, f *flagState, plies int, ended bool, before clockd.Times, out *[]Event, at time.Duration, ev clockd.ClockEvent) {
	f.hwPeriod = [2]int{1, 1}
	f.down = [2]bool{}
	if !ended {
		em.anomaly(out, at, KindClockReading, 0, true, "6.10",
			say(TextReadingReset,
				hms(ev.Clock.White), hms(ev.Clock.Black), hms(before.White), hms(before.Black)))
		h.clockReset((*out)[len(*out)-1], plies, before, ev.Clock)
	}
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
		g.led.retract(&g.em, &g.away, &out, at, a.Ply-g.led.plyBase, nil, retractByArbiter)
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
		g.claims.claimed(&g.em, g.cfg, &g.led, g.clock, &out, at, a.Side)
	case ActDecide:
		if g.claims.decided(&g.em, &g.hand, g.led.counts.White+g.led.counts.Black, &out, at, a.Claim, a.Decision) && g.end == nil {
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
