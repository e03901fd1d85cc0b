package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// usageError marks an error in how the command was called (bad flag or
// argument); it exits with status 2, every other failure with 1.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func exitCode(err error) int {
	var u usageError
	if errors.As(err, &u) {
		return 2
	}
	return 1
}

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "arbiterd",
		Short: "Reconcile electronic boards and clocks into completed moves and flag-fall verdicts",
		Long: `arbiterd reads electronic chess boards (DGT and others) and chess clocks,
reconciles the moves the board sees with the presses the clock sees into
completed moves (FIDE Law 6.2.1), and when a flag falls tells the arbiter
whether the time control was reached and what the verdict is (6.3.1, 6.4, 6.9).`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       versionString(), // --version, as the version command prints it
	}
	root.SetVersionTemplate("{{.Version}}\n")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.AddCommand(
		newVersionCmd(),
		newDemoCmd(),
		newEmulateCmd(),
		newPortsCmd(),
		newReplayCmd(),
		newUnwinnableCmd(),
		newServeCmd(),
		newAuditCmd(),
		newHallCmd(),
		newPairingsCmd(),
		newResultsCmd(),
	)
	return root
}
