package web

import (
	"regexp"
	"strings"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/arbiterd/arbiterd/internal/i18n/evtext"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// The dashboard's rewordings of an event's sentence, done on its text (a
// code and its arguments, docs/events.md) so that they hold in every
// language: a span in seconds, a mate line in SAN, the count of illegal
// moves after presses back, a claim's frozen position and its mate line.
// An event without a text (a stream written before events had them) is
// reworded on its English sentence, as words.go does.

// textOf is e's text as a message of the catalogs, when it has one the
// catalogs know.
func textOf(e reconcile.Event) (i18n.Message, bool) {
	if e.Text.IsZero() || !evtext.Known(e.Text) {
		return i18n.Message{}, false
	}
	return evtext.Message(e.Text), true
}

// rewrite is m with f applied to each message in it, the nested ones
// first; m itself is not changed.
func rewrite(m i18n.Message, f func(i18n.Message) i18n.Message) i18n.Message {
	args := make([]any, len(m.Args))
	for i, a := range m.Args {
		if n, ok := a.(i18n.Message); ok {
			a = rewrite(n, f)
		}
		args[i] = a
	}
	return f(i18n.Message{Code: m.Code, Args: args})
}

// A span of seconds as the stream writes it, the whole argument ("12.345 s").
var spanArgRE = regexp.MustCompile(`^(\d+)\.\d+ s$`)

// A line of moves in UCI, the whole argument ("f6d7 c1g5 a7a6").
var uciArgRE = regexp.MustCompile(`^[a-h][1-8][a-h][1-8][qrbn]?( [a-h][1-8][a-h][1-8][qrbn]?)*$`)

// spans words a span in seconds as whole seconds ("12 seconds"); a text
// the stream took from elsewhere (an argument in English) is reworded as
// the English sentence is.
func spans(m i18n.Message) i18n.Message {
	if m.Code == reconcile.TextSpan && len(m.Args) == 2 {
		return i18n.M(reconcile.TextSeconds, m.Args[0])
	}
	for i, a := range m.Args {
		s, ok := a.(string)
		if !ok {
			continue
		}
		if sm := spanArgRE.FindStringSubmatch(s); sm != nil {
			n := 0
			for _, d := range sm[1] {
				n = n*10 + int(d-'0')
			}
			m.Args[i] = i18n.M(reconcile.TextSeconds, n)
		} else {
			m.Args[i] = spanRE.ReplaceAllString(s, "$1 seconds")
		}
	}
	return m
}

// sanLinesIn writes the mate line of a penalty's "for example" in SAN with
// move numbers, from fen; a line that does not play from it stays.
func sanLinesIn(fen string) func(i18n.Message) i18n.Message {
	return func(m i18n.Message) i18n.Message {
		if m.Code != reconcile.TextPenaltyMateYes || len(m.Args) != 3 {
			return m
		}
		if s, ok := m.Args[1].(string); ok && uciArgRE.MatchString(s) {
			if line, err := SANLine(fen, strings.Fields(s)); err == nil {
				m.Args[1] = line
			}
		}
		return m
	}
}

// countOf is the count a word of the stream's counts of illegal moves
// stands for ("second": 2), 0 when it is none.
func countOf(a any) int {
	m, ok := a.(i18n.Message)
	if !ok {
		return 0
	}
	for i, c := range reconcile.TextNthNames {
		if m.Code == c {
			return i + 1
		}
	}
	if strings.HasPrefix(m.Code, "event.ordinal.") && len(m.Args) == 1 {
		n, _ := m.Args[0].(int)
		return n
	}
	return 0
}

// recountText corrects the count of an illegal move of side in m when the
// stream counted presses back as illegal moves of side (recount).
func (w *wording) recountText(side clockd.Side, m i18n.Message) i18n.Message {
	k := w.miscount[side]
	if k == 0 {
		return m
	}
	return rewrite(m, func(x i18n.Message) i18n.Message {
		n := 0
		switch x.Code {
		case reconcile.TextPenaltyFirst:
			n = 1
		case reconcile.TextPenaltyNth:
			n = countOf(x.Args[1])
		}
		if n == 0 {
			return x
		}
		if n -= k; n <= 1 {
			return firstPenaltyMessage(side, w.class)
		}
		x.Args[1] = evtext.Message(reconcile.NthWord(n))
		return x
	})
}

// penaltyOf is the 7.5.5 clause of an illegal move's or a press without a
// move's text: its last argument.
func penaltyOf(m i18n.Message) (i18n.Message, bool) {
	if len(m.Args) == 0 {
		return i18n.Message{}, false
	}
	p, ok := m.Args[len(m.Args)-1].(i18n.Message)
	if !ok || (p.Code != reconcile.TextPenaltyFirst && p.Code != reconcile.TextPenaltyNth) {
		return i18n.Message{}, false
	}
	return p, true
}

// anomalyText words an anomaly from its text: spans in whole seconds, the
// count of illegal moves corrected, mate lines in SAN.
func (w *wording) anomalyText(e reconcile.Event, m i18n.Message) string {
	m = w.recountText(e.Side, rewrite(m, spans))
	return evtext.RenderMessage(w.p, rewrite(m, sanLinesIn(w.fen())))
}

// claimText words a claim from its text: the frozen position is the one
// the page draws (its side to move said), the recent moves numbered as a
// score sheet numbers them, and the mate line left to Mate when it is in
// SAN there.
func claimText(p *i18n.Printer, out *Alert, e reconcile.Event, m i18n.Message) (string, bool) {
	if m.Code != reconcile.TextClaim || len(m.Args) != 8 {
		return "", false
	}
	m.Code = "web.say.claim"
	m.Args[3] = i18n.M("web.say.white-to-move")
	if _, black := fullMove(e.FEN); black {
		m.Args[3] = i18n.M("web.say.black-to-move")
	}
	if moves, ok := m.Args[6].(string); ok {
		m.Args[6] = whiteMoveRE.ReplaceAllString(blackMoveRE.ReplaceAllString(moves, "$1… $2"), "$1. $2")
	}
	if why, ok := m.Args[7].(i18n.Message); ok && why.Code == reconcile.TextClaimMateYes && len(why.Args) == 3 && out.Mate != "" {
		m.Args[7] = i18n.M("web.say.claim.mate.yes", why.Args[0], why.Args[2])
	}
	return evtext.RenderMessage(p, m), true
}
