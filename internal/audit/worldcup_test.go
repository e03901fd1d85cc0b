package audit

import (
	"fmt"
	"github.com/arbiterd/arbiterd/internal/testkit/golden"
	"github.com/arbiterd/arbiterd/internal/testkit/shareddata"
	"strings"
	"testing"
)

// shared returns the path of a file under the shared data folder that sits
// beside the repository (../shared from the repository root), skipping the
// test when it is absent.
func shared(t testing.TB, rel string) string {
	t.Helper()
	return shareddata.Require(t, rel)
}

// collect is a Sink that keeps every report and error.
type collect struct {
	reports []*Report
	errs    []error
}

func (c *collect) Report(r *Report) error { c.reports = append(c.reports, r); return nil }
func (c *collect) Error(err error)        { c.errs = append(c.errs, err) }

func auditFile(t testing.TB, path string, opt Options) (*collect, *Auditor) {
	t.Helper()
	c := &collect{}
	a := New(opt)
	if _, err := a.Run([]string{path}, nil, c); err != nil {
		t.Fatal(err)
	}
	return c, a
}

// goldenLine is one game in the golden file: what the audit judged by,
// where the periods came, and what it found.
func goldenLine(r *Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s.%s %s | %s", r.Round, r.Board, r.Result, r.TimeControl)
	if r.TimeControlBlack != "" {
		fmt.Fprintf(&b, " / %s", r.TimeControlBlack)
	}
	fmt.Fprintf(&b, " (%s", r.TimeControlSource)
	if r.ControlMismatch {
		b.WriteString(", mismatch")
	}
	fmt.Fprintf(&b, ") | missing %d |", r.MissingClocks)
	for _, p := range r.Periods {
		at := "left"
		switch {
		case p.AtFlag:
			at = "flag"
		case p.WithFlag:
			at = "opponent's flag"
		}
		fmt.Fprintf(&b, " %s+%d@%d(%s,%d)", p.Side[:1], p.Seconds, p.Move, at, p.After)
	}
	b.WriteString(" |")
	for _, f := range r.Findings {
		fmt.Fprintf(&b, " %s %s %d (%s): %s", f.Kind, f.Side, f.Move, f.Article, f.Detail)
	}
	return b.String()
}

// TestWorldCup pins what the audit makes of the 200 real games of the
// World Cup 2025 file (shared/data/broadcast): the controls (116 classical
// games judged by the free-text tag; 84 rapid, blitz and Armageddon
// tiebreaks whose clocks contradict it), every period addition (at moves
// 41 to 48: after the control, so never a finding), the arbiter's two
// minutes and the one clock-data finding (time that appeared and stayed),
// which is a data fault and not an incident.
func TestWorldCup(t *testing.T) {
	path := shared(t, "broadcast/worldcup-2025-rounds-3-6.pgn")
	c, a := auditFile(t, path, Options{})
	if len(c.errs) != 0 {
		t.Errorf("errors on a clean file: %v", c.errs)
	}
	if len(c.reports) != 200 {
		t.Fatalf("%d games, want 200", len(c.reports))
	}
	var lines []string
	controls := map[string]int{}
	kinds := map[string]int{}
	adds, missing, atFlag, withFlag := 0, 0, 0, 0
	for _, r := range c.reports {
		lines = append(lines, goldenLine(r))
		key := r.TimeControl + " " + r.TimeControlSource
		if r.TimeControlBlack != "" {
			key = r.TimeControl + "/" + r.TimeControlBlack + " " + r.TimeControlSource
		}
		controls[key]++
		for _, f := range r.Findings {
			kinds[f.Kind]++
		}
		for _, p := range r.Periods {
			adds++
			if p.AtFlag {
				atFlag++
			} else if p.WithFlag {
				withFlag++
			}
			if p.Move < 41 || p.Move > 48 || p.After < 40 {
				t.Errorf("%s.%s: %s's period added at move %d after %d completed moves", r.Round, r.Board, p.Side, p.Move, p.After)
			}
		}
		missing += r.MissingClocks
		if (r.TimeControlSource == SourceClocks) != r.ControlMismatch {
			t.Errorf("%s.%s: source %s, mismatch %v", r.Round, r.Board, r.TimeControlSource, r.ControlMismatch)
		}
	}
	golden.Check(t, "worldcup.golden", strings.Join(lines, "\n")+"\n")
	wantControls := map[string]int{
		"40/5400+30:1800+30 tag": 116,
		"900+10 clocks":          52,
		"600+10 clocks":          18,
		"300+3 clocks":           8,
		"180+2 clocks":           4,
		"240+2/180+2 clocks":     2,
	}
	if fmt.Sprint(controls) != fmt.Sprint(wantControls) {
		t.Errorf("controls %v, want %v", controls, wantControls)
	}
	// One clock rose by two minutes by hand between two moves (Keymer –
	// Pranesh, 20.6, White's move 64: 1:59 with the move's %emt): the
	// arbiter's award; the other finding is a data fault.
	if fmt.Sprint(kinds) != fmt.Sprint(map[string]int{ClockData: 1, TimeAdded: 1}) {
		t.Errorf("findings %v, want 1 clock-data and 1 time-added, nothing else", kinds)
	}
	if adds != 97 || missing != 105 {
		t.Errorf("%d period additions, %d plies without %%clk; want 97 and 105", adds, missing)
	}
	t.Logf("6.9 queries: %d; additions %d: %d at the player's flag, %d with the opponent's, %d with time left", a.Queries, adds, atFlag, withFlag, adds-atFlag-withFlag)
}

// TestWorldCupHandChecked checks, against the raw movetext, the findings
// docs/audit.md explains.
func TestWorldCupHandChecked(t *testing.T) {
	path := shared(t, "broadcast/worldcup-2025-rounds-3-6.pgn")
	c, _ := auditFile(t, path, Options{})
	find := func(round, board string) *Report {
		for _, r := range c.reports {
			if r.Round == round && r.Board == board {
				return r
			}
		}
		t.Fatalf("no game %s.%s", round, board)
		return nil
	}
	// 20.6: 63. Nd5 {[%clk 00:00:40]} … 64. Re3 {[%clk 00:02:57]} {[%emt
	// 00:00:12]}: 1:47 more than the increment, 1:59 with the move's time:
	// two minutes added, as an arbiter does for the opponent's illegal move.
	// Black's 78th: 7:10 to 9:24, 1:44 beyond the increment, and the
	// readings after keep it: clock-data. White's 78th reads 0:00 and his
	// 79th 1:15: one wrong reading, set aside.
	r := find("20", "6")
	if len(r.Findings) != 2 || r.Findings[0].Move != 64 || !strings.Contains(r.Findings[0].Detail, "7.5.5") ||
		r.Findings[1].Kind != ClockData || r.Findings[1].Move != 78 || r.Findings[1].Side != "black" {
		t.Errorf("20.6: %+v", r.Findings)
	}
	// 22.4: 125. Ke4 {[%clk 00:15:10]}: a fresh 15-minute clock on the
	// last move of a rapid game (the next game's clock): the last reading
	// is set aside, not a finding.
	r = find("22", "4")
	if len(r.Findings) != 0 || r.TimeControl != "900+10" {
		t.Errorf("22.4: %s %+v", r.TimeControl, r.Findings)
	}
	// 42.7: White's 41st move took 35:12 (%emt) with 8:38 left: the flag
	// fell during move 41 with 40 completed, and the clock gave both
	// players the 30 minutes then: Black's shows it at his 41st move.
	r = find("42", "7")
	if len(r.Findings) != 0 || len(r.Periods) != 2 || !r.Periods[0].AtFlag || r.Periods[0].After != 40 || !r.Periods[1].WithFlag {
		t.Errorf("42.7: %+v %+v", r.Periods, r.Findings)
	}
	// 21.1: Black's 30 minutes show at move 41 with the clock at 0:50
	// after move 40 and 55 s used on move 41: the flag fell after the
	// control, as the World Cup's clocks add the period — no finding.
	r = find("21", "1")
	if len(r.Findings) != 0 || len(r.Periods) != 2 || r.Periods[1].Move != 41 || !r.Periods[1].AtFlag {
		t.Errorf("21.1: %+v %+v", r.Periods, r.Findings)
	}
	// 20.31: White's first %emt is 1:36:34, the time since the board went
	// live, not the move's: the control is still the tag's.
	r = find("20", "31")
	if r.TimeControlSource != SourceTag || len(r.Findings) != 0 {
		t.Errorf("20.31: %s %+v", r.TimeControlSource, r.Findings)
	}
}

// TestReferenceGames: the 14 reference games (varied controls, few
// clocks) give no finding; their controls come from their tags.
func TestReferenceGames(t *testing.T) {
	path := shared(t, "games/games.pgn")
	c, _ := auditFile(t, path, Options{})
	if len(c.errs) != 0 || len(c.reports) != 14 {
		t.Fatalf("%d games, errors %v", len(c.reports), c.errs)
	}
	var lines []string
	for _, r := range c.reports {
		lines = append(lines, goldenLine(r))
		if len(r.Findings) != 0 {
			t.Errorf("line %d: %+v", r.Line, r.Findings)
		}
	}
	golden.Check(t, "games.golden", strings.Join(lines, "\n")+"\n")
}
