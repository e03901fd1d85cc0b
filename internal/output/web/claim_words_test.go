package web

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/boards/pipeline"
	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// A FEN anywhere in an alert's text.
var fenRE = regexp.MustCompile(`[1-8pnbrqkPNBRQK]+(/[1-8pnbrqkPNBRQK]+){7}`)

// A move in the engine's notation ("c6b5").
var uciRE = regexp.MustCompile(`\b[a-h][1-8][a-h][1-8][qrbn]?\b`)

// claimOn records side's draw claim on a real reconciliation from fen and
// returns the board as the hub holds it, with its event stream.
func claimOn(t *testing.T, fen string, side clockd.Side) (hub.Board, []reconcile.Event) {
	t.Helper()
	h := hub.New(hub.Options{})
	h.AddBoard(hub.Info{ID: "3", TimeControl: "300+2"})
	g, err := reconcile.New(reconcile.Config{Board: "3", StartFEN: fen, Oracle: pipeline.DefaultOracle()})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range g.Arbiter(time.Second, reconcile.ArbiterAction{Kind: reconcile.ActClaim, Side: side}) {
		h.Publish("3", e)
	}
	b, err := h.Board("3")
	if err != nil {
		t.Fatal(err)
	}
	evs, err := h.Events("3", 0)
	if err != nil {
		t.Fatal(err)
	}
	return b, evs
}

// A claim's alert names the frozen position (drawn by the page, not
// printed as a FEN) and the opponent's mate line in SAN with move numbers,
// not in the engine's notation.
func TestWordsClaim(t *testing.T) {
	const fen = "8/8/4k3/8/8/3K4/R7/8 b - - 0 41"
	b, evs := claimOn(t, fen, clockd.Black)
	var claim *reconcile.Event
	for i := range evs {
		if evs[i].Type == reconcile.TypeClaim {
			claim = &evs[i]
		}
	}
	if claim == nil || claim.OpponentCanMate != reconcile.MateYes || len(claim.MateLine) == 0 {
		t.Fatalf("no claim with a mate line in the stream: %+v", evs)
	}
	if !fenRE.MatchString(string(claim.Reason)) || !uciRE.MatchString(string(claim.Reason)) {
		t.Fatalf("the claim's own text %q has no FEN or no engine move: the test tests nothing", claim.Reason)
	}
	al := Words(b, evs)
	if len(al) != 1 || al[0].Kind != "claim" {
		t.Fatalf("alerts %+v, want the claim", al)
	}
	a := al[0]
	t.Logf("%s\n%s", a.Say, a.Mate)
	want, err := SANLine(fen, claim.MateLine)
	if err != nil {
		t.Fatal(err)
	}
	if a.Mate != want || !strings.HasPrefix(a.Mate, "41… ") || uciRE.MatchString(a.Mate) {
		t.Errorf("the claim's mate line is %q, want %q in SAN from move 41", a.Mate, want)
	}
	if a.Position != fen {
		t.Errorf("the claim's position is %q, want %q", a.Position, fen)
	}
	if fenRE.MatchString(a.Say) || uciRE.MatchString(a.Say) {
		t.Errorf("the claim's text still has a FEN or an engine move: %q", a.Say)
	}
	for _, s := range []string{"Black claims a draw", "the position shown (Black to move)", "White can still checkmate. Whether"} {
		if !strings.Contains(a.Say, s) {
			t.Errorf("the claim's text %q does not say %q", a.Say, s)
		}
	}
	if a.Move != 41 {
		t.Errorf("the claim is on move %d, want 41", a.Move)
	}
}

// A claim when the opponent cannot mate at all has no line, and the
// position is still drawn rather than printed.
func TestWordsClaimNoMate(t *testing.T) {
	const fen = "8/8/4k3/8/8/3K4/8/7B w - - 0 60"
	b, evs := claimOn(t, fen, clockd.White)
	al := Words(b, evs)
	if len(al) != 1 {
		t.Fatalf("alerts %+v, want the claim", al)
	}
	if a := al[0]; a.Mate != "" || a.Position != fen || fenRE.MatchString(a.Say) || !strings.Contains(a.Say, "cannot checkmate") {
		t.Errorf("claim against a lone bishop: mate %q, position %q, text %q", a.Mate, a.Position, a.Say)
	}
}

// The recent moves of a claim are numbered as on a score sheet.
func TestClaimMoveNumbers(t *testing.T) {
	var w wording
	out := Alert{Say: "Frozen for the decision: the position (8/8/8/8/8/8/8/K6k w - - 0 1); the moves of the last 5 minutes: 12.Nf3 12...Nc6. Done (10.2)."}
	w.claim(&out, reconcile.Event{Type: reconcile.TypeClaim, FEN: "8/8/8/8/8/8/8/K6k w - - 0 1"})
	if want := "Frozen for the decision: the position shown (White to move); the moves of the last 5 minutes: 12. Nf3 12… Nc6. Done (10.2)."; out.Say != want {
		t.Errorf("got  %q\nwant %q", out.Say, want)
	}
}
