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
	stamped, _ := s.rw.(StampedReader)
	go func() {
		defer close(readerDone)
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
	}()

	emit := func(e Event) error {
		select {
		case s.events <- e:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	setState := func(st State) error {
		s.mu.Lock()
		changed := s.state != st
		s.state = st
		s.mu.Unlock()
		if !changed {
			return nil
		}
		return emit(Event{At: now(), State: st})
	}
	write := func(b []byte) error {
		if _, err := s.rw.Write(b); err != nil {
			return fmt.Errorf("dgt: writing % x: %w", b, err)
		}
		return nil
	}

	poll := time.NewTicker(s.opts.PollInterval)
	defer poll.Stop()
	ackTimer := time.NewTimer(time.Hour)
	ackTimer.Stop()
	defer ackTimer.Stop()

	dec := NewDecoder()
	heard := false    // a message arrived since the last poll was sent
	polled := false   // a poll is outstanding
	var cur *clockReq // the clock command waiting for its ack
	sends := 0        // how often cur was sent
	reqs := s.reqs    // nil while a command is in flight
	// stop ends Run with err, answering the command in flight. Once the
	// context is done, a failed read or write is the line closing because
	// Run is stopping (the port closes with the context): that is the
	// cancellation, whichever the select saw first. It asks the caller's
	// context, not the one derived here: a cancel marks the caller's done
	// before it reaches its children one by one, so a port closed by an
	// AfterFunc of the caller's context can fail a read while the derived
	// context does not yet say it is done.
	stop := func(err error) error {
		if caller.Err() != nil {
			err = caller.Err()
		} else if ctx.Err() != nil {
			err = ctx.Err()
		}
		if cur != nil {
			cur.reply <- err
		}
		return err
	}

	if err := write(StartCommands()); err != nil {
		return stop(err)
	}
	for {
		select {
		case <-ctx.Done():
			return stop(ctx.Err())

		case c := <-reads:
			var msgs []Message
			if len(c.b) > 0 {
				msgs = dec.Feed(c.b)
				s.mu.Lock()
				s.stats = dec.Stats()
				s.mu.Unlock()
			}
			at := c.at
			for _, m := range msgs {
				heard = true
				if err := setState(StateReady); err != nil {
					return stop(err)
				}
				if a, ok := m.(ClockAck); ok && cur != nil && a.Acks(cur.cmd[3]) {
					cur.reply <- nil
					cur, reqs = nil, s.reqs
					ackTimer.Stop()
				}
				if err := emit(Event{At: at, Msg: m}); err != nil {
					return stop(err)
				}
			}
			if c.err != nil {
				if errors.Is(c.err, io.EOF) {
					return stop(fmt.Errorf("dgt: board connection ended: %w", c.err))
				}
				return stop(fmt.Errorf("dgt: reading from the board: %w", c.err))
			}

		case <-poll.C:
			if polled && !heard {
				if err := setState(StateUnresponsive); err != nil {
					return stop(err)
				}
			}
			heard, polled = false, true
			if err := write(PollCommands()); err != nil {
				return stop(err)
			}

		case r := <-reqs:
			cur, reqs, sends = &r, nil, 1
			if err := write(r.cmd); err != nil {
				return stop(err)
			}
			ackTimer.Reset(s.opts.AckTimeout)

		case <-ackTimer.C:
			if cur == nil {
				continue
			}
			if sends >= s.opts.MaxSends {
				cur.reply <- fmt.Errorf("%w (clock command % x, sent %d times)", ErrNoAck, cur.cmd, sends)
				cur, reqs = nil, s.reqs
				continue
			}
			sends++
			if err := write(cur.cmd); err != nil {
				return stop(err)
			}
			ackTimer.Reset(s.opts.AckTimeout)
		}
	}
}
