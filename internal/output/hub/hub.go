// Package hub is the daemon's live view of every board: each board runner
// publishes its event stream here, and the outputs (HTTP API, Server-Sent
// Events, the dashboard, broadcast feeds, the LiveChess-compatible API)
// read the boards' state and subscribe to updates. The state of a board is a
// pure function of its events, so the hub holds nothing the journal does
// not.
//
// Subscribers that do not keep up are dropped rather than allowed to block
// the boards: a board's runner never waits for a slow client.
package hub

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/arbiterd/arbiterd/rules"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// Alert levels: red for a flag before the control (or any flag verdict
// that ends the game), amber for anomalies the arbiter should look at,
// info (Note) for what is recorded with nothing to act on (the arbiter's own
// change of a clock's time).
const (
	Red   = "red"
	Amber = "amber"
	Note  = "info"
)

// Alert is something the arbiter must see and acknowledge.
type Alert struct {
	ID      int     `json:"id"`  // unique within the board
	Seq     int     `json:"seq"` // the event that raised it
	Level   string  `json:"level"`
	Kind    string  `json:"kind"` // anomaly kind, or "flag"
	Side    string  `json:"side,omitempty"`
	Article string  `json:"article"`
	Text    string  `json:"text"`
	T       float64 `json:"t"`
	Acked   bool    `json:"acked"`
	// ClosedBy is the seq of the event that settled the alert (an adjust
	// of the clock that gave the time the alert asked for); 0: open.
	ClosedBy int `json:"closed_by,omitempty"`
	// Say is the sentence of an alert no event carries (RaiseSaying) as a
	// message of the catalogs, for a view to say in its reader's language;
	// nil when Text is all there is. Text stays its English.
	Say *i18n.Message `json:"-"`
}

// UnverifiedSAN stands in a board's SAN list for a ply that was made while
// the board was not read and that arbiterd could not verify.
const UnverifiedSAN = "?"

// Board is the state of one board as the arbiter sees it.
type Board struct {
	ID          string `json:"id"`
	Round       string `json:"round,omitempty"`
	White       string `json:"white,omitempty"`
	Black       string `json:"black,omitempty"`
	TimeControl string `json:"timecontrol,omitempty"`
	// WhitePlayer and BlackPlayer are what the round's pairings say of the
	// players besides their names (the PGN's WhiteFideId, WhiteElo, …);
	// Date is the round's date as PGN writes it, when the daemon knows it.
	WhitePlayer Player `json:"white_player,omitzero"`
	BlackPlayer Player `json:"black_player,omitzero"`
	Date        string `json:"date,omitempty"`
	// Serial is the serial number the board's device reported, when it
	// did and no other board's device reported the same (emulated boards
	// all report one number).
	Serial string `json:"serial,omitempty"`

	Connection Connection `json:"connection"` // the board port's
	// ClockConnection is the state of a separate clock port (Connected or
	// Disconnected); empty when the clock is relayed by the board or its
	// port has reported nothing yet. A clock that stops answering leaves
	// the board connected: only the clocks are unknown meanwhile.
	ClockConnection Connection `json:"clock_connection,omitempty"`
	FEN             string     `json:"fen"` // the board as made (completed or not)
	Orientation     string     `json:"orientation,omitempty"`
	LastMove        string     `json:"last_move,omitempty"` // UCI of the last move made
	Ply             int        `json:"ply"`
	// SAN is the record up to the last completed ply, in the order the
	// plies were played: SAN[i] is ply i+1. A ply between completed ones
	// that its side has not completed yet (a forgotten press: the
	// opponent's reply was pressed first; the ply is completed by its
	// side's next move, 6.2.1) stands there as made, since the plies
	// after it follow from it; UnverifiedSAN stands where a ply was not
	// verified.
	SAN []string `json:"san"`

	Moves struct {
		White int `json:"white"`
		Black int `json:"black"`
	} `json:"moves"` // completed moves per side (6.2.1)
	Required struct {
		White int `json:"white"`
		Black int `json:"black"`
	} `json:"required"` // moves the current period requires by its end (0: none)

	Clock struct {
		White float64 `json:"white"`
		Black float64 `json:"black"`
	} `json:"clock"` // seconds, as displayed at ClockT
	ClockT  float64 `json:"clock_t"` // capture time of the clock values
	Running string  `json:"running"` // "white", "black" or "" (stopped / unknown)
	// ClockAt is the wall-clock time the clock values were received, so a
	// dashboard can run the clock on between readings.
	ClockAt time.Time `json:"clock_at"`

	Result    string           `json:"result,omitempty"`
	EndReason string           `json:"end_reason,omitempty"`
	Flag      *reconcile.Event `json:"flag,omitempty"`    // the last flag event, as the stream has it
	Verdict   string           `json:"verdict,omitempty"` // the last flag verdict
	Alerts    []Alert          `json:"alerts"`
	Seq       int              `json:"seq"` // last event applied
	T         float64          `json:"t"`   // time of that event
}

// Update is what subscribers receive: an event of a board, and the board's
// state after it. An Update with a zero Event is a change of the state no
// event carries: an alert raised (Raise) or acknowledged (Ack), or, for
// subscribers of SubscribeSquares only, a change of the board's squares
// (Squares set).
type Update struct {
	Board string
	Event reconcile.Event
	State Board
	// Squares, when set, is the board's squares as they changed
	// (PublishSquares); Event is then zero.
	Squares *Squares
}

// Squares is what a board's sensors showed at one moment: a piece per
// square, in the board's own frame, as the device reported them, whether
// or not they are a position of the game (a piece in the hand leaves its
// square empty).
type Squares struct {
	At       time.Duration // the capture time of the change
	Snapshot rules.Snapshot
}

const startFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// ErrNoBoard is returned for a board the hub does not know.
var ErrNoBoard = errors.New("hub: no such board")

// Hub holds every board's state and recent events. It is safe for
// concurrent use.
type Hub struct {
	now     func() time.Time
	keep    int // events kept per board
	mu      sync.Mutex
	boards  map[string]*entry
	subs    map[*sub]struct{}
	dropped int
}

type entry struct {
	state     Board
	tc        clockd.TimeControl
	clockPort string // Info.ClockPort
	events    []reconcile.Event
	nextID    int
	made      []string // made[i]: the SAN of ply i+1 as made on the board ("" when not seen)
	// after[i]: the board after ply i as made (after[0] the start), so a
	// retract puts the board back where the ply left it; a zero after[i]
	// is a position the stream did not show (a ply not verified).
	after []madeAt
	// squares is the board's squares as last reported (haveSquares), and
	// device the serial number its device reported ("" none).
	squares     Squares
	haveSquares bool
	device      string
}

// madeAt is the board after a ply as made: its FEN and the ply's UCI.
type madeAt struct{ fen, uci string }

type sub struct {
	ch      chan Update
	board   string // "" = all
	squares bool   // receives the boards' squares too (SubscribeSquares)
	closed  bool
}

// Options tune a Hub.
type Options struct {
	// Now gives the wall-clock time (default time.Now).
	Now func() time.Time
	// Keep bounds the events kept per board for the API (default 100000;
	// a long game has a few thousand).
	Keep int
}

// New returns an empty hub.
func New(o Options) *Hub {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Keep <= 0 {
		o.Keep = 100000
	}
	return &Hub{now: o.Now, keep: o.Keep, boards: map[string]*entry{}, subs: map[*sub]struct{}{}}
}

// Player is what the pairings say of a player besides the name: the PGN
// tags WhiteFideId, WhiteElo, WhiteTitle, WhiteFederation, WhiteTeam (and
// Black's). Empty values are unknown.
type Player struct {
	FideID     string `json:"fide_id,omitempty"`
	Elo        string `json:"elo,omitempty"`
	Title      string `json:"title,omitempty"`
	Federation string `json:"federation,omitempty"`
	Team       string `json:"team,omitempty"`
}

// Info describes a board before its game starts.
type Info struct {
	ID, Round, White, Black, TimeControl string
	WhitePlayer, BlackPlayer             Player
	Date                                 string
	// ClockPort names the port of the board's separate clock (a port the
	// capture declares with the lineclock driver); "" when its clock is
	// the one attached to the board. Session events of that port change
	// the clock's connection, not the board's.
	ClockPort string
}

// AddBoard registers a board (or updates its description).
func (h *Hub) AddBoard(in Info) {
	h.mu.Lock()
	defer h.mu.Unlock()
	e := h.boards[in.ID]
	if e == nil {
		e = &entry{state: Board{ID: in.ID, Connection: Waiting, SAN: []string{}, Alerts: []Alert{}, FEN: startFEN}}
		h.boards[in.ID] = e
	}
	e.state.Round, e.state.White, e.state.Black, e.state.TimeControl = in.Round, in.White, in.Black, in.TimeControl
	e.state.WhitePlayer, e.state.BlackPlayer, e.state.Date = in.WhitePlayer, in.BlackPlayer, in.Date
	e.clockPort = in.ClockPort
	if tc, err := clockd.ParseTimeControl(in.TimeControl); err == nil {
		e.tc = tc
		e.updateRequired()
	}
}

// Reset forgets a board's game (a new game starts on it); its description
// stays. It is one step under the lock, so no event lands in between.
func (h *Hub) Reset(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	e := h.boards[id]
	if e == nil {
		return
	}
	// The device stays (its serial number); its squares are read afresh
	// with the new game's times.
	fresh := &entry{tc: e.tc, clockPort: e.clockPort, device: e.device, state: Board{ID: id, Round: e.state.Round, White: e.state.White,
		Black: e.state.Black, TimeControl: e.state.TimeControl, WhitePlayer: e.state.WhitePlayer, BlackPlayer: e.state.BlackPlayer,
		Date: e.state.Date, Serial: e.state.Serial, Connection: Waiting, SAN: []string{},
		Alerts: []Alert{}, FEN: startFEN}}
	fresh.updateRequired()
	h.boards[id] = fresh
}

func (e *entry) updateRequired() {
	if len(e.tc.Periods) == 0 {
		return
	}
	req := func(n int) int { return e.tc.Required(e.tc.PeriodOf(n)) }
	e.state.Required.White = req(e.state.Moves.White)
	e.state.Required.Black = req(e.state.Moves.Black)
}

// Publish applies one event of a board's stream. Boards are created on
// their first event if AddBoard was not called.
func (h *Hub) Publish(id string, ev reconcile.Event) {
	h.mu.Lock()
	e := h.boards[id]
	if e == nil {
		h.mu.Unlock()
		h.AddBoard(Info{ID: id})
		h.mu.Lock()
		e = h.boards[id]
	}
	e.apply(ev, h.now())
	e.events = append(e.events, ev)
	if len(e.events) > h.keep {
		e.events = append(e.events[:0], e.events[len(e.events)-h.keep:]...)
	}
	h.fanOut(Update{Board: id, Event: ev, State: e.snapshot()})
	h.mu.Unlock()
}

// fanOut hands u to every subscriber of its board and of all boards (an
// update of the squares only to those who asked for them): the hub's one
// fan-out. A subscriber that does not keep up is dropped (its channel
// closed): the boards never wait for a client. h.mu is held.
func (h *Hub) fanOut(u Update) {
	for s := range h.subs {
		if s.board != "" && s.board != u.Board || u.Squares != nil && !s.squares {
			continue
		}
		select {
		case s.ch <- u:
		default:
			if h.unsubscribe(s) {
				h.dropped++
			}
		}
	}
}

// unsubscribe closes s's channel and forgets s, once; it reports whether
// it did. h.mu is held.
func (h *Hub) unsubscribe(s *sub) bool {
	if s.closed {
		return false
	}
	s.closed = true
	close(s.ch)
	delete(h.subs, s)
	return true
}

func secs(d time.Duration) float64 { return d.Seconds() }

func (e *entry) setClock(t clockd.Times, at time.Duration, wall time.Time) {
	e.state.Clock.White, e.state.Clock.Black = secs(t.White), secs(t.Black)
	e.state.ClockT = secs(at)
	e.state.ClockAt = wall
}

// apply updates the board's state with one event.
func (e *entry) apply(ev reconcile.Event, wall time.Time) {
	s := &e.state
	s.Seq, s.T = ev.Seq, secs(ev.At)
	switch ev.Type {
	case reconcile.TypeSession:
		e.applySession(ev)
	case reconcile.TypePosition:
		s.FEN, s.Orientation = ev.FEN, ev.Orientation
		e.after = append(e.after[:0], madeAt{fen: ev.FEN})
	case reconcile.TypeMove:
		e.applyMove(ev)
	case reconcile.TypeRetract:
		e.applyRetract(ev)
	case reconcile.TypePress:
		e.setClock(ev.Clock, ev.At, wall)
		s.Running = ev.Side.Other().String()
	case reconcile.TypeComplete:
		e.applyComplete(ev, wall)
	case reconcile.TypePeriod:
		e.updateRequired()
	case reconcile.TypeFlag:
		e.applyFlag(ev, wall)
	case reconcile.TypeEnd:
		s.Result, s.EndReason = ev.Result, string(ev.Reason)
		s.Running = ""
	case reconcile.TypeAnomaly:
		e.applyAnomaly(ev)
	case reconcile.TypePause:
		if ev.State == reconcile.StateStopped {
			s.Running = ""
		}
	case reconcile.TypeAdjust:
		e.applyAdjust(ev)
	case reconcile.TypeClaim:
		e.alert(ev, Amber, "claim", ev.Side.String(), ev.Article, string(ev.Reason))
	case reconcile.TypeDecision:
		e.applyDecision(ev)
	}
}

// Connection is the state of a board's port, or of its clock's, as the
// dashboard and the feeds show it (the `connection` and
// `clock_connection` fields of a board).
type Connection string

// The connection states: Waiting before the port has reported anything,
// Connected while it answers, Disconnected once it stopped answering,
// Ended after its capture ended.
const (
	Waiting      Connection = "waiting"
	Connected    Connection = "connected"
	Disconnected Connection = "disconnected"
	Ended        Connection = "ended"
)

// applySession follows the connection of the board, or of its clock when
// the session event is the clock port's.
func (e *entry) applySession(ev reconcile.Event) {
	s := &e.state
	if e.clockPort != "" && ev.Port == e.clockPort {
		switch ev.State {
		case reconcile.StateConnected, reconcile.StateStart, reconcile.StateResync:
			s.ClockConnection = Connected
		case reconcile.StateDisconnected:
			s.ClockConnection = Disconnected
			s.Running = ""
		}
		return
	}
	switch ev.State {
	case reconcile.StateConnected, reconcile.StateStart:
		if s.Connection != Ended {
			s.Connection = Connected
		}
	case reconcile.StateDisconnected:
		s.Connection = Disconnected
		s.Running = ""
	case reconcile.StateEnd:
		s.Connection = Ended
		s.Running = ""
	}
}

// applyMove shows a ply made on the board and keeps its SAN and the board
// after it, for when it is completed or retracted.
func (e *entry) applyMove(ev reconcile.Event) {
	s := &e.state
	s.FEN, s.Ply, s.LastMove = ev.FEN, ev.Ply, ev.UCI
	if ev.Ply < 1 {
		return
	}
	if len(e.made) >= ev.Ply {
		e.made = e.made[:ev.Ply-1]
	}
	for len(e.made) < ev.Ply-1 {
		e.made = append(e.made, "")
	}
	e.made = append(e.made, ev.SAN)
	e.after = append(e.after[:min(len(e.after), ev.Ply)], make([]madeAt, max(0, ev.Ply-len(e.after)))...)
	e.after = append(e.after, madeAt{fen: ev.FEN, uci: ev.UCI})
}

// applyRetract takes a ply back: the board, the record and the plies made.
func (e *entry) applyRetract(ev reconcile.Event) {
	s := &e.state
	s.Ply = ev.Ply - 1
	if ev.Ply < 1 {
		return
	}
	// the board is back where the ply before left it
	if n := ev.Ply - 1; n < len(e.after) && e.after[n].fen != "" {
		s.FEN, s.LastMove = e.after[n].fen, e.after[n].uci
	}
	e.after = e.after[:min(len(e.after), ev.Ply)]
	// a take-back, or a made ply that stood in the record
	// uncompleted before a completed reply
	if len(s.SAN) >= ev.Ply {
		s.SAN = s.SAN[:ev.Ply-1]
	}
	if len(e.made) >= ev.Ply {
		e.made = e.made[:ev.Ply-1]
	}
}

// applyComplete puts a completed ply in the record, in its place, with the
// moves completed and the clocks.
func (e *entry) applyComplete(ev reconcile.Event, wall time.Time) {
	s := &e.state
	if ev.Ply < 1 {
		return
	}
	for len(s.SAN) < ev.Ply-1 {
		// A ply made and answered but not completed yet by its own
		// side stands as made. Plies made while the board was not
		// read, which arbiterd could not verify (an unverified-moves
		// anomaly says so), keep their places: SAN[i] is always ply
		// i+1.
		san := UnverifiedSAN
		if n := len(s.SAN); n < len(e.made) && e.made[n] != "" {
			san = e.made[n]
		}
		s.SAN = append(s.SAN, san)
	}
	if len(s.SAN) >= ev.Ply {
		// completed after its side's opponent's reply was: it keeps
		// its place (the presses came out of the board's order)
		s.SAN[ev.Ply-1] = ev.SAN
	} else {
		s.SAN = append(s.SAN, ev.SAN)
	}
	s.Moves.White, s.Moves.Black = ev.Moves.White, ev.Moves.Black
	e.setClock(ev.Clock, ev.At, wall)
	e.updateRequired()
}

// applyFlag keeps the flag and its verdict, and raises an alert: red, or
// amber when the verdict is none.
func (e *entry) applyFlag(ev reconcile.Event, wall time.Time) {
	s := &e.state
	f := ev
	s.Flag = &f
	s.Verdict = string(ev.Verdict)
	e.setClock(ev.Clock, ev.At, wall)
	level := Red
	if ev.Verdict == reconcile.VerdictNone {
		level = Amber
	}
	e.alert(ev, level, "flag", ev.Side.String(), ev.Article, string(ev.Reason))
}

// applyAnomaly raises an amber alert; a stopped clock no longer runs.
func (e *entry) applyAnomaly(ev reconcile.Event) {
	side := ""
	if !ev.NoSide {
		side = ev.Side.String()
	}
	if ev.Kind == reconcile.KindClockStopped {
		e.state.Running = ""
	}
	e.alert(ev, Amber, string(ev.Kind), side, ev.Article, ev.Detail)
}

// applyAdjust shows the arbiter's clock change, closes the alerts it
// answers and keeps it, acknowledged, as a note.
func (e *entry) applyAdjust(ev reconcile.Event) {
	s := &e.state
	s.Clock.White, s.Clock.Black = secs(ev.Clock.White), secs(ev.Clock.Black)
	for i := range s.Alerts {
		a := &s.Alerts[i]
		for _, q := range ev.Closes {
			if a.Seq == q && a.ClosedBy == 0 {
				a.ClosedBy, a.Acked = ev.Seq, true
			}
		}
	}
	// the change itself, for the record: nothing to act on
	e.alert(ev, Note, "adjust", ev.Side.String(), ev.Article, string(ev.Reason))
	s.Alerts[len(s.Alerts)-1].Acked = true
}

// applyDecision closes the claim it decides (unless postponed) and keeps
// it as an alert: a note, or amber when the claim is rejected.
func (e *entry) applyDecision(ev reconcile.Event) {
	s := &e.state
	if ev.Decision != reconcile.DecisionPostponed {
		for i := range s.Alerts {
			if a := &s.Alerts[i]; a.Seq == ev.Claim && a.Kind == "claim" && a.ClosedBy == 0 {
				a.ClosedBy, a.Acked = ev.Seq, true
			}
		}
	}
	level := Note
	if ev.Decision == reconcile.DecisionRejected {
		level = Amber // the two minutes are still to be added
	}
	e.alert(ev, level, "decision", ev.Side.String(), ev.Article, string(ev.Reason))
	if level == Note {
		s.Alerts[len(s.Alerts)-1].Acked = true
	}
}

func (e *entry) alert(ev reconcile.Event, level, kind, side, article, text string) {
	e.nextID++
	e.state.Alerts = append(e.state.Alerts, Alert{ID: e.nextID, Seq: ev.Seq, Level: level, Kind: kind, Side: side,
		Article: article, Text: text, T: secs(ev.At)})
}

// snapshot copies the state (slices included) for a reader.
func (e *entry) snapshot() Board {
	b := e.state
	b.SAN = append([]string(nil), e.state.SAN...)
	b.Alerts = append([]Alert(nil), e.state.Alerts...)
	if b.SAN == nil {
		b.SAN = []string{}
	}
	if b.Alerts == nil {
		b.Alerts = []Alert{}
	}
	return b
}

// Raise adds an alert that no event of the stream carries — the daemon's
// own trouble, such as a journal that cannot be written — to a board's
// state. Subscribers get an Update with the board's state and a zero
// Event; the event stream itself is left as the journal has it.
func (h *Hub) Raise(id string, level, kind, article, text string) error {
	return h.RaiseSaying(id, level, kind, article, text, nil)
}

// RaiseSaying is Raise of an alert whose sentence is also a message of
// the catalogs (Alert.Say; nil: none), text its English.
func (h *Hub) RaiseSaying(id string, level, kind, article, text string, say *i18n.Message) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	e := h.boards[id]
	if e == nil {
		return fmt.Errorf("%w %q", ErrNoBoard, id)
	}
	e.nextID++
	e.state.Alerts = append(e.state.Alerts, Alert{ID: e.nextID, Seq: e.state.Seq, Level: level, Kind: kind,
		Article: article, Text: text, T: e.state.T, Say: say})
	h.fanOut(Update{Board: id, State: e.snapshot()})
	return nil
}

// Touch hands the board's subscribers its state as it is, with a zero
// Event: for a change that is not the hub's but shows with the board (a
// hall no longer hearing the venue that plays it). An unknown board is
// ignored.
func (h *Hub) Touch(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if e := h.boards[id]; e != nil {
		h.fanOut(Update{Board: id, State: e.snapshot()})
	}
}

// PublishSquares records what a board's sensors show at capture time at (s
// in the board's own frame), and hands a change to the subscribers of
// SubscribeSquares; the same squares again are no change. The board's
// state and event stream are left as they are: a board's squares are not
// events (a piece in the hand is no move), and only a live board reports
// them. A board the hub does not know is ignored.
func (h *Hub) PublishSquares(id string, at time.Duration, s rules.Snapshot) {
	h.mu.Lock()
	defer h.mu.Unlock()
	e := h.boards[id]
	if e == nil || e.haveSquares && e.squares.Snapshot == s {
		return
	}
	e.squares, e.haveSquares = Squares{At: at, Snapshot: s}, true
	for sb := range h.subs {
		if sb.squares {
			sq := e.squares
			h.fanOut(Update{Board: id, State: e.snapshot(), Squares: &sq})
			return
		}
	}
}

// Squares returns a board's squares as last reported, and when they last
// changed; false when no squares were reported since the board's game
// began.
func (h *Hub) Squares(id string) (Squares, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	e := h.boards[id]
	if e == nil || !e.haveSquares {
		return Squares{}, false
	}
	return e.squares, true
}

// SetSerial records the serial number board id's device reported. A
// board's Serial is its device's number when no other board's device
// reported the same and no other board has it as its id; boards that share
// one keep none, so that a serial number always names one board.
func (h *Hub) SetSerial(id, serial string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	e := h.boards[id]
	if e == nil || e.device == serial {
		return
	}
	e.device = serial
	n := map[string]int{}
	for id, e := range h.boards {
		n[e.device]++
		if id != e.device {
			n[id]++
		}
	}
	for _, e := range h.boards {
		e.state.Serial = ""
		if e.device != "" && n[e.device] == 1 {
			e.state.Serial = e.device
		}
	}
}

// Boards returns every board's state, ordered by id (numerically when the
// ids are numbers).
func (h *Hub) Boards() []Board {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]Board, 0, len(h.boards))
	for _, e := range h.boards {
		out = append(out, e.snapshot())
	}
	sort.Slice(out, func(i, j int) bool { return lessID(out[i].ID, out[j].ID) })
	return out
}

func lessID(a, b string) bool {
	var x, y int
	_, ea := fmt.Sscanf(a, "%d", &x)
	_, eb := fmt.Sscanf(b, "%d", &y)
	if ea == nil && eb == nil && x != y {
		return x < y
	}
	return a < b
}

// Board returns one board's state.
func (h *Hub) Board(id string) (Board, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	e := h.boards[id]
	if e == nil {
		return Board{}, fmt.Errorf("%w %q", ErrNoBoard, id)
	}
	return e.snapshot(), nil
}

// Events returns a board's events with seq > since, in order.
func (h *Hub) Events(id string, since int) ([]reconcile.Event, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	e := h.boards[id]
	if e == nil {
		return nil, fmt.Errorf("%w %q", ErrNoBoard, id)
	}
	i := sort.Search(len(e.events), func(i int) bool { return e.events[i].Seq > since })
	return append([]reconcile.Event(nil), e.events[i:]...), nil
}

// Ack marks an alert as acknowledged by the arbiter. Subscribers get an
// Update with the board's state and a zero Event.
func (h *Hub) Ack(id string, alert int) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	e := h.boards[id]
	if e == nil {
		return fmt.Errorf("%w %q", ErrNoBoard, id)
	}
	for i := range e.state.Alerts {
		if e.state.Alerts[i].ID == alert {
			e.state.Alerts[i].Acked = true
			h.fanOut(Update{Board: id, State: e.snapshot()})
			return nil
		}
	}
	return fmt.Errorf("hub: board %s has no alert %d", id, alert)
}

// Subscribe returns a channel of updates for one board ("" = all boards).
// The channel is closed when ctx is done, or when the subscriber fell more
// than buffer updates behind (it should then re-read the state and
// subscribe again).
func (h *Hub) Subscribe(ctx context.Context, board string, buffer int) <-chan Update {
	return h.subscribe(ctx, board, buffer, false)
}

// SubscribeSquares is Subscribe with the changes of the boards' squares
// (PublishSquares) among the updates, in their order with the events.
func (h *Hub) SubscribeSquares(ctx context.Context, board string, buffer int) <-chan Update {
	return h.subscribe(ctx, board, buffer, true)
}

func (h *Hub) subscribe(ctx context.Context, board string, buffer int, squares bool) <-chan Update {
	if buffer <= 0 {
		buffer = 256
	}
	s := &sub{ch: make(chan Update, buffer), board: board, squares: squares}
	h.mu.Lock()
	h.subs[s] = struct{}{}
	h.mu.Unlock()
	go func() {
		<-ctx.Done()
		h.mu.Lock()
		h.unsubscribe(s)
		h.mu.Unlock()
	}()
	return s.ch
}

// Dropped is the number of subscribers dropped for falling behind.
func (h *Hub) Dropped() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.dropped
}
