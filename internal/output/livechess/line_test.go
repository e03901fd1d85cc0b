package livechess

import (
	"slices"
	"strings"
	"testing"

	"github.com/arbiterd/arbiterd/rules"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// moveEvents are the move events of a game played from the start, as the
// stream has them: ply, SAN and the FEN after.
func moveEvents(t *testing.T, sans []string) []reconcile.Event {
	t.Helper()
	g, err := rules.NewGame("")
	if err != nil {
		t.Fatal(err)
	}
	var out []reconcile.Event
	for i, s := range sans {
		if err := g.MoveSAN(s); err != nil {
			t.Fatal(err)
		}
		out = append(out, reconcile.Event{Type: reconcile.TypeMove, Ply: i + 1, SAN: g.SAN(g.Ply()), FEN: g.FEN()})
	}
	return out
}

func TestLineFollowsTheBoard(t *testing.T) {
	game := strings.Fields("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7")
	evs := moveEvents(t, game)
	var l line
	l.apply(reconcile.Event{Type: reconcile.TypePosition, FEN: startFEN})
	for _, e := range evs[:4] {
		l.apply(e)
	}
	if !slices.Equal(l.san, game[:4]) || l.fen() != evs[3].FEN || l.index(evs[1].FEN) != 2 || l.index(startFEN) != 0 {
		t.Fatalf("after 4 plies: %+v", l)
	}
	// Nc6 taken back, then a6 instead: the line is rewritten
	l.apply(reconcile.Event{Type: reconcile.TypeRetract, Ply: 4})
	if !slices.Equal(l.san, game[:3]) || l.fen() != evs[2].FEN {
		t.Fatalf("after the retract: %v", l.san)
	}
	alt := moveEvents(t, []string{"e4", "e5", "Nf3", "a6"})
	l.apply(alt[3])
	if !slices.Equal(l.san, []string{"e4", "e5", "Nf3", "a6"}) || l.index(evs[3].FEN) != -1 {
		t.Fatalf("after a6: %v", l.san)
	}
	// a retract of a ply the line does not have changes nothing
	l.apply(reconcile.Event{Type: reconcile.TypeRetract, Ply: 9})
	if len(l.san) != 4 {
		t.Fatalf("after a retract of ply 9: %v", l.san)
	}
	// a new game: the position event starts the line again
	l.apply(reconcile.Event{Type: reconcile.TypePosition, FEN: startFEN})
	if len(l.san) != 0 || l.start != startFEN || l.origin != startFEN {
		t.Fatalf("after a position: %+v", l)
	}
}

// TestLineFillsAGap: plies made while the board was not read reach the
// stream only as the first move after them; one sequence explains them, and
// the line has it. A gap no single sequence of legal moves explains starts
// the line again at the move after it.
func TestLineFillsAGap(t *testing.T) {
	game := strings.Fields("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5")
	evs := moveEvents(t, game)
	var l line
	l.apply(reconcile.Event{Type: reconcile.TypePosition, FEN: startFEN})
	for _, e := range evs[:4] {
		l.apply(e)
	}
	l.apply(evs[6]) // Bb5 and a6 not seen: Ba4 arrives as ply 7
	if !slices.Equal(l.san, game[:7]) || l.fen() != evs[6].FEN || l.base != 0 {
		t.Fatalf("after a gap of 2: base %d, %v", l.base, l.san)
	}
	// Four plies not seen (Nf6 O-O Be7 Re1, then b5 arrives): more than
	// fill looks for; the line starts again after b5.
	l.apply(evs[11])
	if l.base != 12 || len(l.san) != 0 || l.start != evs[11].FEN || l.origin != startFEN {
		t.Fatalf("after a gap of 4 plies and the move: base %d, start %q, %v", l.base, l.start, l.san)
	}
	// Two sequences explain e3 e6 d3 d6 and end with d6 (d3 e6 e3 d6 too):
	// the line cannot tell which, and starts again.
	var m line
	m.apply(reconcile.Event{Type: reconcile.TypePosition, FEN: startFEN})
	m.apply(moveEvents(t, strings.Fields("e3 e6 d3 d6"))[3])
	if m.base != 4 || len(m.san) != 0 {
		t.Fatalf("after an ambiguous gap: base %d, %v", m.base, m.san)
	}
	// but e3 e6 d3 alone, with d3 last, is one sequence
	m.apply(reconcile.Event{Type: reconcile.TypePosition, FEN: startFEN})
	m.apply(moveEvents(t, strings.Fields("e3 e6 d3"))[2])
	if m.base != 0 || !slices.Equal(m.san, strings.Fields("e3 e6 d3")) {
		t.Fatalf("after e3 e6 d3 with two plies unseen: base %d, %v", m.base, m.san)
	}
}

// TestLineBackFromAnAbsence: the unverified-moves anomaly names the plies
// the board made while it was not read; the line takes them, and knows the
// board's position (the hub's state does not until the next move). An
// anomaly that does not follow on from the line changes nothing; a record
// rebuilt from the board's position starts the line again there.
func TestLineBackFromAnAbsence(t *testing.T) {
	game := strings.Fields("e4 e5 Nf3 Nc6 Bb5 a6")
	evs := moveEvents(t, game)
	unverified := func(verified, made int, plies []string, fen string) reconcile.Event {
		return reconcile.Event{Type: reconcile.TypeAnomaly, Kind: reconcile.KindUnverified, Detail: "The board came back from an absence …",
			Ply: verified, Made: made, Plies: plies, FEN: fen}
	}
	var l line
	l.apply(reconcile.Event{Type: reconcile.TypePosition, FEN: startFEN})
	l.apply(evs[0])
	l.apply(unverified(2, 3, game[2:5], evs[4].FEN))
	if len(l.san) != 1 || l.board != "" {
		t.Fatalf("plies from ply 2 on a line of 1 ply: %v, board %q", l.san, l.board)
	}
	l.apply(unverified(1, 3, game[1:4], ""))
	if len(l.san) != 1 || l.board != "" {
		t.Fatalf("an anomaly without a position (nothing could be built): %v, board %q", l.san, l.board)
	}
	l.apply(unverified(1, 3, game[1:4], evs[3].FEN))
	if !slices.Equal(l.san, game[:4]) || l.board != evs[3].FEN || l.fen() != evs[3].FEN {
		t.Fatalf("back 3 plies on: %v, board %q", l.san, l.board)
	}
	l.apply(reconcile.Event{Type: reconcile.TypeRetract, Ply: 4}) // Nc6 replaced: the board is after Nf3
	if !slices.Equal(l.san, game[:3]) || l.board != evs[2].FEN {
		t.Fatalf("after a retract of an unverified ply: %v, board %q", l.san, l.board)
	}
	l.apply(evs[3])
	l.apply(evs[4])
	if !slices.Equal(l.san, game[:5]) || l.board != "" {
		t.Fatalf("after the next moves: %v, board %q", l.san, l.board)
	}
	l.apply(unverified(5, 9, nil, evs[5].FEN))
	if l.base != 14 || len(l.san) != 0 || l.start != evs[5].FEN || l.board != evs[5].FEN || l.origin != startFEN {
		t.Fatalf("after a record rebuilt: %+v", l)
	}
}

// FuzzLine folds arbitrary event sequences (moves, retracts, positions at
// any ply, FENs good and bad): the fold never panics, keeps one FEN per
// ply, and answers index and fenAt for any input.
func FuzzLine(f *testing.F) {
	f.Add([]byte{0, 1, 1, 2, 2, 3, 1, 7, 2})
	f.Add([]byte{0, 1, 1, 1, 2, 2, 1, 4, 3, 2, 9, 0})
	f.Add([]byte{1, 5, 0, 0, 1, 1, 2, 1})
	f.Add([]byte{0, 0, 1, 1, 4, 0, 3, 2, 4, 2, 1, 3})
	fens := []string{startFEN, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
		"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "8/8/8/8/8/8/8/8 w - - 0 1", "", "x"}
	sans := []string{"e4", "e5", "Nf3", "", "?"}
	details := []string{
		"showing a position 2 plies on from the last position arbiterd verified (after ply 1: White 1, Black 0 completed moves); the only sequence of that length that reaches it is 1...e5 2.Nf3. Moves",
		"showing a position 3 plies on from the last position arbiterd verified (after ply 0: White 0, Black 0 completed moves); several sequences of that length reach it, for example 1.e4 e5 2.Qh5. Moves",
		"showing a position at least 9 plies on from the last position arbiterd verified (after ply 2: …); arbiterd follows the game again from the position the board shows (" + fens[2] + "); the plies",
		"showing a position at least 9 plies on from the last position arbiterd verified (after ply 2: …); arbiterd follows the game again from the position the board shows (x); the plies",
		"",
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var l line
		for i := 0; i+1 < len(b); i += 2 {
			op, arg := b[i]%5, int(b[i+1])
			e := reconcile.Event{Ply: arg % 12, FEN: fens[arg%len(fens)], SAN: sans[arg%len(sans)]}
			switch op {
			case 0:
				e.Type = reconcile.TypePosition
			case 1, 2:
				e.Type = reconcile.TypeMove
			case 3:
				e.Type = reconcile.TypeRetract
			case 4:
				e.Type, e.Kind, e.Detail = reconcile.TypeAnomaly, reconcile.KindUnverified, details[arg%len(details)]
			}
			l.apply(e)
			if len(l.san) != len(l.fens) {
				t.Fatalf("%d plies, %d positions", len(l.san), len(l.fens))
			}
			if l.board != "" && l.board != l.fen() {
				t.Fatalf("board %q, but the line ends at %q", l.board, l.fen())
			}
			for _, p := range fens {
				if k := l.index(p); k < -1 || k > len(l.san) {
					t.Fatalf("index %d of %d plies", k, len(l.san))
				}
			}
			l.fenAt(arg%15 - 2)
		}
	})
}
