package dgt

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
)

// SessionOptions tune a Session; zero values take the defaults.
type SessionOptions struct {
	// PollInterval is how often the session asks for the serial number to
	// check the board is still there (default 1 s).
	PollInterval time.Duration
	// AckTimeout is how long to wait for a clock command's ack before
	// sending it again (default 2 s).
	AckTimeout time.Duration
	// MaxSends bounds how often one clock command is sent (default 3).
	MaxSends int
	// Now gives the time since the session (or capture) started, used to
	// stamp events; default: time since Run began. Over a StampedReader
	// messages carry the reader's times instead; give the session the same
	// clock so that state changes fit in.
	Now func() time.Duration
	// ReadSize is the read buffer size (default 256).
	ReadSize int
}

func (o SessionOptions) withDefaults() SessionOptions {
	if o.PollInterval <= 0 {
		o.PollInterval = time.Second
	}
	if o.AckTimeout <= 0 {
		o.AckTimeout = 2 * time.Second
	}
	if o.MaxSends <= 0 {
		o.MaxSends = 3
	}
	if o.ReadSize <= 0 {
		o.ReadSize = 256
	}
	return o
}

// State is what the session knows about the board.
type State int

const (
	// StateStarting: the start-up commands were sent; nothing heard yet.
	StateStarting State = iota
	// StateReady: the board answers.
	StateReady
	// StateUnresponsive: a serial-number poll went unanswered.
	StateUnresponsive
)

var stateNames = [...]string{StateStarting: "starting", StateReady: "ready", StateUnresponsive: "unresponsive"}

func (s State) String() string {
	if s >= 0 && int(s) < len(stateNames) {
		return stateNames[s]
	}
	return fmt.Sprintf("State(%d)", int(s))
}

// Event is what a Session reports: a decoded message, or (Msg nil) a
// change of State.
type Event struct {
	At    time.Duration
	Msg   Message
	State State
}

// ErrNoAck: the clock did not acknowledge a command after MaxSends sends.
var ErrNoAck = errors.New("dgt: clock did not acknowledge the command")

// ErrSessionEnded: the session's Run has returned (or was never started
// and already ran once).
var ErrSessionEnded = errors.New("dgt: session ended")

// StartCommands are the bytes a session sends to start a board: reset,
// update-nice mode, serial number, version, board dump.
func StartCommands() []byte {
	return []byte{CmdReset, CmdUpdateNice, CmdSerialNr, CmdVersion, CmdSendBoard}
}

// PollCommands are the bytes of a keep-alive poll: update-nice mode again,
// a board dump, and the serial number (whose answer shows the board is
// there). A board that lost power between two polls comes back idle — it
// no longer reports field changes or the clock — and answers the serial
// number all the same; re-asserting the mode and asking for the whole board
// every poll brings it back, and the dump puts the position right within a
// poll, whatever changed while it was silent.
func PollCommands() []byte {
	return []byte{CmdUpdateNice, CmdSendBoard, CmdSerialNr}
}

type clockReq struct {
	cmd   []byte
	reply chan error
}

// Session runs the conversation with one board over rw. It owns its timers
// (keep-alive poll, ack timeout); the decoding it does is the pure Decoder.
type Session struct {
	rw     io.ReadWriter
	opts   SessionOptions
	events chan Event
	reqs   chan clockReq
	done   chan struct{} // closed when Run returns
	ran    sync.Once

	mu    sync.Mutex
	stats Stats
	state State
}

// NewSession returns a session over rw (a serialport.Port, a pty, a
// drivertest.Playback). Call Run to start it.
func NewSession(rw io.ReadWriter, opts SessionOptions) *Session {
	return &Session{
		rw:     rw,
		opts:   opts.withDefaults(),
		events: make(chan Event, 64),
		reqs:   make(chan clockReq),
		done:   make(chan struct{}),
	}
}

// Events returns the session's events, in order. The channel is closed when
// Run returns.
func (s *Session) Events() <-chan Event { return s.events }

// Stats returns the decoder counters so far.
func (s *Session) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}

// State returns the board's state as last reported.
func (s *Session) State() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state
}

// SendClock sends a wrapped clock command (see ClockCommand) and waits for
// the clock to acknowledge it, resending after AckTimeout, at most MaxSends
// times. Commands from several goroutines are sent one at a time. It
// returns ErrNoAck if the clock never answers, or ctx's error.
func (s *Session) SendClock(ctx context.Context, cmd []byte) error {
	if len(cmd) < 5 || cmd[0] != CmdClock || int(cmd[1]) != len(cmd)-2 {
		return fmt.Errorf("dgt: % x is not a wrapped clock command", cmd)
	}
	req := clockReq{cmd: cmd, reply: make(chan error, 1)}
	select {
	case s.reqs <- req:
	case <-s.done:
		return ErrSessionEnded
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-req.reply:
		return err
	case <-s.done:
		select {
		case err := <-req.reply:
			return err
		default:
			return ErrSessionEnded
		}
	case <-ctx.Done():
		return ctx.Err()
	}
}

type chunk struct {
	b   []byte
	at  time.Duration
	err error
}

// StampedReader is implemented by readers that know the time each read
// was recorded at (serialport.Port: the time written into the capture).
// A Session over such a reader stamps messages with that time, so the live
// stream and a replay of the capture carry the same times.
type StampedReader interface {
	ReadStamped(p []byte) (n int, at time.Duration, err error)
}

// maxEmptyReads is how many (0, nil) reads in a row the session takes
// before it calls the reader broken (io.ErrNoProgress), as bufio does.
const maxEmptyReads = 100

// Run starts the board and runs the session until ctx is done or the
// connection fails; it returns ctx's error or the I/O error. It waits for
// its reader goroutine, so rw's Read must return once ctx is done (a
// serialport.Port closes itself on cancel; close other readers yourself).
// A Session runs once: a second Run returns ErrSessionEnded.
func (s *Session) Run(ctx context.Context) error {
	first := false
	s.ran.Do(func() { first = true })
	if !first {
		return ErrSessionEnded
	}
	defer close(s.done)
	defer close(s.events)
	began := time.Now()
	now := s.opts.Now
	if now == nil {
		now = func() time.Duration { return time.Since(began) }
	}

	reads := make(chan chunk)
	readerDone := make(chan struct{})
	caller := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer func() {
		cancel()
		<-readerDone
	}()
	go func() {
		defer close(readerDone)
		s.read(ctx, now, reads)
	}()

	poll := time.NewTicker(s.opts.PollInterval)
	defer poll.Stop()
	ackTimer := time.NewTimer(time.Hour)
	ackTimer.Stop()
	defer ackTimer.Stop()
	r := &sessionRun{s: s, ctx: ctx, caller: caller, now: now, dec: NewDecoder(), ackTimer: ackTimer, reqs: s.reqs}

	if err := r.write(StartCommands()); err != nil {
		return r.stop(err)
	}
	for {
		var err error
		select {
		case <-ctx.Done():
			err = ctx.Err()
		case c := <-reads:
			err = r.received(c)
		case <-poll.C:
			err = r.poll()
		case req := <-r.reqs:
			err = r.send(req)
		case <-ackTimer.C:
			err = r.ackTimedOut()
		}
		if err != nil {
			return r.stop(err)
		}
	}
}

// read reads rw until a read fails or ctx is done, and hands every chunk
// read (or the error) to reads, with the time it was read at: the
// reader's own stamp when it has one (StampedReader), else now's.
func (s *Session) read(ctx context.Context, now func() time.Duration, reads chan<- chunk) {
	stamped, _ := s.rw.(StampedReader)
	empty := 0
	for {
		b := make([]byte, s.opts.ReadSize)
		var n int
		var at time.Duration
		var err error
		if stamped != nil {
			n, at, err = stamped.ReadStamped(b)
		} else {
			n, err = s.rw.Read(b)
			at = now()
		}
		if n == 0 && err == nil {
			if empty++; empty >= maxEmptyReads {
				err = io.ErrNoProgress
			}
		} else {
			empty = 0
		}
		if n > 0 || err != nil {
			select {
			case reads <- chunk{b[:n], at, err}:
			case <-ctx.Done():
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// sessionRun is one Run's conversation with the board: the decoder, the
// keep-alive poll's bookkeeping and the clock command in flight. Its
// methods run on Run's goroutine; an error they return ends Run (through
// stop).
type sessionRun struct {
	s        *Session
	ctx      context.Context // Run's own, cancelled when Run returns
	caller   context.Context // the context Run was given
	now      func() time.Duration
	dec      *Decoder
	ackTimer *time.Timer

	heard  bool          // a message arrived since the last poll was sent
	polled bool          // a poll is outstanding
	cur    *clockReq     // the clock command waiting for its ack
	sends  int           // how often cur was sent
	reqs   chan clockReq // the session's requests; nil while a command is in flight
}

func (r *sessionRun) emit(e Event) error {
	select {
	case r.s.events <- e:
		return nil
	case <-r.ctx.Done():
		return r.ctx.Err()
	}
}

func (r *sessionRun) setState(st State) error {
	r.s.mu.Lock()
	changed := r.s.state != st
	r.s.state = st
	r.s.mu.Unlock()
	if !changed {
		return nil
	}
	return r.emit(Event{At: r.now(), State: st})
}

func (r *sessionRun) write(b []byte) error {
	if _, err := r.s.rw.Write(b); err != nil {
		return fmt.Errorf("dgt: writing % x: %w", b, err)
	}
	return nil
}

// stop is the error Run ends with, given err, and answers the command in
// flight with it. Once the context is done, a failed read or write is the
// line closing because Run is stopping (the port closes with the
// context): that is the cancellation, whichever the select saw first. It
// asks the caller's context, not the one derived in Run: a cancel marks
// the caller's done before it reaches its children one by one, so a port
// closed by an AfterFunc of the caller's context can fail a read while the
// derived context does not yet say it is done.
func (r *sessionRun) stop(err error) error {
	if r.caller.Err() != nil {
		err = r.caller.Err()
	} else if r.ctx.Err() != nil {
		err = r.ctx.Err()
	}
	if r.cur != nil {
		r.cur.reply <- err
	}
	return err
}

// received decodes a chunk read from the board and emits its messages; a
// message shows the board is there, and a clock ack answers the command in
// flight.
func (r *sessionRun) received(c chunk) error {
	var msgs []Message
	if len(c.b) > 0 {
		msgs = r.dec.Feed(c.b)
		r.s.mu.Lock()
		r.s.stats = r.dec.Stats()
		r.s.mu.Unlock()
	}
	for _, m := range msgs {
		r.heard = true
		if err := r.setState(StateReady); err != nil {
			return err
		}
		if a, ok := m.(ClockAck); ok && r.cur != nil && a.Acks(r.cur.cmd[3]) {
			r.cur.reply <- nil
			r.cur, r.reqs = nil, r.s.reqs
			r.ackTimer.Stop()
		}
		if err := r.emit(Event{At: c.at, Msg: m}); err != nil {
			return err
		}
	}
	if c.err != nil {
		if errors.Is(c.err, io.EOF) {
			return fmt.Errorf("dgt: board connection ended: %w", c.err)
		}
		return fmt.Errorf("dgt: reading from the board: %w", c.err)
	}
	return nil
}

// poll sends the keep-alive poll; a board that answered nothing since the
// last one is unresponsive.
func (r *sessionRun) poll() error {
	if r.polled && !r.heard {
		if err := r.setState(StateUnresponsive); err != nil {
			return err
		}
	}
	r.heard, r.polled = false, true
	return r.write(PollCommands())
}

// send sends a clock command; no other is taken until it is acknowledged
// or given up.
func (r *sessionRun) send(req clockReq) error {
	r.cur, r.reqs, r.sends = &req, nil, 1
	if err := r.write(req.cmd); err != nil {
		return err
	}
	r.ackTimer.Reset(r.s.opts.AckTimeout)
	return nil
}

// ackTimedOut sends the command in flight again, or gives it up with
// ErrNoAck after MaxSends sends.
func (r *sessionRun) ackTimedOut() error {
	if r.cur == nil {
		return nil
	}
	if r.sends >= r.s.opts.MaxSends {
		r.cur.reply <- fmt.Errorf("%w (clock command % x, sent %d times)", ErrNoAck, r.cur.cmd, r.sends)
		r.cur, r.reqs = nil, r.s.reqs
		return nil
	}
	r.sends++
	if err := r.write(r.cur.cmd); err != nil {
		return err
	}
	r.ackTimer.Reset(r.s.opts.AckTimeout)
	return nil
}
