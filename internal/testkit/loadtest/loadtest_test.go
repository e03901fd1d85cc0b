package loadtest

import (
	"context"
	"github.com/arbiterd/arbiterd/internal/testkit/shareddata"
	"math/rand"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/internal/device/emulator"
)

// games returns the reference games (../shared/data/games/games.pgn from
// the module root) as SAN lists, or the emulator's default game when the
// shared data is absent.
func games(t testing.TB) [][]string {
	t.Helper()
	pgn := emulator.DefaultPGN
	if p, ok := shareddata.Path("games", "games.pgn"); ok {
		if b, err := os.ReadFile(p); err == nil {
			pgn = string(b)
		}
	}
	var out [][]string
	sc := chess.NewScanner(strings.NewReader(pgn))
	for sc.Scan() {
		g := sc.Next()
		pos := g.Positions()
		var sans []string
		for i, m := range g.Moves() {
			sans = append(sans, chess.AlgebraicNotation{}.Encode(pos[i], m))
		}
		if len(sans) > 0 && g.Positions()[0].String() == chess.StartingPosition().String() {
			out = append(out, sans)
		}
	}
	if len(out) == 0 {
		t.Fatal("no games to play")
	}
	return out
}

// scramble: every player moves within 1–3 s.
func scramble(r *rand.Rand, ply int) time.Duration {
	return time.Second + time.Duration(r.Int63n(int64(2*time.Second)))
}

// tournament: think times as in a classical game, 5 s to 3 min, most short.
func tournament(r *rand.Rand, ply int) time.Duration {
	return 5*time.Second + time.Duration(r.ExpFloat64()*float64(40*time.Second))%(175*time.Second)
}

func check(t *testing.T, rep *Report) {
	t.Helper()
	t.Logf("\n%s", rep)
	if len(rep.Errors) > 0 {
		t.Errorf("%d boards failed", len(rep.Errors))
	}
	if want := rep.Boards * rep.Plies; rep.Played != want {
		t.Errorf("the emulators played %d plies, want %d", rep.Played, want)
	}
	if rep.Lost != 0 || rep.Misattributed != 0 || rep.Completed != rep.Played {
		t.Errorf("played %d, completed %d: %d lost, %d misattributed", rep.Played, rep.Completed, rep.Lost, rep.Misattributed)
	}
}

// TestSmallLoad is the load harness in CI form: 20 boards in a time
// scramble at 5× real time, every move completed and attributed right.
func TestSmallLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 20 boards for about 8 s")
	}
	rep, err := Run(context.Background(), Options{Boards: 20, Games: games(t), Plies: 16, Think: scramble, Speed: 5, Seed: 1, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	check(t, rep)
}

// TestLoad is the full load run, behind ARBITERD_LOAD=BOARDS:
//
//	ARBITERD_LOAD=500 go test -run TestLoad -v -timeout 30m ./internal/testkit/loadtest/
//
// Two phases play BOARDS boards at once: a time scramble (every player moves
// within 1–3 s, real time, 30 plies) and tournament play (think times of a
// classical game, at ARBITERD_LOAD_SPEED× real time, default 10, 12 plies). Each phase
// is run once with the emulators alone, to tell their cost from arbiterd's.
func TestLoad(t *testing.T) {
	v := os.Getenv("ARBITERD_LOAD")
	if v == "" {
		t.Skip("set ARBITERD_LOAD=BOARDS (e.g. 500) to run the load test")
	}
	boards, err := strconv.Atoi(v)
	if err != nil || boards < 1 {
		t.Fatalf("ARBITERD_LOAD=%q: want a number of boards", v)
	}
	speed := 10.0
	if s := os.Getenv("ARBITERD_LOAD_SPEED"); s != "" {
		if speed, err = strconv.ParseFloat(s, 64); err != nil || speed <= 0 {
			t.Fatalf("ARBITERD_LOAD_SPEED=%q: want a positive number", s)
		}
	}
	g := games(t)
	t.Logf("GOMAXPROCS %d, %d games", runtime.GOMAXPROCS(0), len(g))
	phases := []struct {
		name  string
		plies int
		think func(*rand.Rand, int) time.Duration
		speed float64
	}{
		{"scramble", 30, scramble, 1},
		{"tournament", 12, tournament, speed},
	}
	for _, ph := range phases {
		t.Run(ph.name, func(t *testing.T) {
			o := Options{Boards: boards, Games: g, Plies: ph.plies, Think: ph.think, Speed: ph.speed, Seed: 1, Dir: t.TempDir()}
			rep, err := Run(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s at %g× real time:", ph.name, ph.speed)
			check(t, rep)
			o.EmulatorsOnly = true
			emu, err := Run(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			// The RSS the first run reached is not given back, so the
			// emulators' own RSS cannot be measured after it: the RSS per
			// board above (emulators included) is an upper bound.
			t.Logf("%s, emulators alone: wall %v, CPU %v (%.2f cores), heap peak %.1f MiB",
				ph.name, emu.Wall.Round(time.Millisecond), emu.CPU.Round(time.Millisecond), emu.CPUShare(), float64(emu.HeapPeak)/(1<<20))
			t.Logf("%s, arbiterd's share (total less emulators alone): CPU %.2f cores, heap %.1f KiB/board",
				ph.name, rep.CPUShare()-emu.CPUShare()*emu.Wall.Seconds()/rep.Wall.Seconds(),
				(float64(rep.HeapPeak)-float64(emu.HeapPeak))/1024/float64(boards))
		})
	}
}
