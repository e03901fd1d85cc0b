package main

import (
	"errors"

	"github.com/spf13/cobra"
)

func newDemoCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "demo",
		Short: "Run an emulated game to a flag fall and show the verdict live",
		RunE: func(*cobra.Command, []string) error {
			return errors.New("demo: not yet available in this build")
		},
	}
}
