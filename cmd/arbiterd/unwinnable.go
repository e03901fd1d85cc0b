package main

import (
	"errors"

	"github.com/spf13/cobra"
)

func newUnwinnableCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "unwinnable",
		Short: "Answer FIDE 6.9 queries: can this side still checkmate?",
		RunE: func(*cobra.Command, []string) error {
			return errors.New("unwinnable: not yet available in this build")
		},
	}
}
