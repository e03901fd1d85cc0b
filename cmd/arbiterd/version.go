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
	var lang string
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the arbiterd version, the revision it was built from, and the Go version",
		Long: `version prints one line: the arbiterd version, the revision it was built
from and its time, the Go version and the platform. The line is the same
in every language (--lang is checked as every command checks it): it is
names and numbers, and the release checks and other scripts read it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if _, err := printer(lang); err != nil {
				return err
			}
			_, err := fmt.Fprintln(cmd.OutOrStdout(), versionString())
			return err
		},
	}
	addLangFlag(cmd, &lang)
	return cmd
}
