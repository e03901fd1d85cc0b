package main

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/arbiterd/arbiterd/internal/boards/pipeline"
	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
	"github.com/arbiterd/arbiterd/internal/journal/decode"
	"github.com/arbiterd/arbiterd/internal/output/pgn"
	"github.com/arbiterd/arbiterd/internal/output/report"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

type replayOptions struct {
	capture string
	pgnFile string
	report  bool
	decoded bool
	stats   bool
	lang    string
}

func newReplayCmd() *cobra.Command {
	var o replayOptions
	cmd := &cobra.Command{
		Use:   "replay CAPTURE",
		Short: "Replay a capture and print the event stream",
		Long: `replay reads a capture v1 file (the journal the daemon writes) and feeds the
bytes read from each port through the same decoders and the same
reconciliation as the live daemon, printing the event stream (one JSON
object per line, docs/events.md) exactly as it was produced live.
The same capture always gives the same bytes.

--pgn FILE also writes the game as PGN with [%clk] and [%emt] per move.
--report prints the arbiter's incident report instead of the events: moves
completed per side against the control, every anomaly and the flag verdict,
with the articles of the Laws; --lang es writes it in Spanish, the
anomalies' and verdicts' sentences included, and with --pgn the comments
arbiterd writes into the PGN (the verdict, the arbiter's changes of the
clock, claims; English unless --lang says otherwise). --decoded prints the
decoded device messages instead (for looking into a protocol problem).

A malformed capture stops it with the line number and exit status 1.`,
		Example: `  arbiterd replay game.capture
  arbiterd replay --pgn game.pgn --report game.capture
  arbiterd replay --report --lang es game.capture`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				p, err := printer(o.lang)
				if err != nil {
					return err
				}
				return p.Err(usageError{i18n.Errorf("cli.replay.one-arg")})
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := printer(o.lang)
			if err != nil {
				return err
			}
			o.capture = args[0]
			if o.decoded && (o.report || o.pgnFile != "") {
				return p.Err(usageError{i18n.Errorf("cli.replay.decoded")})
			}
			if o.lang != "" && !o.report && o.pgnFile == "" {
				return p.Err(usageError{i18n.Errorf("cli.replay.lang")})
			}
			if o.decoded {
				return runReplayDecoded(cmd, o)
			}
			return p.Err(runReplay(cmd, p, o))
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.pgnFile, "pgn", "", "also write the game as PGN to `FILE`")
	f.BoolVar(&o.report, "report", false, "print the incident report instead of the event stream")
	f.BoolVar(&o.decoded, "decoded", false, "print the decoded device messages instead of the event stream")
	f.BoolVar(&o.stats, "stats", false, "print decoder counters per port to stderr at the end (with --decoded)")
	addLangFlag(cmd, &o.lang)
	return cmd
}

func runReplay(cmd *cobra.Command, pr *i18n.Printer, o replayOptions) error {
	var events []reconcile.Event
	var p *pipeline.Pipeline
	err := readCapture(cmd, o.capture, func(in io.Reader, out *bufio.Writer) (err error) {
		p, err = pipeline.Replay(in, pipeline.Options{}, func(e reconcile.Event) error {
			if o.report || o.pgnFile != "" {
				events = append(events, e)
			}
			if o.report {
				return nil
			}
			out.Write(reconcile.Marshal(e))
			return out.WriteByte('\n')
		})
		return err
	})
	if err != nil {
		return err
	}
	tags := p.Tags()
	if o.pgnFile != "" {
		g := pgn.New(pgn.Tags{Event: tags.Event, Site: tags.Site, Date: capture.Date(tags.Started), Round: tags.Round,
			Board: tags.Board, White: tags.White, Black: tags.Black, TimeControl: tags.TimeControl, StartFEN: tags.StartFEN,
			WhitePlayer: pgn.Player(tags.WhitePlayer), BlackPlayer: pgn.Player(tags.BlackPlayer)})
		if o.lang != "" {
			g.In(pr) // the comments in the language asked for; else English
		}
		for _, e := range events {
			g.Add(e)
		}
		var b strings.Builder
		if err := g.Write(&b); err != nil {
			return err
		}
		if err := os.WriteFile(o.pgnFile, []byte(b.String()), 0o644); err != nil {
			return fmt.Errorf("replay: %w", err)
		}
	}
	if o.report {
		r := &report.Report{Board: tags.Board, White: tags.White, Black: tags.Black, TimeControl: tags.TimeControl, Printer: pr}
		for _, e := range events {
			r.Add(e)
		}
		for _, a := range p.Acks() {
			r.Ack(a.At, a.Claim, a.Alert, a.Arbiter)
		}
		return r.Write(cmd.OutOrStdout())
	}
	return nil
}

func runReplayDecoded(cmd *cobra.Command, o replayOptions) error {
	var st decode.Stats
	err := readCapture(cmd, o.capture, func(in io.Reader, out *bufio.Writer) (err error) {
		st, err = decode.Run(in, decode.Options{}, func(m decode.Message) error {
			b, err := decode.JSON(m)
			if err != nil {
				return err
			}
			out.Write(b)
			return out.WriteByte('\n')
		})
		return err
	})
	if err != nil {
		return err
	}
	if o.stats {
		printStats(cmd.ErrOrStderr(), st)
	}
	return nil
}

// readCapture opens the capture at path for read, which writes to standard
// output through out; out is flushed at the end, and an error names the
// capture.
func readCapture(cmd *cobra.Command, path string, read func(in io.Reader, out *bufio.Writer) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	defer f.Close()
	out := bufio.NewWriter(cmd.OutOrStdout())
	err = read(bufio.NewReader(f), out)
	if ferr := out.Flush(); err == nil && ferr != nil {
		err = ferr
	}
	if err != nil {
		return fmt.Errorf("replay %s: %w", path, err)
	}
	return nil
}

func printStats(w io.Writer, st decode.Stats) {
	fmt.Fprintf(w, "%d lines, %d reads, %d writes, %d messages\n", st.Lines, st.Reads, st.Writes, st.Messages)
	for _, name := range slices.Sorted(maps.Keys(st.Ports)) {
		s := st.Ports[name]
		fmt.Fprintf(w, "port %s: %d bytes, %d frames, %d messages, %d unknown, %d corrupt, %d noise, %d bytes skipped\n",
			name, s.Bytes, s.Frames, s.Messages, s.Unknown, s.Corrupt, s.Noise, s.Skipped)
	}
	for _, name := range slices.Sorted(maps.Keys(st.LinePorts)) {
		s := st.LinePorts[name]
		fmt.Fprintf(w, "port %s: %d lines, %d messages, %d bad lines, %d sequence gaps\n",
			name, s.Lines, s.Messages, s.Bad, s.Gaps)
	}
}
