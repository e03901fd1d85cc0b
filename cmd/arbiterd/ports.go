package main

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/arbiterd/arbiterd/internal/serialport"
)

type portsOptions struct {
	json bool
}

func newPortsCmd() *cobra.Command {
	var o portsOptions
	cmd := &cobra.Command{
		Use:   "ports",
		Short: "List serial ports and mark likely chess boards",
		Long: `ports lists the serial ports of this machine with their USB vendor and
product ids and serial numbers, and marks the ones that are likely chess
boards (the FTDI FT232R bridge, 0403:6001, that USB DGT boards use, or a
product string naming DGT). A USB bridge is generic: "likely" is a hint.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ports, err := serialport.List()
			if err != nil && ports == nil {
				return fmt.Errorf("ports: %w", err)
			}
			if err != nil { // the ports were found, their USB details not
				fmt.Fprintf(cmd.ErrOrStderr(), "arbiterd ports: warning: %v\n", err)
			}
			return printPorts(cmd.OutOrStdout(), ports, o)
		},
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print a JSON array instead of a table")
	return cmd
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
		_, err := fmt.Fprintln(w, "no serial ports found (is the board plugged in? USB boards appear as /dev/ttyUSB* or /dev/ttyACM*)")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PORT\tUSB ID\tSERIAL\tPRODUCT\tLIKELY\tSTABLE NAME")
	for _, p := range ports {
		id := "-"
		if p.USB {
			id = p.VID + ":" + p.PID
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", p.Path, id, dash(p.SerialNumber), dash(p.Product), dash(p.Likely), dash(p.ByID))
	}
	return tw.Flush()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
