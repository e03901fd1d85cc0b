package i18n

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// A Message is a sentence as its code in the catalogs and its arguments.
// An argument may be a Message (rendered in the same language first) or a
// [Cap] of one.
type Message struct {
	Code string
	Args []any
}

// M is the message of code with args.
func M(code string, args ...any) Message { return Message{Code: code, Args: args} }

// IsZero reports whether m has no code.
func (m Message) IsZero() bool { return m.Code == "" }

// String is m in English.
func (m Message) String() string { return English.Text(m) }

// Cap is an argument rendered with its first letter in capitals: a
// phrase that begins a sentence in some language ("las blancas" → "Las
// blancas").
type Cap struct{ Arg any }

// List is an argument rendered as its items joined by Sep (a string, or a
// Message for a word such as " and ").
type List struct {
	Sep   any
	Items []any
}

// A Printer renders messages in one language.
type Printer struct {
	tag language.Tag
	p   *message.Printer
}

// English and Spanish are the printers of the languages arbiterd speaks.
var (
	English = NewPrinter(language.English)
	Spanish = NewPrinter(language.Spanish)
)

// NewPrinter is the printer of tag, one of [Supported] (any other falls
// back to the closest, English at worst).
func NewPrinter(tag language.Tag) *Printer {
	t := Match(tag)
	return &Printer{tag: t, p: message.NewPrinter(t, message.Catalog(catalogs()))}
}

// Tag is the printer's language.
func (p *Printer) Tag() language.Tag { return p.tag }

// Lang is the printer's language as its two-letter code ("en", "es").
func (p *Printer) Lang() string {
	b, _ := p.tag.Base()
	return b.String()
}

// Text renders m.
func (p *Printer) Text(m Message) string { return p.Sprintf(m.Code, m.Args...) }

// Known reports whether code is in the catalogs.
func Known(code string) bool {
	_, ok := catalogEN[code]
	return ok
}

// Word is the message of code, or fallback when the catalogs have no such
// code (a value newer than the catalogs).
func (p *Printer) Word(code, fallback string) string {
	if !Known(code) {
		return fallback
	}
	return p.Sprintf(code)
}

// Capital renders m with its first letter in capitals.
func (p *Printer) Capital(m Message) string { return p.arg(Cap{m}).(string) }

// Sprintf renders the message of code with args.
func (p *Printer) Sprintf(code string, args ...any) string {
	if p == nil {
		p = English
	}
	a := make([]any, len(args))
	for i, x := range args {
		a[i] = p.arg(x)
	}
	return p.p.Sprintf(code, a...)
}

// arg prepares an argument: messages rendered, everything else formatted
// as the standard library formats it (the catalog's printer would group
// digits), with a decimal comma where the language writes one.
func (p *Printer) arg(x any) any {
	switch v := x.(type) {
	case Message:
		return p.Text(v)
	case Cap:
		s := fmt.Sprint(p.arg(v.Arg))
		r, n := utf8.DecodeRuneInString(s)
		return string(unicode.ToUpper(r)) + s[n:]
	case List:
		sep := fmt.Sprint(p.arg(v.Sep))
		var parts []string
		for _, it := range v.Items {
			parts = append(parts, fmt.Sprint(p.arg(it)))
		}
		return strings.Join(parts, sep)
	case string:
		return v
	case Localizer:
		return v.In(p)
	case Sentence:
		return p.Text(MessageOf(v))
	case float64, float32:
		return plain{v, p.decimalComma()}
	}
	return plain{x, false}
}

func (p *Printer) decimalComma() bool { return p.Lang() == "es" }

// plain formats its value with package fmt.
type plain struct {
	v     any
	comma bool
}

func (x plain) Format(s fmt.State, verb rune) {
	out := fmt.Sprintf(fmt.FormatString(s, verb), x.v)
	if x.comma {
		out = strings.Replace(out, ".", ",", 1)
	}
	s.Write([]byte(out))
}

// Formats are the messages of the codes that begin with prefix, in p's
// language, as formats (not rendered): for a renderer elsewhere, such as
// the dashboard's page. A code the language lacks has its English format.
func (p *Printer) Formats(prefix string) map[string]string {
	out := map[string]string{}
	for code, en := range catalogEN {
		if !strings.HasPrefix(code, prefix) {
			continue
		}
		if msg, ok := catalogsByLang[p.tag][code]; ok {
			out[code] = msg
		} else {
			out[code] = en
		}
	}
	return out
}
