// Package live runs one board live: it opens the board's serial port,
// records every byte into the game's capture, drives the DGT session
// (start-up, keep-alive, clock commands) and feeds what the board says into
// the pipeline, handing each event of the stream to the caller as it
// happens.
//
// The capture is written before the bytes are acted on, and the pipeline is
// fed the very messages decoded from the captured reads, stamped with the
// capture's times, so replaying the capture gives the same events.
package live

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/arbiterd/arbiterd/driver/dgt"
	"github.com/arbiterd/arbiterd/internal/capture"
	"github.com/arbiterd/arbiterd/internal/pipeline"
	"github.com/arbiterd/arbiterd/internal/serialport"
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
}

// ErrStopped is returned by Run when OnEvent asked it to stop.
var ErrStopped = errors.New("live: stopped by the caller")

// metaOrder fixes the order meta lines are written in.
var metaOrder = []string{"board", "event", "round", "white", "black", "timecontrol", "clock-white", "start-fen", "rules"}

// Run runs the board until ctx is done, the line fails, or OnEvent returns
// false. The capture is synced before Run returns.
func Run(ctx context.Context, cfg Config) (err error) {
	if cfg.Port == "" {
		cfg.Port = "board"
	}
	if cfg.Now == nil {
		t0 := time.Now()
		cfg.Now = func() time.Duration { return time.Since(t0) }
	}
	if cfg.Capture == nil {
		return errors.New("live: no capture writer")
	}
	p := pipeline.New(pipeline.Options{Oracle: cfg.Oracle})
	// stopping is set when OnEvent asks to stop; the events of the record
	// being handled are still delivered, so a verdict's batch (flag, end)
	// is never cut in two.
	stopping := false
	onEvent := func(e reconcile.Event) error {
		if e.Type == reconcile.TypeComplete || e.Type == reconcile.TypeFlag || e.Type == reconcile.TypeEnd {
			// The capture's sync rule: a completed move or a verdict is
			// on disk before anyone is told about it.
			if err := cfg.Capture.Sync(); err != nil {
				return fmt.Errorf("live: sync capture: %w", err)
			}
		}
		if cfg.OnEvent != nil && !cfg.OnEvent(e) {
			stopping = true
		}
		return nil
	}
	emit := func(evs []reconcile.Event, err error) error {
		if err != nil {
			return err
		}
		for _, e := range evs {
			if err := onEvent(e); err != nil {
				return err
			}
		}
		return nil
	}

	if err := cfg.Capture.Port(cfg.Port, "dgt"); err != nil {
		return err
	}
	if err := emit(p.Port(cfg.Port, "dgt")); err != nil {
		return err
	}
	seen := map[string]bool{}
	write := func(k, v string) error {
		if err := cfg.Capture.Meta(k, v); err != nil {
			return err
		}
		return p.Meta(k, v)
	}
	for _, k := range metaOrder {
		if v, ok := cfg.Meta[k]; ok {
			seen[k] = true
			if err := write(k, v); err != nil {
				return err
			}
		}
	}
	for k, v := range cfg.Meta {
		if !seen[k] {
			if err := write(k, v); err != nil {
				return err
			}
		}
	}
	defer func() {
		if serr := cfg.Capture.Sync(); err == nil && serr != nil {
			err = serr
		}
	}()

	// The port lives in the session's context: stopping (ours or the
	// caller's) closes it, which is what ends the session's reader.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sp, err := serialport.Open(ctx, cfg.Path, serialport.Options{})
	if err != nil {
		return err
	}
	defer sp.Close()

	// Every byte goes through the journal: written to the capture first,
	// then queued as the very record replay will read, so the pipeline
	// sees live exactly what it sees in replay, in the same order.
	j := &journal{cw: cfg.Capture, port: cfg.Port, now: cfg.Now, signal: make(chan struct{}, 1)}
	rw := &tappedPort{sp: sp, j: j}

	sopts := cfg.Session
	sopts.Now = cfg.Now
	sess := dgt.NewSession(rw, sopts)
	done := make(chan error, 1)
	go func() { done <- sess.Run(ctx) }()

	state := dgt.StateStarting
	var stopErr error
	feed := func() {
		for _, rec := range j.take() {
			if stopErr != nil {
				return
			}
			stopErr = p.Record(rec, onEvent)
			if stopping && stopErr == nil {
				stopErr = ErrStopped
			}
		}
	}
	events := sess.Events()
	for events != nil {
		select {
		case <-j.signal:
			feed()
		case ev, ok := <-events:
			if !ok {
				events = nil
				break
			}
			if ev.Msg != nil || ev.State == state {
				break // messages reach the pipeline through the journal
			}
			state = ev.State
			switch state {
			case dgt.StateReady:
				j.marker(ev.At, "connected")
			case dgt.StateUnresponsive:
				j.marker(ev.At, "disconnected")
			}
		}
		if stopErr != nil {
			cancel()
		}
	}
	runErr := <-done
	feed()
	if err := j.failure(); err != nil && stopErr == nil {
		stopErr = err
	}
	if stopErr != nil {
		return stopErr
	}
	if err := p.End(func(e reconcile.Event) error {
		if cfg.OnEvent != nil {
			cfg.OnEvent(e)
		}
		return nil
	}); err != nil {
		return err
	}
	return runErr
}

// journal writes what crosses the port into the capture and queues the
// same records, in the same order, for the pipeline.
type journal struct {
	cw     *capture.Writer
	port   string
	now    func() time.Duration
	signal chan struct{} // a record is waiting

	mu    sync.Mutex
	queue []capture.Record
	err   error // the first capture failure
}

func (j *journal) push(rec capture.Record) {
	j.queue = append(j.queue, rec)
	select {
	case j.signal <- struct{}{}:
	default:
	}
}

// data records one read or write and returns its capture time.
func (j *journal) data(dir capture.Dir, b []byte) (time.Duration, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	at, err := j.cw.Record(j.now(), j.port, dir, b)
	if err != nil {
		if j.err == nil {
			j.err = err
		}
		return at, err
	}
	j.push(capture.Record{Kind: capture.KindData, Port: j.port, At: at, Dir: dir, Data: append([]byte(nil), b...)})
	return at, nil
}

// marker records a change of the port's session state.
func (j *journal) marker(at time.Duration, state string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if last := j.cw.Last(); at < last {
		at = last
	}
	text := pipeline.FormatSessionMarker(at, j.port, state)
	if err := j.cw.Comment(text); err != nil {
		if j.err == nil {
			j.err = err
		}
		return
	}
	j.push(capture.Record{Kind: capture.KindComment, Text: text})
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
	sp *serialport.Port
	j  *journal
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
	at, jerr := t.j.data(capture.Read, b[:n])
	if err == nil {
		err = jerr
	}
	return n, at, err
}

func (t *tappedPort) Write(b []byte) (int, error) {
	n, err := t.sp.Write(b)
	if n > 0 {
		if _, jerr := t.j.data(capture.Write, b[:n]); err == nil {
			err = jerr
		}
	}
	return n, err
}
