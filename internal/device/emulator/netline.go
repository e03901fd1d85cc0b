package emulator

import (
	"errors"
	"io"
	"net"
	"os"
	"sync"
	"time"
)

// NetLine is the device end of a board offered on a TCP listener, as a
// serial server (ser2net, a Moxa or Lantronix box, an ESP32 bridge) offers
// a board's serial line on the network: give it to Run, and a host connects
// to the listener's address (arbiterd's port tcp://HOST:PORT).
//
// The board lives on whether a host is connected or not, as a board on a
// serial server does: what it sends while no host is connected is lost
// (counted by Lost), and a host that connects later, or again after its
// connection broke, reads the board from then on. A new connection
// replaces the one before it (a host that reconnects after a network
// fault may not have closed its old one). Read waits for a host; Read and
// Write honour deadlines, so Run can stop. Close closes the listener and
// the connection.
type NetLine struct {
	ln      net.Listener
	onConn  func(remote string, connected bool)
	done    chan struct{}
	wg      sync.WaitGroup
	mu      sync.Mutex
	conn    net.Conn
	changed chan struct{} // closed and replaced when conn or the read deadline changes
	rdl     time.Time     // the read deadline
	wdl     time.Time     // the write deadline
	closed  bool
	lost    int64
}

// netWriteWait is how long a write may wait for a host that does not read
// before its bytes count as lost (a serial line never waits).
const netWriteWait = 500 * time.Millisecond

// ListenLine offers a board on ln: it accepts hosts until Close. onConn,
// when set, is told of each host connecting and going (from the line's
// goroutines; it must not block).
func ListenLine(ln net.Listener, onConn func(remote string, connected bool)) *NetLine {
	l := &NetLine{ln: ln, onConn: onConn, done: make(chan struct{}), changed: make(chan struct{})}
	l.wg.Go(l.accept)
	return l
}

// Addr is the listener's address.
func (l *NetLine) Addr() net.Addr { return l.ln.Addr() }

// Lost is the number of bytes the board sent while no host read them.
func (l *NetLine) Lost() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lost
}

func (l *NetLine) accept() {
	for {
		c, err := l.ln.Accept()
		if err != nil {
			select {
			case <-l.done:
				return
			default:
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			// A listener that fails for good leaves the board without
			// hosts; Close still ends the line.
			return
		}
		if tc, ok := c.(*net.TCPConn); ok {
			_ = tc.SetNoDelay(true)
			_ = tc.SetKeepAliveConfig(net.KeepAliveConfig{Enable: true, Idle: 5 * time.Second, Interval: 2 * time.Second, Count: 3})
		}
		l.mu.Lock()
		if l.closed {
			l.mu.Unlock()
			c.Close()
			return
		}
		old := l.conn
		l.conn = c
		l.signal()
		l.mu.Unlock()
		if old != nil {
			old.Close()
			l.tell(old, false)
		}
		l.tell(c, true)
	}
}

func (l *NetLine) tell(c net.Conn, connected bool) {
	if l.onConn != nil {
		l.onConn(c.RemoteAddr().String(), connected)
	}
}

// signal wakes a Read waiting for a host or a deadline (l.mu held).
func (l *NetLine) signal() {
	close(l.changed)
	l.changed = make(chan struct{})
}

// drop forgets c if it is still the line's connection: the host went.
func (l *NetLine) drop(c net.Conn) {
	l.mu.Lock()
	current := l.conn == c
	if current {
		l.conn = nil
		l.signal()
	}
	l.mu.Unlock()
	c.Close()
	if current {
		l.tell(c, false)
	}
}

// Read reads what the host sends, waiting for a host when none is
// connected. It returns os.ErrDeadlineExceeded past the read deadline and
// io.EOF once the line is closed.
func (l *NetLine) Read(p []byte) (int, error) {
	for {
		l.mu.Lock()
		c, dl, changed, closed := l.conn, l.rdl, l.changed, l.closed
		l.mu.Unlock()
		if closed {
			return 0, io.EOF
		}
		if !dl.IsZero() && !time.Now().Before(dl) {
			return 0, os.ErrDeadlineExceeded
		}
		if c == nil {
			if dl.IsZero() {
				<-changed
				continue
			}
			t := time.NewTimer(time.Until(dl))
			select {
			case <-changed:
			case <-t.C:
			}
			t.Stop()
			continue
		}
		_ = c.SetReadDeadline(dl)
		n, err := c.Read(p)
		if n > 0 || err == nil {
			return n, nil
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			l.mu.Lock()
			same := l.conn == c && l.rdl.Equal(dl)
			l.mu.Unlock()
			if same {
				return 0, os.ErrDeadlineExceeded
			}
			continue // the deadline or the host changed under the read
		}
		l.drop(c) // the host went: wait for the next one
	}
}

// Write sends p to the host; with no host connected, or one that does not
// read, the bytes are lost, as on a serial line nobody listens to.
func (l *NetLine) Write(p []byte) (int, error) {
	l.mu.Lock()
	c, wdl, closed := l.conn, l.wdl, l.closed
	if c == nil && !closed {
		l.lost += int64(len(p))
	}
	l.mu.Unlock()
	if closed {
		return 0, io.ErrClosedPipe
	}
	if c == nil {
		return len(p), nil
	}
	if !wdl.IsZero() && !time.Now().Before(wdl) {
		return 0, os.ErrDeadlineExceeded
	}
	dl := time.Now().Add(netWriteWait)
	if !wdl.IsZero() && wdl.Before(dl) {
		dl = wdl
	}
	_ = c.SetWriteDeadline(dl)
	n, err := c.Write(p)
	if err != nil {
		l.mu.Lock()
		l.lost += int64(len(p) - n)
		l.mu.Unlock()
		if !wdl.IsZero() && errors.Is(err, os.ErrDeadlineExceeded) && !time.Now().Before(wdl) {
			return n, err // the caller's deadline
		}
		l.drop(c)
	}
	return len(p), nil
}

// SetReadDeadline sets the deadline of Read (zero: none), also for a Read
// already waiting.
func (l *NetLine) SetReadDeadline(t time.Time) error {
	l.mu.Lock()
	l.rdl = t
	c := l.conn
	l.signal()
	l.mu.Unlock()
	if c != nil {
		_ = c.SetReadDeadline(t)
	}
	return nil
}

// SetWriteDeadline sets the deadline of Write (zero: none).
func (l *NetLine) SetWriteDeadline(t time.Time) error {
	l.mu.Lock()
	l.wdl = t
	c := l.conn
	l.mu.Unlock()
	if c != nil {
		_ = c.SetWriteDeadline(t)
	}
	return nil
}

// Disconnect closes the current host's connection, as a network fault or
// a serial server restarting does; the listener goes on accepting.
func (l *NetLine) Disconnect() {
	l.mu.Lock()
	c := l.conn
	l.mu.Unlock()
	if c != nil {
		l.drop(c)
	}
}

// Close closes the listener and any connection; Read returns io.EOF.
// Closing twice is harmless.
func (l *NetLine) Close() error {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil
	}
	l.closed = true
	c := l.conn
	l.conn = nil
	l.signal()
	l.mu.Unlock()
	close(l.done)
	err := l.ln.Close()
	if c != nil {
		c.Close()
		l.tell(c, false)
	}
	l.wg.Wait()
	return err
}
