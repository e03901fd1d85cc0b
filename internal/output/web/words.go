package web

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/arbiterd/arbiterd/internal/i18n/evtext"
	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/rules"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// The arbiter reads an alert at the board: "on move 15, with White on
// 1:31:13 and Black on 1:30:24", not "at 1497.985 s" of a capture nobody
// at the board can see. The event stream's texts are written where the
// events are made (rules/reconcile); the dashboard words each alert again
// from the events' structured fields and from the stream around it: the
// move the game was at, the clocks as the players saw them, the mate line
// of a 6.9 verdict in SAN with move numbers.

// Alert is an alert as the dashboard shows it: the hub's alert and the
// words for the arbiter.
type Alert struct {
	hub.Alert
	// Label names the alert's kind in words ("press without a move").
	Label string `json:"label"`
	// Move is the game's move number when the alert was raised (the full
	// move of the position the record was at; 0 when unknown).
	Move int `json:"move,omitempty"`
	// Clock is what both clocks showed at the latest reading up to the
	// alert (for a press, the press's own reading); absent before any.
	Clock *clockSeconds `json:"clock,omitempty"`
	// Say is the alert's text in the arbiter's terms.
	Say string `json:"say"`
	// Mate is a flag verdict's mate line in SAN with move numbers
	// ("19… Ne7 20. Bxe7 Bc5 21. Nc7#"): a series of legal moves by which
	// the opponent can still checkmate (6.9).
	Mate string `json:"mate,omitempty"`
	// PressBack marks a press that gave the turn back after the
	// opponent's press without a move: no illegal move of its side.
	PressBack bool `json:"press_back,omitempty"`
	// Position is the FEN of the position the alert is about, where that
	// is not simply the board's (a claim's frozen position): the page
	// draws it rather than printing it.
	Position string `json:"position,omitempty"`
}

type clockSeconds struct {
	White float64 `json:"white"`
	Black float64 `json:"black"`
}

// View is a board's state as the dashboard shows it: the hub's state
// with each alert in the arbiter's words.
type View struct {
	hub.Board
	Alerts []Alert `json:"alerts"`
	// Link is the board's link to the venue that plays it, where the
	// server shows boards played elsewhere (a hall; Options.Link); nil
	// elsewhere.
	Link *Link `json:"link,omitempty"`
}

// label names an alert's kind in words ("press without a move"), from
// the catalogs (web.kind.*); a kind they lack is its name with spaces.
func label(p *i18n.Printer, kind string) string {
	return p.Word("web.kind."+kind, strings.ReplaceAll(kind, "-", " "))
}

// sideWord is a side as a sentence names it: "White", "las blancas".
func sideWord(s clockd.Side) i18n.Message {
	if s == clockd.Black {
		return i18n.M("side.black")
	}
	return i18n.M("side.white")
}

// hms writes a clock as a clock shows it: 1:30:24, or 4:05 under an hour.
func hms(seconds float64) string {
	s := int64(seconds)
	if s < 0 {
		s = 0
	}
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

func clocksText(p *i18n.Printer, t clockd.Times) string {
	return p.Sprintf("web.say.clocks", hms(t.White.Seconds()), hms(t.Black.Seconds()))
}

// fullMove is the move number and side to move of a FEN.
func fullMove(fen string) (int, bool) {
	f := strings.Fields(fen)
	if len(f) < 6 {
		return 0, false
	}
	n, err := strconv.Atoi(f[5])
	if err != nil || n < 1 {
		return 0, false
	}
	return n, f[1] == "b"
}

// SANLine writes a line of UCI moves from fen in SAN with move numbers:
// "19… Ne7 20. Bxe7 Bc5 21. Nc7#". The error names the first move that is
// not legal in its position.
func SANLine(fen string, uci []string) (string, error) {
	g, err := rules.NewGame(fen)
	if err != nil {
		return "", err
	}
	n, black := fullMove(g.FEN())
	if n == 0 {
		n = 1
	}
	var b strings.Builder
	for i, m := range uci {
		if err := g.MoveUCI(m); err != nil {
			return "", fmt.Errorf("web: mate line move %d (%s): %w", i+1, m, err)
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		switch {
		case !black:
			fmt.Fprintf(&b, "%d. ", n)
		case i == 0:
			fmt.Fprintf(&b, "%d… ", n)
		}
		b.WriteString(g.SAN(g.Ply()))
		if black {
			n++
		}
		black = !black
	}
	return b.String(), nil
}

// The penalty sentence of an illegal move, as rules/reconcile words it.
var penaltyRE = regexp.MustCompile(`This is (White|Black)'s (\w+) completed illegal move: .*$`)

// A mate line in UCI in an event's text ("(for example f6d7 c1g5 a7a6 c4f7)").
var uciLineRE = regexp.MustCompile(`\(for example ((?:[a-h][1-8][a-h][1-8][qrbn]?)(?: [a-h][1-8][a-h][1-8][qrbn]?)*)\)`)

// sanLines writes the UCI mate lines of text in SAN with move numbers,
// from fen, the position they start from; a line that does not play from
// it stays as it is.
func sanLines(text, fen string) string {
	return uciLineRE.ReplaceAllStringFunc(text, func(m string) string {
		line, err := SANLine(fen, strings.Fields(uciLineRE.FindStringSubmatch(m)[1]))
		if err != nil {
			return m
		}
		return "(for example " + line + ")"
	})
}

// A span of seconds in an event's text ("For 12.345 s the board …").
var spanRE = regexp.MustCompile(`\b(\d+)\.\d+ s\b`)

// ordinalOf reads a count the alerts word with reconcile.Nth.
func ordinalOf(w string) int {
	for n := 1; n <= 4; n++ {
		if reconcile.Nth(n) == w {
			return n
		}
	}
	n, _ := strconv.Atoi(strings.TrimRight(w, "stndrh"))
	return n
}

// firstPenalty words 7.5.5 for a side's first completed illegal move.
func firstPenalty(p *i18n.Printer, side clockd.Side, class clockd.Class) string {
	return p.Text(firstPenaltyMessage(side, class))
}

func firstPenaltyMessage(side clockd.Side, class clockd.Class) i18n.Message {
	amount, rule := i18n.M("web.say.2min"), "7.5.5"
	if class == clockd.Rapid || class == clockd.Blitz {
		amount, rule = i18n.M("web.say.1min"), "7.5.5, A.3"
	}
	return i18n.M("web.say.first-penalty", sideWord(side), amount, sideWord(side.Other()), rule)
}

// wording follows a board's event stream up to each alert: what the
// record and the clocks were, which presses gave the turn back.
type wording struct {
	p     *i18n.Printer // the language of the sentences worded here
	class clockd.Class
	start string   // the start position
	fens  []string // fens[p-1]: the record after ply p
	clock *clockd.Times
	press [2]*reconcile.Event // the latest press of each side
	// pending (when hasPend) is the side whose press without a move no
	// move has followed yet: its opponent's press gives the turn back.
	pending   clockd.Side
	hasPend   bool
	miscount  [2]int // presses back the stream counted as illegal moves
	lastEvent int
}

func newWording(p *i18n.Printer, timeControl string) *wording {
	w := &wording{p: p, start: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}
	if tc, err := clockd.ParseTimeControl(timeControl); err == nil {
		w.class = tc.Class()
	}
	return w
}

func (w *wording) fen() string {
	if n := len(w.fens); n > 0 {
		return w.fens[n-1]
	}
	return w.start
}

// step follows one event of the stream.
func (w *wording) step(e reconcile.Event) {
	w.lastEvent = e.Seq
	switch e.Type {
	case reconcile.TypePosition:
		if e.FEN != "" && len(w.fens) == 0 {
			w.start = e.FEN
		}
	case reconcile.TypeMove:
		if e.Ply >= 1 {
			for len(w.fens) < e.Ply-1 {
				w.fens = append(w.fens, w.fen())
			}
			w.fens = append(w.fens[:e.Ply-1], e.FEN)
		}
		w.hasPend = false
	case reconcile.TypeRetract:
		if e.Ply >= 1 && len(w.fens) >= e.Ply {
			w.fens = w.fens[:e.Ply-1]
		}
	case reconcile.TypePress:
		c := e.Clock
		w.clock = &c
		p := e
		w.press[e.Side] = &p
	case reconcile.TypeComplete:
		c := e.Clock
		w.clock = &c
		w.hasPend = false
	case reconcile.TypeFlag, reconcile.TypeAdjust, reconcile.TypePause:
		c := e.Clock
		w.clock = &c
	}
}

// say words one alert raised by event e (the event at the alert's seq).
func (w *wording) say(a hub.Alert, e reconcile.Event) Alert {
	out := Alert{Alert: a, Label: label(w.p, a.Kind), Say: a.Text}
	if n, _ := fullMove(w.fen()); n > 0 {
		out.Move = n
	}
	if w.clock != nil {
		out.Clock = &clockSeconds{White: w.clock.White.Seconds(), Black: w.clock.Black.Seconds()}
	}
	switch {
	case e.Type == reconcile.TypeFlag:
		if e.OpponentCanMate == reconcile.MateYes && len(e.MateLine) > 0 {
			if line, err := SANLine(w.fen(), e.MateLine); err == nil {
				out.Mate = line
			} else {
				out.Mate = strings.Join(e.MateLine, " ") // as the stream has it
			}
		}
	case e.Type == reconcile.TypeClaim:
		w.claim(&out, e)
		return out
	case e.Type == reconcile.TypeAnomaly && e.Kind == reconcile.KindPressWithoutMove:
		out.Say = w.pressWithoutMove(&out, e)
		return out
	case e.Type == reconcile.TypeAnomaly:
		if m, ok := textOf(e); ok {
			out.Say = w.anomalyText(e, m)
		} else {
			out.Say = sanLines(w.recount(e.Side, spanRE.ReplaceAllString(a.Text, "$1 seconds")), w.fen())
		}
		return out
	}
	if _, ok := textOf(e); ok {
		// a flag's verdict, a change of a clock, a decision: the
		// sentence in the reader's language
		out.Say = evtext.Sentence(w.p, e)
	}
	return out
}

// The frozen position of a claim's text ("the position (FEN)"), and its
// example of a mate ("(for example f6d7 c1g5)").
var (
	claimFENRE  = regexp.MustCompile(`the position \(([^()]*)\)`)
	claimLineRE = regexp.MustCompile(` \(for example [a-h1-8qrbn ]+\)`)
	// A move of a claim's recent moves: "12...Nc6", "13.Nf3".
	blackMoveRE = regexp.MustCompile(`\b(\d+)\.\.\.([A-Za-z])`)
	whiteMoveRE = regexp.MustCompile(`\b(\d+)\.([A-Za-z])`)
)

// claim words a draw claim (10.2) for the arbiter at the board: the
// frozen position is drawn by the page (Position) rather than given as a
// FEN, the opponent's mate line is in SAN with move numbers (Mate) rather
// than in the engine's notation, and the recent moves are numbered as a
// score sheet numbers them ("12… Nc6").
func (w *wording) claim(out *Alert, e reconcile.Event) {
	if e.FEN == "" {
		return
	}
	out.Position = e.FEN
	if n, _ := fullMove(e.FEN); n > 0 {
		out.Move = n
	}
	if e.OpponentCanMate == reconcile.MateYes && len(e.MateLine) > 0 {
		if line, err := SANLine(e.FEN, e.MateLine); err == nil {
			out.Mate = line
		}
	}
	if m, ok := textOf(e); ok {
		if say, ok := claimText(w.p, out, e, m); ok {
			out.Say = say
			return
		}
	}
	say := out.Say
	toMove := "White to move"
	if _, black := fullMove(e.FEN); black {
		toMove = "Black to move"
	}
	say = claimFENRE.ReplaceAllLiteralString(say, "the position shown ("+toMove+")")
	if e.OpponentCanMate == reconcile.MateYes && len(e.MateLine) > 0 {
		if out.Mate != "" {
			say = claimLineRE.ReplaceAllLiteralString(say, "")
		} else {
			say = sanLines(say, e.FEN)
		}
	}
	say = blackMoveRE.ReplaceAllString(say, "$1… $2")
	out.Say = whiteMoveRE.ReplaceAllString(say, "$1. $2")
}

// pressWithoutMove words a press without a move (7.5.3) from the press
// itself; a press that follows the opponent's press without a move, with
// no move between them, gives the turn back and is no illegal move.
func (w *wording) pressWithoutMove(out *Alert, e reconcile.Event) string {
	side := e.Side
	when := ""
	if out.Move > 0 {
		when = w.p.Sprintf("web.say.on-move", out.Move)
	}
	clocks := ""
	if p := w.press[side]; p != nil {
		clocks = w.p.Sprintf("web.say.clocks-then", clocksText(w.p, p.Clock))
		c := p.Clock
		out.Clock = &clockSeconds{White: c.White.Seconds(), Black: c.Black.Seconds()}
	}
	text, hasText := textOf(e)
	pen, hasPen := penaltyOf(text)
	if w.hasPend && w.pending == side.Other() {
		out.PressBack = true
		out.Label = label(w.p, "press-back")
		w.hasPend = false
		if hasPen || !hasText && penaltyRE.MatchString(e.Detail) {
			w.miscount[side]++
		}
		return w.p.Sprintf("web.say.press-back", i18n.Cap{Arg: sideWord(side)}, when, sideWord(side.Other()), clocks, sideWord(side))
	}
	w.pending, w.hasPend = side, true
	s := w.p.Sprintf("web.say.press-without-move", i18n.Cap{Arg: sideWord(side)}, when, clocks)
	if hasText {
		if hasPen {
			pen = rewrite(w.recountText(side, pen), sanLinesIn(w.fen()))
			s += " " + evtext.RenderMessage(w.p, pen)
		}
		return s
	}
	if m := penaltyRE.FindString(e.Detail); m != "" {
		m = w.recount(side, m)
		if sm := penaltyRE.FindStringSubmatch(m); w.p.Lang() != "en" && sm != nil && ordinalOf(sm[2]) == 1 {
			m = firstPenalty(w.p, side, w.class) // the first penalty, in the reader's words
		}
		s += " " + sanLines(m, w.fen())
	}
	return s
}

// recount corrects the ordinal of an illegal move in text when the stream
// counted presses back as illegal moves of side.
func (w *wording) recount(side clockd.Side, text string) string {
	k := w.miscount[side]
	if k == 0 {
		return text
	}
	m := penaltyRE.FindStringSubmatchIndex(text)
	if m == nil {
		return text
	}
	n := ordinalOf(text[m[4]:m[5]])
	if n == 0 {
		return text
	}
	n -= k
	if n <= 1 {
		return text[:m[0]] + firstPenalty(w.p, side, w.class)
	}
	return text[:m[4]] + reconcile.Nth(n) + text[m[5]:]
}

// Words puts a board's alerts in the arbiter's terms, from the board's
// event stream (events in order; those after the last alert are not
// needed). An alert whose event the stream no longer has keeps its text.
func Words(b hub.Board, events []reconcile.Event) []Alert {
	return WordsIn(i18n.English, b, events)
}

// WordsIn is Words in p's language: the labels, the sentences the
// dashboard words itself and the events' sentences, from their texts
// (an event without one, written before events had them, is quoted as
// the stream has it, in English).
func WordsIn(p *i18n.Printer, b hub.Board, events []reconcile.Event) []Alert {
	out := make([]Alert, 0, len(b.Alerts))
	w := newWording(p, b.TimeControl)
	i := 0
	for _, a := range b.Alerts {
		for i < len(events) && events[i].Seq < a.Seq {
			w.step(events[i])
			i++
		}
		if i < len(events) && events[i].Seq == a.Seq && raises(events[i], a) {
			e := events[i]
			w.step(e)
			i++
			out = append(out, w.say(a, e))
			continue
		}
		// not raised by an event of the stream (the daemon's own alert, the
		// hall's)
		al := Alert{Alert: a, Label: label(w.p, a.Kind), Say: ownSay(w.p, a)}
		if n, _ := fullMove(w.fen()); n > 0 && w.lastEvent > 0 {
			al.Move = n
		}
		if w.clock != nil {
			al.Clock = &clockSeconds{White: w.clock.White.Seconds(), Black: w.clock.Black.Seconds()}
		}
		out = append(out, al)
	}
	return out
}

// ownSay is the sentence of an alert no event raised, in p's language:
// its message (hub.Alert.Say, the hall's alerts) rendered as the events'
// sentences are; in English, or without a message the catalogs know, its
// text.
func ownSay(p *i18n.Printer, a hub.Alert) string {
	if p == nil || p.Lang() == "en" || a.Say == nil || !i18n.Known(a.Say.Code) {
		return a.Text
	}
	return evtext.RenderMessage(p, *a.Say)
}

// raises reports whether event e raised alert a.
func raises(e reconcile.Event, a hub.Alert) bool {
	switch e.Type {
	case reconcile.TypeFlag:
		return a.Kind == "flag"
	case reconcile.TypeAnomaly:
		return a.Kind == string(e.Kind)
	case reconcile.TypeAdjust:
		return a.Kind == "adjust"
	case reconcile.TypeClaim:
		return a.Kind == "claim"
	case reconcile.TypeDecision:
		return a.Kind == "decision"
	}
	return false
}
