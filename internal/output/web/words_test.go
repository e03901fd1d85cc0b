package web

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// readEvents reads an event stream (JSONL, docs/events.md) back
// into events, the fields the hub and the dashboard use.
func readEvents(t testing.TB, path string) []reconcile.Event {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	side := func(s string) clockd.Side {
		if s == "black" {
			return clockd.Black
		}
		return clockd.White
	}
	dur := func(s float64) time.Duration { return time.Duration(math.Round(s*1e6)) * time.Microsecond }
	var out []reconcile.Event
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if e, err := reconcile.Unmarshal(sc.Bytes()); err == nil {
			out = append(out, e) // a line as arbiterd writes it, its text included
			continue
		}
		var j struct {
			Type, Board, State, Port, FEN, Orientation, SAN, UCI, By, Kind, Article, Detail, Reason, Verdict, Result string
			Side                                                                                                     *string
			T                                                                                                        float64
			Seq, Ply, Period                                                                                         int
			Clock                                                                                                    struct{ White, Black float64 }
			Moves                                                                                                    struct{ White, Black int }
			MovesCompleted                                                                                           int    `json:"moves_completed"`
			MovesRequired                                                                                            *int   `json:"moves_required"`
			OpponentCanMate                                                                                          string `json:"opponent_can_mate"`
			MateLine                                                                                                 any    `json:"mate_line"`
		}
		if err := json.Unmarshal(sc.Bytes(), &j); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		e := reconcile.Event{Type: reconcile.Type(j.Type), Board: j.Board, At: dur(j.T), Seq: j.Seq, State: reconcile.State(j.State), Port: j.Port,
			FEN: j.FEN, Orientation: j.Orientation, Ply: j.Ply, SAN: j.SAN, UCI: j.UCI, By: reconcile.By(j.By), Kind: reconcile.Kind(j.Kind), Article: j.Article,
			Detail: j.Detail, Reason: reconcile.Reason(j.Reason), Verdict: reconcile.Verdict(j.Verdict), Result: j.Result, Period: j.Period,
			MovesCompleted: j.MovesCompleted, OpponentCanMate: reconcile.Mate(j.OpponentCanMate),
			Clock: clockd.Times{White: dur(j.Clock.White), Black: dur(j.Clock.Black)},
			Moves: reconcile.Moves{White: j.Moves.White, Black: j.Moves.Black}}
		if j.Side == nil {
			e.NoSide = true
		} else {
			e.Side = side(*j.Side)
		}
		if j.MovesRequired != nil {
			e.MovesRequired = *j.MovesRequired
		}
		if l, ok := j.MateLine.([]any); ok {
			for _, m := range l {
				e.MateLine = append(e.MateLine, m.(string))
			}
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// captureSeconds is a capture time in an alert's text ("at 113.471 s").
var captureSeconds = regexp.MustCompile(`\d+\.\d+ s\b`)

func TestSANLine(t *testing.T) {
	for _, c := range []struct {
		fen  string
		uci  []string
		want string
	}{
		{"", []string{"f2f3", "e7e5", "g2g4", "d8h4"}, "1. f3 e5 2. g4 Qh4#"},
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", []string{"e7e5", "g1f3"}, "1… e5 2. Nf3"},
		{"", []string{"e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"}, "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#"},
		// Black to move in its 12th move; a promotion
		{"8/8/8/8/8/5k2/p7/5K2 b - - 0 12", []string{"a2a1q"}, "12… a1=Q#"},
	} {
		got, err := SANLine(c.fen, c.uci)
		if err != nil || got != c.want {
			t.Errorf("SANLine(%q, %v) = %q, %v; want %q", c.fen, c.uci, got, err, c.want)
		}
	}
	for _, c := range []struct {
		s     string
		plies int
		ok    bool
	}{
		{"19… Ne7 20. Bxe7 Bc5 21. Nc7#", 4, true},
		{"19… Ne7 20. Bxe7 Bc5 21. Nc7+", 4, false},
		{"19… g8e7 20. d6e7 g1c5 21. Nc7#", 4, false},
		{"19. Ne7 20. Bxe7 Bc5 21. Nc7#", 4, false},
		{"19… Ne7 20. Bxe7 Bc5 21. Nc7#", 3, false},
	} {
		if mateLine(c.s, 19, true, c.plies) != c.ok {
			t.Errorf("mateLine(%q, %d plies) = %v", c.s, c.plies, !c.ok)
		}
	}
	if got, err := SANLine("", []string{"e2e4", "e2e4"}); err == nil {
		t.Errorf("an illegal move in the line gave %q, no error", got)
	}
}

// pressBackBoard is a hub and its board 5 after the events of
// testdata/press-back.jsonl, and those events.
func pressBackBoard(t *testing.T) (*hub.Hub, hub.Board, []reconcile.Event) {
	t.Helper()
	evs := readEvents(t, "testdata/press-back.jsonl")
	h := hub.New(hub.Options{})
	h.AddBoard(hub.Info{ID: "5", TimeControl: "40/5400+30:1800+30"})
	for _, e := range evs {
		h.Publish("5", e)
	}
	b, err := h.Board("5")
	if err != nil {
		t.Fatal(err)
	}
	return h, b, evs
}

// TestWordsPressBack reads a real event stream in which the opponent's
// press that gave the turn back after a press without a move was raised
// as a press without a move of its own and counted as an illegal move
// (as arbiterd's reconciliation once did). The dashboard calls the first
// press a press without a move on move 6 with the clocks of the press,
// and the second a press back, without a penalty.
func TestWordsPressBack(t *testing.T) {
	h, b, evs := pressBackBoard(t)
	got := Words(b, evs)
	if len(got) != 3 {
		t.Fatalf("%d alerts, want 3 (two presses, a stopped clock): %+v", len(got), got)
	}
	first, back := got[0], got[1]
	want := "White pressed the clock on move 6 without making a move (the clocks then showed White 1:32:33, Black 1:32:04). " +
		"A press without a move is penalised as an illegal move (6.2.4, 7.5.3). " +
		"This is White's first completed illegal move: add 2 minutes to Black's clock and remove any increment the press earned (7.5.5)."
	if first.Say != want || first.PressBack || first.Move != 6 || first.Label != "press without a move" {
		t.Errorf("the press without a move:\n got %+v\nwant say %q", first, want)
	}
	if first.Clock == nil || first.Clock.White != 5553 || first.Clock.Black != 5524 {
		t.Errorf("the press without a move's clocks %+v, want the press's 5553/5524", first.Clock)
	}
	if !back.PressBack || back.Label != "press back" || back.Side != "black" ||
		strings.Contains(back.Say, "illegal move:") || !strings.Contains(back.Say, "not an illegal move of Black's") ||
		!strings.Contains(back.Say, "on move 6 after White's press without a move") {
		t.Errorf("the press back: %+v", back)
	}
	if !strings.Contains(back.Text, "Black's first completed illegal move") {
		t.Errorf("the stream's own text changed (%q): the test no longer covers a press back counted as an illegal move", back.Text)
	}
	if got[2].Say != got[2].Text || got[2].Move == 0 {
		t.Errorf("the stopped clock: %+v", got[2])
	}
	for _, a := range got {
		if captureSeconds.MatchString(a.Say) {
			t.Errorf("alert %d speaks in capture seconds: %q", a.ID, a.Say)
		}
	}

	// A later illegal move of Black's, which the stream counted as its
	// second (the press back being the first), is Black's first.
	ill := reconcile.Event{Type: reconcile.TypeAnomaly, Seq: 117, At: 340 * time.Second, Kind: reconcile.KindIllegalMove,
		Side: clockd.Black, Article: "7.5.1",
		Detail: "Black pressed the clock while the board showed a position that no legal move of Black's explains: an illegal move, completed by the press (7.5.1). " +
			"Restore the position before it (8/8/8/8/8/8/8/8 w - - 0 1) and have Black make a legal move. " +
			"This is Black's second completed illegal move: Black loses (7.5.5) unless White cannot checkmate by any series of legal moves, in which case the game is drawn. White can still checkmate (for example d1h5), so Black loses."}
	h.Publish("5", ill)
	var err error
	if b, err = h.Board("5"); err != nil {
		t.Fatal(err)
	}
	got = Words(b, append(evs, ill))
	last := got[len(got)-1]
	if !strings.HasSuffix(last.Say, "This is Black's first completed illegal move: add 2 minutes to White's clock and remove any increment the press earned (7.5.5).") ||
		!strings.HasPrefix(last.Say, "Black pressed the clock while the board showed") {
		t.Errorf("Black's illegal move after the press back: %q", last.Say)
	}
}

// TestWordsFromTheGame plays games on the emulator into captures and
// replays them through arbiterd's pipeline (the event streams as the
// daemon makes them): a press without a move and a flag before the
// control, worded for the arbiter.
func TestWordsFromTheGame(t *testing.T) {
	const tc = "40/5400+30:1800+30"
	for _, c := range []struct {
		r    room
		want []*regexp.Regexp
	}{
		{room{info: hub.Info{ID: "1", TimeControl: tc}, pgn: emulator.DefaultPGN, seed: 1, script: []string{"flag@38"}},
			[]*regexp.Regexp{regexp.MustCompile(`^Black's flag fell in the first period after 18 completed moves`)}},
		{room{info: hub.Info{ID: "2", TimeControl: tc}, pgn: operaGame, seed: 2, script: []string{"press-nomove@12"}, upto: 20},
			[]*regexp.Regexp{regexp.MustCompile(`^Black pressed the clock on move 6 without making a move \(the clocks then showed White 1:21:24, Black 1:20:39\)\. .* This is Black's first completed illegal move`)}},
		// a second press without a move: Black loses, as White can mate
		{room{info: hub.Info{ID: "4", TimeControl: tc}, pgn: operaGame, seed: 2, script: []string{"press-nomove@12", "press-nomove@14"}, upto: 20},
			[]*regexp.Regexp{regexp.MustCompile(`^Black pressed the clock on move 6 without making a move.* This is Black's first completed illegal move`),
				regexp.MustCompile(`^Black pressed the clock on move 7 without making a move \(the clocks then showed White \d:\d\d:\d\d, Black \d:\d\d:\d\d\)\. .* This is Black's second completed illegal move: Black loses \(7\.5\.5\) .* White can still checkmate \(for example 7… [^()]+#\), so Black loses\.$`)}},
		// the arbiter gives White the 2 minutes: the alert is settled
		{room{info: hub.Info{ID: "3", TimeControl: tc}, pgn: operaGame, seed: 2, script: []string{"press-nomove@12", "arbiter@ply=13,side=white,by=2m"}, upto: 20},
			[]*regexp.Regexp{regexp.MustCompile(`^Black pressed the clock on move 6 without making a move`), regexp.MustCompile(`^The arbiter changed White's clock by \+2:00`)}},
	} {
		evs := eventsOf(t, c.r)
		h := hub.New(hub.Options{})
		h.AddBoard(c.r.info)
		for _, e := range evs {
			h.Publish(c.r.info.ID, e)
		}
		b, _ := h.Board(c.r.info.ID)
		got := Words(b, evs)
		if len(got) != len(c.want) {
			t.Fatalf("board %s: %d alerts, want %d: %+v", c.r.info.ID, len(got), len(c.want), got)
		}
		for i, a := range got {
			if !c.want[i].MatchString(a.Say) || captureSeconds.MatchString(a.Say) {
				t.Errorf("board %s alert %d: %q, want %v", c.r.info.ID, a.ID, a.Say, c.want[i])
			}
		}
		if c.r.info.ID == "3" {
			if p, a := got[0], got[1]; p.ClosedBy != a.Seq || !p.Acked || a.Label != "clock set by the arbiter" || a.Clock == nil || a.Clock.White != 5031 {
				t.Errorf("the press settled by the arbiter's change of White's clock: %+v; the change: %+v, clock %+v", p, a, a.Clock)
			}
		}
		if c.r.info.ID == "1" {
			var flag reconcile.Event
			for _, e := range evs {
				if e.Type == reconcile.TypeFlag {
					flag = e
				}
			}
			if f := got[0]; !mateLine(f.Mate, 19, true, len(flag.MateLine)) || f.Move != 19 || f.Clock == nil || f.Clock.Black != 0 {
				t.Errorf("the flag: mate %q (the stream's %v), move %d, clock %+v", f.Mate, flag.MateLine, f.Move, f.Clock)
			}
		}
	}
}

// mateLine reports whether s is a line of plies in SAN with move numbers
// from move n (black: Black to move first), ending in mate:
// "19… Ne7 20. Bxe7 Bc5 21. Nc7#".
func mateLine(s string, n int, black bool, plies int) bool {
	san := regexp.MustCompile(`^(O-O(-O)?|[KQRBN][a-h]?[1-8]?x?[a-h][1-8]|[a-h](x[a-h])?[1-8](=[QRBN])?)[+#]?$`)
	f := strings.Fields(s)
	for i := 0; i < plies; i++ {
		switch {
		case black && i == 0:
			if len(f) == 0 || f[0] != fmt.Sprintf("%d…", n) {
				return false
			}
			f = f[1:]
		case !black:
			if len(f) == 0 || f[0] != fmt.Sprintf("%d.", n) {
				return false
			}
			f = f[1:]
		}
		if len(f) == 0 || !san.MatchString(f[0]) || (i == plies-1) != strings.HasSuffix(f[0], "#") {
			return false
		}
		f = f[1:]
		if black {
			n++
		}
		black = !black
	}
	return plies > 0 && len(f) == 0
}

// TestAPIWords: the API and the stream carry each alert in the arbiter's
// words beside the stream's own text.
func TestAPIWords(t *testing.T) {
	evs := readEvents(t, "testdata/press-back.jsonl")
	h := hub.New(hub.Options{})
	h.AddBoard(hub.Info{ID: "5", TimeControl: "40/5400+30:1800+30"})
	for _, e := range evs[:45] { // up to the press back
		h.Publish("5", e)
	}
	s := New(h, Options{KeepAlive: time.Hour})
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close)

	type alerts struct {
		Alerts []struct {
			ID        int    `json:"id"`
			Text      string `json:"text"`
			Say       string `json:"say"`
			Label     string `json:"label"`
			Move      int    `json:"move"`
			PressBack bool   `json:"press_back"`
			Clock     *struct{ White, Black float64 }
		} `json:"alerts"`
	}
	r := do(t, s.Handler(), "GET", "/api/boards/5")
	var b alerts
	if err := json.Unmarshal(r.body, &b); err != nil {
		t.Fatal(err)
	}
	if len(b.Alerts) != 2 || b.Alerts[0].Move != 6 || b.Alerts[0].Label != "press without a move" || b.Alerts[0].Clock == nil ||
		!strings.Contains(b.Alerts[0].Text, "113.471 s") || captureSeconds.MatchString(b.Alerts[0].Say) ||
		!b.Alerts[1].PressBack || b.Alerts[1].Label != "press back" {
		t.Fatalf("GET /api/boards/5: %s", r.body)
	}

	st := openStream(t, srv.URL+"/api/stream", "")
	for m := range st.msgs {
		if m.event != "state" {
			continue
		}
		var msg struct{ State alerts }
		if err := json.Unmarshal([]byte(m.data), &msg); err != nil {
			t.Fatal(err)
		}
		if len(msg.State.Alerts) != 2 || msg.State.Alerts[0].Say != b.Alerts[0].Say || !msg.State.Alerts[1].PressBack {
			t.Errorf("the stream's state: %s", m.data)
		}
		return
	}
	t.Fatal("the stream sent no state")
}
