// Package evtext renders the sentences of the event stream (an event's
// text: rules/reconcile's Text, a code and its arguments) in a reader's
// language through the catalogs of internal/i18n. An event without a
// text, or with a code the catalogs do not know (a stream newer than this
// binary), is shown as it came: its detail or reason, in English.
package evtext

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// Message is t as a message of the catalogs: nested texts become nested
// messages, numbers and strings stay as they are.
func Message(t reconcile.Text) i18n.Message {
	args := make([]any, len(t.Args))
	for i, a := range t.Args {
		if n, ok := a.(reconcile.Text); ok {
			a = Message(n)
		}
		args[i] = a
	}
	return i18n.M(t.Code, args...)
}

// Known reports whether the catalogs know t's code and those of every
// text nested in it.
func Known(t reconcile.Text) bool {
	if !i18n.Known(t.Code) {
		return false
	}
	for _, a := range t.Args {
		if n, ok := a.(reconcile.Text); ok && !Known(n) {
			return false
		}
	}
	return true
}

// Render is t in p's language (English when p is nil), or "" when the
// catalogs do not know it. English is the catalog's rendering as it is:
// the event's detail or reason, byte for byte. In another language a
// sentence that begins with a word the catalog writes in small letters
// (a side: "las blancas") begins with a capital; "arbiterd" keeps its
// small letter.
func Render(p *i18n.Printer, t reconcile.Text) string {
	if t.IsZero() || !Known(t) {
		return ""
	}
	return RenderMessage(p, Message(t))
}

// RenderMessage is m, a text's message (Message) a view may have changed
// (an argument reworded, a clause left out), in p's language (English when
// p is nil), its sentences capitalised as Render's.
func RenderMessage(p *i18n.Printer, m i18n.Message) string {
	if p == nil {
		p = i18n.English
	}
	s := p.Text(m)
	if p.Lang() != "en" {
		s = capitalise(s)
	}
	return s
}

// Sentence is e's sentence in p's language. In English (p nil or
// English) it is the event's own detail (an anomaly) or reason (the
// others), which is its text's English; in another language it is its
// text rendered, or, for an event without one the catalogs know (a stream
// written before), the detail or reason as the stream has it.
func Sentence(p *i18n.Printer, e reconcile.Event) string {
	own := string(e.Reason)
	if e.Type == reconcile.TypeAnomaly {
		own = e.Detail
	}
	if p == nil || p.Lang() == "en" {
		return own
	}
	if s := Render(p, e.Text); s != "" {
		return s
	}
	return own
}

// capitalise writes a capital at the start of s and of every sentence in
// it (after ". "), unless the word there is arbiterd's name.
func capitalise(s string) string {
	var b strings.Builder
	start := true
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if start && !unicode.IsSpace(r) {
			if unicode.IsLower(r) && !strings.HasPrefix(s[i:], "arbiterd") {
				r = unicode.ToUpper(r)
			}
			start = false
		}
		b.WriteRune(r)
		if r == '.' && strings.HasPrefix(s[i+n:], " ") {
			start = true
		}
		i += n
	}
	return b.String()
}
