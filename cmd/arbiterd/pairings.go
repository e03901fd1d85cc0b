package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/arbiterd/arbiterd/internal/pairings"
)

type pairingsOptions struct {
	round int
	json  bool
	p     *i18n.Printer // the table's language (nil: English)
}

func newPairingsCmd() *cobra.Command {
	var (
		o    pairingsOptions
		lang string
	)
	cmd := &cobra.Command{
		Use:   "pairings FILE",
		Short: "Print a round's boards as read from a pairing program's file (PGN, TRF or CSV)",
		Long: `pairings reads a round's pairings from the file a pairing program exports
and prints the boards as arbiterd uses them, then the players who are not on
a board (byes, unpaired players, forfeits without a game).

The file is a pairing PGN (one game of tags per board; the board is its
Board tag or the B of Round "N.B"), a FIDE TRF-16 report (Swiss-Manager,
Vega, JaVaFo, lichess; boards numbered by the pair's higher score, the sum
of both scores, then the better starting rank) or a CSV pairing list whose
columns are found by their headers (',' or ';', UTF-8 or Windows-1252). The
format follows the extension (.pgn, .trf, .csv), or the content.

Without --round: a TRF's first round with a game still to play, a PGN's
first round of games without moves, a CSV's only (or first) round.
--json prints one object a line: {"board":N,"white":{…},"black":{…}} for
a board, {"bye":{…},"kind":"…"} for a player not on one.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := printer(lang)
			if err != nil {
				return err
			}
			o.p = p
			if o.round < 0 {
				return usageError{p.Err(i18n.Errorf("cli.round", o.round))}
			}
			r, err := pairings.ReadFile(args[0], o.round)
			if err != nil {
				return err
			}
			return printPairings(cmd.OutOrStdout(), r, o)
		},
	}
	cmd.Flags().IntVar(&o.round, "round", 0, "the round to read (default: the next to play)")
	cmd.Flags().BoolVar(&o.json, "json", false, "print one JSON object per board and per bye, a line each")
	addLangFlag(cmd, &lang)
	return cmd
}

func printPairings(w io.Writer, r *pairings.Round, o pairingsOptions) error {
	if o.json {
		enc := json.NewEncoder(w)
		for _, b := range r.Boards {
			if err := enc.Encode(b); err != nil {
				return err
			}
		}
		for _, b := range r.Byes {
			if err := enc.Encode(b); err != nil {
				return err
			}
		}
		return nil
	}
	var head []string
	if r.Event != "" {
		head = append(head, r.Event)
	}
	if r.Number > 0 {
		head = append(head, o.p.Sprintf("cli.pairings.round", strconv.Itoa(r.Number)))
	}
	if r.Date != "" {
		head = append(head, r.Date)
	}
	if len(head) > 0 {
		fmt.Fprintln(w, strings.Join(head, ", "))
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, o.p.Sprintf("cli.board-table.head"))
	for _, b := range r.Boards {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", b.Number, playerText(b.White), playerText(b.Black), dash(b.Result))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(r.Byes) > 0 {
		fmt.Fprintln(w, "\n"+o.p.Sprintf("cli.pairings.byes"))
		tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, b := range r.Byes {
			fmt.Fprintf(tw, "  %s\t%s\n", playerText(b.Player), o.p.Word("cli.bye."+b.Kind, strings.ReplaceAll(b.Kind, "-", " ")))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w, o.p.Sprintf("cli.pairings.total", len(r.Boards), len(r.Byes)))
	return err
}

// playerText is a player on a line: the starting number, then the title,
// name, federation and rating.
func playerText(p pairings.Player) string {
	if p.StartRank > 0 {
		return fmt.Sprintf("%d. %s", p.StartRank, p.Label())
	}
	return p.Label()
}
