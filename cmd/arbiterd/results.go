package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/arbiterd/arbiterd/internal/journal/atomicfile"
	"github.com/arbiterd/arbiterd/internal/pairings"
)

type resultsOptions struct {
	round   int
	confirm []string
	trf     string
	out     string
	csv     bool
	p       *i18n.Printer // the language of the table and the notes (nil: English)
}

func newResultsCmd() *cobra.Command {
	var (
		o    resultsOptions
		lang string
	)
	cmd := &cobra.Command{
		Use:   "results DATA --round N",
		Short: "Print a round's results from the daemon's data folder, or write them into the TRF",
		Long: `results reads the round's games from the daemon's data folder
(DATA/round-N: each board's capture and its event stream) and prints each
board's result: the first end of its game, as arbiterd saw it (checkmate,
stalemate, a dead position, repetition, the 75-move rule, a result the
players signalled, a claim the arbiter accepted, a flag's verdict).

A game not ended is open. So is a game ended on a flag's verdict (a loss, a
6.9 draw, or a draw when both flags fell) until the arbiter confirms it:
--confirm 3,7 confirms the verdicts of boards 3 and 7 (--confirm all, every
verdict of the round).

--csv prints the board, the players and the result (empty when open).
--trf FILE writes the results into a copy of the TRF the round was paired
from, to --out (default: standard output): the round's result columns and
the players' points change, nothing else. A board is matched to its pair by
the players' names the capture carries, or by its board number as the TRF's
boards are numbered (arbiterd pairings FILE --round N). Open games are
written as nothing.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := printer(lang)
			if err != nil {
				return err
			}
			o.p = p
			if o.round < 1 {
				return usageError{p.Err(i18n.Errorf("cli.results.round"))}
			}
			if o.out != "" && o.trf == "" {
				return usageError{p.Err(i18n.Errorf("cli.results.out"))}
			}
			return runResults(cmd.OutOrStdout(), cmd.ErrOrStderr(), args[0], o)
		},
	}
	cmd.Flags().IntVar(&o.round, "round", 0, "the round (its folder DATA/round-N)")
	cmd.Flags().StringSliceVar(&o.confirm, "confirm", nil, "boards whose flag verdicts the arbiter confirms (numbers, or all)")
	cmd.Flags().StringVar(&o.trf, "trf", "", "write the results into a copy of this TRF")
	cmd.Flags().StringVarP(&o.out, "out", "o", "", "where --trf writes the copy (default: standard output)")
	cmd.Flags().BoolVar(&o.csv, "csv", false, "print CSV: board, white, black, result")
	addLangFlag(cmd, &lang)
	return cmd
}

// confirmed reads --confirm: board numbers, or "all".
func confirmed(p *i18n.Printer, list []string) (func(int) bool, error) {
	boards := map[int]bool{}
	for _, s := range list {
		s = strings.TrimSpace(s)
		if strings.EqualFold(s, "all") {
			return func(int) bool { return true }, nil
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return nil, usageError{p.Err(i18n.Errorf("cli.results.confirm", s))}
		}
		boards[n] = true
	}
	return func(b int) bool { return boards[b] }, nil
}

func runResults(w, errw io.Writer, data string, o resultsOptions) error {
	ok, err := confirmed(o.p, o.confirm)
	if err != nil {
		return err
	}
	results, err := pairings.ReadResults(filepath.Join(data, "round-"+strconv.Itoa(o.round)), ok)
	if err != nil {
		return err
	}
	if o.trf != "" {
		return writeTRF(w, errw, results, o)
	}
	if o.csv {
		return resultsCSV(w, results)
	}
	return resultsText(w, o.p, results)
}

func resultText(p *i18n.Printer, r pairings.BoardResult) string {
	if r.Open != "" {
		return p.Sprintf("cli.results.open", r.Open)
	}
	return r.Result + " (" + r.Reason + ")"
}

func resultsText(w io.Writer, p *i18n.Printer, results []pairings.BoardResult) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, p.Sprintf("cli.board-table.head"))
	open := 0
	for _, r := range results {
		if r.Open != "" {
			open++
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", r.Board, dash(r.White), dash(r.Black), resultText(p, r))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, p.Sprintf("cli.results.total", len(results), open))
	return err
}

func resultsCSV(w io.Writer, results []pairings.BoardResult) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"board", "white", "black", "result"})
	for _, r := range results {
		cw.Write([]string{strconv.Itoa(r.Board), r.White, r.Black, r.Result})
	}
	cw.Flush()
	return cw.Error()
}

// writeTRF writes the round's results into a copy of the TRF, and says on
// errw which games it left open.
func writeTRF(w, errw io.Writer, results []pairings.BoardResult, o resultsOptions) error {
	data, err := os.ReadFile(o.trf)
	if err != nil {
		return fmt.Errorf("results: %w", err)
	}
	t, err := pairings.ParseTRF(data)
	if err != nil {
		return addFile(err, o.trf)
	}
	round, err := t.Round(o.round)
	if err != nil {
		return addFile(err, o.trf)
	}
	matched, err := pairings.Match(round, results)
	if err != nil {
		return fmt.Errorf("results: %s: %w", o.trf, err)
	}
	var games []pairings.GameResult
	var open []string
	for _, m := range matched {
		if m.Open != "" {
			open = append(open, o.p.Sprintf("cli.results.trf.open", m.Board, m.Pair.White.Name, m.Pair.Black.Name, m.Open))
			continue
		}
		games = append(games, pairings.GameResult{White: m.Pair.White.StartRank, Black: m.Pair.Black.StartRank, Result: m.Result})
	}
	out, err := t.WriteResults(o.round, games)
	if err != nil {
		return err
	}
	for _, b := range round.Boards {
		if !slices.ContainsFunc(matched, func(m pairings.Matched) bool { return m.Pair.Number == b.Number }) {
			open = append(open, o.p.Sprintf("cli.results.trf.no-game", b.Number, b.White.Name, b.Black.Name))
		}
	}
	if o.out == "" {
		if _, err := w.Write(out); err != nil {
			return err
		}
	} else if err := atomicfile.Write(o.out, out, 0o644); err != nil {
		return fmt.Errorf("results: %w", err)
	}
	fmt.Fprintln(errw, o.p.Sprintf("cli.results.trf.written", o.round, len(games), len(open)))
	for _, s := range open {
		fmt.Fprintln(errw, o.p.Sprintf("cli.results.trf.left", s))
	}
	return nil
}

func addFile(err error, name string) error {
	if pe, ok := err.(*pairings.Error); ok && pe.File == "" {
		pe.File = name
	}
	return err
}
