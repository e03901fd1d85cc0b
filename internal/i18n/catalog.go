package i18n

import (
	"sync"

	"golang.org/x/text/language"
	"golang.org/x/text/message/catalog"
)

// catalogsByLang are the catalogs, a code's message per language; each
// catalog_LANG.go file adds its own.
var catalogsByLang = map[language.Tag]map[string]string{
	language.English: catalogEN,
	language.Spanish: catalogES,
}

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
