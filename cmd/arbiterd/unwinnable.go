package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/spf13/cobra"

	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/arbiterd/arbiterd/internal/textin"
	"github.com/arbiterd/arbiterd/rules/bitboard"
	"github.com/arbiterd/arbiterd/rules/unwinnable"
)

type unwinnableOptions struct {
	quick, full bool
	nodes       int64
	lineNodes   int64
	label       bool
	cpuProfile  string
	lang        string
}

func newUnwinnableCmd() *cobra.Command {
	var o unwinnableOptions
	cmd := &cobra.Command{
		Use:   "unwinnable [FILE]",
		Short: "Answer FIDE 6.9 queries: can this side still checkmate?",
		Long: `unwinnable reads queries, one per line, from FILE or standard input
(UTF-8, UTF-16 or Windows-1252, as Windows programs save text):

  FEN [white|black]

and asks whether that side can still checkmate by any series of legal
moves (FIDE 6.9, 5.2.2, 7.5.5). Without a side the query is about the side
NOT to move: after a flag fall, the player who moved last and is still on
time. Anything after a complete six-field FEN (a game id, say) is ignored.
Blank lines and lines starting with # are skipped. Each query prints

  winnable <uci moves ending in mate> nodes N time US
  unwinnable nodes N time US
  undetermined nodes N time US

where US is the analysis time in microseconds. "winnable" always comes
with a legal line ending in mate by that side; "unwinnable" is proven.
With --full the line is shortened on a node budget of its own (a dozen
plies or so on game positions); --quick prints the line as found, unless
--line-nodes gives it a budget (the live daemon uses 1,000). The same
query always gets the same answer and line.

The default is --full (an arbiter's ruling: a few milliseconds on game
positions, up to a few seconds on the hardest composed ones); --quick
uses the small budget of the live daemon and may answer "undetermined".
With --label the input is the labelled format
"XY FEN" (X = W or -, Y = B or -: which sides can mate) and both sides of
each position are checked; disagreements and undetermined answers are
printed, then a summary. A bad line is reported with its line number and
the run continues; the exit status is then non-zero, as it is when a
--label run disagrees with a label. --lang es gives the --label report,
its summary and the errors in Spanish; the answer lines above stay as
they are in every language, for the programs that read them.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := printer(o.lang)
			if err != nil {
				return err
			}
			return p.Err(runUnwinnable(cmd, p, args, o))
		},
	}
	addLangFlag(cmd, &o.lang)
	cmd.Flags().BoolVar(&o.quick, "quick", false, "small node budget, as the live daemon uses (may answer undetermined)")
	cmd.Flags().BoolVar(&o.full, "full", false, "large node budget for a ruling (the default)")
	cmd.Flags().Int64Var(&o.nodes, "nodes", 0, "node budget per query (0 = the mode's default)")
	cmd.Flags().Int64Var(&o.lineNodes, "line-nodes", 0, "node budget for shortening a mate line found (0 = the mode's default: none with --quick, up to 200,000 with --full; -1 = none)")
	cmd.Flags().BoolVar(&o.label, "label", false, `read the labelled format "XY FEN" and print agreement with the labels`)
	cmd.Flags().StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of the run to this file (for go tool pprof, and scripts/pgo.sh)")
	return cmd
}

// runUnwinnable answers the queries of the file args names (standard
// input without one).
func runUnwinnable(cmd *cobra.Command, p *i18n.Printer, args []string, o unwinnableOptions) (err error) {
	if o.quick && o.full {
		return usageError{i18n.Errorf("unwinnable.quick-full")}
	}
	in := cmd.InOrStdin()
	name := "stdin"
	if len(args) == 1 && args[0] != "-" {
		f, err := os.Open(args[0])
		if err != nil {
			return plainError(err)
		}
		defer f.Close()
		in, name = f, args[0]
	}
	// A list saved by a Windows program (a byte-order mark, UTF-16) reads
	// as any other.
	in = textin.NewReader(in)
	if o.nodes < 0 {
		return usageError{i18n.Errorf("unwinnable.nodes", o.nodes)}
	}
	opt := unwinnable.Options{Mode: unwinnable.Full, NodeBudget: o.nodes, LineBudget: o.lineNodes}
	if o.quick {
		opt.Mode = unwinnable.Quick
	}
	if o.cpuProfile != "" {
		stop, perr := startCPUProfile(o.cpuProfile)
		if perr != nil {
			return perr
		}
		defer func() {
			if perr := stop(); err == nil {
				err = perr
			}
		}()
	}
	defer batchRuntime()()
	w := bufio.NewWriterSize(cmd.OutOrStdout(), 64<<10)
	defer func() {
		// The answers' last block, and any write that failed before it
		// (a bufio.Writer keeps its first error): a full disk or a
		// closed pipe is an error, not answers silently lost.
		if ferr := w.Flush(); err == nil && ferr != nil {
			err = i18n.Errorf("unwinnable.writing", ferr)
		}
	}()
	if o.label {
		return runLabelled(in, name, w, cmd.ErrOrStderr(), p, opt)
	}
	return runQueries(in, name, w, cmd.ErrOrStderr(), p, opt)
}

// startCPUProfile starts a CPU profile written to path and returns the
// function that ends it and closes the file.
func startCPUProfile(path string) (stop func() error, err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--cpuprofile %s: %w", path, err)
	}
	return func() error {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			return fmt.Errorf("--cpuprofile: %w", err)
		}
		return nil
	}, nil
}

// batchRuntime sets the Go runtime up for a batch of queries and returns
// the function that restores it. The analysis runs on one goroutine and
// allocates about two objects a query: one processor is enough, and no
// idle thread spins on the other core looking for work each time the
// program writes its answers or the collector wakes.
func batchRuntime() (restore func()) {
	procs := runtime.GOMAXPROCS(1)
	return func() { runtime.GOMAXPROCS(procs) }
}

// eachLine calls fn for every non-blank, non-comment line with its number.
// The line fn gets is valid only until fn returns: it is read in place
// from the scanner's buffer, which the next line overwrites (a string of
// its own per line would be an allocation per query), so fn must copy
// what it keeps.
func eachLine(in io.Reader, fn func(n int, line string)) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	n := 0
	for sc.Scan() {
		n++
		b := sc.Bytes()
		if len(b) == 0 {
			continue
		}
		line := strings.TrimSpace(unsafe.String(&b[0], len(b)))
		if line == "" || line[0] == '#' {
			continue
		}
		fn(n, line)
	}
	return sc.Err()
}

// eachQuery calls fn for every line of in that parse reads; the others
// are reported on errw as name:n: error, the error in p's language, and
// bad counts them.
func eachQuery(in io.Reader, name string, errw io.Writer, p *i18n.Printer, parse func(string) (unwinnable.Query, error),
	fn func(n int, line string, q unwinnable.Query)) (bad int, err error) {
	err = eachLine(in, func(n int, line string) {
		q, err := parse(line)
		if err != nil {
			bad++
			fmt.Fprintf(errw, "%s:%d: %v\n", name, n, p.Err(err))
			return
		}
		fn(n, line, q)
	})
	return bad, err
}

func runQueries(in io.Reader, name string, w io.Writer, errw io.Writer, p *i18n.Printer, opt unwinnable.Options) error {
	opt.Moves = true // the lines as moves, formatted straight into out
	a := unwinnable.NewAnalyzer(opt)
	var out []byte // one answer line, reused
	var werr error
	bad, err := eachQuery(in, name, errw, p, unwinnable.ParseQuery, func(n int, line string, q unwinnable.Query) {
		start := time.Now()
		r := a.Analyze(&q.Pos, q.Side)
		us := time.Since(start).Microseconds()
		out = appendAnswer(out[:0], r, us)
		if _, err := w.Write(out); err != nil && werr == nil {
			werr = err
		}
	})
	if err == nil && werr != nil {
		err = werr
	}
	if err != nil {
		return i18n.Errorf("unwinnable.reading", name, err)
	}
	if bad > 0 {
		return i18n.Errorf("unwinnable.bad-lines", name, bad)
	}
	return nil
}

// appendAnswer appends the answer line of r, which took us microseconds:
// "winnable <line> nodes N time US", or the verdict, nodes and time.
func appendAnswer(b []byte, r unwinnable.Result, us int64) []byte {
	b = append(b, r.Verdict.String()...)
	if r.Verdict == unwinnable.Winnable {
		for _, m := range r.Line {
			b = append(b, ' ')
			b = append(b, m...)
		}
		for _, m := range r.Moves {
			b = append(b, ' ')
			b = appendUCI(b, m)
		}
	}
	b = append(b, " nodes "...)
	b = strconv.AppendInt(b, r.Nodes, 10)
	b = append(b, " time "...)
	b = strconv.AppendInt(b, us, 10)
	return append(b, '\n')
}

// appendUCI appends m in UCI notation, as bitboard.Move.UCI writes it.
func appendUCI(b []byte, m bitboard.Move) []byte {
	for _, sq := range [2]bitboard.Square{m.From(), m.To()} {
		b = append(b, byte('a'+sq.File()), byte('1'+sq.Rank()))
	}
	if pr := m.Promotion(); pr != bitboard.NoPieceType {
		b = append(b, pr.String()...)
	}
	return b
}

func runLabelled(in io.Reader, name string, w io.Writer, errw io.Writer, p *i18n.Printer, opt unwinnable.Options) error {
	opt.Moves = true // the lines are not printed: no strings for them
	a := unwinnable.NewAnalyzer(opt)
	var queries, agree, undetermined, wrong int
	var total, worst time.Duration
	bad, err := eachQuery(in, name, errw, p, unwinnable.ParseLabelled, func(n int, line string, q unwinnable.Query) {
		pos := q.Pos
		for _, side := range []bitboard.Color{bitboard.White, bitboard.Black} {
			start := time.Now()
			r := a.Analyze(&pos, side)
			d := time.Since(start)
			total += d
			worst = max(worst, d)
			queries++
			switch {
			case r.Verdict == unwinnable.Undetermined:
				undetermined++
				fmt.Fprintln(w, p.Sprintf("unwinnable.label.undetermined", name, n, line[:2], sideWord(side), q.FEN))
			case (r.Verdict == unwinnable.Winnable) == q.Label[side]:
				agree++
			default:
				wrong++
				fmt.Fprintln(w, p.Sprintf("unwinnable.label.disagree", name, n, line[:2],
					i18n.M("unwinnable.verdict."+r.Verdict.String()), sideWord(side), q.FEN))
			}
		}
	})
	if err != nil {
		return i18n.Errorf("unwinnable.reading", name, err)
	}
	avg := time.Duration(0)
	if queries > 0 {
		avg = total / time.Duration(queries)
	}
	fmt.Fprintln(w, p.Sprintf("unwinnable.label.summary",
		queries, opt.Mode.String(), agree, undetermined, wrong, total.Round(time.Millisecond), avg.Round(time.Microsecond), worst.Round(time.Microsecond)))
	switch {
	case bad > 0:
		return i18n.Errorf("unwinnable.bad-lines", name, bad)
	case wrong > 0:
		return i18n.Errorf("unwinnable.label.wrong", name, wrong)
	}
	return nil
}

// sideWord is side as the --label report names it ("white").
func sideWord(side bitboard.Color) i18n.Message {
	if side == bitboard.White {
		return i18n.M("unwinnable.side.white")
	}
	return i18n.M("unwinnable.side.black")
}
