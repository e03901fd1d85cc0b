package main

import (
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/arbiterd/arbiterd/internal/boards/serve"
	"github.com/arbiterd/arbiterd/internal/config"
	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/arbiterd/arbiterd/internal/scaleout"
)

func newServeCmd() *cobra.Command {
	var (
		file                                            string
		listen, data, round, event, logFormat, logLevel string
		lang                                            string
		speed                                           float64
	)
	cmd := &cobra.Command{
		Use:   "serve --config FILE",
		Short: "Run the daemon: many boards, the journal, the dashboard and the feeds",
		Long: `serve runs every board of a round at once, as the configuration file
(YAML or TOML, by its extension) lists them: each board's game is journalled
in the data directory (round-R/board-B.capture, .events.jsonl and .pgn), an
unplugged board is reopened with back-off and its game goes on, and after a
restart unfinished games are replayed from their captures and continued.
The HTTP server (localhost by default) serves the live view and /metrics
(Prometheus). SIGINT or SIGTERM stops it after syncing every capture.
With pairings: FILE in the configuration (a pairing PGN, TRF-16 or CSV),
each board plays its number's pair of the round (without round: the file's
first round still to play), and the next round is loaded from the
dashboard (POST /api/round) without a restart.
Flags override the file. See docs/operations.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// The configuration's mistakes in the language of --lang (else
			// the environment's) until the file is read, then of its lang:.
			p, err := printer(lang)
			if err != nil {
				return err
			}
			c, err := loadConfig("serve", file, config.Load)
			if err != nil {
				return p.Err(err)
			}
			if t, err := i18n.Choose(lang, c.Lang); err == nil {
				p = i18n.NewPrinter(t)
			}
			f := cmd.Flags()
			for name, dst := range map[string]*string{"listen": &c.Listen, "data": &c.Data, "round": &c.Round,
				"event": &c.Event, "log-format": &c.LogFormat, "log-level": &c.LogLevel, "lang": &c.Lang} {
				if f.Changed(name) {
					v, _ := f.GetString(name)
					*dst = v
				}
			}
			if err := c.Validate(); err != nil {
				return p.Err(usageError{i18n.Errorf("config.after-flags", err)})
			}
			return p.Err(runServe(cmd, c, speed))
		},
	}
	f := cmd.Flags()
	f.StringVar(&file, "config", "", "configuration file (.yaml, .yml or .toml)")
	f.StringVar(&listen, "listen", "", "HTTP address, host:port (default from the file, else "+config.DefaultListen+")")
	f.StringVar(&data, "data", "", "data directory: the journal (default from the file, else "+config.DefaultData+")")
	f.StringVar(&round, "round", "", "round (names the journal directory round-R; with pairings, the file's round)")
	f.StringVar(&event, "event", "", "the event's name")
	f.StringVar(&logFormat, "log-format", "", "log format: text or json")
	f.StringVar(&logLevel, "log-level", "", "log level: debug, info, warn or error")
	f.StringVar(&lang, "lang", "", "the `LANGUAGE`, en or es, of the dashboard and /venue instead of each browser's, and of the configuration's errors (default from the file's lang:; the page's EN | ES switch still wins)")
	f.Float64Var(&speed, "emulated-speed", 1, "capture time per real second, for emulated boards playing faster than real time")
	f.MarkHidden("emulated-speed")
	return cmd
}

// runServe runs the daemon on a checked configuration until SIGINT or
// SIGTERM.
func runServe(cmd *cobra.Command, c *config.Config, speed float64) error {
	log := newLogger(cmd.ErrOrStderr(), c.LogFormat, c.LogLevel)
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	opts := serve.Options{Config: c, Logger: log, Speed: speed}
	var venue *scaleout.Venue
	if c.NATS != nil { // a venue of a larger event: publish to NATS JetStream (docs/scale-out.md)
		vo, err := scaleout.VenueOptionsFrom(c, log)
		if err != nil {
			return err
		}
		if venue, err = scaleout.OpenVenue(vo); err != nil {
			return err
		}
		opts.OnEvent = venue.OnEvent
		opts.FixedRound = "this PC is a venue of a hall (nats:), which it tells round " + c.Round +
			": a new round at a venue is a restart with its round (docs/scale-out.md)"
	}
	d, err := serve.New(opts)
	if err != nil {
		if venue != nil {
			venue.Close()
		}
		return err
	}
	if venue != nil {
		// The acts made at the hall are recorded here; /venue shows the link.
		venue.SetArbiter(d)
		d.Mount(serve.Mount{Pattern: "/venue", Handler: venue.Handler()}, serve.Mount{Pattern: "/api/venue", Handler: venue.Handler()})
		return venue.Serve(ctx, d.Hub(), d.Run)
	}
	return d.Run(ctx)
}

// loadConfig reads the configuration file named by --config, which the
// command requires.
func loadConfig[C any](command, file string, load func(path string) (C, error)) (C, error) {
	if file == "" {
		var none C
		return none, usageError{i18n.Errorf("config.required", command)}
	}
	return load(file)
}

func newLogger(w io.Writer, format, level string) *slog.Logger {
	var lv slog.Level
	lv.UnmarshalText([]byte(level)) // validated by config
	o := &slog.HandlerOptions{Level: lv}
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, o))
	}
	return slog.New(serve.NewTextHandler(w, o)) // paths shown as written
}
