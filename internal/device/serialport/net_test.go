package serialport_test

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/device/serialport"
)

// listen opens a real TCP listener on the loopback.
func listen(t *testing.T, addr string) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln
}

func acceptOne(t *testing.T, ln net.Listener) <-chan net.Conn {
	ch := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			close(ch)
			return
		}
		t.Cleanup(func() { c.Close() })
		ch <- c
	}()
	return ch
}

// A network port carries bytes both ways, times out as a serial port does,
// and reads as disconnected when the peer goes.
func TestNetPort(t *testing.T) {
	ln := listen(t, "127.0.0.1:0")
	conns := acceptOne(t, ln)
	path := "tcp://" + ln.Addr().String()
	p, err := serialport.Open(context.Background(), path, serialport.Options{ReadTimeout: 50 * time.Millisecond, DropPending: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	peer := <-conns
	if p.Path() != path {
		t.Errorf("path %q", p.Path())
	}
	if _, err := p.Write([]byte{0x40, 0x42}); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 2)
	if _, err := io.ReadFull(peer, got); err != nil || got[0] != 0x40 || got[1] != 0x42 {
		t.Fatalf("peer read %x, %v", got, err)
	}
	peer.Write([]byte("board"))
	buf := make([]byte, 16)
	n, err := io.ReadAtLeast(p, buf, 5)
	if err != nil || string(buf[:n]) != "board" {
		t.Fatalf("read %q, %v", buf[:n], err)
	}
	if _, err := p.Read(buf); !errors.Is(err, serialport.ErrTimeout) {
		t.Errorf("a quiet line: %v, want ErrTimeout", err)
	}
	peer.Close()
	var rerr error
	for range 100 {
		if _, rerr = p.Read(buf); !errors.Is(rerr, serialport.ErrTimeout) {
			break
		}
	}
	if !errors.Is(rerr, serialport.ErrDisconnected) || !strings.Contains(rerr.Error(), "network port "+path) {
		t.Errorf("after the peer went: %v", rerr)
	}
}

// Nothing listening is a missing port (looked for again); a malformed
// address is no port at all.
func TestNetOpenErrors(t *testing.T) {
	ln := listen(t, "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	_, err := serialport.Open(context.Background(), "tcp://"+addr, serialport.Options{})
	if !errors.Is(err, serialport.ErrNotFound) || !strings.Contains(err.Error(), "nothing answers at this address") {
		t.Errorf("nothing listening: %v", err)
	}
	if _, err := serialport.Open(context.Background(), "tcp://no-port-here", serialport.Options{}); !errors.Is(err, serialport.ErrNotSerial) {
		t.Errorf("no port: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := serialport.Open(ctx, "tcp://"+addr, serialport.Options{}); !errors.Is(err, serialport.ErrClosed) {
		t.Errorf("cancelled: %v", err)
	}
}

// Cancelling the context unblocks a read, which reports the port closed.
func TestNetCancelUnblocksRead(t *testing.T) {
	ln := listen(t, "127.0.0.1:0")
	conns := acceptOne(t, ln)
	ctx, cancel := context.WithCancel(context.Background())
	p, err := serialport.Open(ctx, "tcp://"+ln.Addr().String(), serialport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	<-conns
	done := make(chan error, 1)
	go func() { _, err := p.Read(make([]byte, 8)); done <- err }()
	time.Sleep(20 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, serialport.ErrClosed) {
			t.Errorf("read after cancel: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("cancel did not unblock the read")
	}
}

// A network port that goes away and comes back on the same address is
// reopened by Backoff.Retry, as a serial port replugged is.
func TestNetRetryReconnects(t *testing.T) {
	ln := listen(t, "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	back := make(chan net.Listener, 1)
	time.AfterFunc(300*time.Millisecond, func() {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			close(back)
			return
		}
		back <- ln
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var p *serialport.Port
	tries := 0
	err := serialport.Backoff{Min: 20 * time.Millisecond, Max: 100 * time.Millisecond, Factor: 2}.Retry(ctx, func() serialport.Attempt {
		tries++
		var err error
		p, err = serialport.Open(ctx, "tcp://"+addr, serialport.Options{})
		return serialport.Attempt{Done: err == nil, Err: err}
	}, func(_ int, err error, _ time.Duration) {
		if !errors.Is(err, serialport.ErrNotFound) {
			t.Errorf("while away: %v", err)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ln2, ok := <-back
	if !ok {
		t.Skip("the address could not be listened on again")
	}
	defer ln2.Close()
	if tries < 2 {
		t.Errorf("connected at the first try (%d), before the listener came back", tries)
	}
}
