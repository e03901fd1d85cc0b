package main

import (
	"github.com/spf13/cobra"

	"github.com/arbiterd/arbiterd/internal/demo"
)

func newDemoCmd() *cobra.Command {
	var o demo.Options
	var line, lang string
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Run an emulated game to a flag fall and show the verdict live",
		Long: `demo runs arbiterd's whole live path without hardware. An emulated DGT board
with a DGT 3000 clock on a pseudo-terminal plays the Immortal Game
(Anderssen–Kieseritzky, London 1851) under the FIDE standard control; a
flag falls before move 40. arbiterd reads the board through a real serial
port, records the capture, reconciles moves with clock presses into
completed moves (6.2.1), and gives the flag verdict citing the Laws (6.3.1,
6.4, 6.9). It leaves the capture, the event stream and the PGN in a folder
it names (--out, or a new temporary folder).

Where the system has no pseudo-terminals (Windows) the emulated board talks
to arbiterd over an in-process line instead, and the demo says so: the bytes
take the same live path, only the serial port is left out. --line
in-process asks for that line anywhere. --lang es shows the game and the
verdict in Spanish, the verdict's reason and the anomalies' sentences
included.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := printer(lang)
			if err != nil {
				return err
			}
			l, err := demo.ParseLine(line)
			if err != nil {
				return p.Err(usageError{err})
			}
			o.Line, o.Printer = l, p
			o.Progress = cmd.OutOrStdout()
			_, err = demo.Run(cmd.Context(), o)
			return p.Err(err)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Out, "out", "", "folder for the capture, events and PGN (default: a new temporary folder)")
	f.Float64Var(&o.Speed, "speed", demo.DefaultSpeed, "emulated game time per real second")
	f.Int64Var(&o.Seed, "seed", 1, "seed of the emulated hands' noise and think times")
	f.StringVar(&o.TimeControl, "tc", demo.DefaultTimeControl, "time control (shared notation, e.g. 40/5400+30:1800+30)")
	f.IntVar(&o.FlagPly, "flag-ply", demo.DefaultFlagPly, "ply at which the player to move oversteps its time (0: none)")
	f.StringArrayVar(&o.Faults, "fault", nil, "extra emulated fault, as for arbiterd emulate --fault")
	f.StringVar(&line, "line", "auto", "how the emulated board reaches arbiterd: auto (a pseudo-terminal where the system has them), pty or in-process")
	addLangFlag(cmd, &lang)
	return cmd
}
