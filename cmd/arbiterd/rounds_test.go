//go:build linux || darwin

package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/boards/serve"
	"github.com/arbiterd/arbiterd/internal/config"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

const roundsSpeed = 1000

// trfPlayer builds a TRF-16 player line: its starting rank, name, rating,
// FIDE id, points and round entries.
func trfPlayer(rank int, name string, rating int, id, pts string, entries ...string) string {
	b := []byte(strings.Repeat(" ", 91))
	put := func(col int, s string) { copy(b[col-1:], s) }
	pad := func(s string, n int) string { return strings.Repeat(" ", max(0, n-len(s))) + s }
	put(1, "001")
	put(5, pad(strconv.Itoa(rank), 4))
	put(15, name)
	put(49, pad(strconv.Itoa(rating), 4))
	put(54, "NED")
	put(58, pad(id, 11))
	put(81, pad(pts, 4))
	s := string(b)
	for _, e := range entries {
		s += e + strings.Repeat(" ", 10-len(e))
	}
	return strings.TrimRight(s, " ")
}

func trf(lines ...string) string {
	return strings.Join(append([]string{"012 Rounds Open", "022 Utrecht"}, lines...), "\n") + "\n"
}

// A game each board's emulator plays: a quick mate.
var (
	foolsMate   = strings.Fields("f3 e5 g4 Qh4#")               // 0-1
	scholarMate = strings.Fields("e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#") // 1-0
)

// roundBoard is an emulated board behind a /dev/serial/by-id-style link,
// which a new game points at a new emulator (the pieces set up again).
type roundBoard struct {
	link   string
	cancel []func()
}

func (rb *roundBoard) play(t *testing.T, game []string) {
	t.Helper()
	periods, _ := emulator.ParseTimeControl("40/5400+30:1800+30")
	e, err := emulator.New(emulator.Config{Game: game, Seed: 3, Speed: roundsSpeed, Periods: periods, Wait: true, Linger: true})
	if err != nil {
		t.Fatal(err)
	}
	master, slave, err := emulator.OpenPTY()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- e.Run(ctx, master) }()
	rb.cancel = append(rb.cancel, func() { cancel(); <-done; master.Close() })
	if err := emulator.ReplaceLink(rb.link, slave); err != nil {
		t.Fatal(err)
	}
}

func (rb *roundBoard) stop() {
	for _, c := range rb.cancel {
		c()
	}
}

// Two rounds of a Swiss on two emulated boards, paired from the pairing
// program's TRF: the daemon starts on the file's round to play, the
// arbiter loads round 2 through the API once round 1 has ended (the TRF
// exported again with round 2 paired), without a restart; every PGN
// carries the tags a broadcast expects, and arbiterd results writes both
// rounds' results back into the TRF.
func TestTwoRoundsFromPairingsToResults(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	trfPath := filepath.Join(dir, "open.trf")
	// Round 1 as exported for play: 1-3 and 2-4, results blank.
	round1 := trf(
		trfPlayer(1, "Alpha, Anna", 2500, "1000001", "0.0", "   3 w  "),
		trfPlayer(2, "Beta, Bert", 2400, "1000002", "0.0", "   4 w  "),
		trfPlayer(3, "Gamma, Gerd", 2300, "1000003", "0.0", "   1 b  "),
		trfPlayer(4, "Delta, Dirk", 2200, "1000004", "0.0", "   2 b  "),
	)
	if err := os.WriteFile(trfPath, []byte(round1), 0o644); err != nil {
		t.Fatal(err)
	}
	boards := []*roundBoard{{link: filepath.Join(dir, "board-1")}, {link: filepath.Join(dir, "board-2")}}
	for _, b := range boards {
		defer b.stop()
	}
	boards[0].play(t, foolsMate)
	boards[1].play(t, scholarMate)
	yaml := fmt.Sprintf(`data: %s
listen: 127.0.0.1:0
event: Rounds Open
site: Utrecht NED
pairings: %s
boards:
  - number: 1
    port: %s
    timecontrol: 40/5400+30:1800+30
  - number: 2
    port: %s
    timecontrol: 40/5400+30:1800+30
`, data, trfPath, boards[0].link, boards[1].link)
	cfg, err := config.Parse("arbiterd.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Round != "1" {
		t.Fatalf("round %q, want the TRF's round to play, 1", cfg.Round)
	}
	var mu sync.Mutex
	ends := map[string]int{}
	d, err := serve.New(serve.Options{Config: cfg, Speed: roundsSpeed, Logger: slog.New(slog.DiscardHandler),
		OnEvent: func(board string, e reconcile.Event) {
			if e.Type == reconcile.TypeEnd {
				mu.Lock()
				ends[board]++
				mu.Unlock()
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	defer func() {
		cancel()
		<-done
	}()
	waitEnds := func(n int) {
		t.Helper()
		deadline := time.Now().Add(90 * time.Second)
		for {
			mu.Lock()
			ok := ends["1"] >= n && ends["2"] >= n
			mu.Unlock()
			if ok {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("round %d's games have not ended: %v", n, ends)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	waitEnds(1)
	var base string
	for base == "" {
		if a := d.Addr(); a != nil {
			base = "http://" + a.String()
		}
		time.Sleep(10 * time.Millisecond)
	}
	post := func(path, body string) (int, string) {
		t.Helper()
		resp, err := http.Post(base+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	// The pairing program has not paired round 2 yet: refused, nothing changes.
	if code, body := post("/api/round", "{}"); code != http.StatusConflict || !strings.Contains(body, "round 2") {
		t.Fatalf("round 2 before it is paired: %d %s", code, body)
	}
	// Round 1's results entered and round 2 paired: 3-2 and 4-1.
	round2 := trf(
		trfPlayer(1, "Alpha, Anna", 2500, "1000001", "0.0", "   3 w 0", "   4 b  "),
		trfPlayer(2, "Beta, Bert", 2400, "1000002", "1.0", "   4 w 1", "   3 b  "),
		trfPlayer(3, "Gamma, Gerd", 2300, "1000003", "1.0", "   1 b 1", "   2 w  "),
		trfPlayer(4, "Delta, Dirk", 2200, "1000004", "0.0", "   2 b 0", "   1 w  "),
	)
	if err := os.WriteFile(trfPath, []byte(round2), 0o644); err != nil {
		t.Fatal(err)
	}
	// The pieces set up again: new games on the same ports.
	boards[0].play(t, foolsMate)
	boards[1].play(t, scholarMate)
	if code, body := post("/api/round", "{}"); code != http.StatusOK || !strings.Contains(body, `"round":"2"`) {
		t.Fatalf("round 2: %d %s", code, body)
	}
	if got := d.Round(); got != "2" {
		t.Errorf("the daemon plays round %q", got)
	}
	waitEnds(2)
	// Round 2's PGN: the tags a broadcast expects.
	deadline := time.Now().Add(10 * time.Second)
	for _, f := range []string{filepath.Join(data, "round-2", "board-1.pgn"), filepath.Join(data, "broadcast", "round-2", "game-1.pgn")} {
		var pgn string
		for {
			b, _ := os.ReadFile(f)
			pgn = string(b)
			if strings.Contains(pgn, `[Result "0-1"]`) || time.Now().After(deadline) {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		for _, tag := range []string{`[Event "Rounds Open"]`, `[Site "Utrecht NED"]`, `[Round "2.1"]`, `[White "Gamma, Gerd"]`,
			`[Black "Beta, Bert"]`, `[Result "0-1"]`, `[WhiteFideId "1000003"]`, `[BlackFideId "1000002"]`, `[WhiteElo "2300"]`,
			`[BlackElo "2400"]`, `[WhiteFederation "NED"]`, `[BlackFederation "NED"]`, `[TimeControl "40/5400+30:1800+30"]`,
			`[Date "` + time.Now().Format("2006.01.02") + `"]`} {
			if !strings.Contains(pgn, tag) {
				t.Errorf("%s lacks %s:\n%s", f, tag, pgn)
			}
		}
	}
	// Round 1's journal is whole, and its boards are over.
	for _, id := range []string{"1", "2"} {
		if b, err := os.ReadFile(filepath.Join(data, "round-1", "board-"+id+".events.jsonl")); err != nil || !strings.Contains(string(b), `"type":"end"`) {
			t.Errorf("round 1, board %s: its events file lacks the end (%v)", id, err)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	done <- nil

	// Results out: both rounds, then round 2 into the TRF.
	out, _, err := runArgs(t, "results", data, "--round", "2")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Gamma, Gerd", "0-1 (checkmate)", "Delta, Dirk", "1-0 (checkmate)", "2 boards, 0 open"} {
		if !strings.Contains(out, want) {
			t.Errorf("results --round 2 lacks %q:\n%s", want, out)
		}
	}
	written := filepath.Join(dir, "open-r2.trf")
	if _, errOut, err := runArgs(t, "results", data, "--round", "2", "--trf", trfPath, "--out", written); err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	got, _ := os.ReadFile(written)
	want := trf(
		trfPlayer(1, "Alpha, Anna", 2500, "1000001", "0.0", "   3 w 0", "   4 b 0"),
		trfPlayer(2, "Beta, Bert", 2400, "1000002", "2.0", "   4 w 1", "   3 b 1"),
		trfPlayer(3, "Gamma, Gerd", 2300, "1000003", "1.0", "   1 b 1", "   2 w 0"),
		trfPlayer(4, "Delta, Dirk", 2200, "1000004", "1.0", "   2 b 0", "   1 w 1"),
	)
	if string(got) != want {
		t.Errorf("the TRF with round 2's results:\n%s\nwant\n%s", got, want)
	}
}
