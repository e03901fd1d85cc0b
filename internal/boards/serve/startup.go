package serve

import (
	"errors"
	"fmt"
	"net"
	"runtime"
	"strconv"
	"syscall"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/config"
	"github.com/arbiterd/arbiterd/internal/device/serialport"
)

// What the daemon says at start, and how a board's line is reported, so
// that a first run pasted from the documentation tells the person at the
// keyboard what is happening and what to do: the HTTP port is taken
// before any capture is made, each board's time control is said in words,
// a dashboard open to the network is pointed out, a port that is not
// there is reported once, and a board coming back is logged.

// listen opens the HTTP listener (unless Options gave one). It runs
// before any capture file is made: a port already taken stops the daemon
// with nothing written.
func (d *Daemon) listen() error {
	if err := d.cfg.Access.Check(); err != nil {
		return fmt.Errorf("daemon: %w", err)
	}
	if d.o.Listener != nil {
		var err error
		d.ln, err = d.secure(d.o.Listener)
		return err
	}
	ln, err := net.Listen("tcp", d.cfg.Listen)
	if err != nil {
		if addrInUse(err) {
			return fmt.Errorf("daemon: listen on %s: the address is in use (another arbiterd, or another program, serves there): stop it, or set listen (--listen) to a free port: %w", d.cfg.Listen, err)
		}
		return fmt.Errorf("daemon: listen on %s: %w", d.cfg.Listen, err)
	}
	if d.ln, err = d.secure(ln); err != nil {
		ln.Close()
		return err
	}
	return nil
}

// wsaeAddrInUse is Windows' "address already in use" (WSAEADDRINUSE),
// which syscall.EADDRINUSE does not match there.
const wsaeAddrInUse = 10048

// addrInUse reports whether a listen failed because another program
// listens on the address.
func addrInUse(err error) bool { return addrInUseOn(runtime.GOOS, err) }

// addrInUseOn is addrInUse on the system goos.
func addrInUseOn(goos string, err error) bool {
	var errno syscall.Errno
	return errors.Is(err, syscall.EADDRINUSE) || (goos == "windows" && errors.As(err, &errno) && errno == wsaeAddrInUse)
}

// announce logs what a person starting the daemon should know: each
// board's time control in words (warning when it looks written in
// minutes), and a dashboard reachable from the network.
func (d *Daemon) announce() {
	for _, bc := range d.cfg.Boards {
		tc, err := clockd.ParseTimeControl(bc.TimeControl)
		if err != nil {
			continue // validated
		}
		d.log.Info("time control "+tc.String()+": "+config.TimeControlWords(tc), "board", bc.ID(), "port", bc.Port)
		if s, ok := config.MinutesMeant(tc); ok {
			d.log.Warn(fmt.Sprintf("time control %s looks written in minutes, but its times are seconds: %s. If %s was meant, set timecontrol: %s",
				bc.TimeControl, config.TimeControlWords(tc), config.TimeControlWords(s), s), "board", bc.ID())
		}
	}
	if d.ln == nil {
		return
	}
	host, _, err := net.SplitHostPort(d.ln.Addr().String())
	if err != nil {
		return
	}
	ip := net.ParseIP(host)
	if ip == nil || ip.IsLoopback() {
		return
	}
	if ip.IsUnspecified() {
		host = "all interfaces"
	}
	if w := d.accessWarning(host); w != "" {
		d.log.Warn(w, "addr", d.ln.Addr().String())
	}
}

// stillAway is how often a board that stays away is mentioned again.
const stillAway = 5 * time.Minute

// lineState is what a board's supervisor has said about its line, so
// that each change is said once: a port missing at start, the line going
// down, the same failure again and again (debug only, with a reminder
// every few minutes), the board coming back.
type lineState struct {
	connected bool      // the line has been up at least once
	down      time.Time // when the line went down (or the daemon started); zero while up
	cause     string    // the failure last reported
	reminded  time.Time // when the absence was last mentioned
}

// lineFailed reports a failure to open or read the board's line.
func (b *board) lineFailed(err error, attempt int, wait time.Duration) {
	s := &b.line
	now := time.Now()
	if s.down.IsZero() {
		s.down = now
	}
	// The kind of failure, not its details; a board unplugged first fails
	// a read, then has no port: both are its absence, reported once. A
	// change to another kind (the port is back but cannot be opened) is
	// reported again.
	cause := err.Error()
	var se *serialport.Error
	switch {
	case errors.Is(err, serialport.ErrNotFound), errors.Is(err, serialport.ErrDisconnected):
		cause = "away"
	case errors.As(err, &se):
		cause = se.Err.Error()
	}
	switch {
	case cause == s.cause:
		b.log.Debug("board line down; reopening", "port", b.cfg.Port, "err", err, "attempt", attempt, "wait", wait)
		if now.Sub(s.reminded) >= stillAway {
			s.reminded = now
			b.log.Warn("board still away; reopening its port as it appears", "port", b.cfg.Port, "away", now.Sub(s.down).Round(time.Second), "err", err)
		}
		return
	case !s.connected && errors.Is(err, serialport.ErrNotFound) && serialport.IsNet(b.cfg.Port):
		b.log.Warn(fmt.Sprintf("nothing answers at %s: is the serial server or bridge switched on and on the network, and is the address in the configuration right? arbiterd connects as soon as it answers", b.cfg.Port),
			"port", b.cfg.Port)
	case !s.connected && errors.Is(err, serialport.ErrNotFound):
		b.log.Warn(fmt.Sprintf("serial port %s does not exist: is the board plugged in and switched on, and is the port in the configuration right (arbiterd ports lists them)? arbiterd opens it as soon as it appears", b.cfg.Port),
			"port", b.cfg.Port)
	default:
		b.log.Warn("board line down; reopening", "port", b.cfg.Port, "err", err, "attempt", attempt, "wait", wait)
	}
	s.cause, s.reminded = cause, now
}

// lineUp reports the board's line up: the board answers.
func (b *board) lineUp() {
	s := &b.line
	switch {
	case !s.connected:
		b.log.Info("board connected", "port", b.cfg.Port)
	case !s.down.IsZero():
		b.log.Info("board back", "port", b.cfg.Port, "away", time.Since(s.down).Round(time.Second))
	default:
		b.log.Info("board back", "port", b.cfg.Port)
	}
	*s = lineState{connected: true}
}

// lineDown notes the board's line down while the port is still open (the
// board stopped answering).
func (b *board) lineDown() {
	if b.line.down.IsZero() {
		b.line.down = time.Now()
	}
}

// nextRound suggests the round after r: the next number when r ends in
// one ("3" → "4", "2.1" → "2.2"), else r with "-2".
func nextRound(r string) string {
	i := len(r)
	for i > 0 && r[i-1] >= '0' && r[i-1] <= '9' {
		i--
	}
	if i == len(r) {
		return r + "-2"
	}
	n, err := strconv.Atoi(r[i:])
	if err != nil {
		return r + "-2"
	}
	return r[:i] + strconv.Itoa(n+1)
}
