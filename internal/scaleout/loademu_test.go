package scaleout

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/journal/atomicfile"
	"github.com/arbiterd/arbiterd/internal/testkit/loadtest"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// The emulated load run: ARBITERD_SCALEOUT_EMU_VENUES venue processes
// (default 4), each serving ARBITERD_SCALEOUT_EMU_BOARDS emulated boards
// (default 10; 500 for the 2,000) and publishing them, to one hall
// in this process over leaf connections. Each board is a DGT board and
// clock emulator on an in-process serial line into the daemon's own board
// loop (internal/testkit/loadtest: live.Run, the capture journalled and
// synced, the pipeline, a hub), its events handed to the venue's publisher
// as the daemon's OnEvent does, its capture tailed from the venue's
// journal directory. The players are in a time scramble (a move every 1–3 s
// of game time) for ARBITERD_SCALEOUT_EMU_PLIES plies (default 16) at
// ARBITERD_SCALEOUT_EMU_SPEED× real time (default 2; 1 for the long form).
//
// Measured: from the press (the wall time of the clock reading that
// carried it) to the hall having written and shown its completed move; the
// same at the venue (what the hall adds is the difference); the hall's CPU
// and memory; stream storage per game. Checked: every move played is
// completed at the venue and reaches the hall once, in order, and the
// hall's copy of every capture equals the venue's.
const emuEnv = "ARBITERD_SCALEOUT_EMU_CHILD"

// emuGame is the game every board plays (from its start, as many plies as
// the run asks): the completed moves of rules/reconcile/testdata/clean-41.jsonl.
func emuGame() ([]string, error) {
	data, err := os.ReadFile("../../rules/reconcile/testdata/clean-41.jsonl")
	if err != nil {
		return nil, err
	}
	var sans []string
	for l := range bytes.Lines(data) {
		e, err := ParseEvent(bytes.TrimSuffix(l, []byte("\n")))
		if err != nil {
			return nil, err
		}
		if e.Type == reconcile.TypeComplete && e.Ply == len(sans)+1 {
			sans = append(sans, e.SAN)
		}
	}
	return sans, nil
}

// emuReport is what a venue process tells the test.
type emuReport struct {
	Played, Completed, Lost, Misattributed int
	Errors                                 []string
	RawP50, RawP99                         time.Duration // press → complete at the venue
	CPU                                    time.Duration // the venue process's
	MaxRSS                                 int64
}

// runEmuVenue is a venue process: NAME FIRST N PLIES SPEED LEAF DIR. It
// opens the venue, says "ready", waits for "go", plays its boards, writes
// its report and serves its streams until it is killed.
func runEmuVenue(args []string) int {
	fail := func(err error) int { fmt.Fprintln(os.Stderr, err); return 1 }
	name, leaf, dir := args[0], args[5], args[6]
	first, _ := strconv.Atoi(args[1])
	n, _ := strconv.Atoi(args[2])
	plies, _ := strconv.Atoi(args[3])
	speed, _ := strconv.ParseFloat(args[4], 64)
	game, err := emuGame()
	if err != nil {
		return fail(err)
	}
	var boards []string
	for i := range n {
		boards = append(boards, strconv.Itoa(first+i))
	}
	v, err := OpenVenue(VenueOptions{Venue: name, Event: "load", Round: "1", Dir: dir, Boards: boards,
		Server: ServerOptions{StoreDir: filepath.Join(dir, "nats"), LeafListen: leaf}})
	if err != nil {
		return fail(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ready"), nil, 0o644); err != nil {
		return fail(err)
	}
	run := func(ctx context.Context) error {
		for {
			if _, err := os.Stat(filepath.Join(dir, "go")); err == nil {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		t0 := time.Now()
		if err := atomicfile.Write(filepath.Join(dir, "start"), []byte(strconv.FormatInt(t0.UnixNano(), 10)), 0o644); err != nil {
			return err
		}
		cpu0, _ := rusage()
		rep, err := loadtest.Run(ctx, loadtest.Options{Boards: n, FirstID: first, Games: [][]string{game}, Plies: plies,
			Think: func(r *rand.Rand, ply int) time.Duration {
				return time.Second + time.Duration(r.Int63n(int64(2*time.Second)))
			}, Speed: speed, Seed: int64(first), Dir: dir, Start: t0, OnEvent: v.OnEvent})
		if err != nil {
			return err
		}
		cpu1, rss := rusage()
		out := emuReport{Played: rep.Played, Completed: rep.Completed, Lost: rep.Lost, Misattributed: rep.Misattributed,
			Errors: rep.Errors, RawP50: loadtest.Quantile(rep.Raw, .5), RawP99: loadtest.Quantile(rep.Raw, .99),
			CPU: cpu1 - cpu0, MaxRSS: rss}
		data, _ := json.Marshal(out)
		if err := atomicfile.Write(filepath.Join(dir, "report.json"), data, 0o644); err != nil {
			return err
		}
		<-ctx.Done() // the streams stay up for the hall
		return nil
	}
	if err := v.Serve(context.Background(), nil, run); err != nil {
		return fail(err)
	}
	return 0
}

type emuVenue struct {
	name, dir string
	first, n  int
	cmd       *exec.Cmd
}

func waitFile(t *testing.T, path string, timeout time.Duration) []byte {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		if data, err := os.ReadFile(path); err == nil {
			return data
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s after %s", path, timeout)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestLoadEmulated(t *testing.T) {
	if testing.Short() {
		t.Skip("NATS servers and forty emulated boards (tens of seconds on two cores): not in -short")
	}
	nv := envInt("ARBITERD_SCALEOUT_EMU_VENUES", 4)
	per := envInt("ARBITERD_SCALEOUT_EMU_BOARDS", 10)
	plies := envInt("ARBITERD_SCALEOUT_EMU_PLIES", 16)
	speed := float64(envInt("ARBITERD_SCALEOUT_EMU_SPEED", 2))
	if _, err := emuGame(); err != nil {
		t.Fatal(err)
	}
	var vs []*emuVenue
	h := &tHall{t: t, data: t.TempDir(), events: map[string][][]byte{}}
	h.opts = HallOptions{Data: h.data, Stale: 5 * time.Second}
	for i := range nv {
		v := &emuVenue{name: fmt.Sprintf("v%d", i+1), dir: t.TempDir(), first: i*per + 1, n: per}
		leaf, err := freePort("127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		v.cmd = exec.Command(os.Args[0], "-test.run=^$")
		v.cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s %d %d %d %g %s %s", emuEnv, v.name, v.first, per, plies, speed, leaf, v.dir))
		v.cmd.Stderr = os.Stderr
		if err := v.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { v.cmd.Process.Kill(); v.cmd.Wait() })
		vs = append(vs, v)
		h.opts.Venues = append(h.opts.Venues, VenueRef{Name: v.name})
		h.opts.Server.Remotes = append(h.opts.Server.Remotes, []string{"nats-leaf://" + leaf})
	}
	for _, v := range vs {
		waitFile(t, filepath.Join(v.dir, "ready"), 2*time.Minute)
	}

	// The hall: press → hall for every completed move, from the venue's
	// start time and the press event's capture time.
	var mu sync.Mutex
	starts := map[string]time.Time{}
	pressAt := map[string]time.Duration{} // venue/board/side → the last press's capture time
	var lat []time.Duration
	var hallLat []time.Duration   // venue publish → hall written and shown, every event
	completes := map[string]int{} // complete events per board
	lastSeq := map[string]int{}   // per board: the events once each, in order
	h.opts.OnEvent = func(venue string, e reconcile.Event, raw []byte, published time.Time) {
		now := time.Now()
		mu.Lock()
		defer mu.Unlock()
		k := venue + "/" + e.Board
		if e.Seq != lastSeq[k]+1 {
			t.Errorf("%s: event %d after event %d at the hall", k, e.Seq, lastSeq[k])
		}
		lastSeq[k] = e.Seq
		if !published.IsZero() {
			hallLat = append(hallLat, now.Sub(published))
		}
		switch e.Type {
		case reconcile.TypePress:
			pressAt[k+"/"+e.Side.String()] = e.At
		case reconcile.TypeComplete:
			// What the venue's board loop makes of its board (a ply
			// completed after its opponent's reply, a move corrected) is
			// its own; the hall must have each of its events once, in
			// order (above), and as many completed moves as the venue.
			completes[k]++
			if at, ok := pressAt[k+"/"+e.Side.String()]; ok && e.By == reconcile.ByPress && !starts[venue].IsZero() {
				lat = append(lat, now.Sub(starts[venue].Add(time.Duration(float64(at)/speed))))
			}
		}
	}
	cpu0, _ := rusage()
	h.start()
	defer h.stop()
	deadline := time.Now().Add(time.Minute)
	for h.hall.Server().NumLeafNodes() < nv {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d venues connected to the hall", h.hall.Server().NumLeafNodes(), nv)
		}
		time.Sleep(50 * time.Millisecond)
	}
	t0 := time.Now()
	for _, v := range vs {
		if err := os.WriteFile(filepath.Join(v.dir, "go"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, v := range vs {
		ns, err := strconv.ParseInt(string(waitFile(t, filepath.Join(v.dir, "start"), time.Minute)), 10, 64)
		if err != nil {
			t.Fatalf("venue %s's start: %v", v.name, err)
		}
		mu.Lock()
		starts[v.name] = time.Unix(0, ns)
		mu.Unlock()
	}

	// Until every venue has played and the hall holds every board whole.
	var heapPeak uint64
	reports := map[string]emuReport{}
	gameTime := time.Duration(float64(plies)*3*float64(time.Second)/speed) + 10*time.Minute
	deadline = time.Now().Add(gameTime)
	for {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		heapPeak = max(heapPeak, ms.HeapInuse)
		var missing []string
		for _, v := range vs {
			if _, ok := reports[v.name]; !ok {
				data, err := os.ReadFile(filepath.Join(v.dir, "report.json"))
				if err != nil {
					missing = append(missing, v.name+": playing")
					continue
				}
				var r emuReport
				if err := json.Unmarshal(data, &r); err != nil {
					t.Fatal(err)
				}
				reports[v.name] = r
			}
			// Every move the venue completed is at the hall (a move the
			// venue's board loop did not complete is the venue's loss,
			// counted in its report), and every capture whole.
			done := 0
			for b := v.first; b < v.first+v.n; b++ {
				id := strconv.Itoa(b)
				mu.Lock()
				done += completes[v.name+"/"+id]
				mu.Unlock()
				want, _ := os.ReadFile(filepath.Join(v.dir, "board-"+id+".capture"))
				got, _ := os.ReadFile(filepath.Join(h.data, "venues", v.name, "round-1", "board-"+id+".capture"))
				if !bytes.Equal(want, got) {
					missing = append(missing, fmt.Sprintf("%s/%s: capture %d of %d bytes", v.name, id, len(got), len(want)))
				}
			}
			if r := reports[v.name]; done != r.Completed {
				missing = append(missing, fmt.Sprintf("%s: %d of its %d completed moves at the hall", v.name, done, r.Completed))
			}
		}
		if len(missing) == 0 {
			break
		}
		if time.Now().After(deadline) {
			// What the machine did manage, for the record.
			cpu, _ := rusage()
			mu.Lock()
			done := 0
			for _, c := range completes {
				done += c
			}
			got := append([]time.Duration(nil), lat...)
			mu.Unlock()
			sort.Slice(got, func(i, j int) bool { return got[i] < got[j] })
			if len(got) > 0 {
				t.Logf("in %s: %d of %d moves completed at the hall; press -> hall p50 %s p99 %s; hall CPU %s",
					time.Since(t0).Round(time.Second), done, nv*per*plies, got[len(got)/2].Round(time.Millisecond),
					got[len(got)*99/100].Round(time.Millisecond), (cpu - cpu0).Round(time.Millisecond))
			}
			for _, a := range h.hall.Status().Alerts {
				t.Logf("hall alert: %+v", a)
			}
			t.Fatalf("after %s: %d not done, e.g. %v", gameTime, len(missing), missing[:min(5, len(missing))])
		}
		time.Sleep(time.Second)
	}
	wall := time.Since(t0)
	cpu1, rss := rusage()
	for name, r := range reports {
		if len(r.Errors) > 0 || r.Lost != 0 || r.Misattributed != 0 || r.Played != per*plies || r.Completed != r.Played {
			t.Errorf("venue %s: played %d, completed %d, lost %d, misattributed %d, errors %v", name, r.Played, r.Completed,
				r.Lost, r.Misattributed, r.Errors[:min(3, len(r.Errors))])
		}
	}
	for _, a := range h.hall.Status().Alerts {
		if a.Kind != KindVenueCut && a.Kind != KindVenueBack {
			t.Errorf("hall alert: %+v", a)
		}
	}

	mu.Lock()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	q := func(f float64) time.Duration { return lat[int(f*float64(len(lat)-1))].Round(time.Millisecond) }
	n := len(lat)
	mu.Unlock()
	if n == 0 {
		t.Fatal("no press measured")
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
	boards := nv * per
	var b strings.Builder
	fmt.Fprintf(&b, "%d emulated boards over %d venue processes, %d plies each in a time scramble at %g× real time: %d moves in %s\n",
		boards, nv, plies, speed, boards*plies, wall.Round(time.Second))
	fmt.Fprintf(&b, "press -> completed move written and shown at the hall: p50 %s p99 %s max %s (n=%d)\n", q(.5), q(.99), q(1), n)
	mu.Lock()
	sort.Slice(hallLat, func(i, j int) bool { return hallLat[i] < hallLat[j] })
	if m := len(hallLat); m > 0 {
		hq := func(f float64) time.Duration { return hallLat[int(f*float64(m-1))].Round(time.Millisecond) }
		fmt.Fprintf(&b, "venue hands an event to NATS -> written and shown at the hall: p50 %s p99 %s max %s (n=%d)\n", hq(.5), hq(.99), hq(1), m)
	}
	mu.Unlock()
	var vcpu time.Duration
	var vrss int64
	var v50, v99 []time.Duration
	for _, r := range reports {
		vcpu += r.CPU
		vrss = max(vrss, r.MaxRSS)
		v50, v99 = append(v50, r.RawP50), append(v99, r.RawP99)
	}
	sort.Slice(v50, func(i, j int) bool { return v50[i] < v50[j] })
	sort.Slice(v99, func(i, j int) bool { return v99[i] < v99[j] })
	fmt.Fprintf(&b, "press -> completed move at the venue (its own board loop): p50 %s–%s p99 %s–%s over the venues\n",
		v50[0].Round(time.Millisecond), v50[len(v50)-1].Round(time.Millisecond), v99[0].Round(time.Millisecond), v99[len(v99)-1].Round(time.Millisecond))
	fmt.Fprintf(&b, "hall CPU %s (%.2f cores), heap peak %.1f MiB, max RSS %.1f MiB; venues CPU %s in all (%.2f cores), max RSS %.1f MiB each\n",
		(cpu1 - cpu0).Round(time.Millisecond), (cpu1-cpu0).Seconds()/wall.Seconds(), float64(heapPeak)/(1<<20), float64(rss)/(1<<20),
		vcpu.Round(time.Millisecond), vcpu.Seconds()/wall.Seconds(), float64(vrss)/(1<<20))
	var capBytes int64
	for _, v := range vs {
		for bd := v.first; bd < v.first+v.n; bd++ {
			if fi, err := os.Stat(filepath.Join(v.dir, "board-"+strconv.Itoa(bd)+".capture")); err == nil {
				capBytes += fi.Size()
			}
		}
	}
	fmt.Fprintf(&b, "hall stream storage per game (%d plies): events %.1f KiB, capture %.1f KiB (the capture file %.1f KiB)\n", plies,
		float64(stored[0])/1024/float64(boards), float64(stored[1])/1024/float64(boards), float64(capBytes)/1024/float64(boards))
	t.Log("\n" + b.String())
	if out := os.Getenv("ARBITERD_SCALEOUT_LOAD_OUT"); out != "" {
		os.WriteFile(out, []byte(b.String()), 0o644)
	}
}
