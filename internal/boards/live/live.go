// Package live runs one board live: it opens the board's serial port,
// records every byte into the game's capture, drives the DGT session
// (start-up, keep-alive, clock commands) and feeds what the board says into
// the pipeline, handing each event of the stream to the caller as it
// happens.
//
// A board whose clock is a separate USB clock (driver/lineclock) has a
// second port: Run opens it too and reads it on a goroutine of its own,
// reopening it with back-off when it goes away. Both ports' bytes go
// through one journal, in the order they are read, and a clock that stops
// answering is recorded with session markers for its port, which the game
// reports as clock-disconnected.
//
// The capture is written before the bytes are acted on, and the pipeline is
// fed the very records written to the capture, stamped with the capture's
// times, so replaying the capture gives the same events.
package live

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"sync"
	"time"

	"github.com/arbiterd/arbiterd/driver/dgt"
	"github.com/arbiterd/arbiterd/internal/boards/pipeline"
	"github.com/arbiterd/arbiterd/internal/device/serialport"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// Config is one board to run.
type Config struct {
	Path    string            // serial device path (or /dev/serial/by-id/…)
	Port    string            // the port's name in the capture (default "board")
	Meta    map[string]string // the game's settings (capture meta keys)
	Capture *capture.Writer   // where every byte goes; Run declares the port and writes the meta
	// Now gives the time since the capture started (default: since Run began).
	Now    func() time.Duration
	Oracle reconcile.MateOracle
	// OnEvent receives every event of the stream, in order, from Run's
	// goroutine. Returning false stops Run (e.g. once the game has ended).
	OnEvent func(reconcile.Event) bool
	Session dgt.SessionOptions

	// Pipeline, when set, is the game's pipeline, already fed with all the
	// capture holds: the daemon declares the port and writes the meta itself
	// (and after a restart replays the capture into it), so Run writes no
	// declarations. A line that fails is marked in the capture with a
	// "disconnected" session marker, and the session is never ended: the
	// caller reopens the port and calls Run again with the same pipeline
	// and capture (the same game goes on), or ends it with Pipeline.End.
	Pipeline *pipeline.Pipeline
	// OnJournalError, when set, is told of a capture write that failed (a
	// full disk, a removed drive) — once, at the first failure after
	// success. Run then keeps the game going in memory: the pipeline is
	// still fed what was read, stamped as it would have been recorded.
	// Without it a capture failure stops Run.
	OnJournalError func(error)
	// OnSession, when set, is given the DGT session once it is made (for
	// its decoder statistics); it must not drive the session.
	OnSession func(*dgt.Session)

	// ClockPath, when set, is the serial device of the game's separate
	// clock, a lineclock (the board then has no clock attached). Run opens
	// it beside the board's port and reads it until Run ends; when it goes
	// away (or cannot be opened) Run marks the clock port disconnected and
	// reopens it on ClockBackoff's schedule.
	ClockPath string
	// ClockPort is the clock port's name in the capture (default
	// "clock"). Whatever its name, the port is declared with the lineclock
	// driver, which makes it the game's clock: its disconnection is a
	// clock-disconnected anomaly, not the board's.
	ClockPort string
	// ClockBackoff is the clock's reopening schedule (zero: the default).
	ClockBackoff serialport.Backoff

	// Open, when set, opens the board's line instead of serialport.Open of
	// Path: an in-process line that still carries the device's bytes (the
	// load test's 500 boards). Run closes it when it stops.
	Open func(ctx context.Context) (io.ReadWriteCloser, error)
	// Hand, when set, takes the arbiter's acts for this board while Run
	// reads it (see Hand).
	Hand *Hand
	// OnRecord, when set, sees every capture record just before the
	// pipeline is fed it, from Run's goroutine (the load test times the
	// events a read releases from it).
	OnRecord func(capture.Record)
}

// DefaultClockPort is the separate clock's port name in a capture.
const DefaultClockPort = "clock"

// PortDecl is one port a game's capture declares.
type PortDecl struct{ Name, Driver string }

// ErrStopped is returned by Run when OnEvent asked it to stop.
var ErrStopped = errors.New("live: stopped by the caller")

// metaOrder fixes the order meta lines are written in.
var metaOrder = []string{"board", "event", "round", "white", "black", "timecontrol", "clock-white", "start-fen", "rules"}

// Run runs the board until ctx is done, the line fails, or OnEvent returns
// false. The capture is synced before Run returns.
func Run(ctx context.Context, cfg Config) (err error) {
	if err := cfg.defaults(); err != nil {
		return err
	}
	r := newRun(cfg)
	if cfg.Hand != nil {
		cfg.Hand.bind(r.j)
		defer cfg.Hand.bind(nil)
	}
	if !r.resume {
		if err := r.declare(); err != nil {
			return err
		}
	}
	defer func() {
		if serr := cfg.Capture.Sync(); serr != nil {
			if cfg.OnJournalError != nil {
				r.j.syncFailed(serr) // reported; the game was kept in memory
			} else if err == nil {
				err = serr
			}
		}
	}()

	// The port lives in the session's context: stopping (ours or the
	// caller's) closes it, which is what ends the session's reader.
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sp, unwatch, err := openBoardLine(ctx, cfg)
	if err != nil {
		return err
	}
	defer unwatch()
	defer sp.Close()

	sess := r.session(sp)
	done := make(chan error, 1)
	go func() { done <- sess.Run(ctx) }()
	var clockDone sync.WaitGroup
	if cfg.ClockPath != "" {
		clockDone.Go(func() { readClock(ctx, cancel, cfg, r.j) })
	}

	r.follow(sess.Events(), cancel)
	runErr := <-done
	cancel() // the clock is read only while the board's line is up
	clockDone.Wait()
	if cfg.Hand != nil {
		cfg.Hand.bind(nil) // an act from now on is refused, not lost
	}
	r.feed()
	return r.finish(parent, runErr)
}

// run is what the steps of one Run share.
type run struct {
	cfg    Config
	p      *pipeline.Pipeline
	resume bool // cfg.Pipeline was given: the daemon goes on with the game
	// Every byte goes through the journal: written to the capture first,
	// then queued as the very record replay will read, so the pipeline
	// sees live exactly what it sees in replay, in the same order.
	j *journal
	// stopping is set when OnEvent asks to stop; the events of the record
	// being handled are still delivered, so a verdict's batch (flag, end)
	// is never cut in two.
	stopping bool
	stopErr  error     // why the run stops (ErrStopped when asked to)
	state    dgt.State // the board session's last state
}

func newRun(cfg Config) *run {
	r := &run{cfg: cfg, p: cfg.Pipeline, resume: cfg.Pipeline != nil, state: dgt.StateStarting}
	if !r.resume {
		r.p = pipeline.New(pipeline.Options{Oracle: cfg.Oracle})
	}
	r.j = &journal{cw: cfg.Capture, now: cfg.Now, signal: make(chan struct{}, 1), onErr: cfg.OnJournalError}
	return r
}

// onEvent hands one event of the stream to the caller, after syncing the
// capture when the event is one the capture's sync rule covers.
func (r *run) onEvent(e reconcile.Event) error {
	if e.Type == reconcile.TypeComplete || e.Type == reconcile.TypeFlag || e.Type == reconcile.TypeEnd {
		// The capture's sync rule: a completed move or a verdict is
		// on disk before anyone is told about it. When the disk
		// fails and the caller keeps the game in memory, the event
		// still goes out (the failure was reported).
		if err := r.cfg.Capture.Sync(); err != nil {
			if r.cfg.OnJournalError == nil {
				return fmt.Errorf("live: sync capture: %w", err)
			}
			r.j.syncFailed(err)
		}
	}
	if r.cfg.OnEvent != nil && !r.cfg.OnEvent(e) {
		r.stopping = true
	}
	return nil
}

// emit hands a batch of events, or its error, to onEvent.
func (r *run) emit(evs []reconcile.Event, err error) error {
	if err != nil {
		return err
	}
	for _, e := range evs {
		if err := r.onEvent(e); err != nil {
			return err
		}
	}
	return nil
}

// declare writes a new game's ports (the board's and the separate
// clock's) and meta into the capture and the pipeline.
func (r *run) declare() error {
	ports := []PortDecl{{r.cfg.Port, "dgt"}}
	if r.cfg.ClockPath != "" {
		ports = append(ports, PortDecl{r.cfg.ClockPort, lineclockDriver})
	}
	// A disk that is full from the start fails the declaration: with
	// OnJournalError the failure is reported once and the game goes on in
	// memory, as with any later write.
	return declarePorts(r.cfg.Capture, r.p, ports, r.cfg.Meta, r.emit, func(err error) error {
		r.j.syncFailed(err)
		if r.cfg.OnJournalError == nil {
			return err
		}
		return nil
	})
}

// session makes the DGT session over the board's line, every byte of
// which goes through the journal, and shows it to OnSession.
func (r *run) session(sp io.ReadWriter) *dgt.Session {
	rw := &tappedPort{sp: sp, j: r.j, port: r.cfg.Port}
	sopts := r.cfg.Session
	sopts.Now = r.cfg.Now
	sess := dgt.NewSession(rw, sopts)
	if r.cfg.OnSession != nil {
		r.cfg.OnSession(sess)
	}
	return sess
}

// feed feeds the pipeline the records the journal has queued, until one
// stops the run.
func (r *run) feed() {
	for _, rec := range r.j.take() {
		if r.stopErr != nil && (!r.resume || r.stopErr != ErrStopped) {
			return
		}
		// A resumed game's pipeline goes on after the stop: every
		// record already in the capture is fed, so the stream is
		// the capture's replay to the last record.
		if r.cfg.OnRecord != nil {
			r.cfg.OnRecord(rec)
		}
		if err := r.p.Record(rec, r.onEvent); err != nil {
			r.stopErr = err
		}
		if r.stopping && r.stopErr == nil {
			r.stopErr = ErrStopped
		}
	}
}

// follow feeds the journal's records to the pipeline and the session's
// changes of state to the capture until the session's events end; once
// the run has a reason to stop, it cancels the session.
func (r *run) follow(events <-chan dgt.Event, cancel context.CancelFunc) {
	for events != nil {
		select {
		case <-r.j.signal:
			r.feed()
		case ev, ok := <-events:
			if !ok {
				events = nil
				break
			}
			r.sessionEvent(ev)
		}
		if r.stopErr != nil {
			cancel()
		}
	}
}

// sessionEvent marks the board's port connected or disconnected in the
// capture when the session's state changes to ready or unresponsive.
func (r *run) sessionEvent(ev dgt.Event) {
	if ev.Msg != nil || ev.State == r.state {
		return // messages reach the pipeline through the journal
	}
	r.state = ev.State
	switch r.state {
	case dgt.StateReady:
		r.j.marker(ev.At, r.cfg.Port, reconcile.StateConnected)
	case dgt.StateUnresponsive:
		r.j.marker(ev.At, r.cfg.Port, reconcile.StateDisconnected)
	}
}

// finish decides what Run returns once the session has ended and the
// journal is drained: the reason the run stopped, or for a resumed game
// the session's end (marking a failed line disconnected), or for a game of
// its own the session's end after the pipeline is ended.
func (r *run) finish(parent context.Context, runErr error) error {
	if err := r.j.failure(); err != nil && r.stopErr == nil {
		r.stopErr = err
	}
	if r.stopErr != nil {
		return r.stopErr
	}
	if r.resume {
		// The daemon goes on with this game: a line that failed is a
		// disconnection (the reopened port's start-up marks the return),
		// a stop asked for by the caller leaves the game unfinished.
		if parent.Err() == nil && r.state != dgt.StateUnresponsive {
			r.j.marker(r.cfg.Now(), r.cfg.Port, reconcile.StateDisconnected)
			r.feed()
		}
		if runErr == nil {
			runErr = parent.Err()
		}
		return runErr
	}
	if err := r.p.End(func(e reconcile.Event) error {
		if r.cfg.OnEvent != nil {
			r.cfg.OnEvent(e)
		}
		return nil
	}); err != nil {
		return err
	}
	return runErr
}

// defaults fills in what cfg leaves out (the ports' names, the clock's
// back-off, the time) and checks what cannot be left out.
func (cfg *Config) defaults() error {
	if cfg.Port == "" {
		cfg.Port = "board"
	}
	if cfg.ClockPort == "" {
		cfg.ClockPort = DefaultClockPort
	}
	if cfg.ClockPath != "" && cfg.ClockPort == cfg.Port {
		return fmt.Errorf("live: the clock port and the board port are both named %q", cfg.Port)
	}
	if cfg.ClockBackoff == (serialport.Backoff{}) {
		cfg.ClockBackoff = serialport.DefaultBackoff()
	}
	if cfg.Now == nil {
		t0 := time.Now()
		cfg.Now = func() time.Duration { return time.Since(t0) }
	}
	if cfg.Capture == nil {
		return errors.New("live: no capture writer")
	}
	return nil
}

// openBoardLine opens the board's line: the serial port at cfg.Path, or
// cfg.Open's (an in-process line, a test's), which is closed when ctx ends
// as a serial port is, until unwatch is called. Closing the line is what
// ends the session's reader.
func openBoardLine(ctx context.Context, cfg Config) (line io.ReadWriteCloser, unwatch func() bool, err error) {
	if cfg.Open == nil {
		// The board is asked for its whole state on start: what it sent
		// before (a daemon that died left it unread) is no news.
		line, err = serialport.Open(ctx, cfg.Path, serialport.Options{DropPending: true})
		return line, func() bool { return false }, err
	}
	if line, err = cfg.Open(ctx); err != nil {
		return nil, nil, err
	}
	return line, context.AfterFunc(ctx, func() { line.Close() }), nil
}

// Declare writes a new game's port declaration (one DGT board whose clock
// it reads) and meta into the capture and feeds the same records to the
// pipeline (events go to emit), in the order Run writes them.
func Declare(cw *capture.Writer, p *pipeline.Pipeline, port string, meta map[string]string, emit func([]reconcile.Event, error) error) error {
	if port == "" {
		port = "board"
	}
	return DeclarePorts(cw, p, []PortDecl{{port, "dgt"}}, meta, emit)
}

// lineclockDriver is the capture driver name of a separate lineclock.
const lineclockDriver = "lineclock"

// DeclarePorts is Declare for a game with several ports (a board and its
// separate lineclock): every port is declared, then the meta.
func DeclarePorts(cw *capture.Writer, p *pipeline.Pipeline, ports []PortDecl, meta map[string]string, emit func([]reconcile.Event, error) error) error {
	return declarePorts(cw, p, ports, meta, emit, func(err error) error { return err })
}

// declarePorts is DeclarePorts with failed deciding what a failed capture
// write does: its error stops the declaration, nil goes on with the
// pipeline alone.
func declarePorts(cw *capture.Writer, p *pipeline.Pipeline, ports []PortDecl, meta map[string]string, emit func([]reconcile.Event, error) error, failed func(error) error) error {
	for _, pd := range ports {
		if err := cw.Port(pd.Name, pd.Driver); err != nil {
			if err := failed(err); err != nil {
				return err
			}
		}
		if err := emit(p.Port(pd.Name, pd.Driver)); err != nil {
			return err
		}
	}
	seen := map[string]bool{}
	write := func(k, v string) error {
		if err := cw.Meta(k, v); err != nil {
			if err := failed(err); err != nil {
				return err
			}
		}
		return p.Meta(k, v)
	}
	for _, k := range metaOrder {
		if v, ok := meta[k]; ok {
			seen[k] = true
			if err := write(k, v); err != nil {
				return err
			}
		}
	}
	rest := make([]string, 0, len(meta))
	for k := range meta {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		if err := write(k, meta[k]); err != nil {
			return err
		}
	}
	return nil
}

// journal writes what crosses the port into the capture and queues the
// same records, in the same order, for the pipeline.
type journal struct {
	cw     *capture.Writer
	now    func() time.Duration
	signal chan struct{} // a record is waiting
	onErr  func(error)   // nil: a capture failure stops the run

	mu      sync.Mutex
	queue   []capture.Record
	err     error         // the first capture failure (when it stops the run)
	failing bool          // the capture is failing; the game goes on in memory
	last    time.Duration // the last time stamped
}

// fail handles a capture write failure: it stops the run, or, with onErr,
// is reported once and the game goes on in memory.
func (j *journal) fail(err error) {
	if j.onErr == nil {
		if j.err == nil {
			j.err = err
		}
		return
	}
	if !j.failing {
		j.failing = true
		j.onErr(err)
	}
}

// syncFailed handles a failed capture sync (the buffered lines could not
// be written): like a failed write, reported once while the capture fails.
func (j *journal) syncFailed(err error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.fail(err)
}

func (j *journal) push(rec capture.Record) {
	j.queue = append(j.queue, rec)
	select {
	case j.signal <- struct{}{}:
	default:
	}
}

// data records one read or write on port and returns its capture time.
func (j *journal) data(port string, dir capture.Dir, b []byte) (time.Duration, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	at, err := j.cw.Record(j.now(), port, dir, b)
	if err != nil {
		j.fail(err)
		if j.onErr == nil {
			return at, err
		}
		// Stamp as the capture would have: microseconds, never earlier.
		at = max(j.now().Truncate(time.Microsecond), j.last)
	} else {
		j.failing = false
	}
	j.last = at
	j.push(capture.Record{Kind: capture.KindData, Port: port, At: at, Dir: dir, Data: append([]byte(nil), b...)})
	return at, nil
}

// marker records a change of a port's session state.
func (j *journal) marker(at time.Duration, port string, state reconcile.State) {
	j.mu.Lock()
	defer j.mu.Unlock()
	rec := capture.Session(max(at, j.cw.Last(), j.last), port, string(state))
	if err := j.cw.Marker(rec); err != nil {
		j.fail(err)
		if j.onErr == nil {
			return
		}
	}
	j.push(rec)
}

func (j *journal) take() []capture.Record {
	j.mu.Lock()
	defer j.mu.Unlock()
	q := j.queue
	j.queue = nil
	return q
}

func (j *journal) failure() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.err
}

// tappedPort is the serial port as the DGT session sees it: every read and
// write passes through the journal, and reads carry their capture times.
type tappedPort struct {
	sp   io.ReadWriter
	j    *journal
	port string
}

func (t *tappedPort) Read(b []byte) (int, error) {
	n, _, err := t.ReadStamped(b)
	return n, err
}

func (t *tappedPort) ReadStamped(b []byte) (int, time.Duration, error) {
	n, err := t.sp.Read(b)
	if n == 0 {
		return 0, t.j.now(), err
	}
	at, jerr := t.j.data(t.port, capture.Read, b[:n])
	if err == nil {
		err = jerr
	}
	return n, at, err
}

func (t *tappedPort) Write(b []byte) (int, error) {
	n, err := t.sp.Write(b)
	if n > 0 {
		if _, jerr := t.j.data(t.port, capture.Write, b[:n]); err == nil {
			err = jerr
		}
	}
	return n, err
}
