package main

import (
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/arbiterd/arbiterd/internal/scaleout"
)

func newHallCmd() *cobra.Command {
	var file, listen, data, lang string
	cmd := &cobra.Command{
		Use:   "hall --config FILE",
		Short: "Gather every venue's boards over NATS JetStream into one dashboard and feeds",
		Long: `hall connects to the venues (arbiterd serve with nats: in its configuration)
as NATS leaf nodes, or joins a NATS cluster, and sources every venue's
streams into its own. It serves the same dashboard, JSON API, SSE stream,
LiveChess-compatible API and broadcast folders as serve, for every board of
every venue, and keeps each board's events and capture under its data
directory (venues/VENUE/round-R/board-B.events.jsonl and .capture), so that
arbiterd replay of the hall's copy gives the venue's events byte for byte.
/hall shows which venue is cut off and how far behind. See docs/scale-out.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// The configuration's mistakes in the language of --lang (else
			// the environment's) until the file is read, then of its lang:.
			p, err := printer(lang)
			if err != nil {
				return err
			}
			c, err := loadConfig("hall", file, scaleout.LoadHallConfig)
			if err != nil {
				return p.Err(err)
			}
			if t, err := i18n.Choose(lang, c.Lang); err == nil {
				p = i18n.NewPrinter(t)
			}
			if listen != "" {
				c.Listen = listen
			}
			if data != "" {
				c.Data = data
			}
			if lang != "" {
				c.Lang = lang
			}
			if err := c.Validate(); err != nil {
				return p.Err(usageError{err})
			}
			log := newLogger(cmd.ErrOrStderr(), c.LogFormat, c.LogLevel)
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return p.Err(scaleout.RunHall(ctx, c, log, nil))
		},
	}
	f := cmd.Flags()
	f.StringVar(&file, "config", "", "hall configuration file (.yaml, .yml or .toml)")
	f.StringVar(&listen, "listen", "", "HTTP address, host:port (default from the file)")
	f.StringVar(&data, "data", "", "data directory (default from the file)")
	f.StringVar(&lang, "lang", "", "the `LANGUAGE`, en or es, of the dashboard and /hall instead of each browser's, and of the configuration's errors (default from the file's lang:; the page's EN | ES switch still wins)")
	return cmd
}
