package emulator

import (
	"context"
	"errors"
	"os"
	"sync"
)

// USBClock is an emulated lineclock on a pty of its own, reached through a
// symlink (as /dev/serial/by-id names are) so that its cable can be pulled
// and plugged back: each Plug opens a new pty and points the link at it,
// Unplug stops the clock and removes the pty and the link.
type USBClock struct {
	LC    *LineClock
	Link  string  // the symlink arbiterd opens
	Speed float64 // passed to LineClock.Run

	mu     sync.Mutex // Plug and Unplug may run on different goroutines
	master *os.File
	cancel context.CancelFunc
	done   chan error
}

// Plug opens a new pty, points Link at it and runs the clock on it until
// Unplug or ctx ends. Plugging a clock that is plugged in is an error.
func (c *USBClock) Plug(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.master != nil {
		return errors.New("emulator: the USB clock is already plugged in")
	}
	master, slave, err := OpenPTY()
	if err != nil {
		return err
	}
	// A new link replaces the old one in one step, as udev does.
	tmp := c.Link + ".new"
	os.Remove(tmp)
	if err := os.Symlink(slave, tmp); err != nil {
		master.Close()
		return err
	}
	if err := os.Rename(tmp, c.Link); err != nil {
		master.Close()
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	c.master, c.cancel, c.done = master, cancel, make(chan error, 1)
	go func() { c.done <- c.LC.Run(ctx, master, c.Speed) }()
	return nil
}

// Unplug stops the clock and pulls its cable: the pty and the link go
// away. Unplugging a clock that is not plugged in does nothing.
func (c *USBClock) Unplug() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.master == nil {
		return
	}
	c.cancel()
	<-c.done
	c.master.Close()
	os.Remove(c.Link)
	c.master = nil
}
