package audit

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/clockd"
)

// The synthetic games: a reference clock (clockd.Clock) plays a game with
// a think time per move, and the hardware's behaviour around it is
// scripted: a clock that adds the next period when the time runs out, or
// one that counts presses (and may miscount); increments dropped or doubled;
// time that appears from nowhere. The PGN carries [%clk] (the clock after
// the move) and [%emt] (the think time), as broadcasts write them.

// randomGame returns n plies of a legal game, avoiding captures where it
// can so that both sides keep mating material.
func randomGame(t testing.TB, seed uint64, n int) []string {
	t.Helper()
	for s := seed; s < seed+50; s++ {
		rng := rand.New(rand.NewPCG(s, 7))
		g := chess.NewGame()
		var sans []string
		for len(sans) < n && g.Outcome() == chess.NoOutcome {
			moves := g.ValidMoves()
			var quiet []*chess.Move
			for _, m := range moves {
				if !m.HasTag(chess.Capture) && !m.HasTag(chess.Check) {
					quiet = append(quiet, m)
				}
			}
			if len(quiet) > 0 && rng.IntN(10) > 0 {
				moves = quiet
			}
			m := moves[rng.IntN(len(moves))]
			sans = append(sans, chess.AlgebraicNotation{}.Encode(g.Position(), m))
			if err := g.Move(m); err != nil {
				t.Fatal(err)
			}
		}
		if len(sans) == n && g.Outcome() == chess.NoOutcome {
			return sans
		}
	}
	t.Fatalf("no game of %d plies", n)
	return nil
}

// hardware says how the clock adds periods.
type hardware int

const (
	atFlag     hardware = iota // the next period when the time runs out
	counting                   // the next period after the period's moves, counted by presses
	atFlagBoth                 // the next period to both players at the first flag
)

// synth is one synthetic game.
type synth struct {
	name   string
	tc     string // the control the clock runs
	tag    string // the TimeControl tag ("" = tc; "-" = none)
	hw     hardware
	fen    string
	sans   []string
	think  func(side clockd.Side, k int) time.Duration
	addAt  [2]int // counting: the move after which the period comes (0 = the control's)
	adjust map[[2]int]time.Duration
	drop   map[int]bool // plies without clock comments
	noEMT  bool
	result string
	term   string
}

func key(s clockd.Side, k int) [2]int { return [2]int{int(s), k} }

// pgn plays the game on the reference clock and writes it.
func (sy synth) pgn(t testing.TB) string {
	t.Helper()
	full, err := clockd.ParseTimeControl(sy.tc)
	if err != nil {
		t.Fatal(err)
	}
	// The reference clock runs the first period only; the hardware's
	// period additions are scripted around it.
	first := full.Periods[0]
	first.Moves = 0
	c := clockd.NewClock(clockd.TimeControl{Periods: []clockd.Period{first}})
	at := time.Duration(0)
	c.Start(at)
	period := [2]int{1, 1}
	var b strings.Builder
	tag := sy.tag
	if tag == "" {
		tag = sy.tc
	}
	fmt.Fprintf(&b, "[Event \"Synthetic\"]\n[Site \"?\"]\n[Round \"1.%d\"]\n[White \"W\"]\n[Black \"B\"]\n[Result \"%s\"]\n", len(sy.name), sy.result)
	if tag != "-" {
		fmt.Fprintf(&b, "[TimeControl \"%s\"]\n", tag)
	}
	if sy.term != "" {
		fmt.Fprintf(&b, "[Termination \"%s\"]\n", sy.term)
	}
	blackFirst := false
	if sy.fen != "" {
		fmt.Fprintf(&b, "[SetUp \"1\"]\n[FEN \"%s\"]\n", sy.fen)
		blackFirst = strings.Fields(sy.fen)[1] == "b"
	}
	b.WriteString("\n")
	done := [2]int{}
	for i, san := range sy.sans {
		side := clockd.Side(i % 2)
		if blackFirst {
			side = side.Other()
		}
		k := done[side] + 1
		think := sy.think(side, k)
		start := at
		at += think
		if (sy.hw == atFlag || sy.hw == atFlagBoth) && period[side] < len(full.Periods) {
			if rem := c.Remaining(side, start); think >= rem {
				c.AddTime(side, full.Periods[period[side]].Time, start+rem)
				if sy.hw == atFlagBoth && period[side.Other()] == period[side] {
					c.AddTime(side.Other(), full.Periods[period[side]].Time, start+rem)
					period[side.Other()]++
				}
				period[side]++
			}
		}
		c.Press(side, at, k)
		done[side] = k
		if sy.hw == counting && period[side] < len(full.Periods) {
			when := full.Required(period[side])
			if sy.addAt[side] > 0 {
				when = sy.addAt[side]
			}
			if k == when {
				c.AddTime(side, full.Periods[period[side]].Time, at)
				period[side]++
			}
		}
		if d, ok := sy.adjust[key(side, k)]; ok {
			c.AddTime(side, d, at)
		}
		if side == clockd.White {
			fmt.Fprintf(&b, "%d. ", (i+1)/2+1)
		} else if i == 0 {
			b.WriteString("1... ")
		}
		b.WriteString(san)
		if !sy.drop[i] {
			fmt.Fprintf(&b, " {[%%clk %s]}", clockText(c.Remaining(side, at)))
			if !sy.noEMT {
				fmt.Fprintf(&b, " {[%%emt %s]}", clockText(think))
			}
		}
		b.WriteString(" ")
		if i%6 == 5 {
			b.WriteString("\n")
		}
	}
	b.WriteString(sy.result + "\n\n")
	return b.String()
}

func clockText(d time.Duration) string {
	s := int64(d / time.Second)
	return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
}

// steady thinks 60 s a move, and 8 s on every seventh move: a classical
// game that never flags.
func steady(side clockd.Side, k int) time.Duration {
	if k%7 == 0 {
		return 8 * time.Second
	}
	return time.Minute + time.Duration(side)*3*time.Second
}

// slow uses the whole first period by move spend, then steady.
func slow(side clockd.Side, spend clockd.Side, k, at int, d time.Duration) time.Duration {
	if side == spend && k == at {
		return d
	}
	return steady(side, k)
}

const std = "40/5400+30:1800+30"

func synthGames(t testing.TB) []synth {
	game := randomGame(t, 1, 120)
	none := map[int]bool{}
	return []synth{
		{name: "clean-counting", tc: std, hw: counting, sans: game, think: steady, result: "1/2-1/2"},
		{name: "clean-flag-after-control", tc: std, hw: atFlag, sans: game, result: "1/2-1/2",
			think: func(s clockd.Side, k int) time.Duration { return slow(s, clockd.White, k, 45, 80*time.Minute) }},
		{name: "flag-before-control", tc: std, hw: atFlag, sans: game, result: "1/2-1/2",
			think: func(s clockd.Side, k int) time.Duration { return slow(s, clockd.Black, k, 35, 80*time.Minute) }},
		{name: "flag-before-control-clocks-only", tc: std, hw: atFlag, sans: game, result: "1/2-1/2", noEMT: true,
			think: func(s clockd.Side, k int) time.Duration { return slow(s, clockd.Black, k, 20, 80*time.Minute) }},
		{name: "flag-before-control-gap", tc: std, hw: atFlag, sans: game, result: "1/2-1/2", noEMT: true,
			drop:  map[int]bool{2*24 + 1: true, 2*25 + 1: true},
			think: func(s clockd.Side, k int) time.Duration { return slow(s, clockd.Black, k, 20, 80*time.Minute) }},
		{name: "flag-at-move-40", tc: std, hw: atFlag, sans: game, result: "1/2-1/2",
			think: func(s clockd.Side, k int) time.Duration { return slow(s, clockd.White, k, 40, 80*time.Minute) }},
		{name: "flag-before-control-both-clocks", tc: std, hw: atFlagBoth, sans: game, result: "1/2-1/2",
			think: func(s clockd.Side, k int) time.Duration { return slow(s, clockd.Black, k, 35, 80*time.Minute) }},
		{name: "period-at-move-39", tc: std, hw: counting, sans: game, think: steady, addAt: [2]int{0, 39}, result: "1/2-1/2"},
		{name: "period-at-move-41", tc: std, hw: counting, sans: game, think: steady, addAt: [2]int{41, 0}, result: "1/2-1/2"},
		{name: "increment-missing", tc: std, hw: counting, sans: game, think: steady, result: "1/2-1/2",
			adjust: map[[2]int]time.Duration{key(clockd.White, 20): -30 * time.Second}},
		{name: "increment-extra", tc: std, hw: counting, sans: game, think: steady, result: "1/2-1/2",
			adjust: map[[2]int]time.Duration{key(clockd.Black, 25): 30 * time.Second}},
		{name: "time-appears", tc: std, hw: counting, sans: game, think: steady, result: "1/2-1/2",
			adjust: map[[2]int]time.Duration{key(clockd.Black, 50): 5 * time.Minute}},
		{name: "tiebreak-under-classical-tag", tc: "900+10", tag: std, hw: atFlag, sans: game[:80], result: "1-0",
			think: func(s clockd.Side, k int) time.Duration { return 12 * time.Second }},
		{name: "no-tag", tc: "300+3", tag: "-", hw: atFlag, sans: game[:60], result: "1/2-1/2", drop: none,
			think: func(s clockd.Side, k int) time.Duration { return 5 * time.Second }},
		{name: "time-forfeit-bare-king", tc: "300+3", hw: atFlag, fen: "8/8/4k3/8/8/3K4/R7/8 w - - 0 1",
			sans: []string{"Ra6+", "Kd5", "Ra5+", "Kc6", "Ra1"}, result: "0-1", term: "time forfeit",
			think: func(s clockd.Side, k int) time.Duration {
				if s == clockd.White && k == 3 {
					return 10 * time.Minute
				}
				return 2 * time.Second
			}},
		{name: "time-forfeit-right", tc: "300+3", hw: atFlag, fen: "8/8/4k3/8/8/3K4/R7/8 b - - 0 1",
			sans: []string{"Kd5", "Ra5+", "Kc6", "Ra1"}, result: "1-0", term: "time forfeit",
			think: func(s clockd.Side, k int) time.Duration {
				if s == clockd.Black && k == 2 {
					return 10 * time.Minute
				}
				return 2 * time.Second
			}},
	}
}

// TestSynthetic: each injected incident is found, with its side and move,
// and nothing else is.
func TestSynthetic(t *testing.T) {
	want := map[string][]string{
		"clean-counting":                  nil,
		"clean-flag-after-control":        nil,
		"flag-before-control":             {"flag-before-control black 35"},
		"flag-before-control-clocks-only": {"flag-before-control black 26"},
		"flag-before-control-gap":         {"flag-before-control black 27"}, // in one of moves 25 to 27: before the control whichever it was
		"flag-at-move-40":                 {"flag-before-control white 40"},
		"flag-before-control-both-clocks": {"flag-before-control black 35"},
		"period-at-move-39":               {"period-early black 39"},
		"period-at-move-41":               {"period-late white 41"},
		"increment-missing":               {"increment-missing white 20"},
		"increment-extra":                 {"increment-extra black 25"},
		"time-appears":                    {"clock-data black 50"},
		"tiebreak-under-classical-tag":    nil,
		"no-tag":                          nil,
		"time-forfeit-bare-king":          {"time-forfeit white 3"},
		"time-forfeit-right":              nil,
	}
	a := New(Options{})
	for _, sy := range synthGames(t) {
		t.Run(sy.name, func(t *testing.T) {
			text := sy.pgn(t)
			games := readAll(t, text)
			if len(games) != 1 {
				t.Fatalf("%d games", len(games))
			}
			r := a.Game(games[0])
			var got []string
			for _, f := range r.Findings {
				got = append(got, fmt.Sprintf("%s %s %d", f.Kind, f.Side, f.Move))
			}
			if strings.Join(got, "; ") != strings.Join(want[sy.name], "; ") {
				t.Errorf("findings %q, want %q", got, want[sy.name])
				for _, f := range r.Findings {
					t.Logf("%s", f.Detail)
				}
				t.Logf("periods %+v\n%s", r.Periods, text)
			}
			for _, f := range r.Findings {
				if f.Article == "" || f.Detail == "" {
					t.Errorf("finding without article or sentence: %+v", f)
				}
			}
		})
	}
}

// readAll reads every game of a PGN text, failing on any error.
func readAll(t testing.TB, text string) []*Game {
	t.Helper()
	return readNamed(t, "test.pgn", text)
}

// readNamed reads every game of a PGN text named name (errors name it),
// failing on any error.
func readNamed(t testing.TB, name, text string) []*Game {
	t.Helper()
	rd := NewReader(strings.NewReader(text), name)
	var out []*Game
	for {
		g, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, g)
	}
}
