package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"sync"

	"github.com/spf13/cobra"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/arbiterd/arbiterd/internal/textin"
)

type emulateOptions struct {
	pgnFile    string
	tc         string
	periodBy   string
	speed      float64
	seed       int64
	whiteRight bool
	bits2015   bool
	reversed   bool
	faults     []string
	wait       bool
	end        string
	exit       bool
	verbose    bool
	link       string
	listen     string
	lang       string
}

func newEmulateCmd() *cobra.Command {
	var o emulateOptions
	cmd := &cobra.Command{
		Use:   "emulate",
		Short: "Emulate a DGT board and DGT 3000 clock on a pseudo-terminal or on TCP",
		Long: `emulate opens a pseudo-terminal, prints its path as the first line of output
("device /dev/pts/N") and behaves on it like a DGT board with a DGT 3000
clock: it answers the host's commands and plays a game with the noise of
real hands (slides, captures either way round, castling either piece
first) and presses the clock after each move. Point arbiterd (or any DGT
host) at the printed device. Pseudo-terminals are Linux's and macOS's;
with --listen HOST:PORT the board is offered on TCP instead, as a serial
server offers a board, on every system (Windows included): the first line
is then "device tcp://HOST:PORT", the port to put in arbiterd's
configuration. A host may go and connect again; the game goes on
meanwhile. --lang es says the rest in Spanish; the "device" line, and the
"link PATH -> DEVICE" line that follows it with --link, stay as they are
in every language, for the scripts that read them.

The game is the first one of --pgn FILE, or the Immortal Game
(Anderssen–Kieseritzky, London 1851) when none is given. The clock is set
from --tc in the time-control notation: periods separated by ':', each
[MOVES/]SECONDS[MODE] with MODE +N (Fischer), dN (simple delay) or bN
(Bronstein), e.g. 40/5400+30:1800+30, 300d5, 300b5; FIDE-style text such
as "90/40+30+30s" is accepted too.

--fault adds a scripted fault or special action (repeat --fault for
several):

` + emulator.ActionSyntax,
		Example: `  arbiterd emulate --speed 50 -v --tc 40/5400+30:1800+30 --fault flag@ply=30
  arbiterd emulate --speed 50 --wait --link /tmp/arbiterd-board-1   # the port named in docs/examples/emulated.yaml
  arbiterd emulate --speed 50 --wait --listen 127.0.0.1:4001             # the port tcp://127.0.0.1:4001 (docs/examples/emulated-tcp.yaml)
  arbiterd emulate --pgn game.pgn --tc 300b5 --wait --fault garbage@ply=20,n=16
  arbiterd emulate --pgn long.pgn --period-by after-presses --fault early-period@ply=77`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := printer(o.lang)
			if err != nil {
				return err
			}
			cfg, err := o.config()
			if err != nil {
				return p.Err(usageError{err})
			}
			if o.link != "" && o.listen != "" {
				return p.Err(usageError{i18n.Errorf("emulate.link-listen")})
			}
			if o.listen != "" {
				return p.Err(runEmulateNet(cmd.Context(), cmd, p, cfg, o.listen))
			}
			return p.Err(runEmulate(cmd.Context(), cmd, p, cfg, o.link))
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.pgnFile, "pgn", "", "PGN file whose first game is played (default: the Immortal Game, 1851)")
	f.StringVar(&o.tc, "tc", "40/5400+30:1800+30", "time control set on the clock")
	f.StringVar(&o.periodBy, "period-by", "at-flag", "how the clock adds the next period: at-flag (to both at the first flag) or after-presses (after a player's N presses)")
	f.Float64Var(&o.speed, "speed", 1, "emulated time per real time (50 plays fifty times faster)")
	f.Int64Var(&o.seed, "seed", 1, "seed of all randomness (same seed, same game noise)")
	f.BoolVar(&o.whiteRight, "white-right", false, "White's time is on the right clock face")
	f.BoolVar(&o.bits2015, "turn-bits-2015", false, "set the clock's turn bits as the 2015 protocol revision reads them (D3 right) instead of as real boards do (D3 left)")
	f.BoolVar(&o.reversed, "reversed", false, "the board stands with Black at the bottom")
	f.StringArrayVar(&o.faults, "fault", nil, "scripted fault or action, KIND@ply=N[,key=value] (see above)")
	f.BoolVar(&o.wait, "wait", false, "start the clock only when the host sends its first command")
	f.StringVar(&o.end, "end", "stop", "after the last move: stop (the players stop the clock) or flag (the side to move runs out of time)")
	f.BoolVar(&o.exit, "exit", false, "exit when the game is over instead of answering until interrupted")
	f.BoolVarP(&o.verbose, "verbose", "v", false, "print each move, press, period, flag and scripted action as it happens")
	f.StringVar(&o.listen, "listen", "", "offer the board on TCP at `HOST:PORT` instead of a pseudo-terminal (every system; arbiterd's port tcp://HOST:PORT)")
	addLangFlag(cmd, &o.lang)
	f.StringVar(&o.link, "link", "", "also offer the board at `PATH`, a symbolic link to the pseudo-terminal made before the emulator answers (removed at exit): a fixed port name for arbiterd serve's configuration")
	return cmd
}

func (o *emulateOptions) config() (emulator.Config, error) {
	cfg := emulator.Config{
		Speed:        o.speed,
		Seed:         o.seed,
		WhiteOnRight: o.whiteRight,
		TurnBits2015: o.bits2015,
		Reversed:     o.reversed,
		Wait:         o.wait,
		Linger:       !o.exit,
	}
	if o.speed <= 0 {
		return cfg, i18n.Errorf("emulate.speed", o.speed)
	}
	// clockd reads every form of the notation (FIDE-style text too);
	// its normal form is what the emulator's clock is set from.
	tc, err := clockd.ParseTimeControl(o.tc)
	if err != nil {
		return cfg, fmt.Errorf("--tc: %w", err)
	}
	periods, err := emulator.ParseTimeControl(tc.String())
	if err != nil {
		return cfg, fmt.Errorf("--tc %q: %w", o.tc, err)
	}
	cfg.Periods = periods
	if cfg.PeriodBy, err = choice("--period-by", o.periodBy, []string{"at-flag", "after-presses"}, emulator.AtFlag, emulator.AfterPresses); err != nil {
		return cfg, err
	}
	if cfg.End, err = choice("--end", o.end, []string{"stop", "flag"}, emulator.EndStop, emulator.EndFlag); err != nil {
		return cfg, err
	}
	cfg.PGN = emulator.DefaultPGN
	if o.pgnFile != "" {
		b, err := os.ReadFile(o.pgnFile)
		if err != nil {
			return cfg, fmt.Errorf("--pgn: %w", plainError(err))
		}
		if cfg.PGN, err = textin.String(b); err != nil {
			return cfg, fmt.Errorf("--pgn %s: %w", o.pgnFile, err)
		}
	}
	for _, s := range o.faults {
		a, err := emulator.ParseAction(s)
		if err != nil {
			return cfg, fmt.Errorf("--fault: %w", err)
		}
		cfg.Script = append(cfg.Script, a)
	}
	return cfg, nil
}

// choice is the value a flag's word names: values[i] for words[i].
func choice[T any](flag, word string, words []string, values ...T) (T, error) {
	if i := slices.Index(words, word); i >= 0 {
		return values[i], nil
	}
	var none T
	items := make([]any, len(words))
	for i, w := range words {
		items[i] = w
	}
	return none, i18n.Errorf("emulate.choice", flag, word, i18n.List{Sep: i18n.M("emulate.or"), Items: items})
}

func runEmulate(ctx context.Context, cmd *cobra.Command, p *i18n.Printer, cfg emulator.Config, link string) error {
	out := cmd.OutOrStdout()
	if verbose, _ := cmd.Flags().GetBool("verbose"); verbose {
		cfg.Observe = func(n emulator.Note) { fmt.Fprint(out, noteLine(p, n)) }
	}
	em, err := emulator.New(cfg)
	if err != nil {
		return usageError{err}
	}
	master, path, err := emulator.OpenPTY()
	if errors.Is(err, emulator.ErrNoPTY) {
		return i18n.Errorf("emulate.no-pty", err)
	}
	if err != nil {
		return err
	}
	defer master.Close()
	fmt.Fprintf(out, "device %s\n", path)
	if link != "" {
		// The link is in place before the board answers, so a host
		// started at the same time finds the port as soon as it exists.
		if err := emulator.ReplaceLink(link, path); err != nil {
			return fmt.Errorf("--link: %w", err)
		}
		defer func() {
			if target, err := os.Readlink(link); err == nil && target == path {
				os.Remove(link)
			}
		}()
		fmt.Fprintf(out, "link %s -> %s\n", link, path)
	}
	fmt.Fprintln(out, p.Sprintf("emulate.playing", em.Plies(), cfg.Speed, cfg.Seed))
	return emulateResult(out, p, em.Run(ctx, master))
}

// runEmulateNet offers the emulated board on a TCP listener at addr.
func runEmulateNet(ctx context.Context, cmd *cobra.Command, p *i18n.Printer, cfg emulator.Config, addr string) error {
	out := cmd.OutOrStdout()
	var mu sync.Mutex // the line's goroutines and the game's notes print
	say := func(format string, a ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(out, format, a...)
	}
	if verbose, _ := cmd.Flags().GetBool("verbose"); verbose {
		cfg.Observe = func(n emulator.Note) { say("%s", noteLine(p, n)) }
	}
	em, err := emulator.New(cfg)
	if err != nil {
		return usageError{err}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("--listen %s: %w", addr, plainError(err))
	}
	line := emulator.ListenLine(ln, func(remote string, connected bool) {
		if connected {
			say("%s\n", p.Sprintf("emulate.host-connected", remote))
		} else {
			say("%s\n", p.Sprintf("emulate.host-gone", remote))
		}
	})
	defer line.Close()
	say("device tcp://%s\n", line.Addr())
	say("%s\n", p.Sprintf("emulate.playing", em.Plies(), cfg.Speed, cfg.Seed))
	err = em.Run(ctx, line)
	mu.Lock()
	defer mu.Unlock()
	return emulateResult(out, p, err)
}

// noteLine is the -v line of a note in p's language: the emulated time,
// the ply and what happened.
func noteLine(p *i18n.Printer, n emulator.Note) string {
	ply := ""
	if n.Ply > 0 {
		ply = p.Sprintf("emulate.ply", n.Ply)
	}
	text := n.Text
	if !n.Msg.IsZero() {
		text = p.Text(n.Msg)
	}
	return fmt.Sprintf("%10.1fs  %s%s\n", n.At.Seconds(), ply, text)
}

// emulateResult says how the emulation ended, and whether that is an
// error.
func emulateResult(out io.Writer, p *i18n.Printer, err error) error {
	switch {
	case err == nil:
		fmt.Fprintln(out, p.Sprintf("emulate.game-over"))
		return nil
	case errors.Is(err, context.Canceled):
		return nil // interrupted: the normal way to stop
	case errors.Is(err, emulator.ErrUnplugged):
		fmt.Fprintln(out, p.Sprintf("emulate.unplugged"))
		return nil
	}
	return err
}
