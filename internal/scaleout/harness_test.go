package scaleout

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/boards/pipeline"
	"github.com/arbiterd/arbiterd/internal/boards/serve"
	"github.com/arbiterd/arbiterd/internal/config"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// The emulated games run this many times faster than real time, and the
// venues' capture clocks with them (ARBITERD_SCALEOUT_SPEED changes it).
var testSpeed = float64(envInt("ARBITERD_SCALEOUT_SPEED", 1000))

const testTC = "40/5400+30:1800+30"

// envInt reads a positive integer from the environment (the long forms of
// the tests), or gives def.
func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// emu is an emulated DGT board and clock on its own pty.
type emu struct {
	path   string
	master *os.File
	cancel context.CancelFunc
	done   chan error
}

// startEmuAt plays the Immortal Game on a new pty at speed times real
// time; with flagAt > 0 Black's flag falls at that ply.
func startEmuAt(t *testing.T, seed int64, flagAt int, speed float64) *emu {
	t.Helper()
	periods, err := emulator.ParseTimeControl(testTC)
	if err != nil {
		t.Fatal(err)
	}
	cfg := emulator.Config{PGN: emulator.DefaultPGN, Periods: periods, Speed: speed,
		Wait: true, Linger: true, Seed: seed}
	if flagAt > 0 {
		cfg.Script = []emulator.Action{{Kind: emulator.Flag, Ply: flagAt}}
	}
	e, err := emulator.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	master, slave, err := emulator.OpenPTY()
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	em := &emu{path: slave, master: master, cancel: cancel, done: make(chan error, 1)}
	go func() { em.done <- e.Run(ctx, master) }()
	t.Cleanup(em.stop)
	return em
}

func (e *emu) stop() {
	if e.cancel == nil {
		return
	}
	e.cancel()
	<-e.done
	e.master.Close()
	e.cancel = nil
}

// proxy is a TCP relay in front of a venue's leaf port, so a test can cut
// the venue's connection to the hall and restore it.
type proxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	cut    bool
	conns  map[net.Conn]struct{}
	wg     sync.WaitGroup
}

func newProxy(t *testing.T, target string) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln, target: target, conns: map[net.Conn]struct{}{}}
	p.wg.Go(p.accept)
	t.Cleanup(p.close)
	return p
}

func (p *proxy) addr() string { return p.ln.Addr().String() }

func (p *proxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		if p.cut {
			p.mu.Unlock()
			c.Close()
			continue
		}
		up, err := net.DialTimeout("tcp", p.target, time.Second)
		if err != nil {
			p.mu.Unlock()
			c.Close()
			continue
		}
		p.conns[c], p.conns[up] = struct{}{}, struct{}{}
		p.mu.Unlock()
		pipe := func(dst, src net.Conn) {
			io.Copy(dst, src)
			dst.Close()
			src.Close()
		}
		p.wg.Go(func() { pipe(up, c) })
		p.wg.Go(func() { pipe(c, up) })
	}
}

// setCut cuts every connection through the proxy and refuses new ones,
// or lets them through again.
func (p *proxy) setCut(cut bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = cut
	if cut {
		for c := range p.conns {
			c.Close()
		}
		clear(p.conns)
	}
}

func (p *proxy) close() {
	p.ln.Close()
	p.setCut(true)
	p.wg.Wait()
}

// tVenue is a venue: a daemon serving emulated boards, publishing through
// its embedded NATS server, whose leaf port the hall reaches through a
// proxy.
type tVenue struct {
	t      *testing.T
	name   string
	data   string
	cfg    *config.Config
	leaf   string // the venue's leaf listener
	proxy  *proxy
	cancel context.CancelFunc
	done   chan error
	venue  *Venue
	daemon *serve.Daemon
	speed  float64 // of the games: times real time
	// feeds: the daemon runs its default HTTP services and feeds (the
	// configuration's broadcast folder, LiveChess, lichess), as `arbiterd
	// serve` does; otherwise none.
	feeds bool
}

func newVenue(t *testing.T, name string, boards []int) *tVenue {
	t.Helper()
	return newVenueWith(t, name, boards, nil)
}

// newVenueWith is newVenue with its nats section changed by edit.
func newVenueWith(t *testing.T, name string, boards []int, edit func(*config.NATS)) *tVenue {
	t.Helper()
	return newVenueConfig(t, name, boards, func(c *config.Config) {
		if edit != nil {
			edit(c.NATS)
		}
	})
}

// newVenueConfig is newVenue with its configuration changed by edit
// (which may set feeds on the venue by a non-"off" broadcast).
func newVenueConfig(t *testing.T, name string, boards []int, edit func(*config.Config)) *tVenue {
	t.Helper()
	return newVenueAt(t, name, boards, testSpeed, edit)
}

// newVenueAt is newVenueConfig with games played at speed times real
// time.
func newVenueAt(t *testing.T, name string, boards []int, speed float64, edit func(*config.Config)) *tVenue {
	t.Helper()
	v := &tVenue{t: t, name: name, data: t.TempDir(), speed: speed}
	leaf, err := freePort("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	v.leaf = leaf
	v.proxy = newProxy(t, leaf)
	c := &config.Config{Data: v.data, Listen: "127.0.0.1:0", Event: "scale-out test", Round: "1", Broadcast: "off",
		NATS: &config.NATS{Venue: name, LeafListen: leaf}}
	for i, n := range boards {
		flagAt := 0
		if n%2 == 0 {
			flagAt = 30 + n%7
		}
		em := startEmuAt(t, int64(n*7+i), flagAt, speed)
		c.Boards = append(c.Boards, config.Board{Number: n, Port: em.path, White: fmt.Sprintf("White %d", n),
			Black: fmt.Sprintf("Black %d", n), TimeControl: testTC})
	}
	if edit != nil {
		edit(c)
	}
	v.feeds = c.Broadcast != "off"
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	v.cfg = c
	v.start()
	t.Cleanup(v.stop)
	return v
}

// start runs the venue as `arbiterd serve` does with a nats section.
func (v *tVenue) start() {
	v.t.Helper()
	var log *slog.Logger
	if os.Getenv("ARBITERD_SCALEOUT_LOG") != "" {
		log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo})).With("venue", v.name)
	}
	vo, err := VenueOptionsFrom(v.cfg, log)
	if err != nil {
		v.t.Fatal(err)
	}
	ven, err := OpenVenue(vo)
	if err != nil {
		v.t.Fatal(err)
	}
	do := serve.Options{Config: v.cfg, Speed: v.speed, Logger: log, Mounts: []serve.Mount{}, Runners: []serve.Runner{},
		OnEvent: ven.OnEvent}
	if v.feeds {
		do.Mounts, do.Runners = nil, nil
	}
	d, err := serve.New(do)
	if err != nil {
		ven.Close()
		v.t.Fatal(err)
	}
	ven.SetArbiter(d)
	v.daemon = d
	ctx, cancel := context.WithCancel(context.Background())
	v.venue, v.cancel, v.done = ven, cancel, make(chan error, 1)
	go func() { v.done <- ven.Serve(ctx, d.Hub(), d.Run) }()
}

// stop stops the venue (its boards go on playing on their emulators).
func (v *tVenue) stop() {
	if v.cancel == nil {
		return
	}
	v.cancel()
	if err := <-v.done; err != nil {
		v.t.Errorf("venue %s: %v", v.name, err)
	}
	v.cancel = nil
}

func (v *tVenue) roundDir() string { return filepath.Join(v.data, "round-1") }

// tHall is a hall over some venues.
type tHall struct {
	t      *testing.T
	data   string
	opts   HallOptions
	hall   *Hall
	cancel context.CancelFunc
	done   chan error

	mu     sync.Mutex
	events map[string][][]byte // venue/board → raw events as applied
	delays []time.Duration
}

func newHall(t *testing.T, venues []*tVenue) *tHall {
	t.Helper()
	h := &tHall{t: t, data: t.TempDir(), events: map[string][][]byte{}}
	h.opts = HallOptions{Data: h.data, Stale: 3 * time.Second}
	for _, v := range venues {
		var boards []string
		for _, b := range v.cfg.Boards {
			boards = append(boards, b.ID())
		}
		h.opts.Venues = append(h.opts.Venues, VenueRef{Name: v.name, Boards: boards})
		h.opts.Server.Remotes = append(h.opts.Server.Remotes, []string{"nats-leaf://" + v.proxy.addr()})
	}
	h.opts.OnEvent = h.onEvent
	if os.Getenv("ARBITERD_SCALEOUT_LOG") != "" {
		h.opts.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	h.start()
	t.Cleanup(h.stop)
	return h
}

func (h *tHall) onEvent(venue string, e reconcile.Event, raw []byte, published time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	k := venue + "/" + e.Board
	h.events[k] = append(h.events[k], append([]byte(nil), raw...))
	if !published.IsZero() {
		h.delays = append(h.delays, time.Since(published))
	}
}

func (h *tHall) start() {
	h.t.Helper()
	hall, err := OpenHall(h.opts)
	if err != nil {
		h.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	h.hall, h.cancel, h.done = hall, cancel, make(chan error, 1)
	go func() { h.done <- hall.Run(ctx) }()
}

func (h *tHall) stop() {
	if h.cancel == nil {
		return
	}
	h.cancel()
	if err := <-h.done; err != nil {
		h.t.Errorf("hall: %v", err)
	}
	h.hall.Close()
	h.cancel = nil
}

// gameOver tells whether an events file holds the end of its game.
func gameOver(data []byte) bool {
	for line := range bytes.Lines(data) {
		e, err := ParseEvent(bytes.TrimSuffix(line, []byte("\n")))
		if err == nil && (e.Type == reconcile.TypeEnd || (e.Type == reconcile.TypeFlag && e.Verdict != reconcile.VerdictNone)) {
			return true
		}
	}
	return false
}

// waitGames waits until every venue's every game is over and the hall
// holds each board's events and capture exactly as the venue does.
func waitGames(t *testing.T, h *tHall, venues []*tVenue, timeout time.Duration) {
	t.Helper()
	waitSettled(t, h, venues, timeout, 0)
}

// waitSettled is waitGames where a game that has stood still at the venue
// for quiet (when quiet > 0) counts as done: after a venue is killed, an
// emulated game may stall on its own (the emulator and the daemon's resync
// are tested elsewhere); what is checked here is that the hall has all the
// venue has.
func waitSettled(t *testing.T, h *tHall, venues []*tVenue, timeout, quiet time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		var missing []string
		for _, v := range venues {
			for _, b := range v.cfg.Boards {
				evs, _ := os.ReadFile(filepath.Join(v.roundDir(), "board-"+b.ID()+".events.jsonl"))
				evStat, _ := os.Stat(filepath.Join(v.roundDir(), "board-"+b.ID()+".events.jsonl"))
				for _, ext := range []string{".events.jsonl", ".capture"} {
					want, _ := os.ReadFile(filepath.Join(v.roundDir(), "board-"+b.ID()+ext))
					got, _ := os.ReadFile(filepath.Join(h.data, "venues", v.name, "round-1", "board-"+b.ID()+ext))
					still := quiet > 0 && evStat != nil && time.Since(evStat.ModTime()) > quiet
					over := gameOver(evs)
					switch {
					case ext == ".events.jsonl" && !over && !still:
						missing = append(missing, fmt.Sprintf("%s/%s: game on", v.name, b.ID()))
					case ext == ".capture" && !over && still && bytes.HasPrefix(want, got) && len(got) > 0:
						// A stalled game's capture goes on growing with the
						// clock's readings: the hall's is a start of it.
					case !bytes.Equal(want, got):
						missing = append(missing, fmt.Sprintf("%s/%s%s: venue %d bytes, hall %d", v.name, b.ID(), ext, len(want), len(got)))
					}
				}
			}
		}
		if len(missing) == 0 {
			return
		}
		if time.Now().After(deadline) {
			for _, v := range venues[:1] {
				data, _ := os.ReadFile(filepath.Join(v.roundDir(), "board-"+v.cfg.Boards[0].ID()+".events.jsonl"))
				lines := bytes.SplitAfter(data, []byte("\n"))
				t.Logf("%s board %s: %d events, the last: %s", v.name, v.cfg.Boards[0].ID(), len(lines)-1, lines[max(0, len(lines)-4):])
			}
			t.Logf("hall status: %+v", h.hall.Status().Venues)
			for _, a := range h.hall.Status().Alerts {
				t.Logf("hall alert: %+v", a)
			}
			if s, err := h.hall.js.Stream(context.Background(), HallEventsStream); err != nil {
				t.Logf("hall stream: %v", err)
			} else if info, err := s.Info(context.Background()); err == nil {
				for _, si := range info.Sources {
					t.Logf("hall source %s: lag %d seq %d active %s error %v", si.External.APIPrefix, si.Lag, si.Seq, si.Active, si.Error)
				}
				t.Logf("hall stream state %+v", info.State)
			}
			t.Fatalf("after %s: %d boards not complete at the hall, e.g. %v", timeout, len(missing), missing[:min(5, len(missing))])
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// checkHall checks what the hall applied: every board's events exactly
// once and in order (equal to the venue's file line by line), and a
// replay of the hall's capture equal to a replay of the venue's.
func checkHall(t *testing.T, h *tHall, venues []*tVenue, restarted bool) {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, v := range venues {
		for _, b := range v.cfg.Boards {
			want, err := os.ReadFile(filepath.Join(v.roundDir(), "board-"+b.ID()+".events.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			lines := bytes.SplitAfter(want, []byte("\n"))
			lines = lines[:len(lines)-1]
			got := h.events[v.name+"/"+b.ID()]
			if !restarted {
				// Applied exactly once each, in order.
				if len(got) != len(lines) {
					t.Errorf("%s board %s: the hall applied %d events, the venue has %d", v.name, b.ID(), len(got), len(lines))
				}
				for i := range min(len(got), len(lines)) {
					if !bytes.Equal(append(got[i], '\n'), lines[i]) {
						t.Errorf("%s board %s: event %d differs:\nhall  %s\nvenue %s", v.name, b.ID(), i+1, got[i], lines[i])
						break
					}
				}
			}
			completes := 0
			for _, l := range lines {
				if bytes.Contains(l, []byte(`"type":"complete"`)) {
					completes++
				}
			}
			if completes < 10 {
				t.Errorf("%s board %s: only %d completed moves: not a full game", v.name, b.ID(), completes)
			}
			hallCap, err := os.ReadFile(filepath.Join(h.data, "venues", v.name, "round-1", "board-"+b.ID()+".capture"))
			if err != nil {
				t.Fatal(err)
			}
			venueCap, err := os.ReadFile(filepath.Join(v.roundDir(), "board-"+b.ID()+".capture"))
			if err != nil {
				t.Fatal(err)
			}
			if gameOver(want) {
				// `arbiterd replay` of the hall's copy is the venue's event stream.
				if got := replayBytes(t, hallCap); !bytes.Equal(got, want) {
					t.Errorf("%s board %s: the replay of the hall's capture (%d bytes of events) is not the venue's events (%d)",
						v.name, b.ID(), len(got), len(want))
				}
			} else if !bytes.HasPrefix(venueCap, hallCap) || !bytes.Equal(replayBytes(t, hallCap), replayBytes(t, venueCap[:len(hallCap)])) {
				// A game still going on (it stalled): the hall's copy is the
				// start of the venue's, and replays as it does.
				t.Errorf("%s board %s: the hall's capture is not the start of the venue's, or replays otherwise", v.name, b.ID())
			}
			st, err := h.hall.Hub().Board(b.ID())
			if err != nil {
				t.Errorf("%s board %s: not on the hall's hub: %v", v.name, b.ID(), err)
			} else if over := st.Result != "" || st.Flag != nil && st.Verdict != string(reconcile.VerdictNone); over != gameOver(want) || st.White != b.White {
				t.Errorf("%s board %s: the hall shows result %q, verdict %q, white %q", v.name, b.ID(), st.Result, st.Verdict, st.White)
			}
		}
	}
}

// replayFile is `arbiterd replay FILE`'s event stream.
func replayFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return replayBytes(t, data)
}

// replayBytes is the event stream `arbiterd replay` prints for a capture.
func replayBytes(t *testing.T, capture []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	if _, err := pipeline.Replay(bytes.NewReader(capture), pipeline.Options{}, func(e reconcile.Event) error {
		out.Write(reconcile.Marshal(e))
		return out.WriteByte('\n')
	}); err != nil {
		t.Fatalf("replay: %v", err)
	}
	return out.Bytes()
}
