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
	if err := ReplaceLink(c.Link, slave); err != nil {
		master.Close()
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	c.master, c.cancel, c.done = master, cancel, make(chan error, 1)
	go func() { c.done <- c.LC.Run(ctx, master, c.Speed) }()
	return nil
}

// Unplug stops the clock and pulls its cable: the pty and the link go
// away. It returns the error the clock stopped with, if it stopped for
// another reason than being unplugged. Unplugging a clock that is not
// plugged in does nothing.
func (c *USBClock) Unplug() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.master == nil {
		return nil
	}
	c.cancel()
	// Closing the pty also ends a write the clock is blocked in: a host
	// that stopped reading the other end (a game over, a daemon stalled)
	// fills the pty, and waiting for the clock first would wait forever.
	c.master.Close()
	err := <-c.done
	os.Remove(c.Link)
	c.master = nil
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// ReplaceLink points the symlink name at target in one step, as udev
// replaces a /dev/serial/by-id link: a link made beside it is renamed
// over it, so that an opener never finds the name missing.
func ReplaceLink(name, target string) error {
	tmp := name + ".new"
	os.Remove(tmp)
	if err := os.Symlink(target, tmp); err != nil {
		return err
	}
	if err := os.Rename(tmp, name); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
