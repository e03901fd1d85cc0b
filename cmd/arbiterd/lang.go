package main

import (
	"github.com/spf13/cobra"

	"github.com/arbiterd/arbiterd/internal/i18n"
)

// addLangFlag gives a command that prints text for people its --lang.
func addLangFlag(cmd *cobra.Command, lang *string) {
	cmd.Flags().StringVar(lang, "lang", "", "the `LANGUAGE` of the text for people, en or es (default: the environment's LC_ALL, LC_MESSAGES or LANG, or on Windows the display language; else English)")
}

// printer is the printer of the language --lang names, else the
// environment's; a language arbiterd does not speak is a usage error.
func printer(lang string) (*i18n.Printer, error) {
	t, err := i18n.Choose(lang, "")
	if err != nil {
		return nil, usageError{err}
	}
	return i18n.NewPrinter(t), nil
}
