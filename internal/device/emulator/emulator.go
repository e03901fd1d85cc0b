package emulator

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/notnil/chess"
)

// EndRule is what happens after the last move of the game.
type EndRule int

const (
	// EndStop: the players stop the clock a moment after the last press.
	EndStop EndRule = iota
	// EndFlag: the side to move after the last ply thinks until its flag
	// falls (in the last period: the game ends on time).
	EndFlag
)

// Config is everything the emulation plays. The zero value plus a game is
// usable: the FIDE standard control 40/5400+30:1800+30 on the clock, real
// time, White's time on the left face.
type Config struct {
	Game     []string // the moves to play, SAN or UCI
	PGN      string   // alternatively a PGN text: its first game is played
	StartFEN string   // position the game starts from (default: the standard start, or the PGN's FEN tag)

	Periods      []Period   // the hardware clock's setting; the last period has Moves 0
	PeriodBy     PeriodRule // how the hardware adds the next period
	WhiteOnRight bool       // White's time is on the right face
	// TurnBits2015 makes the clock set the turn bits as the 2015 revision
	// of the protocol header describes them (D3 right, D4 left) instead of
	// as real boards set them (D3 left, D4 right); a host must cope with
	// either.
	TurnBits2015 bool
	Reversed     bool // the board stands with Black at the bottom (fields turned round)

	Speed float64 // emulated time per real time (1 = real time; 0 means 1)
	Seed  int64   // all randomness (noise, think times, garbage) follows from it

	// ThinkTime, when set, is the time (from the start of the turn to the
	// press) the player takes on ply (1-based). Otherwise a model spreads
	// each player's remaining time over the moves to the control.
	ThinkTime func(ply int) time.Duration
	// MeanThink, when set (and ThinkTime is not), is the mean think time
	// per ply; a player short of time for the moves left to the control
	// plays fast (a time scramble) but never thinks past its flag.
	MeanThink time.Duration

	// Observe, when set, is told what the emulation does (moves made,
	// presses, periods, flags, scripted actions) as it happens, on Run's
	// goroutine; it must not block.
	Observe func(Note)

	Script []Action   // scripted faults and special actions
	End    EndRule    // what happens after the last move
	Mode   UpdateMode // what the board sends before any host command (default update-nice)
	Wait   bool       // do not start the clock until the host sends its first command
	// NoClock: no clock is attached to the board — the game's clock is a
	// separate USB clock on its own line (see LineClock). The board answers
	// a clock request with "no clock", sends no clock frames and ignores
	// clock commands; the emulated clock still keeps the game's time (the
	// players' think times and flags follow it).
	NoClock bool
	Linger  bool // keep answering after the game ended, until ctx is done
}

// ErrUnplugged is returned by Run when a scripted unplug without a return
// time happens: the board is gone, the caller should close the port.
var ErrUnplugged = errors.New("emulator: board unplugged")

// Emulator is a DGT board with a DGT 3000 clock attached, playing a game.
type Emulator struct {
	cfg   Config
	speed float64
	plies int
	lost  atomic.Int64
	// The parsed game; positions are never modified, so every Run and Play
	// shares them.
	start *chess.Position
	moves []ply
}

// overrunWait is how long a write to an *os.File (a pty or serial port) may
// wait for the host to read before the bytes count as lost.
const overrunWait = 500 * time.Millisecond

// Lost is the number of bytes the board sent into a full or unconnected
// port (an *os.File) and which were therefore lost.
func (e *Emulator) Lost() int64 { return e.lost.Load() }

// New checks cfg and prepares the emulation.
func New(cfg Config) (*Emulator, error) {
	// Own copies: the caller may reuse its slices.
	cfg.Game = append([]string(nil), cfg.Game...)
	cfg.Periods = append([]Period(nil), cfg.Periods...)
	cfg.Script = append([]Action(nil), cfg.Script...)
	if cfg.Speed == 0 {
		cfg.Speed = 1
	}
	if cfg.Speed < 0 || math.IsNaN(cfg.Speed) || math.IsInf(cfg.Speed, 0) {
		return nil, fmt.Errorf("emulator: speed %v: must be a positive number", cfg.Speed)
	}
	if len(cfg.Periods) == 0 {
		cfg.Periods = []Period{
			{Moves: 40, Time: 90 * time.Minute, Increment: 30 * time.Second},
			{Time: 30 * time.Minute, Increment: 30 * time.Second},
		}
	}
	if err := checkPeriods(cfg.Periods); err != nil {
		return nil, err
	}
	if cfg.MeanThink < 0 {
		return nil, fmt.Errorf("emulator: mean think time %s is negative", cfg.MeanThink)
	}
	if cfg.PeriodBy != AtFlag && cfg.PeriodBy != AfterPresses {
		return nil, fmt.Errorf("emulator: unknown period rule %d", cfg.PeriodBy)
	}
	if cfg.End != EndStop && cfg.End != EndFlag {
		return nil, fmt.Errorf("emulator: unknown end rule %d", cfg.End)
	}
	if cfg.Mode < ModeUpdateNice || cfg.Mode > ModeUpdateBoard {
		return nil, fmt.Errorf("emulator: unknown update mode %d", cfg.Mode)
	}
	if len(cfg.Game) > 0 && cfg.PGN != "" {
		return nil, errors.New("emulator: both Game and PGN given; use one")
	}
	if cfg.PGN != "" {
		moves, fen, err := pgnMoves(cfg.PGN)
		if err != nil {
			return nil, err
		}
		cfg.Game = moves
		if cfg.StartFEN == "" {
			cfg.StartFEN = fen
		}
	}
	start, plies, err := parseGame(cfg.StartFEN, cfg.Game)
	if err != nil {
		return nil, err
	}
	if err := checkScript(cfg.Script, cfg.NoClock, len(plies)); err != nil {
		return nil, err
	}
	return &Emulator{cfg: cfg, speed: cfg.Speed, plies: len(plies), start: start, moves: plies}, nil
}

// checkScript checks each action of a script against a game of plies plies
// (and a board without a clock when noClock).
func checkScript(script []Action, noClock bool, plies int) error {
	for _, a := range script {
		if noClock && a.Kind == ClockOff {
			return i18n.Errorf("emulator.script.no-clock", a.String())
		}
		if err := a.check(); err != nil {
			return i18n.Errorf("emulator.script", a.String(), err)
		}
		if a.Ply > plies+1 || (a.Ply == plies+1 && !a.Kind.afterLastAllowed()) {
			return i18n.Errorf("emulator.script.plies", a.String(), plies)
		}
		if (a.Kind == TwoPlies || a.Kind == MergedPress) && a.Ply >= plies {
			return i18n.Errorf("emulator.script.ply-after", a.String(), plies)
		}
	}
	return nil
}

func checkPeriods(ps []Period) error {
	for i, p := range ps {
		last := i == len(ps)-1
		switch {
		case last && p.Moves != 0:
			return i18n.Errorf("emulator.period.last", i+1, p.Moves)
		case !last && p.Moves <= 0:
			return i18n.Errorf("emulator.period.moves", i+1)
		case p.Time < 0 || (i == 0 && p.Time == 0):
			return i18n.Errorf("emulator.period.time", i+1, p.Time.String())
		case p.Time >= 10*time.Hour:
			return i18n.Errorf("emulator.period.long", i+1, p.Time.String())
		case p.Increment < 0:
			return i18n.Errorf("emulator.period.increment", i+1, p.Increment.String())
		case p.Mode != Fischer && p.Mode != Delay && p.Mode != Bronstein:
			return i18n.Errorf("emulator.period.mode", i+1, int(p.Mode))
		}
	}
	return nil
}

// Plies is the number of moves (plies) of the game to play.
func (e *Emulator) Plies() int { return e.plies }

// deadliner is what *os.File (pollable) and net.Conn offer to unblock I/O.
type deadliner interface {
	SetReadDeadline(time.Time) error
	SetWriteDeadline(time.Time) error
}

// Run is the board on the device end of rw: it answers the host's
// commands and plays the game in (scaled) real time until the game is over
// (nil; with Linger only when ctx is done), ctx is done (ctx.Err()), an
// unplug without return (ErrUnplugged) or rw fails. Each Run plays the game
// afresh, so the same Config gives the same bytes when driven the same way.
//
// When rw has SetReadDeadline (a pty master from OpenPTY, a net.Conn), Run
// uses deadlines to stop its reader (and a write to a host that does not
// read) and returns with none of its goroutines left; otherwise a Read
// pending when Run returns ends only when rw delivers or fails, so close rw
// after Run.
func (e *Emulator) Run(ctx context.Context, rw io.ReadWriter) error {
	r := &boardRun{e: e, ctx: ctx, s: newSim(&e.cfg, e.start, e.moves), rw: rw}
	r.file, _ = rw.(*os.File)
	in, readErr, stopReader := startReader(ctx, rw)
	defer stopReader()
	if !e.cfg.Wait {
		r.begin()
	}
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		cur := r.now()
		if r.started {
			if err := r.advance(cur); err != nil {
				return err
			}
		}
		if r.s.finished() && !e.cfg.Linger {
			return nil
		}
		var wake <-chan time.Time
		if at, ok := r.s.nextAt(); ok && r.started {
			timer.Reset(time.Duration(float64(at-cur) / e.speed))
			wake = timer.C
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-wake:
		case data := <-in:
			if err := r.input(data); err != nil {
				return err
			}
		case err := <-readErr:
			in, readErr = nil, nil
			if err != nil {
				return fmt.Errorf("emulator: read: %w", err)
			}
		}
	}
}

// startReader starts reading the host's bytes from rw. When ctx is done, a
// write that blocks is stopped (where rw has deadlines). stop ends the
// reader and, where rw has deadlines, waits for it.
func startReader(ctx context.Context, rw io.ReadWriter) (in <-chan []byte, readErr <-chan error, stop func()) {
	inc := make(chan []byte)
	errc := make(chan error, 1)
	stopc := make(chan struct{})
	readerDone := make(chan struct{})
	go readLoop(rw, inc, errc, stopc, readerDone)
	dl, hasDL := rw.(deadliner)
	unhook := context.AfterFunc(ctx, func() {
		if hasDL {
			_ = dl.SetWriteDeadline(time.Now())
		}
	})
	return inc, errc, func() {
		unhook()
		close(stopc)
		if hasDL {
			_ = dl.SetReadDeadline(time.Now())
			<-readerDone
			_ = dl.SetReadDeadline(time.Time{})
			_ = dl.SetWriteDeadline(time.Time{})
		}
	}
}

// boardRun is one Run of the board: the game played afresh, the line it
// plays on and its clock, which starts at the first host command under
// Wait.
type boardRun struct {
	e       *Emulator
	ctx     context.Context
	s       *sim
	rw      io.ReadWriter
	file    *os.File  // rw when it is a file (a pty): writes to it do not wait for the host
	overrun bool      // the last write to file timed out: the host does not read
	t0      time.Time // when the game started, in real time
	started bool
}

// now is the emulated time since the game started (0 before).
func (r *boardRun) now() time.Duration {
	if !r.started {
		return 0
	}
	return time.Duration(float64(time.Since(r.t0)) * r.e.speed)
}

// begin starts the game now.
func (r *boardRun) begin() {
	r.t0, r.started = time.Now(), true
	r.s.begin(0)
}

// input hands the host's bytes to the board: the first ones start the
// game; later ones arrive now, after whatever was due before them.
func (r *boardRun) input(data []byte) error {
	if !r.started {
		r.s.command(data, 0)
		r.begin()
	} else {
		cur := r.now()
		if err := r.advance(cur); err != nil {
			return err
		}
		at := cur
		if next, ok := r.s.nextAt(); ok && next < at {
			at = next
		}
		r.s.command(data, at)
	}
	return r.flush()
}

// advance plays what is due up to cur, writing each step's output.
func (r *boardRun) advance(cur time.Duration) error {
	for {
		at, ok := r.s.nextAt()
		if !ok || at > cur {
			return nil
		}
		r.s.step()
		if err := r.flush(); err != nil {
			return err
		}
		if r.s.unplugDone {
			return ErrUnplugged
		}
	}
}

// flush writes the board's pending output to the host. Like a serial line,
// it does not wait for a host that does not read: what does not go out is
// counted as lost.
func (r *boardRun) flush() error {
	s, e, file := r.s, r.e, r.file
	if len(s.out) == 0 {
		return nil
	}
	var buf []byte
	for _, f := range s.out {
		buf = append(buf, f...)
	}
	s.out = s.out[:0]
	if file != nil && hungUp(file) {
		e.lost.Add(int64(len(buf)))
		return nil // no host has the port open: lost, as on a cable
	}
	if file != nil {
		// A serial line never waits for its listener: when the host
		// does not read (or no host has the pty open), what does not
		// fit in the buffer is lost, as a UART overruns.
		wait := overrunWait
		if r.overrun {
			wait = time.Millisecond
		}
		_ = file.SetWriteDeadline(time.Now().Add(wait))
	}
	n, err := r.rw.Write(buf)
	switch {
	case err == nil:
		r.overrun = false
		return nil
	case file != nil && errors.Is(err, os.ErrDeadlineExceeded) && r.ctx.Err() == nil:
		r.overrun = true
		e.lost.Add(int64(len(buf) - n))
		return nil
	case errors.Is(err, syscall.EIO):
		e.lost.Add(int64(len(buf) - n))
		return nil // a pty without a host: the bytes are lost, as on a cable
	case r.ctx.Err() != nil:
		return r.ctx.Err()
	}
	return fmt.Errorf("emulator: write: %w", err)
}

// readLoop delivers the host's bytes. A pty master whose slave nobody has
// open reads EIO: that is "no host yet", so it waits and tries again. EOF
// ends the input quietly (readErr gets nil).
func readLoop(r io.Reader, in chan<- []byte, readErr chan<- error, stop <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	buf := make([]byte, 256)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			data := append([]byte(nil), buf[:n]...)
			select {
			case in <- data:
			case <-stop:
				return
			}
		}
		if err == nil {
			continue
		}
		select {
		case <-stop:
			return
		default:
		}
		switch {
		case errors.Is(err, syscall.EIO):
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		case errors.Is(err, io.EOF):
			readErr <- nil
			return
		case errors.Is(err, os.ErrDeadlineExceeded):
			// Run is stopping (it set the deadline); wait for stop.
			<-stop
			return
		default:
			readErr <- err
			return
		}
	}
}

// Chunk is what the board sent at one emulated time (since play began).
type Chunk struct {
	At   time.Duration
	Data []byte
}

// Play runs the whole emulation at once, with no host and no waiting, and
// returns what the board sends, chunk by chunk with its emulated time: the
// same bytes Run writes when no command arrives during the game. Wait and
// Linger do not apply; an unplug without return ends the stream.
func (e *Emulator) Play() []Chunk {
	s := newSim(&e.cfg, e.start, e.moves)
	s.begin(0)
	var out []Chunk
	collect := func(at time.Duration) {
		if len(s.out) == 0 {
			return
		}
		var buf []byte
		for _, f := range s.out {
			buf = append(buf, f...)
		}
		s.out = s.out[:0]
		out = append(out, Chunk{At: at, Data: buf})
	}
	collect(0)
	for !s.finished() && !s.unplugDone {
		at, ok := s.nextAt()
		if !ok {
			break // EndFlag never flags only if no clock runs; nothing more happens
		}
		s.step()
		collect(at)
	}
	return out
}
