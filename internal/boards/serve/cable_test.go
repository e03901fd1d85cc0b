package serve

import (
	"context"
	"errors"
	"os"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/device/emulator"
)

// cable is the USB cable between an emulated board and the computer: the
// board (the emulator) keeps playing whether it is plugged in or not; each
// plug is a new pty (a new device node, as a re-plugged USB adapter gets).
// Unplugged, what the board sends is lost and it hears nothing.
type cable struct {
	mu     sync.Mutex
	master *os.File
	path   string
	cancel context.CancelFunc
	done   chan error
}

func (c *cable) cur() *os.File {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.master
}

func (c *cable) Read(b []byte) (int, error) {
	m := c.cur()
	if m == nil {
		time.Sleep(10 * time.Millisecond)
		return 0, syscall.EIO // the emulator's "no host"
	}
	n, err := m.Read(b)
	if err != nil && c.cur() != m {
		return n, syscall.EIO
	}
	return n, err
}

func (c *cable) Write(b []byte) (int, error) {
	m := c.cur()
	if m == nil {
		return 0, syscall.EIO
	}
	m.SetWriteDeadline(time.Now().Add(50 * time.Millisecond))
	n, err := m.Write(b)
	if errors.Is(err, os.ErrDeadlineExceeded) || c.cur() != m {
		return len(b), nil // a serial line does not wait: lost
	}
	return n, err
}

// plug connects the cable to a new pty and returns its device path.
func (c *cable) plug(t *testing.T) string {
	t.Helper()
	m, path, err := emulator.OpenPTY()
	if err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	c.master, c.path = m, path
	c.mu.Unlock()
	return path
}

// unplug pulls the cable: the pty goes away.
func (c *cable) unplug() {
	c.mu.Lock()
	m := c.master
	c.master = nil
	c.mu.Unlock()
	if m != nil {
		m.Close()
	}
}

// startCabled starts an emulator behind a cable, plugged in (at
// testSpeed unless cfg sets a speed).
func startCabled(t *testing.T, cfg emulator.Config) *cable {
	t.Helper()
	e := newTestEmu(t, cfg)
	c := &cable{done: make(chan error, 1)}
	c.plug(t)
	ctx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	go func() { c.done <- e.Run(ctx, c) }()
	t.Cleanup(func() {
		cancel()
		c.unplug()
		<-c.done
	})
	return c
}
