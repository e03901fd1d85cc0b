package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/arbiterd/arbiterd/internal/replay"
)

type replayOptions struct {
	capture string
	stats   bool
}

func newReplayCmd() *cobra.Command {
	var o replayOptions
	cmd := &cobra.Command{
		Use:   "replay CAPTURE",
		Short: "Replay a capture and print the event stream",
		Long: `replay reads a capture v1 file (the journal the daemon writes) and feeds
the bytes read from each port through the same decoders as the live
daemon. For now it prints every decoded board and clock message as one
JSON object per line: t (seconds since the capture started), port, type
and the decoded fields. A malformed capture stops it with the line number
and exit status 1.`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError{errors.New("replay: want exactly one argument, the capture file")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.capture = args[0]
			return runReplay(cmd, o)
		},
	}
	cmd.Flags().BoolVar(&o.stats, "stats", false, "print decoder counters per port to stderr at the end")
	return cmd
}

func runReplay(cmd *cobra.Command, o replayOptions) error {
	f, err := os.Open(o.capture)
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	defer f.Close()
	out := bufio.NewWriter(cmd.OutOrStdout())
	st, err := replay.Run(bufio.NewReader(f), replay.Options{}, func(m replay.Message) error {
		b, err := replay.JSON(m)
		if err != nil {
			return err
		}
		out.Write(b)
		return out.WriteByte('\n')
	})
	if ferr := out.Flush(); err == nil && ferr != nil {
		err = ferr
	}
	if err != nil {
		return fmt.Errorf("replay %s: %w", o.capture, err)
	}
	if o.stats {
		w := cmd.ErrOrStderr()
		fmt.Fprintf(w, "%d lines, %d reads, %d writes, %d messages\n", st.Lines, st.Reads, st.Writes, st.Messages)
		for name, s := range st.Ports {
			fmt.Fprintf(w, "port %s: %d bytes, %d frames, %d messages, %d unknown, %d corrupt, %d noise, %d bytes skipped\n",
				name, s.Bytes, s.Frames, s.Messages, s.Unknown, s.Corrupt, s.Noise, s.Skipped)
		}
	}
	return nil
}
