package pgn

import (
	"strings"
	"testing"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// langGame is a game with every comment arbiterd writes: the arbiter's
// change of a clock, a claim and decisions, a gap of unverified plies,
// and the flag verdict, whose sentence has its text.
func langGame(p *i18n.Printer) string {
	tc, _ := clockd.ParseTimeControl("40/5400+30:1800+30")
	g := New(Tags{TimeControl: tc})
	if p != nil {
		g.In(p)
	}
	times := func(w, b float64) clockd.Times { return clockd.Times{White: sec(w), Black: sec(b)} }
	tx := func(code string, args ...any) reconcile.Text { return reconcile.Text{Code: code, Args: args} }
	first := tx(reconcile.TextPeriodNames[0])
	for _, e := range []reconcile.Event{
		{Type: reconcile.TypeComplete, Ply: 1, Side: clockd.White, SAN: "e4", By: reconcile.ByPress, Clock: times(5420, 5430), Moves: reconcile.Moves{White: 1}},
		{Type: reconcile.TypeAdjust, Side: clockd.Black, From: sec(5430), To: sec(5550), Delta: sec(120), Clock: times(5420, 5550), Article: "7.5.5"},
		{Type: reconcile.TypeClaim, Side: clockd.Black, Article: "10.2"},
		{Type: reconcile.TypeDecision, Side: clockd.Black, Decision: reconcile.DecisionPostponed, Article: "10.2"},
		{Type: reconcile.TypeDecision, Side: clockd.Black, Decision: reconcile.DecisionRejected, Article: "10.2"},
		{Type: reconcile.TypeComplete, Ply: 4, Side: clockd.Black, SAN: "Nf6", By: reconcile.ByPress, Clock: times(5400, 5500), Moves: reconcile.Moves{White: 2, Black: 2}},
		{Type: reconcile.TypeFlag, Side: clockd.Black, Clock: times(5400, 0), Verdict: reconcile.VerdictLoss, Article: "6.9",
			Reason: "Black's flag fell in the first period after 2 completed moves; the first period requires 40. White can still checkmate, so Black loses on time (6.9).",
			Text: tx(reconcile.TextFlagVerdict, tx(reconcile.TextFlagWhere, tx(reconcile.TextBlackPossessive), first, 2), tx(reconcile.TextFlagRequires, first, 40), "",
				tx(reconcile.TextMateYes, tx(reconcile.TextWhite), tx(reconcile.TextBlack), ""))},
	} {
		g.Add(e)
	}
	var b strings.Builder
	if err := g.Write(&b); err != nil {
		panic(err)
	}
	return b.String()
}

// The comments arbiterd writes follow the language given (In); English,
// given or not, is as it was.
func TestCommentsInTheLanguage(t *testing.T) {
	en := langGame(nil)
	if again := langGame(i18n.English); again != en {
		t.Errorf("English given:\n%s\nnot given:\n%s", again, en)
	}
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	for _, want := range []string{
		"{arbiterd: the arbiter set Black's clock +2:00 to 1:32:30 (7.5.5)}",
		"{arbiterd: black claims a draw (10.2)}",
		"{arbiterd: the arbiter postponed Black's claim (10.2)}",
		"{arbiterd: the arbiter rejected Black's claim (10.2)}",
		"{arbiterd: plies 2 to 3 were made while the board was not read and could not be verified}",
		"{Black's flag fell in the first period after 2 completed moves; the first period requires 40. White can still checkmate, so Black loses on time (6.9).}",
	} {
		if !strings.Contains(flat(en), want) {
			t.Errorf("English PGN lacks %q:\n%s", want, en)
		}
	}
	es := flat(langGame(i18n.Spanish))
	for _, want := range []string{
		"{arbiterd: el árbitro cambió el reloj de las negras en +2:00, a 1:32:30 (7.5.5)}",
		"{arbiterd: las negras reclaman tablas (10.2)}",
		"{arbiterd: el árbitro aplazó la decisión sobre la reclamación de las negras (10.2)}",
		"{arbiterd: el árbitro rechazó la reclamación de las negras (10.2)}",
		"{arbiterd: las medias jugadas 2 a 3 se hicieron mientras no se leía el tablero y no se pudieron verificar}",
		"{Ha caído la bandera de las negras en el primer periodo con 2 jugadas completadas; el primer periodo exige 40. Las blancas aún pueden dar mate, así que las negras pierden la partida por tiempo (6.9).}",
		`[Termination "time forfeit"]`, "} 1-0",
	} {
		if !strings.Contains(es, want) {
			t.Errorf("Spanish PGN lacks %q:\n%s", want, es)
		}
	}
}
