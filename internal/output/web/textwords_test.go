package web

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/arbiterd/arbiterd/internal/i18n/evtext"
	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// withoutTexts is the stream as written before events had texts.
func withoutTexts(evs []reconcile.Event) []reconcile.Event {
	out := append([]reconcile.Event(nil), evs...)
	for i := range out {
		out[i].Text = reconcile.Text{}
	}
	return out
}

// claimStream is a reconciliation's claim and decisions: Black, with a
// bare king, claims; White can still mate.
func claimStream(t *testing.T) []reconcile.Event {
	t.Helper()
	g, err := reconcile.New(reconcile.Config{Board: "3", StartFEN: "8/8/4k3/8/8/3K4/R7/8 b - - 0 1", Oracle: rookMate{}})
	if err != nil {
		t.Fatal(err)
	}
	var evs []reconcile.Event
	evs = append(evs, g.Arbiter(time.Second, reconcile.ArbiterAction{Kind: reconcile.ActClaim, Side: clockd.Black})...)
	claim := evs[len(evs)-1].Seq
	for i, d := range []string{reconcile.DecisionPostponed, reconcile.DecisionRejected} {
		evs = append(evs, g.Arbiter(time.Duration(2+i)*time.Second, reconcile.ArbiterAction{Kind: reconcile.ActDecide, Claim: claim, Decision: d})...)
	}
	return evs
}

// rookMate answers the claim's 6.9 question "yes", with a line of legal
// moves from the claim's position (White's rook hunting the king).
type rookMate struct{}

func (rookMate) CanMate(string, clockd.Side) (reconcile.Mate, []string) {
	return reconcile.MateYes, []string{"e6e5", "a2a5", "e5e6", "d3e4"}
}

// wordsOf is the alerts of a stream in p's language.
func wordsOf(p *i18n.Printer, info hub.Info, evs []reconcile.Event) []Alert {
	h := hub.New(hub.Options{})
	h.AddBoard(info)
	for _, e := range evs {
		h.Publish(info.ID, e)
	}
	b, _ := h.Board(info.ID)
	return WordsIn(p, b, evs)
}

// The dashboard's rewordings, done on the events' texts, give in English
// exactly what they give on the English sentences: over the games of
// TestWordsFromTheGame and a claim with its decisions.
func TestWordsFromTextsAsFromSentences(t *testing.T) {
	const tc = "40/5400+30:1800+30"
	rooms := []room{
		{info: hub.Info{ID: "1", TimeControl: tc}, pgn: emulator.DefaultPGN, seed: 1, script: []string{"flag@38"}},
		{info: hub.Info{ID: "4", TimeControl: tc}, pgn: operaGame, seed: 2, script: []string{"press-nomove@12", "press-nomove@14"}, upto: 20},
		{info: hub.Info{ID: "3", TimeControl: tc}, pgn: operaGame, seed: 2, script: []string{"press-nomove@12", "arbiter@ply=13,side=white,by=2m"}, upto: 20},
	}
	streams := map[hub.Info][]reconcile.Event{{ID: "3"}: claimStream(t)}
	for _, r := range rooms {
		streams[r.info] = eventsOf(t, r)
	}
	texts := 0
	for info, evs := range streams {
		for _, e := range evs {
			if !e.Text.IsZero() {
				texts++
			}
		}
		got, want := wordsOf(i18n.English, info, evs), wordsOf(i18n.English, info, withoutTexts(evs))
		if !reflect.DeepEqual(got, want) {
			for i := range got {
				if i < len(want) && got[i].Say != want[i].Say {
					t.Errorf("board %s alert %d:\nfrom the text     %q\nfrom the sentence %q", info.ID, got[i].ID, got[i].Say, want[i].Say)
				}
			}
			if len(got) != len(want) {
				t.Errorf("board %s: %d alerts from the texts, %d from the sentences", info.ID, len(got), len(want))
			}
		}
		// In Spanish every sentence of the stream's is in Spanish.
		for _, a := range wordsOf(i18n.Spanish, info, evs) {
			for _, en := range []string{"White", "Black", "flag fell", "completed", "clock", "claim"} {
				if strings.Contains(a.Say, en) {
					t.Errorf("board %s alert %d in Spanish has %q: %q", info.ID, a.ID, en, a.Say)
				}
			}
		}
	}
	if texts < 6 {
		t.Errorf("only %d events with texts", texts)
	}
}

// In Spanish: a flag's verdict, a second illegal move with the mate line
// in SAN, a claim with its frozen position drawn and the mate line apart.
func TestWordsFromTextsInSpanish(t *testing.T) {
	const tc = "40/5400+30:1800+30"
	flag := wordsOf(i18n.Spanish, hub.Info{ID: "1", TimeControl: tc},
		eventsOf(t, room{info: hub.Info{ID: "1", TimeControl: tc}, pgn: emulator.DefaultPGN, seed: 1, script: []string{"flag@38"}}))
	if len(flag) != 1 || flag[0].Say != "Ha caído la bandera de las negras en el primer periodo con 18 jugadas completadas; el primer periodo exige 40. "+
		"Las blancas aún pueden dar mate, así que las negras pierden la partida por tiempo (6.9)." {
		t.Errorf("the flag in Spanish: %+v", flag)
	}
	two := wordsOf(i18n.Spanish, hub.Info{ID: "4", TimeControl: tc},
		eventsOf(t, room{info: hub.Info{ID: "4", TimeControl: tc}, pgn: operaGame, seed: 2, script: []string{"press-nomove@12", "press-nomove@14"}, upto: 20}))
	if len(two) != 2 || !strings.HasPrefix(two[1].Say, "Las negras pulsaron el reloj en la jugada 7 sin hacer una jugada") ||
		!strings.Contains(two[1].Say, "Es la segunda jugada ilegal completada de las negras: las negras pierden la partida (7.5.5)") ||
		!strings.Contains(two[1].Say, "Las blancas aún pueden dar mate (por ejemplo 7… ") {
		t.Errorf("the second press without a move in Spanish: %+v", two)
	}
	claim := wordsOf(i18n.Spanish, hub.Info{ID: "3"}, claimStream(t))
	if len(claim) != 3 || claim[0].Position == "" || claim[0].Mate == "" ||
		!strings.HasPrefix(claim[0].Say, "Las negras reclaman tablas con blancas 0:00:00, negras 0:00:00 en el reloj. Queda fijado para la decisión: la posición mostrada (juegan las negras); ") ||
		!strings.Contains(claim[0].Say, "las jugadas de los últimos 5 minutos: ninguna. Las blancas aún pueden dar mate. Si las blancas no pueden ganar") ||
		claim[1].Say != "El árbitro aplazó la decisión sobre la reclamación de las negras y observa la partida." ||
		!strings.HasPrefix(claim[2].Say, "El árbitro rechazó la reclamación de las negras: añada dos minutos de tiempo extra al reloj de las blancas (10.2).") {
		t.Errorf("the claim and decisions in Spanish: %+v", claim)
	}
}

// A press back the stream counted as an illegal move: the next illegal
// move's count is corrected on the text, in the reader's language.
func TestRecountOnTheText(t *testing.T) {
	_, b, evs := pressBackBoard(t)
	tx := func(code string, args ...any) reconcile.Text { return reconcile.Text{Code: code, Args: args} }
	white, black := tx(reconcile.TextWhite), tx(reconcile.TextBlack)
	whites, blacks := tx(reconcile.TextWhitePossessive), tx(reconcile.TextBlackPossessive)
	for i, e := range evs {
		if e.Type == reconcile.TypeAnomaly && e.Kind == reconcile.KindPressWithoutMove {
			side, poss, opp := white, whites, blacks
			if e.Side == clockd.Black {
				side, poss, opp = black, blacks, whites
			}
			evs[i].Text = tx(reconcile.TextPressWithoutMove, side, tx(reconcile.TextWhen, tx(reconcile.TextWhenBeforeFirst), "1:32:33", "1:32:04"), poss,
				tx(reconcile.TextPenaltyFirst, poss, tx(reconcile.TextMinutes, 2), opp, "7.5.5"))
		}
	}
	ill := reconcile.Event{Type: reconcile.TypeAnomaly, Seq: 117, At: 340 * time.Second, Kind: reconcile.KindIllegalMove, Side: clockd.Black, Article: "7.5.1",
		Detail: "the English of the text", Text: tx(reconcile.TextIllegal, black, tx(reconcile.TextIllegalPosition, blacks), "8/8/8/8/8/8/8/8 w - - 0 1", black,
			tx(reconcile.TextPenaltyNth, blacks, tx(reconcile.TextNthNames[1]), black, white, tx(reconcile.TextPenaltyMateYes, white, "d1h5", black)))}
	evs = append(evs, ill)
	h := hub.New(hub.Options{})
	h.AddBoard(hub.Info{ID: "5", TimeControl: b.TimeControl})
	for _, e := range evs {
		h.Publish("5", e)
	}
	b, _ = h.Board("5")
	for p, want := range map[*i18n.Printer][2]string{
		i18n.English: {"This is White's first completed illegal move: add 2 minutes to Black's clock and remove any increment the press earned (7.5.5). When the clock shows the time added, arbiterd closes this alert.",
			"Black pressed the clock while the board showed a position that no legal move of Black's explains: an illegal move, completed by the press (7.5.1). Restore the position before it (8/8/8/8/8/8/8/8 w - - 0 1) and have Black make a legal move. This is Black's first completed illegal move: add 2 minutes to White's clock and remove any increment the press earned (7.5.5)."},
		i18n.Spanish: {"Es la primera jugada ilegal completada de las blancas: añada 2 minutos de tiempo extra al reloj de las negras y retire el incremento que haya ganado la pulsación (7.5.5). Cuando el reloj muestre el tiempo añadido, arbiterd cierra esta alerta.",
			"Las negras pulsaron el reloj mientras el tablero mostraba una posición que ninguna jugada legal de las negras explica: una jugada ilegal, completada al pulsar el reloj (7.5.1). Restablezca la posición anterior (8/8/8/8/8/8/8/8 w - - 0 1) y que las negras hagan una jugada legal. Es la primera jugada ilegal completada de las negras: añada 2 minutos al reloj de las blancas y retire el incremento que haya ganado la pulsación (7.5.5)."},
	} {
		got := WordsIn(p, b, evs)
		if len(got) != 4 || !strings.HasSuffix(got[0].Say, want[0]) || !got[1].PressBack || got[3].Say != want[1] {
			t.Errorf("%s:\n%q\nwant the penalty %q\n%q\nwant %q", p.Lang(), got[0].Say, want[0], got[len(got)-1].Say, want[1])
		}
	}
}

// A span the stream words in seconds and decimals is said in whole
// seconds, as on the English sentence.
func TestSpansOnTheText(t *testing.T) {
	e := reconcile.Event{Type: reconcile.TypeAnomaly, Kind: reconcile.KindUnexplainedPosition, NoSide: true,
		Detail: "For 18.395 s the board has shown a position that no legal sequence of up to 4 plies from the game explains (the game is at 8/8/8/8/8/8/8/K6k w - - 0 1). Pieces may have been knocked over or moved by hand; check the board.",
		Text:   reconcile.Text{Code: reconcile.TextUnexplained, Args: []any{reconcile.Text{Code: reconcile.TextSpan, Args: []any{18, "395"}}, 4, "8/8/8/8/8/8/8/K6k w - - 0 1"}}}
	w := newWording(i18n.English, "")
	m, _ := textOf(e)
	if got, want := w.anomalyText(e, m), spanRE.ReplaceAllString(e.Detail, "$1 seconds"); got != want {
		t.Errorf("English:\n got %q\nwant %q", got, want)
	}
	w.p = i18n.Spanish
	if got := w.anomalyText(e, m); !strings.HasPrefix(got, "Durante 18 segundos el tablero ha mostrado") {
		t.Errorf("Spanish: %q", got)
	}
	if got := evtext.Sentence(i18n.Spanish, e); !strings.HasPrefix(got, "Durante 18,395 s el tablero") {
		t.Errorf("the stream's sentence in Spanish: %q", got)
	}
}
