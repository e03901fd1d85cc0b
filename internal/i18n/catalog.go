package i18n

import (
	"sync"

	"golang.org/x/text/language"
	"golang.org/x/text/message/catalog"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules"
	"github.com/arbiterd/arbiterd/rules/bitboard"
	"github.com/arbiterd/arbiterd/rules/reconcile"
	"github.com/arbiterd/arbiterd/rules/unwinnable"
)

// catalogsByLang are the catalogs, a code's message per language; each
// catalog_LANG.go file adds its own.
var catalogsByLang = map[language.Tag]map[string]string{
	language.English: catalogEN,
	language.Spanish: catalogES,
}

// packageSentences are the packages outside internal/ that keep their
// sentences as codes (they may import nothing of internal/): the English
// of each code is the format the package writes it with, so the English
// catalog takes it from there rather than holding a copy.
var packageSentences = []struct {
	codes  func() []string
	format func(string) (string, bool)
}{
	{clockd.TextCodes, clockd.EnglishFormat},
	{bitboard.TextCodes, bitboard.EnglishFormat},
	{rules.TextCodes, rules.EnglishFormat},
	{reconcile.TextCodes, reconcile.EnglishFormat},
	{func() []string { return []string{unwinnable.LabelCode} }, func(string) (string, bool) { return unwinnable.LabelFormat, true }},
}

// catalogEN is the English catalog: its own messages (catalog_en.go) and
// the packages' sentences.
var catalogEN = func() map[string]string {
	m := make(map[string]string, len(catalogENOwn)+256)
	for code, msg := range catalogENOwn {
		m[code] = msg
	}
	for _, p := range packageSentences {
		for _, code := range p.codes() {
			if _, dup := m[code]; dup {
				panic("i18n: " + code + " is both a package's sentence and the English catalog's")
			}
			m[code], _ = p.format(code)
		}
	}
	return m
}()

// catalogs builds the x/text catalog once.
var catalogs = sync.OnceValue(func() catalog.Catalog {
	b := catalog.NewBuilder(catalog.Fallback(language.English))
	for tag, msgs := range catalogsByLang {
		for code, msg := range msgs {
			if err := b.SetString(tag, code, msg); err != nil {
				panic("i18n: " + code + ": " + err.Error())
			}
		}
	}
	return b
})
