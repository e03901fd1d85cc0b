package audit

import (
	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/i18n"
)

// The findings' sentences are messages of the catalogs in internal/i18n:
// a Finding keeps its message and its English rendering (Detail), and the
// sinks render the message in their printer's language.

// m is the message of code with args.
func m(code string, args ...any) i18n.Message { return i18n.M(code, args...) }

// sideMsg names a side as a sentence names the player: "White".
func sideMsg(s clockd.Side) i18n.Message {
	if s == clockd.Black {
		return m("side.black")
	}
	return m("side.white")
}

// sideLower names a side inside a sentence: "white".
func sideLower(s clockd.Side) i18n.Message {
	if s == clockd.Black {
		return m("side.black.lower")
	}
	return m("side.white.lower")
}

// sideWord labels a finding's side in the table and the HTML report
// ("white", "black"; "" for the game, or "game" when asked).
func sideWord(side string, game bool) i18n.Message {
	switch side {
	case "white":
		return m("side.white.label")
	case "black":
		return m("side.black.label")
	}
	if game {
		return m("side.game")
	}
	return m("")
}

// sideInitial is a side's letter in the table's cells ("W", "B").
func sideInitial(side string) i18n.Message {
	if side == "black" {
		return m("side.black.short")
	}
	return m("side.white.short")
}

// kindWord is a finding's kind as people read it.
func kindWord(kind string) i18n.Message { return m("audit.kind." + kind) }

// finding is a Finding with its sentence.
func finding(kind string, sd clockd.Side, move int, article string, msg i18n.Message) Finding {
	return Finding{Kind: kind, Side: sd.String(), Move: move, Article: article, Message: msg, Detail: msg.String()}
}

// setMessage gives f its sentence.
func (f *Finding) setMessage(msg i18n.Message) {
	f.Message, f.Detail = msg, msg.String()
}

// Text is the finding's sentence in p's language.
func (f *Finding) Text(p *i18n.Printer) string {
	if p == nil || f.Message.IsZero() || p.Lang() == "en" {
		return f.Detail
	}
	return p.Text(f.Message)
}
