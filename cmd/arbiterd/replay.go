package main

import (
	"errors"

	"github.com/spf13/cobra"
)

func newReplayCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "replay",
		Short: "Replay a capture and print the event stream",
		RunE: func(*cobra.Command, []string) error {
			return errors.New("replay: not yet available in this build")
		},
	}
}
