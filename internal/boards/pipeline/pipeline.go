package pipeline

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/driver/dgt"
	"github.com/arbiterd/arbiterd/driver/lineclock"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
	"github.com/arbiterd/arbiterd/rules"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// Options are the settings that do not come from the capture.
type Options struct {
	// Oracle answers the 6.9 question for flag verdicts (nil:
	// DefaultOracle, the rules/unwinnable analyzer).
	Oracle reconcile.MateOracle
	// MaxPlies is the reconstruction depth (0: the default).
	MaxPlies int
	// OnSquares, when set, is given every state a DGT board reports of
	// its squares (after each dump and each field update, in the board's
	// own frame), whether or not it is a position of the game: a piece
	// in the hand shows as a square emptied. It is called before the
	// events the state causes are returned. The event stream does not
	// depend on it.
	OnSquares func(at time.Duration, port string, s rules.Snapshot)
	// OnSerial, when set, is given the serial number a DGT board reports.
	OnSerial func(port, serial string)
}

// Pipeline turns the bytes of one game's ports into its event stream. It
// is fed exactly what a capture holds — port declarations, meta values and
// data — so the live daemon (feeding what it also writes to the capture)
// and replay (feeding the capture) produce the same events. It is not safe
// for concurrent use.
type Pipeline struct {
	opts   Options
	meta   map[string]string
	ports  map[string]*port
	order  []string // port names in declaration order
	game   *reconcile.Game
	interp *clockd.Interpreter
	tags   Tags
	events []reconcile.Event
	last   time.Duration // time of the last data record
	// clockPort names the game's separate clock (a lineclock port), ""
	// when the clock is read through the board. One clock per game: once
	// a separate clock is declared, the board's BWTIME messages are not
	// clock readings any more.
	clockPort string
	acks      []capture.Record // the ack markers read (Acks)
}

// Tags are the game's descriptive settings, as the capture's meta gives
// them when the game starts.
type Tags struct {
	Board, White, Black, Event, Round, StartFEN string
	TimeControl                                 clockd.TimeControl
	// Site is the PGN Site; Started, Version and Revision the capture's
	// provenance (capture.MetaStarted, …): "" when it does not say.
	Site, Started, Version, Revision string
	// WhitePlayer and BlackPlayer are what the pairings said of the
	// players (capture.MetaWhiteFideID, …).
	WhitePlayer, BlackPlayer Player
}

// Player is what a capture's meta says of a player besides the name.
type Player struct {
	FideID, Elo, Title, Federation, Team string
}

// playerTags fills the tags that name the players from meta m.
func (t *Tags) playerTags(m map[string]string) {
	t.White, t.Black = m[capture.MetaWhite], m[capture.MetaBlack]
	t.WhitePlayer = Player{FideID: m[capture.MetaWhiteFideID], Elo: m[capture.MetaWhiteElo], Title: m[capture.MetaWhiteTitle],
		Federation: m[capture.MetaWhiteFederation], Team: m[capture.MetaWhiteTeam]}
	t.BlackPlayer = Player{FideID: m[capture.MetaBlackFideID], Elo: m[capture.MetaBlackElo], Title: m[capture.MetaBlackTitle],
		Federation: m[capture.MetaBlackFederation], Team: m[capture.MetaBlackTeam]}
}

// port is one device line and its decoder.
type port struct {
	name, driver string
	declared     time.Duration
	dgt          *dgt.Decoder
	board        [64]byte // DGT field order
	haveBoard    bool
	lc           *lineclock.Decoder
	tracker      lineclock.Tracker
}

// New returns an empty pipeline.
func New(opts Options) *Pipeline {
	if opts.Oracle == nil {
		opts.Oracle = DefaultOracle()
	}
	return &Pipeline{opts: opts, meta: map[string]string{}, ports: map[string]*port{}}
}

// knownDrivers names the device drivers a pipeline can decode.
const knownDrivers = "dgt, lineclock"

// Port declares a port (the capture's "#port NAME DRIVER"). Its session
// "start" event is emitted when the game starts (at the first data, once
// the meta lines that follow the declarations are known), or at once for a
// port declared later.
//
// A game has one clock. A "lineclock" port is a clock on its own line
// (driver/lineclock); from its declaration on, its lines are the game's
// clock readings and the clock messages a DGT board relays (BWTIME) are
// ignored — a board with no clock attached reports "no clock", which
// must not read as the game's clock being gone. A second lineclock port
// is refused.
func (p *Pipeline) Port(name, driver string) ([]reconcile.Event, error) {
	if old, dup := p.ports[name]; dup {
		if old.driver != driver {
			return nil, fmt.Errorf("port %s: declared again with driver %q, was %q", name, driver, old.driver)
		}
		return nil, nil // a repeated declaration (a reconnect) keeps the decoder
	}
	pt := &port{name: name, driver: driver}
	switch driver {
	case "dgt":
		pt.dgt = dgt.NewDecoder()
	case "lineclock":
		if p.clockPort != "" {
			return nil, fmt.Errorf("port %s: a game has one clock, and port %s already is its lineclock", name, p.clockPort)
		}
		pt.lc = lineclock.NewDecoder()
		p.clockPort = name
	default:
		return nil, fmt.Errorf("port %s: no decoder for driver %q (this build knows %s)", name, driver, knownDrivers)
	}
	pt.declared = p.last
	p.ports[name] = pt
	p.order = append(p.order, name)
	if p.game == nil {
		return nil, nil
	}
	return p.Session(p.last, name, reconcile.StateStart)
}

// Meta sets a game setting (the capture's "#meta KEY=VALUE"). Settings that
// shape the game (time control, start position, clock orientation, rules)
// are checked here, so a bad value is reported where it appears. They take
// effect when the game starts (at the first data); a later correction is
// kept for the record — correcting a running game's clock is the arbiter's
// act (6.10, 7.1), not a silent change of the verdict rules.
func (p *Pipeline) Meta(key, value string) error {
	switch key {
	case capture.MetaTimeControl:
		if _, err := clockd.ParseTimeControl(value); err != nil {
			return fmt.Errorf("meta timecontrol: %w", err)
		}
	case "clock-white":
		if _, err := clockd.ParseWhiteFace(value); err != nil {
			return fmt.Errorf("meta clock-white: %w", err)
		}
	case "rules":
		if _, err := parseClass(value); err != nil {
			return fmt.Errorf("meta rules: %w", err)
		}
	case "start-fen":
		if _, err := rules.NewGame(value); err != nil {
			return fmt.Errorf("meta start-fen: %w", err)
		}
	case capture.MetaDefaultTime:
		if _, err := parseDefaultTime(value); err != nil {
			return fmt.Errorf("meta %s: %w", key, err)
		}
	}
	p.meta[key] = value
	if p.game != nil && slices.Contains(capture.PlayerKeys, key) {
		p.tags.playerTags(p.meta) // a pairing corrected during the game
	}
	return nil
}

// parseDefaultTime reads the default-time meta value: whole seconds.
func parseDefaultTime(s string) (time.Duration, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%q is not a whole number of seconds", s)
	}
	return time.Duration(n) * time.Second, nil
}

func parseClass(s string) (clockd.Class, error) {
	switch s {
	case "standard":
		return clockd.Standard, nil
	case "rapid":
		return clockd.Rapid, nil
	case "blitz":
		return clockd.Blitz, nil
	}
	return 0, fmt.Errorf("%q is not standard, rapid or blitz", s)
}

// start creates the reconciliation from the meta in force.
func (p *Pipeline) start() error {
	m := p.meta
	cfg := reconcile.Config{
		Board:    m[capture.MetaBoard],
		StartFEN: m["start-fen"],
		Oracle:   p.opts.Oracle,
		MaxPlies: p.opts.MaxPlies,
	}
	if cfg.Board == "" && len(p.order) > 0 {
		cfg.Board = p.order[0]
	}
	var tc clockd.TimeControl
	if s := m[capture.MetaTimeControl]; s != "" {
		var err error
		if tc, err = clockd.ParseTimeControl(s); err != nil {
			return err
		}
		cfg.TimeControl = tc
		cfg.Class = tc.Class()
	}
	if s := m[capture.MetaDefaultTime]; s != "" {
		d, err := parseDefaultTime(s)
		if err != nil {
			return err
		}
		cfg.DefaultTime = d
	}
	if s := m["rules"]; s != "" {
		c, err := parseClass(s)
		if err != nil {
			return err
		}
		cfg.Class = c
	}
	wf := clockd.WhiteAuto
	if s := m["clock-white"]; s != "" {
		var err error
		if wf, err = clockd.ParseWhiteFace(s); err != nil {
			return err
		}
	}
	g, err := reconcile.New(cfg)
	if err != nil {
		return err
	}
	p.game = g
	p.interp = clockd.NewInterpreter(tc, wf)
	p.tags = Tags{
		Board: cfg.Board, White: m["white"], Black: m["black"], Event: m["event"],
		Round: m["round"], StartFEN: cfg.StartFEN, TimeControl: tc,
		Site: m[capture.MetaSite], Started: m[capture.MetaStarted],
		Version: m[capture.MetaArbiterdVersion], Revision: m[capture.MetaArbiterdRevision],
	}
	p.tags.playerTags(m)
	for _, name := range p.order {
		p.emit(p.session(p.ports[name].declared, "start", name))
	}
	return nil
}

// Tags returns the game's settings (valid once the first data arrived).
func (p *Pipeline) Tags() Tags { return p.tags }

// Game returns the reconciliation (nil before the first data).
func (p *Pipeline) Game() *reconcile.Game { return p.game }

func (p *Pipeline) emit(evs []reconcile.Event) {
	p.events = append(p.events, evs...)
}

// Session records a change of a port's connection state (start,
// connected, disconnected, resync, end).
func (p *Pipeline) Session(at time.Duration, portName string, state reconcile.State) ([]reconcile.Event, error) {
	p.events = p.events[:0]
	if p.game == nil {
		if err := p.start(); err != nil {
			return nil, err
		}
	}
	p.emit(p.game.Advance(at))
	switch state {
	case reconcile.StateConnected:
		if p.interp != nil {
			// The port was away (or arbiterd was): the clock was not read
			// meanwhile, and its next reading may show any number of presses.
			p.interp.Gap()
		}
	case reconcile.StateDisconnected:
		if p.interp != nil && p.carriesClock(portName) {
			// The same, from the moment the clock's line went away: a
			// restarted daemon's board may relay the clock before it
			// answers the requests that make the session "connected".
			p.interp.Gap()
		}
	}
	p.emit(p.session(at, state, portName))
	return p.events, nil
}

// carriesClock reports whether the game's clock is read on port name: its
// own port when it has one, else the DGT board that relays it.
func (p *Pipeline) carriesClock(name string) bool {
	if p.clockPort != "" {
		return name == p.clockPort
	}
	pt := p.ports[name]
	return pt != nil && pt.dgt != nil
}

// session hands a port's session change to the game. A port is a separate
// clock because its declared driver is a clock's (lineclock), whatever its
// name.
func (p *Pipeline) session(at time.Duration, state reconcile.State, name string) []reconcile.Event {
	if pt := p.ports[name]; pt != nil && pt.lc != nil {
		return p.game.ClockSession(at, state, name)
	}
	return p.game.Session(at, state, name)
}

// Data feeds the bytes of one read (dir capture.Read) or write on a port.
// It returns the events they caused; the slice is reused by the next call.
func (p *Pipeline) Data(at time.Duration, portName string, dir capture.Dir, data []byte) ([]reconcile.Event, error) {
	pt := p.ports[portName]
	if pt == nil {
		return nil, fmt.Errorf("data on undeclared port %q", portName)
	}
	p.events = p.events[:0]
	if p.game == nil {
		if err := p.start(); err != nil {
			return nil, err
		}
	}
	if dir != capture.Read {
		return p.events, nil
	}
	p.last = at
	switch {
	case pt.dgt != nil:
		// Each message is handled as Message handles it live, so a
		// capture replays to exactly the live events.
		pt.dgt.FeedFunc(data, func(m dgt.Message) { p.dgtMessage(at, pt, m) })
	case pt.lc != nil:
		for _, m := range pt.lc.Feed(data) {
			p.clockMessage(at, pt, m)
		}
	}
	return p.events, nil
}

// Message feeds one message already decoded from a DGT port's bytes (the
// live daemon's dgt.Session decodes them, stamped with the time of the read
// that completed them, as replay's decoder does). It returns the events it
// caused; the slice is reused by the next call.
func (p *Pipeline) Message(at time.Duration, portName string, m dgt.Message) ([]reconcile.Event, error) {
	pt := p.ports[portName]
	if pt == nil || pt.dgt == nil {
		return nil, fmt.Errorf("DGT message on port %q, which is not a declared dgt port", portName)
	}
	p.events = p.events[:0]
	if p.game == nil {
		if err := p.start(); err != nil {
			return nil, err
		}
	}
	p.last = at
	p.dgtMessage(at, pt, m)
	return p.events, nil
}

func (p *Pipeline) dgtMessage(at time.Duration, pt *port, m dgt.Message) {
	p.emit(p.game.Advance(at))
	switch m := m.(type) {
	case dgt.BoardDump:
		pt.board = m.Fields
		pt.haveBoard = true
		p.squares(at, pt)
		// A dump is the board read afresh: one that contradicts the
		// image the field updates built means updates were lost, and
		// the reconciliation treats it as the board back from an
		// absence rather than as a move.
		p.emit(p.game.Dump(at, Snapshot(pt.board)))
	case dgt.FieldUpdate:
		if int(m.Field) >= len(pt.board) || !pt.haveBoard {
			// Without a dump the rest of the board is unknown; a field
			// update alone cannot be placed in a position.
			if int(m.Field) < len(pt.board) {
				pt.board[m.Field] = m.Piece
			}
			return
		}
		pt.board[m.Field] = m.Piece
		p.squares(at, pt)
		p.emit(p.game.Board(at, Snapshot(pt.board)))
	case dgt.Serial:
		if p.opts.OnSerial != nil {
			p.opts.OnSerial(pt.name, m.Number)
		}
	case dgt.ClockTime:
		if p.clockPort != "" {
			return // the game's clock is on its own port
		}
		r := Reading(at, m)
		for _, ev := range p.interp.Feed(r) {
			p.emit(p.game.Clock(ev))
		}
	}
}

// squares shows the port's board state to Options.OnSquares.
func (p *Pipeline) squares(at time.Duration, pt *port) {
	if p.opts.OnSquares != nil {
		p.opts.OnSquares(at, pt.name, Snapshot(pt.board))
	}
}

// clockMessage handles one line of a lineclock port: the tracker turns it
// into a reading for the game's one clock interpreter.
func (p *Pipeline) clockMessage(at time.Duration, pt *port, m lineclock.Message) {
	p.emit(p.game.Advance(at))
	r, ok := pt.tracker.Reading(m, at)
	if !ok {
		return // HELLO: no clock state
	}
	for _, ev := range p.interp.Feed(r) {
		p.emit(p.game.Clock(ev))
	}
}

// ClockStats returns the line counts of the game's lineclock port (ok
// false when the game has none), for a decode-error metric.
func (p *Pipeline) ClockStats() (s lineclock.Stats, ok bool) {
	if p.clockPort == "" {
		return lineclock.Stats{}, false
	}
	return p.ports[p.clockPort].lc.Stats(), true
}

// Snapshot converts a DGT board state (field 0 = a8 … 63 = h1, in the
// board's own frame) into a rules.Snapshot. Codes that name no piece (the
// magic result pieces 13–15, or anything out of range) are marked Unknown.
func Snapshot(fields [64]byte) rules.Snapshot {
	var s rules.Snapshot
	for f, code := range fields {
		sq := (7-f/8)*8 + f%8
		if code == dgt.PieceEmpty {
			continue
		}
		if int(code) < len(dgtPieces) && dgtPieces[code] != chess.NoPiece {
			s.Squares[sq] = dgtPieces[code]
			continue
		}
		s.Unknown |= 1 << uint(sq)
	}
	return s
}

// dgtPieces maps DGT piece codes to pieces: 1–6 white P R N B K Q, 7–12
// black p r n b k q.
var dgtPieces = [...]chess.Piece{
	chess.NoPiece,
	chess.WhitePawn, chess.WhiteRook, chess.WhiteKnight, chess.WhiteBishop, chess.WhiteKing, chess.WhiteQueen,
	chess.BlackPawn, chess.BlackRook, chess.BlackKnight, chess.BlackBishop, chess.BlackKing, chess.BlackQueen,
}

// Reading converts a DGT 3000 BWTIME message into a clockd.Reading.
func Reading(at time.Duration, c dgt.ClockTime) clockd.Reading {
	face := func(f dgt.FaceTime) clockd.FaceReading {
		return clockd.FaceReading{Time: f.Time, Flag: f.Flag, FlagShown: f.FlagShown, PerMove: f.PerMove}
	}
	return clockd.Reading{
		At: at, Left: face(c.Left), Right: face(c.Right),
		// The turn bits as real boards and the older protocol text read
		// them (D3 left, D4 right): a belief the interpreter checks
		// against the displays.
		Running: c.Running, LeftTurn: c.TurnD3, RightTurn: c.TurnD4,
		LeverRightHigh: c.LeverRightHigh, LeverKnown: true,
		NoClock: c.NoClock, BatteryLow: c.BatteryLow,
	}
}
