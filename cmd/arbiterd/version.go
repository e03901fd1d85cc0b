package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/arbiterd/arbiterd/internal/buildinfo"
)

// versionString is what `arbiterd version` and `arbiterd --version`
// print: the release version (set by the release build), the VCS revision
// and its time (recorded by the Go toolchain, -buildvcs), the Go version
// and the platform.
func versionString() string { return buildinfo.Read().String() }

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the arbiterd version, the revision it was built from, and the Go version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintln(cmd.OutOrStdout(), versionString())
			return err
		},
	}
}
