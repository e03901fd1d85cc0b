// Command arbiterd reads electronic chess boards and clocks, reconciles
// them into completed moves (FIDE Law 6.2.1) and tells the arbiter, citing
// the Laws, what a flag fall means.
//
// main stays thin: it sets up signals and the exit code; each subcommand
// fills an options struct and calls into a package.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	root := newRootCmd()
	if err := root.ExecuteContext(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "arbiterd:", plainError(err))
		os.Exit(exitCode(err))
	}
}
