package reconcile

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules"
)

// noisyGame feeds a random legal game as a player and a board would: the
// moving piece is lifted, a sliding piece is seen on the squares it
// crosses, a capture may lose the captured piece first, and the press is
// read from about 0.25 s before to 1 s after the board shows the move.
//
// hard adds two plies seen in one scan (a fast reply) and merged presses
// (both read in one clock reading, reported as Inferred) now and then.
func noisyGame(t testing.TB, seed uint64, plies int, hard ...bool) (*harness, []string) {
	isHard := len(hard) > 0 && hard[0]
	h := newHarness(t, Config{TimeControl: clockd.TimeControl{Periods: []clockd.Period{{Time: 90 * 60e9, Increment: 30e9}}}})
	moves := randomGame(t, seed, plies)
	r := rand.New(rand.NewPCG(seed, 99))
	h.show(0)
	h.start(0.5)
	at := 1.0
	type press struct {
		at       float64
		side     clockd.Side
		inferred bool
	}
	var pending []press
	flush := func(upTo float64) {
		for len(pending) > 0 && pending[0].at <= upTo {
			h.pressX(pending[0].at, pending[0].side, pending[0].inferred)
			pending = pending[1:]
		}
	}
	quiet := false // the previous ply was not shown: this one comes in the same scan
	for i, u := range moves {
		side := clockd.Side(i % 2)
		pos := h.shadow.Position()
		m, err := chess.UCINotation{}.Decode(pos, u)
		if err != nil {
			t.Fatal(err)
		}
		before := h.board
		piece := before.Squares[m.S1()]
		var frames []rules.Snapshot
		cur := before
		if quiet {
			// no frames of its own: it lands in the same scan as the previous ply
		} else if r.IntN(2) == 0 && cur.Squares[m.S2()] != chess.NoPiece {
			cur.Squares[m.S2()] = chess.NoPiece // the captured piece goes first
			frames = append(frames, cur)
		}
		if !quiet {
			cur.Squares[m.S1()] = chess.NoPiece // lifted
			frames = append(frames, cur)
		}
		if t := piece.Type(); !quiet && (t == chess.Bishop || t == chess.Rook || t == chess.Queen) && r.IntN(3) > 0 {
			for _, sq := range between(m.S1(), m.S2()) {
				s := cur
				s.Squares[sq] = piece
				frames = append(frames, s)
			}
		}
		// Physical times: the move ends at final; the board reports it up
		// to 0.3 s later; the press follows the move by 0.05–0.5 s and is
		// read up to 0.5 s after it; the opponent starts 0.3 s or more
		// after the press.
		span := 0.0
		steps := make([]float64, len(frames))
		for k := range frames {
			steps[k] = 0.02 + r.Float64()*0.2
			span += steps[k]
		}
		final := at + span
		seen := final + r.Float64()*0.3
		pressed := final + 0.05 + r.Float64()*0.45
		read := pressed + r.Float64()*0.5
		if n := len(pending); n > 0 && read <= pending[n-1].at {
			read = pending[n-1].at + 0.01
		}
		if n := len(pending); isHard && n > 0 && r.IntN(7) == 0 {
			// merged: the previous press is read together with this one
			pending[n-1].at, pending[n-1].inferred = read, true
			pending = append(pending, press{at: read, side: side, inferred: true})
		} else {
			pending = append(pending, press{at: read, side: side})
		}
		for k, f := range frames {
			flush(at)
			h.board = f
			h.show(at)
			at += steps[k]
		}
		flush(seen)
		next := isHard && !quiet && i+2 < len(moves) && r.IntN(7) == 0
		if next {
			// the reply comes so fast that one scan shows both plies
			if err := h.shadow.MoveUCI(u); err != nil {
				t.Fatal(err)
			}
			h.board = rules.SnapshotOf(h.shadow.Position())
			at = pressed + 0.05
		} else {
			h.playUCI(seen, u)
			at = max(seen, pressed+0.3+r.Float64()*3)
		}
		quiet = next
	}
	flush(at + 10)
	h.end(at + 20)
	return h, moves
}

// between lists the squares strictly between two squares on a line.
func between(a, b chess.Square) []chess.Square {
	af, ar := int(a)%8, int(a)/8
	bf, br := int(b)%8, int(b)/8
	df, dr := sign(bf-af), sign(br-ar)
	if !(af == bf || ar == br || abs(bf-af) == abs(br-ar)) {
		return nil
	}
	var out []chess.Square
	for f, r := af+df, ar+dr; f != bf || r != br; f, r = f+df, r+dr {
		out = append(out, chess.Square(r*8+f))
	}
	return out
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func TestPropertyNoisyGames(t *testing.T) {
	games := 120
	if n, err := strconv.Atoi(os.Getenv("RECONCILE_GAMES")); err == nil && n > 0 {
		games = n // a longer run: RECONCILE_GAMES=2000 go test -run Property
	}
	if testing.Short() {
		games = 20
	}
	for seed := uint64(100); seed < uint64(100+games); seed++ {
		plies := 20 + int(seed%41)
		h, moves := noisyGame(t, seed, plies)
		if a := h.anomalies(); len(a) > 0 {
			t.Fatalf("seed %d: anomalies %v\n%s", seed, a, h.jsonl())
		}
		want := Moves{White: (len(moves) + 1) / 2, Black: len(moves) / 2}
		if got := h.g.State().Completed; got != want {
			t.Fatalf("seed %d: completed %+v, want %+v (moves %v)\n%s", seed, got, want, moves, h.jsonl())
		}
		for _, e := range h.of(TypeComplete) {
			if e.By != ByPress {
				t.Fatalf("seed %d: ply %d completed by %s\n%s", seed, e.Ply, e.By, h.jsonl())
			}
		}
		if got := h.g.State().Ply; got != len(moves) {
			t.Fatalf("seed %d: record has %d plies, want %d", seed, got, len(moves))
		}
	}
}

// TestFastRepliesRobustness adds, now and then, a reply so fast that one
// scan shows two plies, and merged presses. Some of these are truly
// ambiguous on the board (a piece seen on its way, then on its square and
// the reply in one scan, can be two moves of that piece or one); the state
// machine must get the vast majority exactly right and must never lose or
// invent a completed move silently: every miscount comes with an anomaly.
func TestFastRepliesRobustness(t *testing.T) {
	games, exact := 300, 0
	if testing.Short() {
		games = 50
	}
	for seed := uint64(5000); seed < uint64(5000+games); seed++ {
		h, moves := noisyGame(t, seed, 20+int(seed%41), true)
		want := Moves{White: (len(moves) + 1) / 2, Black: len(moves) / 2}
		got := h.g.State().Completed
		switch {
		case len(h.anomalies()) == 0 && got == want:
			exact++
		case len(h.anomalies()) == 0:
			t.Errorf("seed %d: completed %+v, want %+v, and no anomaly says so", seed, got, want)
		}
	}
	if exact*100 < games*93 {
		t.Errorf("only %d of %d games with fast replies reconciled exactly (want ≥ 93%%)", exact, games)
	}
	t.Logf("%d of %d games with fast replies and merged presses reconciled exactly", exact, games)
}

func TestDeterminism(t *testing.T) {
	for seed := uint64(7); seed < 10; seed++ {
		a, _ := noisyGame(t, seed, 50, true)
		b, _ := noisyGame(t, seed, 50, true)
		if !bytes.Equal(a.jsonl(), b.jsonl()) {
			t.Fatalf("seed %d: the same inputs gave different events", seed)
		}
		// a fresh Game fed the recorded inputs (a replay) gives the same bytes
		g, err := New(Config{Board: "1", TimeControl: clockd.TimeControl{Periods: []clockd.Period{{Time: 90 * 60e9, Increment: 30e9}}}})
		if err != nil {
			t.Fatal(err)
		}
		var re bytes.Buffer
		for _, e := range replay(g, a.log) {
			re.Write(Marshal(e))
			re.WriteByte('\n')
		}
		if !bytes.Equal(re.Bytes(), a.jsonl()) {
			t.Fatalf("seed %d: replaying the recorded inputs gave different events", seed)
		}
		for i, line := range bytes.Split(bytes.TrimSpace(a.jsonl()), []byte("\n")) {
			if !json.Valid(line) {
				t.Fatalf("seed %d line %d is not JSON: %s", seed, i+1, line)
			}
		}
	}
}

// BenchmarkNoisyGame measures the state machine alone, replaying the
// recorded inputs of 60-ply noisy games (about five board snapshots and
// one press per ply); ns/ply is the figure to watch.
func BenchmarkNoisyGame(b *testing.B) {
	var logs [][]input
	plies := 0
	for seed := uint64(1000); seed < 1010; seed++ {
		h, moves := noisyGame(b, seed, 60)
		logs = append(logs, h.log)
		plies += len(moves)
	}
	cfg := Config{Board: "1", TimeControl: clockd.TimeControl{Periods: []clockd.Period{{Time: 90 * 60e9, Increment: 30e9}}}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, log := range logs {
			g, err := New(cfg)
			if err != nil {
				b.Fatal(err)
			}
			replay(g, log)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*plies), "ns/ply")
}
