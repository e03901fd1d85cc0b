package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/arbiterd/arbiterd/internal/device/serialport"
	"github.com/arbiterd/arbiterd/internal/i18n"
)

type portsOptions struct {
	json bool
	p    *i18n.Printer // the table's language (nil: English)
}

func newPortsCmd() *cobra.Command {
	var (
		o    portsOptions
		lang string
	)
	cmd := &cobra.Command{
		Use:   "ports",
		Short: "List serial ports and mark likely chess boards",
		Long: `ports lists the serial ports of this machine with their USB vendor and
product ids and serial numbers, and marks the ones that are likely chess
boards (the FTDI FT232R bridge, 0403:6001, that USB DGT boards use, or a
product string or port name saying DGT). A USB bridge is generic: "likely"
is a hint. On Windows ports are COM ports (COM3; a Bluetooth board's too);
a macOS build without cgo lists the ports by name only.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := printer(lang)
			if err != nil {
				return err
			}
			o.p = p
			return runPorts(cmd.OutOrStdout(), cmd.ErrOrStderr(), serialport.List, o)
		},
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print a JSON array instead of a table")
	addLangFlag(cmd, &lang)
	return cmd
}

// runPorts prints what list finds; ports found without their USB details
// are printed, with a note on stderr saying why.
func runPorts(w, errw io.Writer, list func() ([]serialport.Info, error), o portsOptions) error {
	ports, err := list()
	if err != nil && ports == nil {
		return fmt.Errorf("ports: %w", err)
	}
	switch {
	case errors.Is(err, serialport.ErrNoDetails): // by design in this build
		fmt.Fprintf(errw, "arbiterd ports: %v\n", serialport.ErrNoDetails)
	case err != nil: // the ports were found, their USB details not
		fmt.Fprintf(errw, "arbiterd ports: warning: %v\n", err)
	}
	return printPorts(w, ports, o)
}

func printPorts(w io.Writer, ports []serialport.Info, o portsOptions) error {
	if o.json {
		if ports == nil {
			ports = []serialport.Info{}
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(ports)
	}
	if len(ports) == 0 {
		_, err := fmt.Fprintln(w, o.p.Sprintf("cli.ports.none", portsHintIn(o.p, runtime.GOOS)))
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, o.p.Sprintf("cli.ports.head"))
	for _, p := range ports {
		id := "-"
		if p.USB {
			id = p.VID + ":" + p.PID
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", p.Path, id, dash(p.SerialNumber), dash(p.Product), dash(p.Likely), dash(p.ByID))
	}
	return tw.Flush()
}

// portsHint says how boards show up on goos.
func portsHint(goos string) string { return portsHintIn(i18n.English, goos) }

// portsHintIn is portsHint in p's language.
func portsHintIn(p *i18n.Printer, goos string) string {
	switch goos {
	case "windows":
		return p.Sprintf("cli.ports.hint.windows")
	case "darwin":
		return p.Sprintf("cli.ports.hint.darwin")
	}
	return p.Sprintf("cli.ports.hint.other")
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
