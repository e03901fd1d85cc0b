package reconcile

import (
	"strconv"
	"time"
	"unicode/utf8"

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

// Completion causes (the `by` field of a complete event, Law 6.2.1).
const (
	ByPress    = "press"
	ByGameEnd  = "game-end"
	ByNextMove = "next-move"
)

// Retraction reasons (the `reason` field of a retract event).
const (
	ReasonSlide      = "slide"
	ReasonTakeback   = "takeback"
	ReasonCorrection = "correction"
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

// Of returns the count of one side.
func (m Moves) Of(s clockd.Side) int {
	if s == clockd.Black {
		return m.Black
	}
	return m.White
}

func (m *Moves) add(s clockd.Side, n int) {
	if s == clockd.Black {
		m.Black += n
	} else {
		m.White += n
	}
}

// Event is one event of the stream. Type says which of the fields are
// meaningful; Marshal writes exactly the fields of that type, in the order
// of docs/events.md, followed by arbiterd's extra fields.
type Event struct {
	Type  Type
	Board string
	At    time.Duration // `t`: offset since the capture started
	Seq   int

	// session
	State State
	Port  string

	// position, move
	FEN         string
	Orientation string

	// move, retract, complete
	Ply int
	SAN string
	UCI string

	// move, press, complete, anomaly, period, flag
	Side   clockd.Side
	NoSide bool // anomaly only: the side is null

	// press, complete, flag: the clocks as displayed
	Clock    clockd.Times
	Inferred bool // press: recovered from a merged reading (extra field); adjust: side_unsure

	// retract
	Reason string // retract, flag, end

	// complete
	By    string
	Moves Moves

	// anomaly
	Kind    Kind
	Article string // anomaly, flag, end
	Detail  string
	// anomaly unverified-moves (extension): the last ply arbiterd verified
	// (Ply), how many plies were made while the board was not read (Made,
	// at least), their SAN when a sequence explains them (Plies; none when
	// the record was rebuilt from the board) and the position arbiterd
	// follows the game from (FEN). Not set when nothing could be built.
	Made  int
	Plies []string

	// period
	Period int           // period, flag
	Added  time.Duration // period; adjust: the change (`delta`)

	// adjust: the side's time before and after; the alerts (their seq)
	// the change settles.
	From, To time.Duration
	Closes   []int

	// claim: plies since the last capture or pawn move, and the moves of
	// the last minutes; decision: the claim's seq and the decision.
	Quiet    int
	Recent   []string
	Claim    int
	Decision string
	// claim, decision: the arbiter who recorded it, when known (the
	// logged-in arbiter; extension, written only when set)
	Arbiter string

	// flag
	MovesCompleted  int
	MovesRequired   int // 0 = null (the period covers all remaining moves, or the control is unknown)
	ControlReached  bool
	OpponentCanMate Mate
	MateLine        []string
	Verdict         Verdict

	// end
	Result string
}

// MarshalJSON implements json.Marshaler with Marshal.
func (e Event) MarshalJSON() ([]byte, error) { return Marshal(e), nil }

// Marshal returns the event as one JSON object (no trailing newline), with
// exactly the fields its type requires, in a stable order: the four every
// event has, then its type's layout.
func Marshal(e Event) []byte {
	w := jw{b: make([]byte, 0, 160)}
	w.b = append(w.b, '{')
	w.str("type", string(e.Type))
	w.str("board", e.Board)
	w.key("t")
	w.b = appendMicros(w.b, e.At)
	w.int("seq", e.Seq)
	for _, m := range layouts[e.Type] {
		members[m](&w, &e)
	}
	w.b = append(w.b, '}')
	return w.b
}

// layouts lists the members of each event type after the four common ones,
// in the order docs/events.md gives them. A type not listed has none.
var layouts = map[Type][]member{
	TypeSession:  {mState, mPort},
	TypePosition: {mFEN, mOrientation},
	TypeMove:     {mPly, mSide, mSAN, mUCI, mFEN},
	TypeRetract:  {mPly, mReason, mSAN, mUCI},
	TypePress:    {mSide, mClock, mInferred},
	TypeComplete: {mPly, mSide, mBy, mMoves, mClock, mSAN},
	TypeAnomaly:  {mKind, mSideOrNull, mArticle, mDetail, mUnverified},
	TypePeriod:   {mSide, mPeriod, mAdded},
	TypeFlag: {mSide, mClock, mPeriod, mMovesCompleted, mMovesRequired, mControlReached,
		mMate, mVerdict, mArticle, mReason},
	TypeEnd:      {mResult, mReason, mArticle},
	TypeAdjust:   {mSide, mFrom, mTo, mDelta, mClock, mArticle, mReason, mSideUnsure, mCloses},
	TypeClaim:    {mSide, mFEN, mClock, mQuiet, mRecent, mMate, mArticle, mReason, mArbiter},
	TypeDecision: {mSide, mClaim, mDecision, mArticle, mReason, mArbiter},
	TypePause:    {mState, mBy, mClock, mArticle, mReason},
}

// member is one member (or, for mate and unverified, a group of members)
// of an event's JSON object; members writes it.
type member uint8

const (
	mState member = iota
	mPort
	mFEN
	mOrientation
	mPly
	mSide
	mSideOrNull
	mSAN
	mUCI
	mReason
	mClock
	mInferred
	mBy
	mMoves
	mKind
	mArticle
	mDetail
	mUnverified
	mPeriod
	mAdded
	mMovesCompleted
	mMovesRequired
	mControlReached
	mMate
	mVerdict
	mResult
	mFrom
	mTo
	mDelta
	mSideUnsure
	mCloses
	mQuiet
	mRecent
	mClaim
	mDecision
	mArbiter
	memberCount
)

// members writes each member from the event: the plain ones first, then
// those converted, then those with a rule of their own.
var members = [memberCount]func(w *jw, e *Event){
	mPort:           func(w *jw, e *Event) { w.str("port", e.Port) },
	mFEN:            func(w *jw, e *Event) { w.str("fen", e.FEN) },
	mOrientation:    func(w *jw, e *Event) { w.str("orientation", e.Orientation) },
	mPly:            func(w *jw, e *Event) { w.int("ply", e.Ply) },
	mSAN:            func(w *jw, e *Event) { w.str("san", e.SAN) },
	mUCI:            func(w *jw, e *Event) { w.str("uci", e.UCI) },
	mReason:         func(w *jw, e *Event) { w.str("reason", e.Reason) },
	mClock:          func(w *jw, e *Event) { w.clock("clock", e.Clock) },
	mInferred:       func(w *jw, e *Event) { w.trueOnly("inferred", e.Inferred) },
	mBy:             func(w *jw, e *Event) { w.str("by", e.By) },
	mMoves:          func(w *jw, e *Event) { w.moves("moves", e.Moves) },
	mArticle:        func(w *jw, e *Event) { w.str("article", e.Article) },
	mDetail:         func(w *jw, e *Event) { w.str("detail", e.Detail) },
	mPeriod:         func(w *jw, e *Event) { w.int("period", e.Period) },
	mAdded:          func(w *jw, e *Event) { w.seconds("added", e.Added) },
	mMovesCompleted: func(w *jw, e *Event) { w.int("moves_completed", e.MovesCompleted) },
	mControlReached: func(w *jw, e *Event) { w.boolean("control_reached", e.ControlReached) },
	mResult:         func(w *jw, e *Event) { w.str("result", e.Result) },
	mFrom:           func(w *jw, e *Event) { w.seconds("from", e.From) },
	mTo:             func(w *jw, e *Event) { w.seconds("to", e.To) },
	mDelta:          func(w *jw, e *Event) { w.seconds("delta", e.Added) },
	mSideUnsure:     func(w *jw, e *Event) { w.trueOnly("side_unsure", e.Inferred) },
	mQuiet:          func(w *jw, e *Event) { w.int("quiet_plies", e.Quiet) },
	mRecent:         func(w *jw, e *Event) { w.strs("recent", e.Recent) },
	mClaim:          func(w *jw, e *Event) { w.int("claim", e.Claim) },
	mDecision:       func(w *jw, e *Event) { w.str("decision", e.Decision) },
	mArbiter:        func(w *jw, e *Event) { w.strSet("arbiter", e.Arbiter) },
	mState:          func(w *jw, e *Event) { w.str("state", string(e.State)) },
	mKind:           func(w *jw, e *Event) { w.str("kind", string(e.Kind)) },
	mVerdict:        func(w *jw, e *Event) { w.str("verdict", string(e.Verdict)) },
	mSide:           func(w *jw, e *Event) { w.str("side", e.Side.String()) },
	mSideOrNull:     writeSideOrNull,
	mUnverified:     writeUnverified,
	mMovesRequired:  writeMovesRequired,
	mMate:           writeMate,
	mCloses:         writeCloses,
}

// writeSideOrNull writes an anomaly's side, null when it has none.
func writeSideOrNull(w *jw, e *Event) {
	if e.NoSide {
		w.null("side")
		return
	}
	w.str("side", e.Side.String())
}

// writeUnverified writes what an unverified-moves anomaly rests on (the
// extension's members), when a position could be built.
func writeUnverified(w *jw, e *Event) {
	if e.Kind != KindUnverified || e.FEN == "" {
		return
	}
	w.int("verified_ply", e.Ply)
	w.int("made", e.Made)
	if len(e.Plies) > 0 {
		w.strs("plies", e.Plies)
	}
	w.str("fen", e.FEN)
}

// writeMovesRequired writes a flag's required count, null when the period
// covers all remaining moves or the control is unknown.
func writeMovesRequired(w *jw, e *Event) {
	if e.MovesRequired > 0 {
		w.int("moves_required", e.MovesRequired)
		return
	}
	w.null("moves_required")
}

// writeMate writes the 6.9 answer, with its line when it is "yes".
func writeMate(w *jw, e *Event) {
	w.str("opponent_can_mate", string(e.OpponentCanMate))
	if e.OpponentCanMate == MateYes {
		w.strs("mate_line", e.MateLine)
	}
}

// writeCloses writes the alerts an adjustment settles, when there are any.
func writeCloses(w *jw, e *Event) {
	if len(e.Closes) > 0 {
		w.ints("closes", e.Closes)
	}
}

// jw appends "key":value pairs to a JSON object under construction.
type jw struct {
	b     []byte
	count int
}

func (w *jw) key(k string) {
	if w.count > 0 {
		w.b = append(w.b, ',')
	}
	w.count++
	w.b = appendString(w.b, k)
	w.b = append(w.b, ':')
}

func (w *jw) str(k, v string) {
	w.key(k)
	w.b = appendString(w.b, v)
}

// strs writes a list of strings ([] when empty).
func (w *jw) strs(k string, l []string) { list(w, k, l, appendString) }

// list writes k: the items as a JSON array, each written by add.
func list[T any](w *jw, k string, items []T, add func([]byte, T) []byte) {
	w.key(k)
	w.b = append(w.b, '[')
	for i, v := range items {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.b = add(w.b, v)
	}
	w.b = append(w.b, ']')
}

func (w *jw) int(k string, v int) {
	w.key(k)
	w.b = strconv.AppendInt(w.b, int64(v), 10)
}

// ints writes a list of integers.
func (w *jw) ints(k string, l []int) {
	list(w, k, l, func(b []byte, v int) []byte { return strconv.AppendInt(b, int64(v), 10) })
}

func (w *jw) null(k string) {
	w.key(k)
	w.b = append(w.b, "null"...)
}

// strSet writes k: v when v is not empty, and nothing otherwise.
func (w *jw) strSet(k, v string) {
	if v != "" {
		w.str(k, v)
	}
}

// trueOnly writes k: true when v is set, and nothing otherwise.
func (w *jw) trueOnly(k string, v bool) {
	if v {
		w.key(k)
		w.b = append(w.b, "true"...)
	}
}

func (w *jw) seconds(k string, d time.Duration) {
	w.key(k)
	w.b = appendSeconds(w.b, d)
}

func (w *jw) moves(k string, m Moves) {
	w.key(k)
	w.b = append(w.b, `{"white":`...)
	w.b = strconv.AppendInt(w.b, int64(m.White), 10)
	w.b = append(w.b, `,"black":`...)
	w.b = strconv.AppendInt(w.b, int64(m.Black), 10)
	w.b = append(w.b, '}')
}

// boolean writes k: true or false.
func (w *jw) boolean(k string, v bool) {
	w.key(k)
	w.b = strconv.AppendBool(w.b, v)
}

func (w *jw) clock(k string, t clockd.Times) {
	w.key(k)
	w.b = append(w.b, `{"white":`...)
	w.b = appendSeconds(w.b, t.White)
	w.b = append(w.b, `,"black":`...)
	w.b = appendSeconds(w.b, t.Black)
	w.b = append(w.b, '}')
}

// appendMicros writes d as seconds with exactly six decimals (the `t` field).
func appendMicros(b []byte, d time.Duration) []byte {
	us := int64(d / time.Microsecond)
	if us < 0 {
		b = append(b, '-')
		us = -us
	}
	b = strconv.AppendInt(b, us/1e6, 10)
	b = append(b, '.')
	frac := strconv.FormatInt(us%1e6, 10)
	for i := len(frac); i < 6; i++ {
		b = append(b, '0')
	}
	return append(b, frac...)
}

// appendSeconds writes a clock value in seconds, to the millisecond, with
// at least one decimal ("5391.0", "2.5", "0.125").
func appendSeconds(b []byte, d time.Duration) []byte {
	ms := d.Milliseconds()
	if ms < 0 {
		b = append(b, '-')
		ms = -ms
	}
	b = strconv.AppendInt(b, ms/1000, 10)
	b = append(b, '.')
	frac := ms % 1000
	switch {
	case frac == 0:
		return append(b, '0')
	case frac%100 == 0:
		return strconv.AppendInt(b, frac/100, 10)
	case frac%10 == 0:
		if frac < 100 {
			b = append(b, '0')
		}
		return strconv.AppendInt(b, frac/10, 10)
	}
	if frac < 10 {
		b = append(b, '0', '0')
	} else if frac < 100 {
		b = append(b, '0')
	}
	return strconv.AppendInt(b, frac, 10)
}

const hexDigits = "0123456789abcdef"

// appendString writes s as a JSON string: quotes, backslashes and control
// characters escaped, valid UTF-8 kept as is, invalid bytes replaced.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\t':
				b = append(b, '\\', 't')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c < 0x20 || c == 0x7f:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, `\ufffd`...)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}
