package serve

import (
	"context"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// startNetEmu starts an emulator playing cfg on a TCP listener, as arbiterd
// emulate --listen offers it.
func startNetEmu(t *testing.T, cfg emulator.Config) *emulator.NetLine {
	t.Helper()
	e := newTestEmu(t, cfg)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	line := emulator.ListenLine(ln, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- e.Run(ctx, line) }()
	t.Cleanup(func() { cancel(); <-done; line.Close() })
	return line
}

// tcpHop is a network hop between the daemon and a board on TCP (a serial
// server's network, say) that can go away — its listener and connections
// closed, so that connecting is refused — and come back on the same
// address.
type tcpHop struct {
	addr, target string
	mu           sync.Mutex
	ln           net.Listener
	conns        []net.Conn
	wg           sync.WaitGroup
}

func (h *tcpHop) up(t *testing.T) {
	t.Helper()
	addr := h.addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	h.addr = ln.Addr().String()
	h.mu.Lock()
	h.ln = ln
	h.mu.Unlock()
	h.wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			u, err := net.Dial("tcp", h.target)
			if err != nil {
				c.Close()
				continue
			}
			h.mu.Lock()
			h.conns = append(h.conns, c, u)
			h.mu.Unlock()
			h.wg.Go(func() { io.Copy(u, c); u.Close() })
			h.wg.Go(func() { io.Copy(c, u); c.Close() })
		}
	})
}

func (h *tcpHop) down() {
	h.mu.Lock()
	if h.ln != nil {
		h.ln.Close()
	}
	for _, c := range h.conns {
		c.Close()
	}
	h.ln, h.conns = nil, nil
	h.mu.Unlock()
	h.wg.Wait()
}

// TestNetBoard serves a board whose port is tcp://HOST:PORT, offered by
// the emulator on a TCP listener as arbiterd emulate --listen does. The
// network goes away in the middle of the game (connections closed, new
// ones refused) and comes back on the same address: the daemon reports
// the board disconnected, reconnects on its back-off, and the game goes on
// in the same capture to the flag and its verdict (a loss, 6.9) with no
// completed move lost.
func TestNetBoard(t *testing.T) {
	const cut = 12
	sans := immortal(t)
	// White thinks long over ply 13 (1.8 s of real time), and the network
	// goes away meanwhile: the game loses no press to the outage, so every
	// move is verified and the verdict is the game's.
	think := func(ply int) time.Duration {
		if ply == cut+1 {
			return 30 * time.Minute
		}
		return time.Minute
	}
	line := startNetEmu(t, emulator.Config{Game: sans, Seed: 3, ThinkTime: think, Script: []emulator.Action{{Kind: emulator.Flag, Ply: 38}}})
	hop := &tcpHop{target: line.Addr().String()}
	hop.up(t)
	defer hop.down()
	data := t.TempDir()
	w := newWatcher()
	d, stop, logs := runDaemonWith(t, Options{Config: testConfig(data, "tcp://"+hop.addr), Speed: testSpeed}, w)

	w.waitFor(t, "12 plies completed over TCP", 60*time.Second, func() bool {
		m := completed(w.stream("1"))
		return m.White+m.Black >= cut
	})
	hop.down()
	w.waitFor(t, "the board to be seen disconnected", 30*time.Second, func() bool {
		return has(w.stream("1"), isSession("disconnected"))
	})
	time.Sleep(150 * time.Millisecond) // reconnecting is refused meanwhile
	hop.up(t)

	w.waitFor(t, "the game to end", 90*time.Second, func() bool { return has(w.stream("1"), isOver) })
	stop()
	evs := w.stream("1")
	checkFlagGame(t, evs, sans)
	var states []string
	for _, e := range evs {
		if e.Type == reconcile.TypeSession {
			states = append(states, string(e.State))
		}
	}
	if s := strings.Join(states, " "); !strings.Contains(s, "connected disconnected connected") {
		t.Errorf("session states: %s", s)
	}
	sameStream(t, d.Dir(), "1", true)
	l := logs()
	if !strings.Contains(l, "board line down") || !strings.Contains(l, "board back") || !strings.Contains(l, "tcp://"+hop.addr) {
		t.Errorf("the log does not tell the line going and coming back:\n%s", l)
	}
}

// A network port where nothing answers yet is said once, in words for a
// network, and connected to as soon as the board is offered.
func TestNetBoardNotThereYet(t *testing.T) {
	sans := immortal(t)
	line := startNetEmu(t, emulator.Config{Game: sans[:6], Seed: 1})
	hop := &tcpHop{target: line.Addr().String()}
	hop.up(t)
	hop.down() // the address is known, nothing listens on it yet
	w := newWatcher()
	_, _, logs := runDaemonWith(t, Options{Config: testConfig(t.TempDir(), "tcp://"+hop.addr), Speed: testSpeed}, w)
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(logs(), "nothing answers at tcp://"+hop.addr) {
		if time.Now().After(deadline) {
			t.Fatalf("no word of the missing board:\n%s", logs())
		}
		time.Sleep(20 * time.Millisecond)
	}
	hop.up(t)
	defer hop.down()
	w.waitFor(t, "the board to connect", 30*time.Second, func() bool { return has(w.stream("1"), isSession("connected")) })
	if n := strings.Count(logs(), `level=WARN msg="nothing answers at`); n != 1 {
		t.Errorf("the missing board was said %d times", n)
	}
}

// The port-in-use hint is given for Windows' own code of an address in
// use, WSAEADDRINUSE, as it is for EADDRINUSE.
func TestAddrInUse(t *testing.T) {
	wsa := &net.OpError{Op: "listen", Net: "tcp", Err: &os.SyscallError{Syscall: "bind", Err: syscall.Errno(10048)}}
	if !addrInUseOn("windows", wsa) {
		t.Error("WSAEADDRINUSE not seen as an address in use on Windows")
	}
	if addrInUseOn("linux", wsa) {
		t.Error("errno 10048 seen as an address in use on Linux")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, err = net.Listen("tcp", ln.Addr().String())
	if err == nil || !addrInUse(err) {
		t.Errorf("listening twice: %v is not seen as an address in use", err)
	}
}
