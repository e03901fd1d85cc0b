package loadtest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/boards/live"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// Options describe a load run.
type Options struct {
	Boards int        // boards served at once
	Games  [][]string // games as SAN move lists; board i plays Games[i % len(Games)]
	Plies  int        // plies each board plays (at most its game's length)
	// Think gives the emulated think time of a ply (from the start of the
	// turn to the press), drawn from the board's own random generator.
	Think       func(r *rand.Rand, ply int) time.Duration
	Speed       float64 // emulated time per real time (1 = real time)
	Seed        int64
	Dir         string // where the captures go (one file per board)
	TimeControl string // the clock's setting (default 5400+30)
	// EmulatorsOnly runs the emulators without arbiterd (their output is
	// read and thrown away): the cost of the device side alone, to subtract.
	EmulatorsOnly bool
	// Settle is how long (real time) a board goes on after its last press
	// so that the press is settled (default 2.5 s: two keep-alive answers).
	Settle time.Duration
	// FirstID is the first board's number (default 1): board i is
	// FirstID+i, so that several runs (venues) number their boards apart.
	FirstID int
	// Start, when set, is the wall time the emulated time counts from
	// (default: when Run starts), so that another process can tell the
	// wall time of an event from its capture time.
	Start time.Time
	// OnEvent, when set, sees every event of every board after the hub
	// (a venue's publisher, as the daemon's OnEvent).
	OnEvent func(board string, e reconcile.Event)
}

// Report is what a load run measured.
type Report struct {
	Boards, Plies int
	Wall          time.Duration // first board started → last board done
	CPU           time.Duration // user + system time of the process during the run
	HeapPeak      uint64        // peak heap in use during the run, less the heap before it
	RSSPeak       uint64        // peak resident set during the run, less the RSS before it
	Played        int           // plies the emulators played (pressed)
	Completed     int           // completed moves arbiterd reported
	Lost          int           // plies played that no complete event reported
	Misattributed int           // complete events whose ply, side or SAN differ from the game
	Raw           []time.Duration
	Processing    []time.Duration
	Errors        []string // per board, what went wrong (empty when all went well)
}

// CPUShare is the process's CPU time per wall time (1.0 = one core busy).
func (r *Report) CPUShare() float64 { return r.CPU.Seconds() / r.Wall.Seconds() }

// Quantile returns the q-quantile (0..1) of ds.
func Quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := int(q * float64(len(s)-1))
	return s[i]
}

// String renders the figures on a few lines.
func (r *Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "boards %d, plies each %d, wall %v, CPU %v (%.2f cores)\n", r.Boards, r.Plies, r.Wall.Round(time.Millisecond), r.CPU.Round(time.Millisecond), r.CPUShare())
	fmt.Fprintf(&b, "heap peak %.1f MiB (%.1f KiB/board), RSS peak %.1f MiB (%.1f KiB/board)\n",
		float64(r.HeapPeak)/(1<<20), float64(r.HeapPeak)/1024/float64(r.Boards), float64(r.RSSPeak)/(1<<20), float64(r.RSSPeak)/1024/float64(r.Boards))
	fmt.Fprintf(&b, "played %d, completed %d, lost %d, misattributed %d\n", r.Played, r.Completed, r.Lost, r.Misattributed)
	if len(r.Raw) > 0 {
		fmt.Fprintf(&b, "press→complete raw: p50 %v p99 %v max %v; processing after the last read: p50 %v p99 %v max %v (n=%d)\n",
			Quantile(r.Raw, .5).Round(time.Microsecond), Quantile(r.Raw, .99).Round(time.Microsecond), Quantile(r.Raw, 1).Round(time.Microsecond),
			Quantile(r.Processing, .5).Round(time.Microsecond), Quantile(r.Processing, .99).Round(time.Microsecond), Quantile(r.Processing, 1).Round(time.Microsecond), len(r.Raw))
	}
	if len(r.Raw) > 0 {
		lag := reconcile.DefaultScanLag
		fmt.Fprintf(&b, "raw beyond the %v scan lag the reconciliation waits: p50 %v p99 %v\n", lag,
			(Quantile(r.Raw, .5) - lag).Round(time.Microsecond), (Quantile(r.Raw, .99) - lag).Round(time.Microsecond))
	}
	for _, e := range r.Errors {
		fmt.Fprintf(&b, "error: %s\n", e)
	}
	return b.String()
}

// Run plays the boards and measures. It returns when every board's game has
// been played and settled (or ctx is done).
func Run(ctx context.Context, o Options) (*Report, error) {
	periods, err := o.complete()
	if err != nil {
		return nil, err
	}

	h := hub.New(hub.Options{})
	rep := &Report{Boards: o.Boards, Plies: o.Plies}
	var mu sync.Mutex // guards rep's slices and counters

	runtime.GC()
	heap0, rss0 := heapInUse(), rss()
	cpu0 := cpuTime()
	t0 := time.Now()
	if !o.Start.IsZero() {
		t0 = o.Start
	}
	now := func() time.Duration { return time.Duration(float64(time.Since(t0)) * o.Speed) }
	wallOf := func(at time.Duration) time.Time { return t0.Add(time.Duration(float64(at) / o.Speed)) }

	peaks := samplePeaks(ctx)

	var wg sync.WaitGroup
	for i := 0; i < o.Boards; i++ {
		id := strconv.Itoa(i + max(1, o.FirstID))
		game := o.Games[i%len(o.Games)][:o.Plies]
		r := rand.New(rand.NewSource(o.Seed*7919 + int64(i)))
		thinks := make([]time.Duration, o.Plies+2)
		for p := range thinks {
			thinks[p] = o.Think(r, p)
		}
		b := &board{id: id, game: game, o: o, periods: periods, thinks: thinks, now: now, wallOf: wallOf, hub: h}
		if !o.EmulatorsOnly {
			h.AddBoard(hub.Info{ID: id, Round: "1", White: "W" + id, Black: "B" + id, TimeControl: o.TimeControl})
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := b.run(ctx, i)
			mu.Lock()
			defer mu.Unlock()
			rep.add(id, res)
		}()
	}
	wg.Wait()
	rep.Wall = time.Since(t0)
	rep.CPU = cpuTime() - cpu0
	heapPeak, rssPeak := peaks()
	rep.HeapPeak = sub(heapPeak, heap0)
	rep.RSSPeak = sub(rssPeak, rss0)
	sort.Strings(rep.Errors)
	return rep, ctx.Err()
}

// complete checks o and fills in its defaults; it returns the emulator's
// periods of its time control.
func (o *Options) complete() ([]emulator.Period, error) {
	if o.Boards <= 0 || len(o.Games) == 0 || o.Plies <= 0 || o.Think == nil {
		return nil, errors.New("loadtest: need boards, games, plies and a think time")
	}
	if o.Speed <= 0 {
		o.Speed = 1
	}
	if o.TimeControl == "" {
		o.TimeControl = "5400+30"
	}
	if o.Settle <= 0 {
		o.Settle = 2500 * time.Millisecond
	}
	if o.Dir == "" && !o.EmulatorsOnly {
		return nil, errors.New("loadtest: no directory for the captures")
	}
	periods, err := emulator.ParseTimeControl(o.TimeControl)
	if err != nil {
		return nil, fmt.Errorf("loadtest: time control: %w", err)
	}
	for i, g := range o.Games {
		if len(g) < o.Plies {
			return nil, fmt.Errorf("loadtest: game %d has %d plies, fewer than %d", i, len(g), o.Plies)
		}
	}
	return periods, nil
}

// samplePeaks samples the heap in use and the resident set every half
// second until the function it returns is called (or ctx is done); that
// function gives the highest of each.
func samplePeaks(ctx context.Context) func() (heapPeak, rssPeak uint64) {
	ctx, stop := context.WithCancel(ctx)
	var heapPeak, rssPeak uint64
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		tick := time.NewTicker(500 * time.Millisecond)
		defer tick.Stop()
		for {
			heapPeak, rssPeak = max(heapPeak, heapInUse()), max(rssPeak, rss())
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	return func() (uint64, uint64) {
		stop()
		<-sampled
		return heapPeak, rssPeak
	}
}

// add counts one board's result in the report.
func (rep *Report) add(id string, res boardResult) {
	rep.Played += res.played
	rep.Completed += res.completed
	rep.Lost += max(0, res.played-res.completed)
	rep.Misattributed += res.misattributed
	rep.Raw = append(rep.Raw, res.raw...)
	rep.Processing = append(rep.Processing, res.processing...)
	if res.err != nil {
		rep.Errors = append(rep.Errors, fmt.Sprintf("board %s: %v", id, res.err))
	}
}

func sub(a, b uint64) uint64 {
	if a < b {
		return 0
	}
	return a - b
}

// board is one emulated board and the host side serving it.
type board struct {
	id      string
	game    []string
	o       Options
	periods []emulator.Period
	thinks  []time.Duration
	now     func() time.Duration
	wallOf  func(time.Duration) time.Time
	hub     *hub.Hub
}

type boardResult struct {
	played, completed, misattributed int
	raw, processing                  []time.Duration
	err                              error
}

func (b *board) run(ctx context.Context, i int) (res boardResult) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var mu sync.Mutex
	cfg := emulator.Config{
		Game: b.game, Periods: b.periods, Speed: b.o.Speed, Seed: b.o.Seed*7919 + int64(i),
		ThinkTime: func(ply int) time.Duration { return b.thinks[min(ply, len(b.thinks)-1)] },
		Wait:      !b.o.EmulatorsOnly, Linger: true,
	}
	var stopped <-chan struct{}
	cfg.Observe, stopped = emulator.StopSignal(func(n emulator.Note) {
		if n.Kind == "press" {
			mu.Lock()
			res.played++
			mu.Unlock()
		}
	})
	em, err := emulator.New(cfg)
	if err != nil {
		res.err = err
		return res
	}
	dev, host := emulator.OpenLine()
	defer dev.Close()
	defer host.Close()
	// Stopping closes the line, as unplugging a serial port does: that is
	// what ends the readers on both ends.
	go func() {
		<-ctx.Done()
		dev.Close()
		host.Close()
	}()
	emuDone := make(chan error, 1)
	go func() { emuDone <- em.Run(ctx, dev) }()
	defer func() { cancel(); dev.Close(); <-emuDone }()
	emulator.AfterStop(ctx, stopped, b.o.Settle, cancel)

	if b.o.EmulatorsOnly {
		buf := make([]byte, 256)
		for {
			if _, err := host.Read(buf); err != nil {
				break
			}
		}
		mu.Lock()
		defer mu.Unlock()
		res.completed = res.played
		return res
	}

	err = b.serve(ctx, host, &res)
	// Once the board is stopped, the closed line is how the session ends.
	if err != nil && ctx.Err() == nil {
		res.err = err
	}
	mu.Lock()
	defer mu.Unlock()
	return res
}

// serve is the host side, exactly as the daemon runs a board: live.Run
// (the journal, the DGT session, the pipeline) over the in-process line,
// its events published to the shared hub.
func (b *board) serve(ctx context.Context, conn io.ReadWriteCloser, res *boardResult) error {
	f, err := os.Create(filepath.Join(b.o.Dir, "board-"+b.id+".capture"))
	if err != nil {
		return err
	}
	defer f.Close()
	cw, err := capture.NewWriter(f)
	if err != nil {
		return err
	}
	defer cw.Close()

	lastPress := map[clockd.Side]time.Duration{}
	var current capture.Record // the record being fed
	return live.Run(ctx, live.Config{
		Port:     "board",
		Meta:     map[string]string{"board": b.id, "timecontrol": b.o.TimeControl, "clock-white": "left"},
		Capture:  cw,
		Now:      b.now,
		Open:     func(context.Context) (io.ReadWriteCloser, error) { return conn, nil },
		OnRecord: func(rec capture.Record) { current = rec },
		OnEvent: func(e reconcile.Event) bool {
			// live.Run has synced the capture before a complete
			// event reaches here (the capture's sync rule).
			b.hub.Publish(b.id, e)
			if b.o.OnEvent != nil {
				b.o.OnEvent(b.id, e)
			}
			switch e.Type {
			case reconcile.TypePress:
				lastPress[e.Side] = e.At
			case reconcile.TypeComplete:
				res.completed++
				if e.Ply < 1 || e.Ply > len(b.game) || e.SAN != b.game[e.Ply-1] || (e.Side == clockd.White) != (e.Ply%2 == 1) {
					res.misattributed++
				}
				if e.By == "press" {
					emitted := time.Now()
					if at, ok := lastPress[e.Side]; ok {
						res.raw = append(res.raw, emitted.Sub(b.wallOf(at)))
					}
					res.processing = append(res.processing, emitted.Sub(b.wallOf(current.At)))
				}
			}
			return true
		},
	})
}

func heapInUse() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// rss is the process's resident set size (Linux; 0 elsewhere).
func rss() uint64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb * 1024
		}
	}
	return 0
}
