package reconcile

import (
	"time"

	"github.com/arbiterd/arbiterd/clockd"
)

// Type names an event type of the event stream (docs/events.md).
type Type string

// The event types of the stream, version 1.
const (
	TypeSession  Type = "session"
	TypePosition Type = "position"
	TypeMove     Type = "move"
	TypeRetract  Type = "retract"
	TypePress    Type = "press"
	TypeComplete Type = "complete"
	TypeAnomaly  Type = "anomaly"
	TypePeriod   Type = "period"
	TypeFlag     Type = "flag"
	TypeEnd      Type = "end"
	// TypeAdjust (extension): the arbiter changed a face's time while the
	// clock was stopped (6.10, 7.5.5).
	TypeAdjust Type = "adjust"
	// TypePause (extension): the arbiter stopped the clock to settle an
	// incident, or started it again (6.11).
	TypePause Type = "pause"
	// TypeClaim (extension): a player's claim, frozen for the arbiter's
	// decision (10.2).
	TypeClaim Type = "claim"
	// TypeDecision (extension): the arbiter's decision on a claim.
	TypeDecision Type = "decision"
)

// Kind is the kind of an anomaly (the `kind` field of an anomaly event).
type Kind string

// Anomaly kinds.
const (
	KindPressWithoutMove    Kind = "press-without-move"
	KindMoveWithoutPress    Kind = "move-without-press"
	KindTwoMoves            Kind = "two-moves"
	KindIllegalMove         Kind = "illegal-move"
	KindUnexplainedPosition Kind = "unexplained-position"
	KindClockCounter        Kind = "clock-counter"
	KindClockStopped        Kind = "clock-stopped"
	KindClockDisconnected   Kind = "clock-disconnected"
	KindBoardDisconnected   Kind = "board-disconnected"
	KindClockReading        Kind = "clock-reading"
	KindBadInput            Kind = "bad-input" // the caller fed something arbiterd cannot use
	KindUnknownTimeControl  Kind = "unknown-time-control"
	KindUnverified          Kind = "unverified-moves"
	// KindBoardReset: the board shows the starting position in the middle
	// of the game (reset, or another board put in its place); the record
	// is kept.
	KindBoardReset Kind = "board-reset"
	// KindMoveCorrected: the board showed that a move arbiterd had
	// completed was another (the piece went on after the press was read);
	// the record is corrected, the counts are unchanged.
	KindMoveCorrected Kind = "move-corrected"
	// KindDefaultTime (extension): the default time passed with a
	// player's first move not made: check the player's presence (6.7.1).
	KindDefaultTime Kind = "default-time"
)

// By is what completed a move (the `by` field of a complete event, Law
// 6.2.1), or who stopped the clock (the `by` field of a pause event).
type By string

// Completion causes, and who stopped the clock.
const (
	ByPress    By = "press"
	ByGameEnd  By = "game-end"
	ByNextMove By = "next-move"
	ByArbiter  By = "arbiter" // pause
)

// Reason is the `reason` field of an event: a word on retract (why the
// ply was retracted) and end (how the game ended: "checkmate", "flag",
// "claim", "result-signalled"…), the English of the event's Text on flag,
// adjust, pause, claim and decision.
type Reason string

// Retraction reasons (the `reason` field of a retract event).
const (
	ReasonSlide      Reason = "slide"
	ReasonTakeback   Reason = "takeback"
	ReasonCorrection Reason = "correction"
)

// Verdict is the verdict of a flag event (its `verdict` field).
type Verdict string

// Flag verdicts. VerdictUnknown is an arbiterd extension used only when the
// time control is not known.
const (
	VerdictLoss    Verdict = "loss"
	VerdictDraw    Verdict = "draw"
	VerdictNone    Verdict = "none"
	VerdictUnknown Verdict = "unknown"
)

// State is the state a session event reports for a port (its `state`
// field).
type State string

// Session states.
const (
	StateStart        State = "start"        // the capture began
	StateConnected    State = "connected"    // the device answers again
	StateDisconnected State = "disconnected" // the device stopped answering
	StateResync       State = "resync"       // the board is read afresh
	StateEnd          State = "end"          // the capture ended

	// The states of a pause event (extension): the arbiter stopped the
	// clock, or started it again.
	StateStopped State = "stopped"
	StateRunning State = "running"
)

// Mate is the answer to "can the opponent still checkmate by some series of
// legal moves?" (6.9; the `opponent_can_mate` field of a flag event).
type Mate string

// Mate answers: "yes" comes with a line that mates, "no" only when proved.
const (
	MateYes     Mate = "yes"
	MateNo      Mate = "no"
	MateUnknown Mate = "unknown"
)

// Moves counts the moves each side has completed (6.2.1).
type Moves struct{ White, Black int }

// Event is one event of the stream. Type says which fields it carries:
// codec.go lists, for each type, its fields in the order docs/events.md
// gives them, and writes (Marshal) and reads (Unmarshal) exactly those.
// Each field of Event has one meaning; the types that share a field
// share that meaning (Clock is always both faces as displayed, Reason
// always the why, in a word or in sentences).
type Event struct {
	// Every event.
	Type  Type
	Board string
	At    time.Duration // `t`: offset since the capture started
	Seq   int

	// session, pause: the port's state, or the clock's.
	State State
	Port  string // session

	// position: the start; move: the position after it; anomaly
	// unverified-moves: the position arbiterd follows the game from;
	// claim: the position claimed in.
	FEN         string
	Orientation string // position

	// move, retract, complete: the ply; anomaly unverified-moves: the last
	// ply arbiterd verified (`verified_ply`).
	Ply int
	SAN string // move, retract, complete
	UCI string // move, retract

	// The side concerned: move, press, complete, anomaly, period, flag,
	// adjust, claim, decision. NoSide: an anomaly concerns no side (null).
	Side   clockd.Side
	NoSide bool

	// Both clocks as displayed: press, complete, flag, adjust, pause,
	// claim.
	Clock clockd.Times

	// press (extension): recovered from a merged reading, not seen.
	Inferred bool

	// Why: retract (a word: ReasonSlide…), end (a word), flag, adjust,
	// pause, claim, decision (sentences for the arbiter).
	Reason Reason

	// complete: what completed the move (ByPress…); pause: who stopped
	// the clock (ByArbiter).
	By    By
	Moves Moves // complete

	// anomaly
	Kind    Kind
	Article string // anomaly, flag, end, adjust, pause, claim, decision
	Detail  string
	// anomaly, flag, adjust, pause, claim, decision (extension): the
	// detail's or the reason's sentence as a code and its arguments
	// (text.go); its English is Detail or Reason.
	Text Text
	// anomaly unverified-moves (extension): how many plies were made while
	// the board was not read (at least) and their SAN when a sequence
	// explains them (none when the record was rebuilt from the board).
	// Written with Ply and FEN when FEN is set.
	Made  int
	Plies []string

	// period: the new period and the time added; flag: the period the
	// flag is judged in.
	Period int
	Added  time.Duration

	// adjust (extension): the side's time before and after, the change,
	// whether only the turn indicators said whose face it is, and the
	// alerts (their seq) the change settles.
	From, To   time.Duration
	Delta      time.Duration
	SideUnsure bool
	Closes     []int

	// claim (extension): plies since the last capture or pawn move, and
	// the moves of the last minutes; decision: the claim's seq and the
	// decision.
	Quiet    int
	Recent   []string
	Claim    int
	Decision string
	// claim, decision (extension): the arbiter who recorded it, when
	// known (the logged-in arbiter); written only when set.
	Arbiter string

	// flag
	MovesCompleted  int
	MovesRequired   int // 0 = null (the period covers all remaining moves, or the control is unknown)
	ControlReached  bool
	OpponentCanMate Mate     // flag, claim
	MateLine        []string // flag, claim: when OpponentCanMate is MateYes
	Verdict         Verdict

	// end
	Result string
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
