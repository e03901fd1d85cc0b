package serialport

import (
	"context"
	"errors"
	"net"
	"os"
	"strings"
	"time"
)

// NetPrefix starts the path of a network port: tcp://HOST:PORT, a raw TCP
// byte stream carrying a device's serial line, as a serial server
// (ser2net, Moxa, Lantronix), an ESP32 bridge or arbiterd emulate
// --listen gives. Open treats it as a serial port: the same errors, the
// same reopening after it goes away.
const NetPrefix = "tcp://"

// IsNet reports whether path is a network port (tcp://HOST:PORT).
func IsNet(path string) bool { return strings.HasPrefix(path, NetPrefix) }

// netDialTimeout bounds connecting to a network port: a host that does
// not answer is away, tried again on the back-off's schedule.
const netDialTimeout = 5 * time.Second

// netKeepAlive finds a peer gone without a word (a cable pulled, a serial
// server switched off) in about Idle + Interval×Count.
var netKeepAlive = net.KeepAliveConfig{Enable: true, Idle: 5 * time.Second, Interval: 2 * time.Second, Count: 3}

// openNet connects to the network port at path.
func openNet(ctx context.Context, path string, opts Options) (*Port, error) {
	addr := strings.TrimPrefix(path, NetPrefix)
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return nil, &Error{Port: path, Op: "open", Err: ErrNotSerial, Cause: errors.New("a network port is tcp://HOST:PORT")}
	}
	d := net.Dialer{Timeout: netDialTimeout, KeepAliveConfig: netKeepAlive}
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		if ctx.Err() != nil {
			return nil, &Error{Port: path, Op: "open", Err: ErrClosed, Cause: ctx.Err()}
		}
		// Refused, unreachable, no answer, a name not resolved: nothing
		// is there now. It is looked for again, as an unplugged board.
		return nil, &Error{Port: path, Op: "open", Err: ErrNotFound, Cause: err}
	}
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetNoDelay(true) // a DGT frame goes out at once
	}
	p := &Port{path: path, opts: opts, sp: &netLine{c: c, timeout: opts.ReadTimeout}, done: make(chan struct{})}
	p.stop = context.AfterFunc(ctx, func() { p.closeWith(ctx.Err()) })
	return p, nil
}

// netLine is a TCP connection as the serial library's port behaves: a read
// timeout is (0, nil), which Port.Read turns into ErrTimeout.
type netLine struct {
	c       net.Conn
	timeout time.Duration
}

func (l *netLine) Read(b []byte) (int, error) {
	if l.timeout > 0 {
		_ = l.c.SetReadDeadline(time.Now().Add(l.timeout))
	}
	n, err := l.c.Read(b)
	if n == 0 && errors.Is(err, os.ErrDeadlineExceeded) {
		return 0, nil
	}
	return n, err
}

func (l *netLine) Write(b []byte) (int, error) { return l.c.Write(b) }
func (l *netLine) Close() error                { return l.c.Close() }
