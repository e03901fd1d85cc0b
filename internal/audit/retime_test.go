package audit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestRealGamesRetimed plays the real classical games of both shared
// events again under other controls and clock modes. Each player's think
// time per move is taken from the real game (the move's [%emt], else its
// clocks), scaled per player so that the player's clock comes no closer to
// a flag than a margin between 10 s and 20 minutes, and run forward on a
// clock written here, independent of the audit: 90/40 + 30 with 30 s,
// 100/40 + 50/20 + 15 with 30 s, 120/40 + 30 with 30 s from move 41 and
// 120/40 + 60/20 + 15 with 30 s from move 61, each on a clock that counts
// moves, one that adds the period at the player's flag and one that gives
// both players the period at the first flag. In a quarter of the games
// one player's think on one move between 25 and 40 overruns the time left
// by 10 s to 10 minutes: a flag before the control (6.3.1), nobody claims,
// and the game goes on a while. The broadcast truncates each clock to the
// second, writes each move's [%emt], misreads about one reading in a
// hundred by up to three minutes, drops another and one [%emt] in a
// hundred, and writes the
// TimeControl tag for half the rounds.
//
// Held: no flag-before-control where no flag fell before the control (by
// the Laws' count of completed moves); possible-flag on players whose time
// never ran out in at most one game in 500; each game judged by the
// control it was played under wherever the tag or the clocks show it (a
// round of 4 games or more in which each later period is seen arriving at
// its control with the two readings after it published as they were, and
// a period after a 20-move one arriving by the count), but for one game in
// 100; a flag-before-control at another move for a player
// whose flag fell elsewhere in at most one game in 1,000. The injected
// flags found, said as possible, or not said are counted and logged.
// ARBITERD_AUDIT_RETIME_SEEDS sets the number of copies of each event per
// control and mode (12, 2 under -short or the race detector; the long
// form: 100); ARBITERD_AUDIT_RETIME_SEED=S runs copy S alone, and
// ARBITERD_AUDIT_RETIME_ONLY="CONTROL MODE" (as the summary names them)
// one control and mode.
func TestRealGamesRetimed(t *testing.T) {
	seeds := 12
	if testing.Short() || simRace {
		seeds = 2
	}
	seeds = envCount(t, "ARBITERD_AUDIT_RETIME_SEEDS", seeds)
	first := envCount(t, "ARBITERD_AUDIT_RETIME_SEED", 0)
	if first > 0 {
		seeds = 1
	} else {
		first = 1
	}
	only := os.Getenv("ARBITERD_AUDIT_RETIME_ONLY") // "CONTROL MODE": one control and mode
	src, skipped := rtSources(t)
	t.Logf("%d classical games with usable think times, %d set aside", len(src), skipped)
	if len(src) == 0 {
		t.Skip("no classical games")
	}
	var rounds [][]*rtSource
	for i, s := range src {
		if i == 0 || s.round != src[i-1].round {
			rounds = append(rounds, nil)
		}
		rounds[len(rounds)-1] = append(rounds[len(rounds)-1], s)
	}

	type tally struct {
		games, injected, found, possibleInj, silent, unscaled int
		falseFlags, wrongMove, possibleSpurious               int
		possibleBeside                                        int // of those, in a game where the opponent flagged
		ctrlChecked, ctrlWrong, ctrlAll, ctrlAllWrong         int
	}
	by := map[string]*tally{}
	var keys []string
	var total tally
	var failures []string
	for seed := first; seed < first+seeds; seed++ {
		for ci, ctl := range rtControls {
			for mode := rtCounting; mode <= rtAtFlagBoth; mode++ {
				key := ctl.text + " " + rtModeNames[mode]
				if only != "" && only != key {
					continue
				}
				tl := by[key]
				if tl == nil {
					tl = &tally{}
					by[key] = tl
					keys = append(keys, key)
				}
				rng := rand.New(rand.NewPCG(uint64(seed), uint64(100*ci+int(mode))))
				a := New(Options{NoUnwinnable: true})
				for _, round := range rounds {
					rr := rtRound(rng, round, ctl, mode, seed)
					if len(rr.games) == 0 {
						continue
					}
					games := make([]*Game, len(rr.games))
					for i, g := range rr.games {
						rd := NewReader(strings.NewReader(g.pgn), "retimed.pgn")
						pg, err := rd.Next()
						if err != nil {
							t.Fatalf("seed %d, %s: %v\n%s", seed, key, err, g.pgn)
						}
						if len(pg.Plies) != len(g.plies) {
							t.Fatalf("seed %d, %s: read %d plies of %d\n%s", seed, key, len(pg.Plies), len(g.plies), g.pgn)
						}
						games[i] = pg
					}
					reps := a.Round(games)
					for i, r := range reps {
						g := rr.games[i]
						tl.games++
						if g.unscaled {
							tl.unscaled++
						}
						where := fmt.Sprintf("seed %d, %s, %s round %s board %s (from %s)", seed, key, rtTagWord(rr.tag), r.Round, r.Board, g.from)
						repro := fmt.Sprintf("ARBITERD_AUDIT_RETIME_SEED=%d ARBITERD_AUDIT_RETIME_ONLY=%q go test ./internal/audit/ -run TestRealGamesRetimed -count=1 -v", seed, key)
						truth := map[string]bool{}
						flagged := map[string]bool{}
						for _, f := range g.flags {
							truth[simKey(rtSideName[f.side], f.move)] = true
							flagged[rtSideName[f.side]] = true
						}
						found := map[string]string{}
						for _, f := range r.Findings {
							k := findingKey(f, func(k string) bool { return truth[k] })
							switch f.Kind {
							case FlagBeforeControl:
								found[k] = f.Kind
								if truth[k] {
									break
								}
								what := "no flag fell before the control"
								if flagged[f.Side] {
									tl.wrongMove++
									what = "that player's flag fell at " + rtFlagList(g.flags, f.Side)
								} else {
									tl.falseFlags++
									t.Errorf("%s: flag-before-control %s at move %d, where that player's time never ran out before a control\n  %s\n  %s\n%s", where, f.Side, f.Move, repro, f.Detail, rtCase(g, r))
								}
								failures = append(failures, fmt.Sprintf("%s: flag-before-control %s %d; %s (%s)", where, f.Side, f.Move, what, repro))
								if flagged[f.Side] {
									t.Logf("%s: flag-before-control %s at move %d; %s\n  %s\n  %s\n%s", where, f.Side, f.Move, what, repro, f.Detail, rtCase(g, r))
								}
							case PossibleFlag:
								if found[k] == "" {
									found[k] = f.Kind
								}
								if !flagged[f.Side] {
									tl.possibleSpurious++
									if len(g.flags) > 0 {
										tl.possibleBeside++
									}
									t.Logf("%s: possible-flag %s at move %d, where that player's time never ran out before a control\n  %s\n  %s\n%s", where, f.Side, f.Move, repro, f.Detail, rtCase(g, r))
								}
							}
						}
						if g.inj != nil {
							tl.injected++
							switch found[simKey(rtSideName[g.inj.side], g.inj.move)] {
							case FlagBeforeControl:
								tl.found++
							case PossibleFlag:
								tl.possibleInj++
							default:
								tl.silent++
							}
						}
						ok := r.TimeControl == ctl.text && (r.TimeControlBlack == "" || r.TimeControlBlack == ctl.text)
						tl.ctrlAll++
						if !ok {
							tl.ctrlAllWrong++
						}
						if rr.shown {
							tl.ctrlChecked++
							if !ok {
								tl.ctrlWrong++
								t.Logf("%s: judged by %q (black %q, %s), played under %s, which the %s\n  %s", where, r.TimeControl, r.TimeControlBlack, r.TimeControlSource, ctl.text, rtShownBy(rr.tag), repro)
								if seeds == 1 {
									t.Logf("%s", rtCase(g, r))
								}
							}
						}
					}
				}
			}
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		tl := by[k]
		t.Logf("%-42s %5d games: injected flags %4d: found %s, possible %d, not said %d; false flags %d, at another move %d; possible-flag where none fell %d (%d beside the opponent's); control wrong %s where shown, %s in all; margins not reached %d",
			k, tl.games, tl.injected, rate(tl.found, tl.injected), tl.possibleInj, tl.silent, tl.falseFlags, tl.wrongMove, tl.possibleSpurious, tl.possibleBeside,
			rate(tl.ctrlWrong, tl.ctrlChecked), rate(tl.ctrlAllWrong, tl.ctrlAll), tl.unscaled)
		total.games += tl.games
		total.injected += tl.injected
		total.found += tl.found
		total.possibleInj += tl.possibleInj
		total.silent += tl.silent
		total.falseFlags += tl.falseFlags
		total.wrongMove += tl.wrongMove
		total.possibleSpurious += tl.possibleSpurious
		total.possibleBeside += tl.possibleBeside
		total.ctrlChecked += tl.ctrlChecked
		total.ctrlWrong += tl.ctrlWrong
		total.ctrlAll += tl.ctrlAll
		total.ctrlAllWrong += tl.ctrlAllWrong
	}
	t.Logf("%d retimed games (%d seeds): injected flags before the control %d: reported at their side and move %s, as possible-flag %s, not at all %s",
		total.games, seeds, total.injected, rate(total.found, total.injected), rate(total.possibleInj, total.injected), rate(total.silent, total.injected))
	t.Logf("flag-before-control where no flag fell: %d; at another move than the player's flag: %d; possible-flag where no flag fell: %d (%.4f per game), %d of them beside the opponent's flag",
		total.falseFlags, total.wrongMove, total.possibleSpurious, float64(total.possibleSpurious)/float64(max(1, total.games)), total.possibleBeside)
	t.Logf("control wrong where the tag or the clocks show it: %s; in all games: %s", rate(total.ctrlWrong, total.ctrlChecked), rate(total.ctrlAllWrong, total.ctrlAll))
	for _, f := range failures {
		t.Logf("accusation: %s", f)
	}
	if total.found*20 < total.injected*19 {
		t.Errorf("injected flags found at their side and move %d of %d: fewer than 19 in 20", total.found, total.injected)
	}
	if total.possibleSpurious*500 > total.games {
		t.Errorf("%d possible flags where the player's time never ran out, in %d games: more than one in 500", total.possibleSpurious, total.games)
	}
	if total.ctrlWrong*100 > total.ctrlChecked {
		t.Errorf("control wrong in %d of %d games whose tag or clocks show it: more than one in 100", total.ctrlWrong, total.ctrlChecked)
	}
	if total.wrongMove*1000 > total.games && total.wrongMove > 1 {
		t.Errorf("%d flag-before-control at another move than the player's flag, in %d games: more than one in 1,000", total.wrongMove, total.games)
	}
}

// The controls the games are played again under, with each period's moves
// (0: the rest of the game), time and increment, in seconds.
type rtPeriod struct {
	moves     int
	time, inc float64
}

type rtControl struct {
	text    string
	periods []rtPeriod
}

var rtControls = []rtControl{
	{"40/5400+30:1800+30", []rtPeriod{{40, 5400, 30}, {0, 1800, 30}}},
	{"40/6000+30:20/3000+30:900+30", []rtPeriod{{40, 6000, 30}, {20, 3000, 30}, {0, 900, 30}}},
	{"40/7200:1800+30", []rtPeriod{{40, 7200, 0}, {0, 1800, 30}}},
	{"40/7200:20/3600:900+30", []rtPeriod{{40, 7200, 0}, {20, 3600, 0}, {0, 900, 30}}},
}

// need returns the completed moves period p requires (cumulative), or a
// number beyond any game for the last period.
func (c rtControl) need(p int) int {
	n := 0
	for i := 0; i <= p && i < len(c.periods); i++ {
		if c.periods[i].moves == 0 {
			return 1 << 30
		}
		n += c.periods[i].moves
	}
	return n
}

// period returns the period a player who completed done moves is in by
// the Laws.
func (c rtControl) period(done int) int {
	p := 0
	for p < len(c.periods)-1 && done >= c.need(p) {
		p++
	}
	return p
}

// Clock modes: when the next period is added.
type rtMode int

const (
	rtCounting   rtMode = iota // at the press that completes the period's moves
	rtAtFlag                   // to the player whose time runs out
	rtAtFlagBoth               // to both players at the first flag
)

var rtModeNames = []string{"counting", "at-flag", "at-flag-both"}
var rtSideName = []string{"white", "black"}

// rtSource is a real game with each side's think time per move.
type rtSource struct {
	g     *Game
	round string
	think [2][]float64
}

// rtSources reads the real classical games and derives the think times.
func rtSources(t *testing.T) ([]*rtSource, int) {
	var out []*rtSource
	skipped := 0
	for _, g := range sharedEventGames(t) {
		if len(g.Plies) < 20 {
			continue
		}
		start := rtStart(g)
		if start < 75*60 {
			continue // a rapid or blitz tiebreak
		}
		th, ok := rtThinks(g, start > 100*60)
		if !ok {
			skipped++
			continue
		}
		out = append(out, &rtSource{g: g, round: roundKey(g), think: th})
	}
	return out, skipped
}

// rtStart is the highest of the first readings of each side (0 when there
// is none among the first four plies).
func rtStart(g *Game) float64 {
	s := 0.0
	for i := 0; i < 4 && i < len(g.Plies); i++ {
		if c := g.Plies[i].Clk; c != Unknown {
			s = max(s, c.Seconds())
		}
	}
	return s
}

// rtThinks derives each side's think time per move from a real game played
// under 40/5400+30:1800+30 (the World Cup: 30 s from move 1, the period at
// the flag) or 40/7200:1800+30 (Tata Steel: 30 s from move 41, the period
// at the count): the move's [%emt], else the clock's fall between the
// side's readings plus the increment. A game where more than one move in
// ten has no usable time is set aside.
func rtThinks(g *Game, tata bool) (th [2][]float64, ok bool) {
	var prev [2]float64
	var prevMove [2]int
	for s := range prev {
		if tata {
			prev[s] = 7200
		} else {
			prev[s] = 5430
		}
	}
	bad := 0
	for i, p := range g.Plies {
		s, k := i%2, i/2+1
		inc := 30.0
		if tata && k < 40 {
			inc = 0
		}
		tk := -1.0
		if p.EMT != Unknown && (k > 1 || p.EMT < 10*time.Minute) {
			tk = p.EMT.Seconds()
		}
		if p.Clk != Unknown {
			cur := p.Clk.Seconds()
			if tk < 0 && prevMove[s] == k-1 {
				d := prev[s] - cur + inc
				if tata && k == 40 {
					d += 1800
				}
				if !tata && d < -300 {
					d += 1800 // the period added at the flag
				}
				if d >= -60 && d <= 3600 {
					tk = d
				}
			}
			prev[s], prevMove[s] = cur, k
		}
		if tk < 0 {
			bad++
			tk = 10
		}
		th[s] = append(th[s], max(tk, 0.5))
	}
	return th, bad*10 <= len(g.Plies)
}

// rtFlag is a flag before the control: the side's time ran out during its
// move with move-1 completed, fewer than the clock's period requires (or,
// on a clock that gave the period at the opponent's flag, the time the
// player was entitled to ran out).
type rtFlag struct {
	side, move int
	injected   bool
}

type rtInject struct {
	side, move int
	over       float64
}

// rtPly is one simulated half-move: the think and the clock after it.
type rtPly struct {
	think, clock float64
	period       int // the clock's period after the move (0: the first)
}

type rtRun struct {
	plies  []rtPly
	flags  []rtFlag
	margin [2]float64 // the least time left, where a flag would not be normal
	ended  bool       // a flag in the last period ended the game (before that move)
	arrive []rtArrival
}

// rtArrival is a period's time added to a side's clock when its control
// was reached: by the count, or at a flag after the control.
type rtArrival struct {
	side, ply, period int
	count             bool
}

type rtSide struct {
	r        float64 // the display, seconds
	c        int     // the clock's period
	done     int     // completed moves
	owed     float64 // period time given by the opponent's flag before this player's control
	standing bool    // a counting clock at 0:00 until the count
}

// rtSimulate plays the think times forward on a clock of the given mode,
// each side's thinks scaled by f, for at most plies half-moves.
func rtSimulate(ctl rtControl, mode rtMode, think [2][]float64, f [2]float64, inj *rtInject, plies int) rtRun {
	last := len(ctl.periods) - 1
	var st [2]rtSide
	for s := range st {
		st[s].r = ctl.periods[0].time + ctl.periods[0].inc
	}
	run := rtRun{margin: [2]float64{math.Inf(1), math.Inf(1)}}
	flagged := map[[2]int]bool{}
	flag := func(s, k int, injected bool) {
		if !flagged[[2]int{s, k}] {
			flagged[[2]int{s, k}] = true
			run.flags = append(run.flags, rtFlag{side: s, move: k, injected: injected})
		}
	}
	for i := 0; i < plies; i++ {
		s := i % 2
		me, op := &st[s], &st[1-s]
		k := me.done + 1
		t := think[s][k-1] * f[s]
		injected := false
		if inj != nil && inj.side == s && inj.move == k && !me.standing {
			t = me.r - me.owed + inj.over
			injected = true
		}
		if !me.standing && (me.c == last || me.done < ctl.need(me.c) || me.owed > 0) {
			run.margin[s] = min(run.margin[s], me.r-me.owed-t)
		}
		if me.owed > 0 && !me.standing && t > me.r-me.owed {
			flag(s, k, injected) // the display, given the period already, does not show it
			me.owed = 0
		}
		ended := false
		if !me.standing {
			used := t
			for used >= me.r {
				used -= me.r
				if me.c == last {
					ended = true
					break
				}
				if me.done < ctl.need(me.c) {
					flag(s, k, injected)
				}
				if mode == rtCounting {
					me.r, me.standing, used = 0, true, 0
					break
				}
				if me.done >= ctl.need(me.c) {
					run.arrive = append(run.arrive, rtArrival{side: s, ply: i, period: me.c + 1})
				}
				me.c++
				me.r = ctl.periods[me.c].time
				if mode == rtAtFlagBoth && op.c == me.c-1 && !op.standing {
					op.c++
					op.r += ctl.periods[op.c].time
					if op.done < ctl.need(op.c-1) {
						op.owed += ctl.periods[op.c].time
					}
				}
			}
			if ended {
				run.ended = true
				return run
			}
			if !me.standing {
				me.r -= used
			}
		}
		me.done++
		if mode == rtCounting && me.c < last && me.done == ctl.need(me.c) {
			me.c++
			me.r += ctl.periods[me.c].time + ctl.periods[me.c].inc
			me.standing = false
			run.arrive = append(run.arrive, rtArrival{side: s, ply: i, period: me.c, count: true})
		} else if !me.standing {
			me.r += ctl.periods[me.c].inc
			if me.owed > 0 {
				// an increment the period given early brings, which the
				// Laws do not give before the control
				me.owed += max(0, ctl.periods[me.c].inc-ctl.periods[ctl.period(me.done)].inc)
			}
		}
		if me.owed > 0 && me.c > 0 && me.done >= ctl.need(me.c-1) {
			me.owed = 0
		}
		run.plies = append(run.plies, rtPly{think: t, clock: me.r, period: me.c})
	}
	return run
}

// rtScale finds the factor on side s's thinks that leaves it the given
// least margin, the other side's factor held.
func rtScale(ctl rtControl, mode rtMode, think [2][]float64, f [2]float64, s int, target float64, plies int) float64 {
	lo, hi := math.Log(0.002), math.Log(20.0)
	for range 40 {
		mid := (lo + hi) / 2
		f[s] = math.Exp(mid)
		run := rtSimulate(ctl, mode, think, f, nil, plies)
		if !run.ended && len(run.flags) == 0 && run.margin[s] >= target {
			lo = mid
		} else {
			hi = mid
		}
	}
	return math.Exp(lo)
}

// rtGame is a retimed game: its PGN and the truth.
type rtGame struct {
	pgn      string
	from     string // the real game: file and line
	plies    []rtPly
	flags    []rtFlag
	inj      *rtInject
	unscaled bool // a margin of at least 10 s could not be reached for a side
	clk      []string
	noisy    []bool
}

type rtRoundOut struct {
	games []*rtGame
	tag   bool
	shown bool // the control is shown by the tag or by the clocks
}

// rtRound plays a real round again under ctl and mode.
func rtRound(rng *rand.Rand, round []*rtSource, ctl rtControl, mode rtMode, seed int) rtRoundOut {
	out := rtRoundOut{tag: rng.IntN(2) == 0}
	last := len(ctl.periods) - 1
	arrived := map[int]bool{} // later periods shown arriving after their control
	counted := map[int]bool{} // later periods shown arriving by the count
	for _, src := range round {
		plies := len(src.g.Plies)
		var f [2]float64
		var target [2]float64
		for s := range f {
			// a margin between 10 s and 20 minutes, most often a few minutes
			target[s] = math.Exp(math.Log(10) + rng.Float64()*math.Log(120))
			f[s] = 0.01
		}
		for s := range 2 {
			f[s] = rtScale(ctl, mode, src.think, f, s, target[s], plies)
		}
		f[0] = rtScale(ctl, mode, src.think, f, 0, target[0], plies)
		base := rtSimulate(ctl, mode, src.think, f, nil, plies)
		if base.ended || len(base.flags) > 0 {
			continue // no scaling avoids a flag: the game is not used
		}
		g := &rtGame{from: fmt.Sprintf("%s:%d", src.g.File, src.g.Line)}
		g.unscaled = base.margin[0] < 10 || base.margin[1] < 10
		run := base
		if rng.IntN(4) == 0 {
			side := rng.IntN(2)
			move := 25 + rng.IntN(16)
			if moves := (plies + 1 - side) / 2; move+3 <= moves {
				inj := &rtInject{side: side, move: move, over: math.Exp(math.Log(10) + rng.Float64()*math.Log(60))}
				// nobody claims: the game goes on a while, or to its end
				further := 3 + rng.IntN(48)
				if rng.IntN(4) == 0 {
					further = 3 + rng.IntN(3)
				}
				end := min(plies, 2*(move-1)+side+1+2*further+rng.IntN(2))
				r := rtSimulate(ctl, mode, src.think, f, inj, end)
				for _, fl := range r.flags {
					if fl.injected {
						g.inj = inj
					}
				}
				if g.inj != nil {
					run = r
				}
			}
		}
		g.plies, g.flags = run.plies, run.flags
		result := src.g.Result
		if len(g.plies) < plies || result == "" {
			result = "*"
		}
		// the broadcast
		g.clk = make([]string, len(g.plies))
		g.noisy = make([]bool, len(g.plies))
		emt := make([]string, len(g.plies))
		for i, p := range g.plies {
			c := math.Floor(p.clock + 1e-9)
			switch x := rng.Float64(); {
			case x < 0.01:
				off := float64(5 + rng.IntN(176))
				if rng.IntN(2) == 0 {
					off = -off
				}
				c = max(0, c+off)
				g.noisy[i] = true
			case x < 0.02:
				c = -1
				g.noisy[i] = true
			}
			if c >= 0 {
				g.clk[i] = rtHMS(c)
			}
			if rng.Float64() >= 0.01 {
				emt[i] = rtHMS(math.Round(p.think))
			}
		}
		var b strings.Builder
		ev := src.g.Tag("Event")
		fmt.Fprintf(&b, "[Event \"%s, played again under %s, %s clocks, copy %d\"]\n", ev, ctl.text, rtModeNames[mode], seed)
		for _, tag := range []string{"Site", "Date", "Round", "Board", "White", "Black"} {
			if v := src.g.Tag(tag); v != "" {
				fmt.Fprintf(&b, "[%s \"%s\"]\n", tag, v)
			}
		}
		fmt.Fprintf(&b, "[Result \"%s\"]\n", result)
		if out.tag {
			fmt.Fprintf(&b, "[TimeControl \"%s\"]\n", ctl.text)
		}
		b.WriteString("\n")
		for i := range g.plies {
			if i%2 == 0 {
				fmt.Fprintf(&b, "%d. ", i/2+1)
			}
			b.WriteString(src.g.Plies[i].SAN)
			if g.clk[i] != "" {
				fmt.Fprintf(&b, " {[%%clk %s]}", g.clk[i])
			}
			if emt[i] != "" {
				fmt.Fprintf(&b, " {[%%emt %s]}", emt[i])
			}
			b.WriteString(" ")
			if i%8 == 7 {
				b.WriteString("\n")
			}
		}
		b.WriteString(result + "\n\n")
		g.pgn = b.String()
		out.games = append(out.games, g)
		// which later periods this game shows arriving by its control, with
		// the side's next two readings published as they were
		for _, a := range run.arrive {
			if a.period > last || a.period < 1 {
				continue
			}
			good := 0
			for j := a.ply + 2; j < len(g.plies) && j <= a.ply+4; j += 2 {
				if !g.noisy[j] {
					good++
				}
			}
			if good < 2 || g.noisy[a.ply] {
				continue
			}
			arrived[a.period] = true
			if a.count {
				counted[a.period] = true
			}
		}
	}
	out.shown = out.tag
	if !out.tag && len(out.games) >= 4 {
		out.shown = true
		for p := 1; p <= last; p++ {
			if !arrived[p] || (p >= 2 && !counted[p]) {
				out.shown = false
			}
		}
	}
	return out
}

func rtHMS(s float64) string {
	n := int64(s)
	return fmt.Sprintf("%d:%02d:%02d", n/3600, n/60%60, n%60)
}

func rtTagWord(tag bool) string {
	if tag {
		return "with the tag"
	}
	return "without the tag"
}

func rtShownBy(tag bool) string {
	if tag {
		return "tag names"
	}
	return "clocks show"
}

func rtFlagList(flags []rtFlag, side string) string {
	var at []string
	for _, f := range flags {
		if rtSideName[f.side] == side {
			at = append(at, strconv.Itoa(f.move))
		}
	}
	return "move " + strings.Join(at, ", ")
}

// rtCase describes a game for a human: the truth, the audit's view and the
// PGN.
func rtCase(g *rtGame, r *Report) string {
	var b strings.Builder
	for _, f := range g.flags {
		fmt.Fprintf(&b, "  truth: %s's time ran out during move %d (injected %v)\n", rtSideName[f.side], f.move, f.injected)
	}
	if len(g.flags) == 0 {
		b.WriteString("  truth: no flag before a control\n")
	}
	for _, f := range r.Findings {
		fmt.Fprintf(&b, "  found: %s %s %d\n", f.Kind, f.Side, f.Move)
	}
	fmt.Fprintf(&b, "  audit: control %s (%s), periods %+v\n  clocks (think, true clock, published):", r.TimeControl, r.TimeControlSource, r.Periods)
	for i, p := range g.plies {
		if i%2 == 0 {
			fmt.Fprintf(&b, "\n  %3d.", i/2+1)
		}
		pub := g.clk[i]
		if pub == "" {
			pub = "-"
		}
		fmt.Fprintf(&b, "  %7.1f %8.1f %s", p.think, p.clock, pub)
	}
	b.WriteString("\n")
	b.WriteString(g.pgn)
	return b.String()
}
