package broadcast

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/internal/output/livechess"
	"github.com/arbiterd/arbiterd/internal/output/pgn"
	"github.com/arbiterd/arbiterd/internal/testkit/feedtest"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// The Immortal Game (Anderssen–Kieseritzky, London 1851).
var immortal = strings.Fields("e4 e5 f4 exf4 Bc4 Qh4+ Kf1 b5 Bxb5 Nf6 Nf3 Qh6 d3 Nh5 Nh4 Qg5 Nf5 c6 g4 Nf6 " +
	"Rg1 cxb5 h4 Qg6 h5 Qg5 Qf3 Ng8 Bxf4 Qf6 Nc3 Bc5 Nd5 Qxb2 Bd6 Bxg1 e5 Qxa1+ Ke2 Na6 Nxg7+ Kd8 Qf6+ Nxf6 Be7#")

// readPGN re-reads a PGN with notnil/chess's PGN reader and returns its
// moves in SAN; the reader refuses a movetext that is not a legal game.
func readPGN(t *testing.T, text string) []string {
	t.Helper()
	opt, err := chess.PGN(strings.NewReader(text))
	if err != nil {
		t.Fatalf("a PGN reader refuses the PGN: %v\n%s", err, text)
	}
	g := chess.NewGame(opt)
	pos := g.Positions()
	var out []string
	for i, m := range g.Moves() {
		out = append(out, chess.AlgebraicNotation{}.Encode(pos[i], m))
	}
	return out
}

func isPrefix(p, of []string) bool {
	return len(p) <= len(of) && strings.Join(p, " ") == strings.Join(of[:len(p)], " ")
}

// A forgotten press (6.2.1): Black makes 7...Nh5 without pressing; White
// replies 8.Nh4 and cannot press (White's clock is not running); Black
// plays 8...Qg5 and presses. The presses complete ply 16 before ply 15,
// but every view lists the plies in the order they were played: the PGN
// (the board's file and the round's) is a game a PGN reader accepts at
// every moment, the hub's san and the LiveChess feed's san are the game
// so far, and at the end they are the whole game.
func TestForgottenPressEveryViewInBoardOrder(t *testing.T) {
	// (every ply of the game passes; these are the first plies, the
	// example of the issue, the middle, and the last two, the mate)
	for _, ply := range []int{1, 2, 14, 21, 44, 45} {
		t.Run(fmt.Sprintf("no press at ply %d", ply), func(t *testing.T) { forgottenPress(t, ply) })
	}
}

func forgottenPress(t *testing.T, ply int) {
	evs := feedtest.Events(t, immortal, tc, map[string]string{"board": "1"}, emulator.Action{Kind: emulator.NoPress, Ply: ply})
	h := hub.New(hub.Options{})
	h.AddBoard(hub.Info{ID: "1", Round: "1", White: "Anderssen, A", Black: "Kieseritzky, L", TimeControl: tc})
	g := pgn.New(pgn.Tags{Round: "1", Board: "1"})
	var completed []int
	var anomalies []string
	for _, e := range evs {
		h.Publish("1", e)
		g.Add(e)
		if e.Type == reconcile.TypeAnomaly {
			anomalies = append(anomalies, string(e.Kind))
		}
		if e.Type != reconcile.TypeComplete {
			continue
		}
		completed = append(completed, e.Ply)
		var b bytes.Buffer
		if err := g.Write(&b); err != nil {
			t.Fatal(err)
		}
		if got := readPGN(t, b.String()); !isPrefix(got, immortal) || len(got) < e.Ply {
			t.Fatalf("after ply %d was completed the PGN reads %v\n%s", e.Ply, got, b.String())
		}
		st, _ := h.Board("1")
		if !isPrefix(st.SAN, immortal) || len(st.SAN) < e.Ply {
			t.Fatalf("after ply %d was completed the hub's san is %v", e.Ply, st.SAN)
		}
		if lc := livechess.EventOf(st); !isPrefix(lc.SAN, immortal) || len(lc.SAN) < e.Ply {
			t.Fatalf("after ply %d was completed the LiveChess san is %v (match %v)", e.Ply, lc.SAN, lc.Match)
		}
	}
	// one forgotten press, one alert (none when the unpressed move mates)
	if len(anomalies) > 1 || (len(anomalies) == 1 && anomalies[0] != string(reconcile.KindMoveWithoutPress)) {
		t.Errorf("anomalies %v, want one move-without-press at most", anomalies)
	}
	if len(completed) != len(immortal) {
		t.Errorf("%d plies completed, want %d: %v", len(completed), len(immortal), completed)
	}
	st, _ := h.Board("1")
	if strings.Join(st.SAN, " ") != strings.Join(immortal, " ") || st.Moves.White != 23 || st.Moves.Black != 22 {
		t.Errorf("hub: san %v, moves %+v", st.SAN, st.Moves)
	}
	lc := livechess.EventOf(st)
	if strings.Join(lc.SAN, " ") != strings.Join(immortal, " ") || !lc.Match {
		t.Errorf("LiveChess feed: san %v, match %v", lc.SAN, lc.Match)
	}
	var b bytes.Buffer
	g.Write(&b)
	if strings.Contains(b.String(), "could not be verified") {
		t.Errorf("the PGN says plies could not be verified:\n%s", b.String())
	}

	dir := t.TempDir()
	f := New(dir, h, Options{Meta: Meta{Event: "Club Open", Date: "2026.11.30"}, Now: newClock().Now})
	f.prime()
	f.flush(true)
	for _, name := range []string{"game-1.pgn", "games.pgn"} {
		text := read(t, filepath.Join(dir, "round-1", name))
		if got := readPGN(t, text); strings.Join(got, " ") != strings.Join(immortal, " ") {
			t.Errorf("%s reads %v\n%s", name, got, text)
		}
	}
	var idx Index
	readJSON(t, filepath.Join(dir, "round-1", "index.json"), &idx)
	if len(idx.Games) != 1 || idx.Games[0].Plies != len(immortal) || idx.Games[0].Result != "1-0" {
		t.Errorf("index.json %+v", idx.Games)
	}
}
