package scaleout

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// The load run: ARBITERD_SCALEOUT_LOAD_BOARDS boards (default 40 in CI)
// spread over ARBITERD_SCALEOUT_LOAD_VENUES venue processes (default 2),
// each publishing a full recorded game per board (250 events, the game of
// rules/reconcile/testdata/clean-41.jsonl) over ARBITERD_SCALEOUT_LOAD_SECONDS
// (default 20) and its capture, to one hall in this process over leaf
// connections. It measures what the scale-out adds to a move: from the
// venue handing the event to NATS to the hall having written and shown it
// (the daemon's own press-to-complete time is measured by internal/testkit/loadtest),
// the hall's CPU and memory, and the stream storage per game.
const loadEnv = "ARBITERD_SCALEOUT_LOAD_CHILD"

func loadGame(t testing.TB) []reconcile.Event {
	data, err := os.ReadFile("../../rules/reconcile/testdata/clean-41.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var evs []reconcile.Event
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		e, err := ParseEvent(sc.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, e)
	}
	return evs
}

// runLoadVenue is a load venue's child process: NAME FIRST N SECONDS LEAF DIR.
func runLoadVenue(args []string) int {
	name, leaf, dir := args[0], args[4], args[5]
	first, _ := strconv.Atoi(args[1])
	n, _ := strconv.Atoi(args[2])
	secs, _ := strconv.ParseFloat(args[3], 64)
	evs := loadGame(fakeTB{})
	capData, err := os.ReadFile("../journal/decode/testdata/game.capture")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var boards []string
	for i := range n {
		id := strconv.Itoa(first + i)
		boards = append(boards, id)
		if err := os.WriteFile(filepath.Join(dir, "board-"+id+".capture"), capData, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	v, err := OpenVenue(VenueOptions{Venue: name, Event: "load", Round: "1", Dir: dir, Boards: boards,
		Server: ServerOptions{StoreDir: filepath.Join(dir, "nats"), LeafListen: leaf}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { // the games: every board's next event, spread over the run
		step := time.Duration(secs * float64(time.Second) / float64(len(evs)))
		t0 := time.Now()
		for i, e := range evs {
			time.Sleep(time.Until(t0.Add(time.Duration(i) * step)))
			for j, b := range boards {
				e.Board = b
				v.OnEvent(b, e)
				if j%50 == 49 {
					time.Sleep(step / time.Duration(max(1, len(boards)/50)))
				}
			}
		}
		time.Sleep(5 * time.Second)
		cancel()
	}()
	if err := v.Serve(ctx, nil, func(ctx context.Context) error { <-ctx.Done(); return nil }); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

type fakeTB struct{ testing.TB }

func (fakeTB) Fatal(a ...any) { panic(fmt.Sprint(a...)) }

func TestLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("NATS servers and venue processes (tens of seconds on two cores): not in -short")
	}
	boards := envInt("ARBITERD_SCALEOUT_LOAD_BOARDS", 40)
	venues := envInt("ARBITERD_SCALEOUT_LOAD_VENUES", 2)
	secs := envInt("ARBITERD_SCALEOUT_LOAD_SECONDS", 20)
	evs := loadGame(t)
	per := boards / venues
	h := &tHall{t: t, data: t.TempDir(), events: map[string][][]byte{}}
	h.opts = HallOptions{Data: h.data, Stale: 5 * time.Second}
	var procs []*exec.Cmd
	for i := range venues {
		name := fmt.Sprintf("v%d", i+1)
		leaf, err := freePort("127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s %d %d %d %s %s", loadEnv, name, i*per+1, per, secs, leaf, dir))
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		procs = append(procs, cmd)
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		h.opts.Venues = append(h.opts.Venues, VenueRef{Name: name})
		h.opts.Server.Remotes = append(h.opts.Server.Remotes, []string{"nats-leaf://" + leaf})
	}
	time.Sleep(time.Second) // the venues' servers up
	h.opts.OnEvent = h.onEvent
	cpu0, _ := rusage()
	var ms0 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	t0 := time.Now()
	h.start()
	defer h.stop()
	want := int64(boards * len(evs))
	var heapPeak uint64
	deadline := time.Now().Add(time.Duration(secs)*time.Second + 3*time.Minute)
	for h.hall.Status().Applied < want {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		heapPeak = max(heapPeak, ms.HeapInuse)
		if time.Now().After(deadline) {
			t.Fatalf("the hall applied %d of %d events", h.hall.Status().Applied, want)
		}
		time.Sleep(200 * time.Millisecond)
	}
	wall := time.Since(t0)
	cpu1, rss := rusage()
	for _, p := range procs {
		p.Wait()
	}
	// Exactly once, in order, per board.
	h.mu.Lock()
	for k, got := range h.events {
		if len(got) != len(evs) {
			t.Errorf("board %s: %d events at the hall, want %d", k, len(got), len(evs))
		}
	}
	delays := append([]time.Duration(nil), h.delays...)
	h.mu.Unlock()
	sort.Slice(delays, func(i, j int) bool { return delays[i] < delays[j] })
	q := func(f float64) time.Duration {
		return delays[int(f*float64(len(delays)-1))].Round(10 * time.Microsecond)
	}
	var stored [2]uint64
	for i, s := range []string{HallEventsStream, HallCaptureStream} {
		st, err := h.hall.js.Stream(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		info, err := st.Info(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		stored[i] = info.State.Bytes
	}
	var b strings.Builder
	fmt.Fprintf(&b, "boards %d over %d venue processes, %d events each (%d in all) in %s\n", boards, venues, len(evs), want, wall.Round(time.Millisecond))
	fmt.Fprintf(&b, "venue publish -> hall written and shown: p50 %s p99 %s max %s (n=%d)\n", q(.5), q(.99), q(1), len(delays))
	fmt.Fprintf(&b, "hall CPU %s (%.2f cores over the run), heap peak %.1f MiB, max RSS %.1f MiB\n", (cpu1 - cpu0).Round(time.Millisecond),
		(cpu1-cpu0).Seconds()/wall.Seconds(), float64(heapPeak)/(1<<20), float64(rss)/(1<<20))
	fmt.Fprintf(&b, "hall stream storage per game: events %.1f KiB, capture %.1f KiB\n", float64(stored[0])/1024/float64(boards),
		float64(stored[1])/1024/float64(boards))
	t.Log("\n" + b.String())
	if out := os.Getenv("ARBITERD_SCALEOUT_LOAD_OUT"); out != "" {
		os.WriteFile(out, []byte(b.String()), 0o644)
	}
}
