package audit

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// swapClocks returns copies of games as a broadcast would give them from
// clocks standing the other way round: each move gets the opponent's
// display just after the press, the opponent's reading after their move
// before (the first move none).
func swapClocks(games []*Game) []*Game {
	var out []*Game
	for _, g := range games {
		c := *g
		c.Plies = slices.Clone(g.Plies)
		for i := range c.Plies {
			c.Plies[i].Clk = Unknown
			if i > 0 {
				c.Plies[i].Clk = g.Plies[i-1].Clk
			}
		}
		out = append(out, &c)
	}
	return out
}

// findingList is a report's findings as "kind side move", but for the one
// that says the readings were swapped.
func findingList(r *Report) (list []string, swapped bool) {
	for _, f := range r.Findings {
		if f.Kind == ClockData && f.Side == "" && f.Message.Code == "audit.clock-data.swapped" {
			swapped = true
			continue
		}
		list = append(list, fmt.Sprintf("%s %s %d", f.Kind, f.Side, f.Move))
	}
	return list, swapped
}

// TestSwappedClocks plays the World Cup's games again as a broadcast from
// clocks standing the other way round would give them. Read as published,
// a flag of one player's would be charged to the other a move later, and a
// counting clock's period would seem to come a press late. The %emt show
// the swap: most games are said to have swapped readings and are judged
// as the games themselves are; the others (blitz games whose moves all
// took a few seconds fit either reading) get no flag, and none of the
// real games is said to have swapped readings.
func TestSwappedClocks(t *testing.T) {
	text, err := os.ReadFile(shared(t, "broadcast/worldcup-2025-rounds-3-6.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	games := readAll(t, string(text))
	rounds := map[string][]*Game{}
	var keys []string
	for _, g := range games {
		k := roundKey(g)
		if rounds[k] == nil {
			keys = append(keys, k)
		}
		rounds[k] = append(rounds[k], g)
	}
	a := New(Options{NoUnwinnable: true})
	said, same, judged := 0, 0, 0
	for _, k := range keys {
		plain := a.Round(rounds[k])
		swapped := a.Round(swapClocks(rounds[k]))
		for i, r := range plain {
			want, sw := findingList(r)
			if sw {
				t.Errorf("%s %s: the real game's readings said to be swapped", r.Round, r.Board)
			}
			got, sw := findingList(swapped[i])
			if !sw {
				for _, f := range swapped[i].Findings {
					if f.Kind == FlagBeforeControl || f.Kind == PossibleFlag {
						t.Errorf("%s.%s, not said to be swapped: %s %s %d: %s", r.Round, r.Board, f.Kind, f.Side, f.Move, f.Detail)
					}
				}
				t.Logf("%s.%s not said to be swapped (%d plies): findings %q; the game's %q", r.Round, r.Board, r.Plies, got, want)
				continue
			}
			said++
			if r.TimeControl == swapped[i].TimeControl {
				judged++
			} else {
				t.Errorf("%s.%s: swapped back, judged by %s; the game by %s", r.Round, r.Board, swapped[i].TimeControl, r.TimeControl)
			}
			if strings.Join(got, "; ") == strings.Join(want, "; ") {
				same++
			} else {
				t.Errorf("%s.%s: swapped back, findings %q; the game's %q", r.Round, r.Board, got, want)
			}
		}
	}
	t.Logf("%d games: %d said to have swapped readings, %d of them judged by the same control, %d with the same findings", len(games), said, judged, same)
	// The finding is the game's, not a move's, in the table and the HTML.
	r := a.Round(swapClocks(rounds[keys[0]]))
	var table, page strings.Builder
	ts := NewTableSink(&table, nil, func(err error) { t.Error(err) })
	hs := NewHTMLSink(&page, "swapped", nil, func(err error) { t.Error(err) })
	for _, rep := range r {
		if err := ts.Report(rep); err != nil {
			t.Fatal(err)
		}
		if err := hs.Report(rep); err != nil {
			t.Fatal(err)
		}
	}
	if err := ts.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := hs.Close(); err != nil {
		t.Fatal(err)
	}
	if want := " — clock-data (6.5): The readings belong to the other side's clock: each side's [%clk] moves with the other side's [%emt]"; !strings.Contains(table.String(), want) {
		t.Errorf("the table lacks %q:\n%s", want, table.String())
	}
	if want := "clock-data</span> the game (6.5)"; !strings.Contains(page.String(), want) {
		t.Errorf("the HTML lacks %q", want)
	}
	if said < len(games)/2 {
		t.Errorf("only %d of %d games said to have swapped readings", said, len(games))
	}
}
