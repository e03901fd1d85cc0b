package reconcile

import (
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules"
	"github.com/notnil/chess"
)

func TestBoardFirstReadWithTheGameUnderWay(t *testing.T) {
	// The daemon is killed before it read the board; restarted, it reads
	// the board first after 1.e4 e5 were made and pressed. Those two plies
	// were not seen: reported as unverified, not completed. The game goes on
	// from them, and the presses read before the board showed the game are
	// never judged as presses without a move.
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.start(0.5)
	h.feed(h.g.Session(sec(0.9), "disconnected", "board"))
	h.unseen("e4", "e5")
	h.dump(5.2)
	h.feed(h.g.Session(sec(5.3), "connected", "board"))
	h.clock(clockd.ClockEvent{Kind: clockd.Running, At: sec(5.5), Side: W})
	h.play(7.8, "f4")
	h.press(8.1, W)
	h.play(9.7, "exf4")
	h.press(10.4, B)
	h.play(11.5, "Bc4")
	h.press(12.1, W)
	h.advance(20)
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	for san, ply := range map[string]int{"f4": 3, "exf4": 4, "Bc4": 5} {
		if got := h.completedAt(san); got != ply {
			t.Errorf("%s completed at ply %d, want %d\n%s", san, got, ply, h.jsonl())
		}
	}
}

func TestPressesBeforeTheBoardShowsTheGameAreNotJudged(t *testing.T) {
	// The clock runs and is pressed while the board shows no game arbiterd
	// can follow (pieces still being set up): nothing is there to judge
	// the presses against, so none is a press without a move (7.5.3), then
	// or once the start position is set up.
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.setBoard(0, "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1")
	h.start(0.5)
	h.press(2, W)
	h.press(3, B)
	h.advance(15)
	h.wantAnomalies(KindUnexplainedPosition)
	h.setBoard(20, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
	h.play(25, "e4")
	h.press(25.2, W)
	h.advance(30)
	h.wantAnomalies(KindUnexplainedPosition)
	h.wantCompleted(1, 0)
}

func TestAFlagBeforeTheBoardShowsTheGameIsNotJudged(t *testing.T) {
	// arbiterd started with the game far on: the board shows a position
	// it cannot follow from the start, so it has no count of completed
	// moves and no position. A flag then is no loss on a count of zero.
	h := newHarness(t, Config{TimeControl: mustTC(t, "2/60:60")})
	h.setBoard(0, "r4rk1/pp2qppp/2n1bn2/2bpp3/4P3/2NP1N2/PPPBBPPP/R2Q1RK1 w - - 4 10")
	h.start(0.5)
	h.press(2, W)
	h.press(3, B)
	h.flag(61, W)
	h.advance(80)
	f := h.of(TypeFlag)
	if len(f) != 1 || f[0].Verdict != VerdictUnknown || f[0].OpponentCanMate != MateUnknown {
		t.Fatalf("flag %+v, want verdict unknown", f)
	}
	if e := h.of(TypeEnd); len(e) != 0 {
		t.Errorf("the game was ended: %+v", e)
	}
}

// immortal11 is the first eleven plies of a game (Black to move after
// them), made on the board before arbiterd first reads it.
var immortal11 = []string{"e4", "e5", "f4", "exf4", "Bc4", "Qh4+", "Kf1", "b5", "Bxb5", "Nf6", "Nf3"}

// joinUnderWay reports the clock first read with the game under way,
// side's time running, and sets the model's clock to the times shown;
// guessed: White's face is not set, the clock's sides are a guess
// (clockd.ClockEvent.WhiteGuessed).
func (h *harness) joinUnderWay(at float64, side clockd.Side, times clockd.Times, guessed bool) {
	h.since, h.running, h.clk = at, side, times
	h.clock(clockd.ClockEvent{Kind: clockd.Started, At: sec(at), Side: side, Clock: times, UnderWay: true, WhiteGuessed: guessed})
}

// followFour plays the four plies after immortal11 on a board joined under
// way, each pressed by its own side a fraction of a second after it shows.
func (h *harness) followFour() {
	for i, at := range []float64{3, 5, 7, 9} {
		h.play(at, immortalOn[i])
		h.press(at+[]float64{0.4, 0.3, 0.2, 0.3}[i], []clockd.Side{B, W}[i%2])
	}
}

func TestABoardFirstReadDeepInPlayIsFollowed(t *testing.T) {
	// arbiterd started (or restarted, its journal holding nothing of the
	// game) eleven plies in: deeper than the search from the start goes.
	// The clock says the game is under way, the pawns say which way round
	// the board is: the game is followed from the position the board
	// shows, its moves before reported once as unverified, and the moves
	// after completed by their presses, with no unexplained-position
	// alert. Either way round.
	for _, rotate := range []bool{false, true} {
		h := newHarness(t, Config{TimeControl: mustTC(t, "900+10")})
		h.rotate = rotate
		h.unseen(immortal11...)
		h.dump(0.2)
		h.joinUnderWay(0.3, B, clockd.Times{White: 954 * time.Second, Black: 943 * time.Second}, false)
		h.followFour()
		h.advance(20)
		h.wantAnomalies(KindUnverified)
		// numbered from the fewest plies that reach the position: maybe
		// low (plies 12 to 15 in the game), never high, Black's on even
		h.wantCompletions("10.Qh6 11.d3 12.Nh5 13.Nh4")
		if p := h.of(TypePosition); len(p) != 1 || p[0].Orientation != map[bool]string{false: "white-bottom", true: "black-bottom"}[rotate] {
			t.Errorf("rotated %v: position events %+v", rotate, p)
		}
	}
}

func TestABoardFirstReadDeepInPlayNeedsTheClockUnderWay(t *testing.T) {
	// The same board by a clock at the control's starting times is a
	// board being set up (or a study left on it), not a game to follow:
	// the start position is awaited, and said to be.
	h := newHarness(t, Config{TimeControl: mustTC(t, "900+10")})
	h.unseen(immortal11...)
	h.dump(0.2)
	h.start(0.3)
	h.advance(20)
	h.wantAnomalies(KindUnexplainedPosition)
	if p := h.of(TypePosition); len(p) != 0 {
		t.Errorf("followed: %+v", p)
	}
}

func TestJoinedAt(t *testing.T) {
	// joinedAt takes the orientation the pawns and kings say clearly, and
	// none from a position that looks alike both ways round or that no
	// game can have.
	for _, c := range []struct {
		fen  string
		want string // "white-bottom", "black-bottom" or "" (not taken)
	}{
		{"rnb1kb1r/p1pp1ppp/5n2/1B6/4Pp1q/5N2/PPPP2PP/RNBQ1K1R b kq - 0 6", "white-bottom"},
		{"r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8", "white-bottom"},
		{"8/5k2/8/3K4/8/8/2N5/6n1 w - - 0 60", ""},            // no pawns: alike both ways
		{"8/8/4k3/p7/P7/4K3/8/8 w - - 0 50", ""},              // too little to tell
		{"4k3/pppppppp/8/8/8/8/PPPPPPPP/3QQK2 w - - 0 1", ""}, // a second queen with no pawn missing
		{"4k3/8/8/8/8/8/8/4K2P w - - 0 1", ""},                // a pawn on the first rank
	} {
		opt, err := chess.FEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		s := rules.SnapshotOf(chess.NewGame(opt).Position())
		for _, rotate := range []bool{false, true} {
			r := s
			want := c.want
			if rotate {
				r = s.Rotated()
				want = map[string]string{"white-bottom": "black-bottom", "": ""}[want]
			}
			o, ok := joinedAt(r)
			got := ""
			if ok {
				got = o.String()
			}
			if got != want {
				t.Errorf("%s (turned round %v): orientation %q, want %q", c.fen, rotate, got, want)
			}
		}
	}
}

func TestAClockFirstReadUnderWayAtTheStartIsPointedOut(t *testing.T) {
	// The board shows the game at its start, and the clock's first reading
	// is not at the control's starting times: a clock set to another
	// control than the event's (90 minutes + 30 s here, for 15 + 10). The
	// periods and flags are judged by the control: the arbiter is told,
	// once, and the game is followed as usual.
	h := newHarness(t, Config{TimeControl: mustTC(t, "900+10")})
	h.show(0.2)
	h.joinUnderWay(0.5, W, clockd.Times{White: 5430 * time.Second, Black: 5430 * time.Second}, false)
	h.advance(8)
	h.play(9, "e4")
	h.press(9.3, W)
	h.play(12, "e5")
	h.press(12.4, B)
	h.advance(20)
	h.wantAnomalies(KindClockReading)
	h.wantCompletions("1.e4 2.e5")

	// A clock whose first readings were lost until after White's first
	// press is no such clock: the board shows 1.e4 a scan lag after it.
	// (That press was not seen: 1.e4 is completed by White's next move.)
	h = newHarness(t, Config{TimeControl: mustTC(t, "900+10")})
	h.show(0.2)
	h.play(2, "e4")
	h.joinUnderWay(2.6, B, clockd.Times{White: 908 * time.Second, Black: 899 * time.Second}, false)
	h.play(5, "e5")
	h.press(5.4, B)
	h.play(7, "Nf3")
	h.press(7.3, W)
	h.advance(20)
	for _, k := range h.anomalies() {
		if k == KindClockReading {
			t.Errorf("clock-reading alert for a clock first read after the first press\n%s", h.jsonl())
		}
	}
	// (completions follow the presses: 2.e5 by its press before 1.e4 by
	// White's next move; see docs/reconciliation.md)
	h.wantCompletions("2.e5 1.e4 3.Nf3")
}

// immortalOn is the game's plies after immortal11, to the mate.
var immortalOn = []string{"Qh6", "d3", "Nh5", "Nh4", "Qg5", "Nf5", "c6", "g4", "Nf6", "Rg1", "cxb5", "h4", "Qg6",
	"h5", "Qg5", "Qf3", "Ng8", "Bxf4", "Qf6", "Nc3", "Bc5", "Nd5", "Qxb2", "Bd6", "Bxg1", "e5", "Qxa1+", "Ke2", "Na6",
	"Nxg7+", "Kd8", "Qf6+", "Nxf6", "Be7#"}

// joinGuessedWrong joins the game eleven plies in by a clock whose White
// face is not set and guessed wrong, and plays n plies of immortalOn from
// there, two seconds apart, each pressed under the other side's name.
func joinGuessedWrong(h *harness, n int) {
	h.unseen(immortal11...)
	h.dump(0.2)
	h.joinUnderWay(0.3, W, clockd.Times{White: 943 * time.Second, Black: 954 * time.Second}, true)
	for i, san := range immortalOn[:n] {
		at := 3 + 2*float64(i)
		h.play(at, san)
		h.clock(clockd.ClockEvent{Kind: clockd.Press, At: sec(at + 0.4), Side: []clockd.Side{W, B}[i%2]})
	}
}

func TestAClockJoinedUnderWayLearnsWhiteFaceFromThePresses(t *testing.T) {
	// arbiterd joins the game eleven plies in, White's face not set: the
	// clock's sides are a guess (the left face White's), and here it is
	// wrong, so every press arrives named for the other side. Presses
	// follow their own side's moves: after two that do not, the sides are
	// turned round, the moves are completed by their presses, and no
	// press-without-move or move-without-press is raised meanwhile.
	h := newHarness(t, Config{TimeControl: mustTC(t, "900+10")})
	joinGuessedWrong(h, 6)
	h.advance(30)
	h.wantAnomalies(KindUnverified)
	for _, c := range h.of(TypeComplete) {
		if c.SAN == "Nh4" || c.SAN == "Qg5" || c.SAN == "Nf5" {
			if c.By != ByPress {
				t.Errorf("%s completed by %s, want by its press once the sides are learned", c.SAN, c.By)
			}
		}
	}
	if p := h.of(TypePress); len(p) == 0 || p[len(p)-1].Side != W {
		t.Errorf("the last press (White's, for Nf5) is named %v", p)
	}

	// The same with the guess right: nothing is turned round.
	h = newHarness(t, Config{TimeControl: mustTC(t, "900+10")})
	h.unseen(immortal11...)
	h.dump(0.2)
	h.joinUnderWay(0.3, B, clockd.Times{White: 954 * time.Second, Black: 943 * time.Second}, true)
	h.followFour()
	h.advance(30)
	h.wantAnomalies(KindUnverified)
	h.wantCompletions("10.Qh6 11.d3 12.Nh5 13.Nh4")
}

func TestAFlagBeforeAGameJoinedDeepIsSettledIsNotJudged(t *testing.T) {
	// The board first read eleven plies in, by a clock whose sides are a
	// guess: the record waits for a move from that position to tell the
	// side to move. A flag meanwhile is judged on no count and no
	// position: unknown, never a loss on a count of zero.
	h := newHarness(t, Config{TimeControl: mustTC(t, "2/60:60")})
	h.unseen(immortal11...)
	h.dump(0.2)
	h.joinUnderWay(0.3, B, clockd.Times{White: 30 * time.Second, Black: 10 * time.Second}, true)
	h.flag(11, B)
	h.advance(20)
	f := h.of(TypeFlag)
	if len(f) != 1 || f[0].Verdict != VerdictUnknown || f[0].OpponentCanMate != MateUnknown {
		t.Fatalf("flag %+v, want verdict unknown\n%s", f, h.jsonl())
	}
	if e := h.of(TypeEnd); len(e) != 0 {
		t.Errorf("the game was ended: %+v", e)
	}
}

func TestTheFacesLearnedAfterAJoinAreForThatGameOnly(t *testing.T) {
	// The sides learned turned round after a join hold for that game: the
	// next game on the board starts from the start position by a clock
	// started afresh, whose White face the interpreter takes at that start
	// (6.6). White's first press completes White's first move, with no
	// press-without-move for a side turned round once more.
	h := newHarness(t, Config{TimeControl: mustTC(t, "900+10")})
	joinGuessedWrong(h, len(immortalOn))
	h.advance(80)
	if e := h.of(TypeEnd); len(e) != 1 || e[0].Result != "1-0" {
		t.Fatalf("the first game's end: %+v\n%s", e, h.jsonl())
	}
	n := len(h.out)
	h.shadow, _ = rules.NewGame("")
	h.board = rules.SnapshotOf(h.shadow.Position())
	h.show(100)
	h.start(101)
	h.play(105, "e4")
	h.press(105.4, W)
	h.play(108, "e5")
	h.press(108.4, B)
	h.advance(120)
	h.out = h.out[n:]
	h.wantAnomalies()
	h.wantCompletions("1.e4 2.e5")
}
