package reconcile

import (
	"testing"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules"
)

// The stages' decisions alone, as tables: values in, a decision out, no
// Game and no part built.

// played is the record after the plies in SAN.
func played(t *testing.T, sans ...string) *rules.Game {
	t.Helper()
	rec, err := rules.NewGame("")
	if err != nil {
		t.Fatal(err)
	}
	for _, san := range sans {
		if err := rec.MoveSAN(san); err != nil {
			t.Fatalf("%s: %v", san, err)
		}
	}
	return rec
}

// shows is the board showing the position after the plies in SAN.
func shows(t *testing.T, sans ...string) rules.Snapshot {
	t.Helper()
	return rules.SnapshotOf(played(t, sans...).Position())
}

// movesOf is the moves of the plies in SAN from the start.
func movesOf(t *testing.T, sans ...string) []*chess.Move {
	t.Helper()
	return played(t, sans...).Moves()
}

func TestDecideSettle(t *testing.T) {
	two, three := make([]*chess.Move, 2), make([]*chess.Move, 3)
	made := []plyInfo{{status: plyMade}, {status: plyMade}}
	pressed := []plyInfo{{status: plyPressed}, {status: plyMade}}
	for _, c := range []struct {
		name    string
		h       held
		pressed bool
		plies   []plyInfo
		a       awayFacts
		want    settleKind
	}{
		{name: "two plies added", h: held{plies: two, backTo: -1}, plies: made, want: settleAdd},
		{name: "a slide merged around a reply", h: held{plies: three, backTo: -1, replaces: mergesCompleted}, plies: made, want: settleRemerge},
		{name: "a completed move was another", h: held{plies: two, backTo: -1, replaces: replacesCompleted}, plies: made, want: settleRecommit},
		{name: "back at an earlier position, no press: a take-back", h: held{plies: two, backTo: 0}, plies: made, want: settleTakeBack},
		{name: "back at an earlier position with a press: play goes on", h: held{plies: two, backTo: 0}, pressed: true, plies: made, want: settleAdd},
		{name: "a press settled a ply they would replace", h: held{plies: two, backTo: -1}, plies: pressed, want: settleLookAfresh},
		{name: "back from an absence, three plies", h: held{plies: three, backTo: -1, kind: heldAway}, plies: made, want: settleUnverify},
		{name: "back from an absence, several ways there", h: held{plies: two, backTo: -1, kind: heldAway, ambiguous: true}, plies: made, want: settleUnverify},
		{name: "first read under way", h: held{plies: two, backTo: -1, kind: heldAway}, plies: made, a: awayFacts{fromStart: true}, want: settleUnverify},
		{name: "back, laid unchecked", h: held{plies: two, backTo: -1, kind: heldAway}, plies: made, a: awayFacts{unchecked: true}, want: settleCheckTurn},
		{name: "back, two plies", h: held{plies: two, backTo: -1, kind: heldAwayInHand}, plies: made, want: settleAdd},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := decideSettle(c.h, c.pressed, c.plies, c.a); got != c.want {
				t.Errorf("decideSettle = %d, want %d", got, c.want)
			}
		})
	}
}

func TestFlagsEnd(t *testing.T) {
	flag := func(s clockd.Side, v Verdict) Event { return Event{Type: TypeFlag, Side: s, Verdict: v} }
	for _, c := range []struct {
		name                    string
		both                    bool
		verdicts                []Event
		result, reason, article string
	}{
		{name: "the control reached", verdicts: []Event{flag(clockd.White, VerdictNone)}},
		{name: "White's flag, a loss", verdicts: []Event{flag(clockd.White, VerdictLoss)}, result: "0-1", reason: "flag", article: "6.9"},
		{name: "Black's flag, a loss", verdicts: []Event{flag(clockd.Black, VerdictLoss)}, result: "1-0", reason: "flag", article: "6.9"},
		{name: "no mate possible, a draw", verdicts: []Event{flag(clockd.Black, VerdictDraw)}, result: "1/2-1/2", reason: "flag", article: "6.9"},
		{name: "the first verdict stands", verdicts: []Event{flag(clockd.White, VerdictLoss), flag(clockd.Black, VerdictLoss)}, result: "0-1", reason: "flag", article: "6.9"},
		{name: "both in the last period", both: true, verdicts: []Event{flag(clockd.White, VerdictDraw), flag(clockd.Black, VerdictDraw)}, result: "1/2-1/2", reason: "both-flags", article: "III.3.1"},
		{name: "both before the last period", both: true, verdicts: []Event{flag(clockd.White, VerdictNone), flag(clockd.Black, VerdictNone)}},
		{name: "unknown", verdicts: []Event{flag(clockd.White, VerdictUnknown)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			result, reason, article := flagsEnd(c.both, c.verdicts)
			if result != c.result || reason != c.reason || article != c.article {
				t.Errorf("flagsEnd = %q %q %q, want %q %q %q", result, reason, article, c.result, c.reason, c.article)
			}
		})
	}
}

func TestDecideFlagWarns(t *testing.T) {
	// White moved at 10 s and did not press; the flag fell at 10.2 s.
	led := record{rec: played(t, "e4"), plies: []plyInfo{{side: clockd.White, made: stamp{at: sec(10)}}}}
	f := fallen{ClockEvent: clockd.ClockEvent{Kind: clockd.Flag, Side: clockd.White, At: sec(10.2)}}
	d := decideFlag(Config{}, led, 0, atTheFlag{}, awayFacts{}, nil, true, f, false)
	if d.warn != 0 || d.verdict.Type != TypeFlag || d.verdict.Verdict != VerdictUnknown {
		t.Errorf("decideFlag = warn %d, %s %s; want warn 0, an unknown verdict (no time control)", d.warn, d.verdict.Type, d.verdict.Verdict)
	}
	if d := decideFlag(Config{}, led, 0, atTheFlag{}, awayFacts{}, &gameEnd{"1-0", "checkmate"}, true, f, false); d.warn != -1 || d.verdict.Verdict != VerdictNone {
		t.Errorf("after the end: warn %d, verdict %s; want none", d.warn, d.verdict.Verdict)
	}
}

func TestDecideFar(t *testing.T) {
	m := movesOf(t, "e4", "e5")
	for _, c := range []struct {
		res   rules.Result
		want  farKind
		plies int
	}{
		{rules.Result{Kind: rules.Forward, Moves: m}, farLay, 2},
		{rules.Result{Kind: rules.Correction, Moves: m[:1]}, farLay, 1},
		{rules.Result{Kind: rules.Ambiguous, Candidates: [][]*chess.Move{m, m[:1]}}, farLay, 1},
		{rules.Result{Kind: rules.TakeBack}, farTakeBack, 0},
		{rules.Result{Kind: rules.NoChange}, farNoChange, 0},
		{rules.Result{Kind: rules.Unexplained}, farNone, 0},
	} {
		if got, plies := decideFar(c.res); got != c.want || len(plies) != c.plies {
			t.Errorf("decideFar(%v) = %d with %d plies, want %d with %d", c.res.Kind, got, len(plies), c.want, c.plies)
		}
	}
}

func TestSearchBounds(t *testing.T) {
	for _, c := range []struct {
		resync                        bool
		retractable, trailing         int
		wantDepth, wantBack, maxPlies int
	}{
		{resync: false, retractable: 3, trailing: 2, maxPlies: 4, wantDepth: 2, wantBack: 1},
		{resync: false, retractable: 0, trailing: 0, maxPlies: 4, wantDepth: 2, wantBack: 0},
		{resync: true, retractable: 3, trailing: 2, maxPlies: 4, wantDepth: 4, wantBack: 3},
	} {
		if d, b := searchBounds(c.resync, c.maxPlies, c.retractable, c.trailing); d != c.wantDepth || b != c.wantBack {
			t.Errorf("searchBounds(%v, %d, %d, %d) = %d, %d; want %d, %d", c.resync, c.maxPlies, c.retractable, c.trailing, d, b, c.wantDepth, c.wantBack)
		}
	}
}

func TestDecideOrient(t *testing.T) {
	start := played(t).Position()
	underWay := shows(t, "e4", "e5")
	for _, c := range []struct {
		name            string
		s               rules.Snapshot
		known, spoke    bool
		first           firstRead
		found, underWay bool
		o               rules.Orientation
		state           firstReading
	}{
		{name: "the start", s: shows(t), found: true, o: rules.WhiteBottom},
		{name: "the start turned round", s: shows(t).Rotated(), found: true, o: rules.BlackBottom},
		{name: "a game under way, the clock silent", s: underWay, state: readNotSearched},
		{name: "a game under way, the clock has spoken", s: underWay, spoke: true, found: true, underWay: true, o: rules.WhiteBottom, state: readAndSearched},
		{name: "searched once only", s: underWay, spoke: true, first: firstRead{snap: underWay, state: readAndSearched}, state: readAndSearched},
		{name: "after the game: only the start", s: underWay, known: true, spoke: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := decideOrient(c.s, start, c.known, c.first, c.spoke, played(t), notJoined)
			if d.found != c.found || d.underWay != c.underWay || (c.found && d.o != c.o) || d.first.state != c.state {
				t.Errorf("decideOrient = found %v under way %v %s, first %d; want %v %v %s, %d", d.found, d.underWay, d.o, d.first.state, c.found, c.underWay, c.o, c.state)
			}
		})
	}
}

func TestDecideReset(t *testing.T) {
	sans := []string{"e4", "e5", "Nf3", "Nc6"}
	rec := played(t, sans...)
	var boards []rules.Snapshot
	for i := 0; i <= len(sans); i++ {
		boards = append(boards, shows(t, sans[:i]...))
	}
	start := played(t).Position()
	game := shows(t, sans...)
	for _, c := range []struct {
		name      string
		f         facing
		atStart   bool
		snap, raw rules.Snapshot
		want      resetKind
		turned    bool
	}{
		{name: "the game's position", f: facingWhiteBottom, snap: game, raw: game, want: resetNone},
		{name: "the start mid-game", f: facingWhiteBottom, snap: shows(t), raw: shows(t), want: resetBegins},
		{name: "still the start", f: facingWhiteBottom, atStart: true, snap: shows(t), raw: shows(t), want: resetGoesOn},
		{name: "the game set up again", f: facingWhiteBottom, atStart: true, snap: game, raw: game, want: resetEnds},
		{name: "the game set up with a move on", f: facingWhiteBottom, atStart: true, snap: shows(t, append(sans, "Bb5")...), raw: shows(t, append(sans, "Bb5")...), want: resetEnds},
		{name: "another board, turned round", f: facingWhiteBottom, atStart: true, snap: game.Rotated(), raw: game.Rotated(), want: resetEnds, turned: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := decideReset(rec, boards, start, c.f, c.atStart, c.snap, c.raw)
			if d.kind != c.want || d.turned != c.turned {
				t.Errorf("decideReset = %d turned %v, want %d turned %v", d.kind, d.turned, c.want, c.turned)
			}
		})
	}
}

func TestCheckTurn(t *testing.T) {
	// Back from an absence the board shows 1.e4 laid from the start: after
	// it, Black is to move.
	rec, snap, moves := played(t), shows(t, "e4"), movesOf(t, "e4")
	for _, c := range []struct {
		name  string
		turn  chess.Color
		ok    bool
		a     awayFacts
		want  turnKind
		from  int
		least int
	}{
		{name: "the clock has not said", want: turnUnknown},
		{name: "the clock agrees", turn: chess.Black, ok: true, want: turnAgrees},
		{name: "the clock says White: an odd number more were made", turn: chess.White, ok: true, want: turnRebase, least: 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			kind, b := checkTurn(rec, 0, c.a, 0, c.turn, c.ok, snap, 0, 0, moves)
			if kind != c.want || (kind == turnRebase && (b.from != c.from || b.least != c.least)) {
				t.Errorf("checkTurn = %d from %d least %d, want %d from %d least %d", kind, b.from, b.least, c.want, c.from, c.least)
			}
		})
	}
}

func TestPlanLay(t *testing.T) {
	rec, moves := played(t), movesOf(t, "e4", "e5", "Nf3")
	for _, c := range []struct {
		name   string
		a      awayFacts
		snap   rules.Snapshot
		back   string
		keepIn int
		first  bool
	}{
		{name: "back from an absence", snap: shows(t, "e4", "e5", "Nf3"), back: TextUnverifiedBack, first: true},
		{name: "first read under way", a: awayFacts{fromStart: true}, snap: shows(t, "e4", "e5", "Nf3"), back: TextUnverifiedFirst, first: true},
		{name: "the board moved on since", snap: shows(t, "e4", "e5", "Nf3", "Nc6"), back: TextUnverifiedBack, keepIn: 7, first: true},
		{name: "laid before in this absence", a: awayFacts{unverifiedFrom: 3}, snap: shows(t, "e4", "e5", "Nf3"), back: TextUnverifiedBack},
	} {
		t.Run(c.name, func(t *testing.T) {
			back, keepIn, first := planLay(rec, c.a, c.snap, 7, 0, moves)
			if back.Code != c.back || keepIn != c.keepIn || first != c.first {
				t.Errorf("planLay = %s %d %v, want %s %d %v", back.Code, keepIn, first, c.back, c.keepIn, c.first)
			}
		})
	}
}

func TestPlanRebuild(t *testing.T) {
	if rebuildable(played(t), rebuild{snap: rules.Snapshot{OccupancyOnly: true}}) {
		t.Errorf("an occupancy-only board is rebuildable")
	}
	// The record ends in 1.e4, never completed; the board shows a
	// position of the Ruy Lopez nothing reached, White to move.
	led := record{rec: played(t, "e4"), plies: []plyInfo{{side: clockd.White}}, boards: []rules.Snapshot{shows(t), shows(t, "e4")}}
	b := rebuild{snap: shows(t, "e4", "e5", "Nf3", "Nc6", "Bb5", "a6"), from: 1, least: 3, turn: chess.White}
	if !rebuildable(led.rec, b) {
		t.Fatalf("the position is not rebuildable")
	}
	p := planRebuild(led, awayFacts{}, b)
	// 1.e4 is below: the plies count from the start, at least four, White to move again
	if p.from != 0 || p.verified != 0 || p.made != 4 || p.n != [2]int{2, 2} || p.again || p.first {
		t.Errorf("planRebuild = from %d verified %d made %d %v again %v first %v; want 0 0 4 [2 2] false false", p.from, p.verified, p.made, p.n, p.again, p.first)
	}
	if got := p.rec.Position().Turn(); got != chess.White {
		t.Errorf("the rebuilt record has %v to move", got)
	}
}
