package i18n

import (
	"net/http"

	"golang.org/x/text/language"
)

// LangCookie is the cookie in which arbiterd's pages keep the language
// the person at the screen chose with the dashboard's switch (EN | ES).
const LangCookie = "arbiterd-lang"

// printers are the printers of the supported languages, by code.
var printers = func() map[string]*Printer {
	m := map[string]*Printer{}
	for _, t := range Supported {
		p := NewPrinter(t)
		m[p.Lang()] = p
	}
	return m
}()

// PrinterOf is the printer of t, English when arbiterd does not speak it.
// The printers are made once.
func PrinterOf(t language.Tag) *Printer {
	b, _ := Match(t).Base()
	if p, ok := printers[b.String()]; ok {
		return p
	}
	return English
}

// ForRequest is the language of an HTTP request to one of arbiterd's
// pages (the dashboard, the hall's and a venue's), in this order: the
// switch, kept in the LangCookie cookie (the person at the screen chose);
// fixed, the configuration's lang: (language.Und: none); the browser's
// Accept-Language; English. r may be nil: fixed, else English.
func ForRequest(r *http.Request, fixed language.Tag) *Printer {
	if r != nil {
		if c, err := r.Cookie(LangCookie); err == nil {
			if t, err := Parse("cookie", c.Value); err == nil {
				return PrinterOf(t)
			}
		}
	}
	if fixed != language.Und {
		return PrinterOf(fixed)
	}
	if r == nil {
		return English
	}
	return PrinterOf(FromAcceptLanguage(r.Header.Get("Accept-Language")))
}
