package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/audit"
	"github.com/arbiterd/arbiterd/internal/i18n"
)

type auditOptions struct {
	json        bool
	html        string
	timeControl string
	nodes       int64
	lang        string
}

func newAuditCmd() *cobra.Command {
	var o auditOptions
	cmd := &cobra.Command{
		Use:   "audit [FILES|DIRS|PATTERNS|-]",
		Short: "Check finished games' clock comments for flags before the control and wrong results",
		Long: `audit reads PGN files (plain, .gz or .zst; a directory stands for the
*.pgn, *.pgn.gz and *.pgn.zst files under it; a pattern with * or ? the
files it matches, on every system (Windows shells do not expand them);
- or nothing is standard input) and checks every game's clock comments ([%clk], [%emt]) against its
time control:

  - the control it is judged by: --timecontrol, else the TimeControl tag
    (the notation "40/5400+30:1800+30" or free text such as "90 minutes for
    the first 40 moves, followed by 30 minutes ..."), else — when the tag is
    missing or the first clocks contradict it — what the clocks show;
  - each player's clock replayed move by move: increments, time used, and
    where each period's time was added;
  - findings, citing the Laws: flag-before-control (the next period's time
    appeared before the player completed the period's moves, 6.3.1, with
    the 6.9 verdict and whether the recorded result agrees), period-early
    and period-late (a clock that counts presses added it at the wrong
    move), increment-missing and increment-extra, time-forfeit (a result on
    time that the 6.9 verdict contradicts), and clock-data (readings no
    clock behaviour explains: data faults, never incidents).

A period added when the player's time ran out after the control — at move
41 or 45 on clocks that add it at the flag, as FIDE events set them — is
normal and not a finding.

The output is a table per round (one line per game, then each finding's
sentence); --json prints one JSON object per game per line instead
(docs/audit.md); --html FILE also writes a self-contained report with a
clock chart per game. --lang es writes the table, the sentences and the
HTML report in Spanish (the JSON keeps its kinds; its sentences follow
--lang). Input errors name the file and line and the audit
goes on with the rest; the exit status is then 1.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := printer(o.lang)
			if err != nil {
				return err
			}
			return p.Err(runAudit(cmd, p, args, o))
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.json, "json", false, "print one JSON object per game per line instead of the table")
	f.StringVar(&o.html, "html", "", "also write a self-contained HTML report with a clock chart per game to `FILE`")
	f.StringVar(&o.timeControl, "timecontrol", "", "judge every game by this `CONTROL` (e.g. 40/5400+30:1800+30) instead of its tag")
	f.Int64Var(&o.nodes, "nodes", 0, "node budget of each 6.9 analysis (0: the full mode's default)")
	addLangFlag(cmd, &o.lang)
	return cmd
}

// multiSink hands each report to every sink.
type multiSink []audit.Sink

func (m multiSink) Report(r *audit.Report) error {
	for _, s := range m {
		if err := s.Report(r); err != nil {
			return err
		}
	}
	return nil
}

func (m multiSink) Error(err error) {
	for _, s := range m {
		s.Error(err)
	}
}

// options are the auditor's options the flags give.
func (o auditOptions) options() (audit.Options, error) {
	opt := audit.Options{NodeBudget: o.nodes}
	if o.nodes < 0 {
		return opt, usageError{i18n.Errorf("cli.nodes", o.nodes)}
	}
	if o.timeControl != "" {
		tc, err := clockd.ParseTimeControl(o.timeControl)
		if err != nil {
			return opt, usageError{i18n.Errorf("cli.timecontrol", err)}
		}
		opt.TimeControl = &tc
	}
	return opt, nil
}

func runAudit(cmd *cobra.Command, p *i18n.Printer, args []string, o auditOptions) error {
	opt, err := o.options()
	if err != nil {
		return err
	}
	if len(args) == 0 {
		args = []string{"-"}
	}
	// Windows shells leave * and ? to the program.
	args, err = expandWildcards(args)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	files, err := audit.Expand(args)
	if err != nil {
		return fmt.Errorf("audit: %w", plainError(err))
	}
	stderr := cmd.ErrOrStderr()
	failed := 0
	report := func(err error) {
		failed++
		fmt.Fprintln(stderr, "arbiterd audit:", plainError(p.Err(err)))
	}
	out, err := o.openSinks(cmd, p, args, report)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	st, runErr := audit.New(opt).Run(files, cmd.InOrStdin(), out.sinks)
	if err := out.finish(); err != nil && runErr == nil {
		runErr = err
	}
	if runErr != nil {
		return fmt.Errorf("audit: %w", runErr)
	}
	if !o.json {
		summary(stderr, p, st)
	}
	if failed > 0 {
		return i18n.Errorf("audit.err.input", failed)
	}
	return nil
}

// auditSinks are where the reports go: the table or the JSON lines on
// standard output, and with --html the HTML file.
type auditSinks struct {
	sinks    multiSink
	flush    []func() error
	htmlFile *os.File
}

// openSinks opens the sinks o asks for; report is told of every input
// error (the HTML sink leaves them to the other).
func (o auditOptions) openSinks(cmd *cobra.Command, p *i18n.Printer, args []string, report func(error)) (*auditSinks, error) {
	var out auditSinks
	if o.json {
		s := audit.NewJSONSink(cmd.OutOrStdout(), p, report)
		out.sinks, out.flush = append(out.sinks, s), append(out.flush, s.Flush)
	} else {
		s := audit.NewTableSink(cmd.OutOrStdout(), p, report)
		out.sinks, out.flush = append(out.sinks, s), append(out.flush, s.Flush)
	}
	if o.html != "" {
		f, err := os.Create(o.html)
		if err != nil {
			return nil, err
		}
		out.htmlFile = f
		title := p.Sprintf("audit.html.title")
		if len(args) == 1 && args[0] != "-" {
			title += " — " + filepath.Base(args[0])
		}
		h := audit.NewHTMLSink(f, title, p, func(error) {}) // the table or JSON sink prints errors
		out.sinks = append(out.sinks, h)
		out.flush = append(out.flush, h.Close)
	}
	return &out, nil
}

// finish flushes every sink and closes the HTML file; it returns the
// first error.
func (out *auditSinks) finish() error {
	var first error
	for _, f := range out.flush {
		if err := f(); err != nil && first == nil {
			first = err
		}
	}
	if out.htmlFile != nil {
		if err := out.htmlFile.Close(); err != nil && first == nil && !errors.Is(err, os.ErrClosed) {
			first = err
		}
	}
	return first
}

func summary(w io.Writer, p *i18n.Printer, st audit.Stats) {
	fmt.Fprint(w, p.Sprintf("audit.summary", st.Games, st.Files))
	for _, k := range []string{audit.FlagBeforeControl, audit.PossibleFlag, audit.PeriodEarly, audit.PeriodLate, audit.IncrementMissing, audit.IncrementExtra, audit.TimeForfeit, audit.TimeAdded, audit.ClockData} {
		if n := st.Findings[k]; n > 0 {
			fmt.Fprintf(w, ", %d %s", n, p.Sprintf("audit.kind."+k))
		}
	}
	fmt.Fprintln(w)
}
