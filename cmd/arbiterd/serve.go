package main

import (
	"errors"

	"github.com/spf13/cobra"
)

func newServeCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "serve",
		Short: "Run the daemon: many boards, the journal, the dashboard and the feeds",
		RunE: func(*cobra.Command, []string) error {
			return errors.New("serve: not yet available in this build")
		},
	}
}
