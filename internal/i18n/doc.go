// Package i18n holds the words arbiterd shows people, in each language it
// speaks, and chooses the language.
//
// Every sentence has a language-neutral code ("audit.flag-before-control")
// and a message per language in a catalog: catalog_en.go and catalog_es.go,
// one file per language, built into a golang.org/x/text/message catalog.
// A sentence is kept as a [Message] — its code and its arguments, which
// may be messages themselves — and rendered by a [Printer] in the reader's
// language; the English rendering of a message is byte for byte the
// sentence arbiterd printed before it had catalogs. Adding a language is
// writing one more catalog file with every code of catalog_en.go
// (TestCatalogsComplete fails on a missing or extra code, and on a message
// that drops or adds an argument) and listing it in [Supported].
//
// The language comes, in this order, from a command's --lang flag, the
// configuration's lang:, the environment (LC_ALL, LC_MESSAGES, LANG; on
// Windows, when none is set, the user's display language), and is English
// otherwise ([Choose]). The dashboard follows the browser's
// Accept-Language unless the configuration fixes it ([FromAcceptLanguage]).
//
// Numbers are written without grouping, as the PGN and the clocks write
// them; Spanish writes a decimal comma. docs/i18n.md has the design.
package i18n
