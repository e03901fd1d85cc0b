package main

import (
	"errors"

	"github.com/spf13/cobra"
)

func newEmulateCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "emulate",
		Short: "Emulate a DGT board and DGT 3000 clock on a pseudo-terminal",
		RunE: func(*cobra.Command, []string) error {
			return errors.New("emulate: not yet available in this build")
		},
	}
}
