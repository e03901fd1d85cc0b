package reconcile

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules"
)

func TestNewErrors(t *testing.T) {
	cases := []struct {
		cfg  Config
		want string
	}{
		{Config{StartFEN: "rnbqkbnr/pppppppp/8/8 w - - 0 1"}, "start position"},
		{Config{ScanLag: -time.Second}, "ScanLag"},
		{Config{MaxPlies: 99}, "MaxPlies"},
		{Config{MaxPlies: -1}, "MaxPlies"},
		{Config{UnexplainedAfter: -1}, "UnexplainedAfter"},
		{Config{TimeControl: clockd.TimeControl{Periods: []clockd.Period{{Moves: -1, Time: time.Minute}}}}, "period 1"},
	}
	for _, c := range cases {
		_, err := New(c.cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("New(%+v) = %v, want an error naming %q", c.cfg, err, c.want)
		}
	}
}

// TestNoIO keeps the package free of I/O (STYLE.md practice 1): its own
// imports come from a short list, and nothing it depends on is a device,
// network, process or arbiterd I/O package (fmt brings os along; that is
// allowed, using it is not).
func TestNoIO(t *testing.T) {
	const pkg = "github.com/arbiterd/arbiterd/rules/reconcile"
	direct, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, pkg).CombinedOutput()
	if err != nil {
		t.Skipf("go list unavailable: %v\n%s", err, direct)
	}
	allowed := map[string]bool{"bytes": true, "encoding/json": true, "errors": true, "fmt": true, "math/bits": true, "slices": true, "strconv": true, "strings": true, "time": true,
		"unicode/utf8": true, "github.com/notnil/chess": true, "github.com/arbiterd/arbiterd/clockd": true,
		"github.com/arbiterd/arbiterd/rules": true, "github.com/arbiterd/arbiterd/rules/bitboard": true}
	for _, imp := range strings.Fields(string(direct)) {
		if !allowed[imp] {
			t.Errorf("rules/reconcile imports %s directly", imp)
		}
	}
	deps, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, deps)
	}
	for _, dep := range strings.Fields(string(deps)) {
		switch {
		case dep == "net", strings.HasPrefix(dep, "net/"), dep == "os/exec", dep == "os/signal",
			strings.HasPrefix(dep, "go.bug.st/"), strings.HasPrefix(dep, "github.com/creack/"),
			strings.HasPrefix(dep, "github.com/arbiterd/arbiterd/driver"),
			strings.HasPrefix(dep, "github.com/arbiterd/arbiterd/internal"):
			t.Errorf("rules/reconcile depends on %s: the domain must not do I/O", dep)
		}
	}
}

func TestMaterialOracle(t *testing.T) {
	cases := []struct {
		fen  string
		side clockd.Side
		want Mate
	}{
		{"8/8/8/4k3/8/8/3QK3/8 w - - 0 1", B, "no"},
		{"8/8/8/4k3/8/8/3QK3/8 w - - 0 1", W, "unknown"},
		{"8/8/8/4k3/8/8/3NK3/8 w - - 0 1", W, "no"},
		{"8/8/8/4k3/4p3/8/3NK3/8 w - - 0 1", W, "unknown"},
		{"8/8/8/4k3/8/8/3BK3/8 w - - 0 1", W, "no"},
		{"not a fen", W, "unknown"},
	}
	for _, c := range cases {
		if got, line := (MaterialOracle{}).CanMate(c.fen, c.side); got != c.want || line != nil {
			t.Errorf("%s %s: %s %v, want %s", c.fen, c.side, got, line, c.want)
		}
	}
}

func TestBothFlagsLastPeriodDraw(t *testing.T) {
	h := newHarness(t, Config{TimeControl: mustTC(t, "300+0")})
	h.show(0)
	h.start(1)
	h.play(3, "e4")
	h.press(3.2, W)
	h.flag(400, B)
	h.flag(400, W) // one reading: the order is unknown
	h.advance(402)
	f := h.of(TypeFlag)
	if len(f) != 2 || f[0].Verdict != VerdictDraw || f[1].Verdict != VerdictDraw || f[0].Article != "III.3.1" {
		t.Fatalf("flags = %+v", f)
	}
	if e := h.of(TypeEnd); len(e) != 1 || e[0].Result != "1/2-1/2" || e[0].Article != "III.3.1" {
		t.Fatalf("end = %+v", e)
	}
}

func TestUnknownTimeControl(t *testing.T) {
	h := newHarness(t, Config{})
	h.show(0)
	h.start(1)
	h.play(3, "e4")
	h.press(3.2, W)
	h.flag(400, B)
	h.advance(402)
	f := h.of(TypeFlag)
	if len(f) != 1 || f[0].Verdict != VerdictUnknown || f[0].MovesRequired != 0 || !strings.Contains(f[0].Reason, "does not know the time control") {
		t.Fatalf("flag = %+v", f)
	}
	if len(h.of(TypeEnd)) != 0 {
		t.Fatal("a flag without a known control ended the game")
	}
}

func TestClockAndSessionAnomalies(t *testing.T) {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.clock(clockd.ClockEvent{Kind: clockd.Stopped, At: sec(5)})
	h.clock(clockd.ClockEvent{Kind: clockd.Resumed, At: sec(6)})
	h.clock(clockd.ClockEvent{Kind: clockd.Impossible, At: sec(7), Detail: "White's time rose without a press."})
	h.clock(clockd.ClockEvent{Kind: clockd.Disconnected, At: sec(8)})
	h.feed(h.g.Session(sec(9), "disconnected", "board"))
	h.feed(h.g.Session(sec(10), "connected", "board"))
	h.wantAnomalies(KindClockStopped, KindClockReading, KindClockDisconnected, KindBoardDisconnected)
	if a := h.of(TypeAnomaly); !a[0].NoSide || a[0].Article != "6.11" {
		t.Errorf("clock-stopped = %+v", a[0])
	}
	if s := h.of(TypeSession); len(s) != 2 || s[1].State != "connected" {
		t.Errorf("sessions %+v", s)
	}
}

func TestResyncSeveralPliesAreReported(t *testing.T) {
	// The board was away for four plies. After it reconnects the full
	// depth finds them, but in several orders (1.e4 e5 2.Nf3 Nc6 or 1.Nf3
	// Nc6 2.e4 e5 …): arbiterd cannot verify which moves were made, so it
	// completes none of them, says so once, and follows the game on from
	// the board's position: the next moves complete, numbered on.
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.feed(h.g.Session(sec(2), "disconnected", "board"))
	h.press(3, W)
	h.press(4, B)
	h.press(5, W)
	h.press(6, B)
	h.feed(h.g.Session(sec(6.5), "connected", "board"))
	h.play(7, "e4", "e5", "Nf3", "Nc6")
	h.advance(10)
	h.wantCompleted(0, 0)
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	a := h.of(TypeAnomaly)[1]
	if !strings.Contains(a.Detail, "4 plies on") || !strings.Contains(a.Detail, "plies 1 to 4") || !strings.Contains(a.Detail, "several sequences") {
		t.Errorf("unverified-moves detail: %s", a.Detail)
	}
	if c := h.of(TypeComplete); len(c) != 0 {
		t.Fatalf("moves nobody saw were completed: %+v", c)
	}
	h.play(12, "Bb5")
	h.press(12.4, W)
	h.play(15, "a6")
	h.press(15.3, B)
	h.advance(20)
	h.wantCompleted(1, 1)
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	c := h.of(TypeComplete)
	if len(c) != 2 || c[0].Ply != 5 || c[0].SAN != "Bb5" || c[1].Ply != 6 || c[1].SAN != "a6" {
		t.Errorf("completions after the resync: %+v", c)
	}
	// A flag now gets no verdict on the short count.
	h.flag(30, W)
	h.advance(35)
	if f := h.of(TypeFlag); len(f) != 1 || f[0].Verdict != VerdictUnknown {
		t.Errorf("flag %+v", f)
	}
}

func TestResyncAPlyShownBeforeTheAbsenceIsNotVerified(t *testing.T) {
	// White's knight stood on f3 when the board went away, not pressed:
	// the piece may still have been on its way. Back from the absence the
	// board is three plies on. Nf3 is among the plies nobody saw made:
	// reported with them, never completed.
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.opening("e4", "e5")
	h.play(5, "Nf3")
	h.feed(h.g.Session(sec(6), "disconnected", "board"))
	h.press(7, W)
	h.press(8, B)
	h.press(9, W)
	h.press(10, B)
	h.feed(h.g.Session(sec(10.5), "connected", "board"))
	h.play(11, "Nc6", "Bb5", "a6")
	h.advance(15)
	h.wantCompleted(1, 1)
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	a := h.of(TypeAnomaly)[1]
	if a.Ply != 2 || a.Made != 4 || len(a.Plies) != 4 || a.Plies[0] != "Nf3" {
		t.Errorf("unverified-moves: verified ply %d, made %d, plies %v; want 2, 4, from Nf3", a.Ply, a.Made, a.Plies)
	}
	if !strings.Contains(a.Detail, "plies 3 to 6") {
		t.Errorf("unverified-moves detail: %s", a.Detail)
	}
	for _, c := range h.of(TypeComplete) {
		if c.Ply > 2 {
			t.Errorf("a ply nobody saw completed: %+v", c)
		}
	}
	h.play(16, "Ba4")
	h.press(16.4, W)
	h.advance(20)
	h.wantCompleted(2, 1)
}

func TestResyncToAMateEndsTheGame(t *testing.T) {
	// Back from a long absence the board shows a mate no sequence arbiterd
	// searches reaches, and White presses: the record is rebuilt from the
	// board, and the mate on it ends the game (5.1.1), though the moves
	// that led to it were not seen.
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.opening("e4", "e5")
	h.feed(h.g.Session(sec(4), "disconnected", "board"))
	h.feed(h.g.Session(sec(100), "connected", "board"))
	h.setBoard(101, "3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 30")
	h.press(102, W)
	h.advance(130)
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	e := h.of(TypeEnd)
	if len(e) != 1 || e[0].Result != "1-0" || e[0].Reason != "checkmate" {
		t.Errorf("end %+v, want 1-0 by checkmate", e)
	}
}

func TestTheTimeTheBoardWasNotReadIsNotTimeItShowedAPosition(t *testing.T) {
	// A spare queen set down on the board, then the board unplugged for a
	// minute. While it was not read nothing is said of how long it showed
	// the queen; read again, the board must show it for the full waits
	// from then on before the record is rebuilt from it (a minute without
	// a press), not at once because the minute away counted as shown.
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.opening("e4")
	h.put(5, "d5", chess.WhiteQueen)
	h.feed(h.g.Session(sec(6), "disconnected", "board"))
	h.feed(h.g.Session(sec(60), "connected", "board"))
	h.show(61)
	h.advance(120)
	h.wantAnomalies(KindBoardDisconnected)
	h.advance(125)
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	if a := h.of(TypeAnomaly)[1]; a.At < sec(121) {
		t.Errorf("record rebuilt at %v, before 2m1s: less than a minute after the board was read again", a.At)
	}
}

func TestResyncAPieceOnItsWayBeforeTheAbsenceIsNotAMove(t *testing.T) {
	// Black's queen was seen on f6, on her way to g5, when the board went
	// away; meanwhile Black pressed and White played d3 and pressed. The
	// board comes back showing Qg5 and d3. Qf6 then d3 then Qf6-g5 would
	// explain it too, but Qf6 was never completed: from the last verified
	// position the game is Qg5 d3, completed in order by their presses.
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.opening("e4", "e5", "Nf3")
	h.setBoard(5, "rnb1kbnr/pppp1ppp/5q2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
	h.feed(h.g.Session(sec(5.5), "disconnected", "board"))
	h.press(7, B)
	h.press(8, W)
	h.feed(h.g.Session(sec(8.5), "connected", "board"))
	h.setBoard(9, "rnb1kbnr/pppp1ppp/8/4p1q1/4P3/3P1N2/PPP2PPP/RNBQKB1R b KQkq - 0 3")
	h.advance(15)
	h.wantCompletions("1.e4 2.e5 3.Nf3 4.Qg5 5.d3")
	h.wantAnomalies(KindBoardDisconnected)
}

func TestASlideEndReportedAfterTheReplyIsMergedWhenTheSideMovesAgain(t *testing.T) {
	// Black's queen goes d8-a5 and White replies h3 at once. One scan
	// reports the queen on b6, on her way; the next reports h3 and then
	// the queen's square a5 (a board sends a scan's changed squares one
	// after the other). That reads as Qb6, h3, Qa5, and nothing
	// contradicts it until Black moves again: then the board is explained
	// only by Qa5, h3 and Black's new move. The record is corrected once,
	// and play goes on in step, with no illegal-move alerts.
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.opening("e4", "c6", "Nf3")
	h.setBoard(10, "rnb1kbnr/pp1ppppp/1qp5/8/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
	h.press(10.1, B)
	h.setBoard(10.2, "rnb1kbnr/pp1ppppp/1qp5/8/4P3/5N1P/PPPP1PP1/RNBQKB1R b KQkq - 0 3")
	h.setBoard(10.21, "rnb1kbnr/pp1ppppp/2p5/q7/4P3/5N1P/PPPP1PP1/RNBQKB1R b KQkq - 0 3")
	h.press(10.25, W)
	h.setBoard(13, "rnb1kbnr/pp1p1ppp/2p1p3/q7/4P3/5N1P/PPPP1PP1/RNBQKB1R w KQkq - 0 4")
	h.press(13.3, B)
	h.advance(20)
	if got := h.g.State().Completed; got != (Moves{White: 3, Black: 3}) {
		t.Errorf("completed %+v, want 3 and 3 (e4 Nf3 h3, c6 Qa5 e6)", got)
	}
	if san := h.g.rec.SAN(4) + " " + h.g.rec.SAN(5) + " " + h.g.rec.SAN(6); san != "Qa5 h3 e6" {
		t.Errorf("plies 4 to 6 recorded as %s, want Qa5 h3 e6", san)
	}
	h.wantAnomalies(KindMoveCorrected)
}

func TestAPressReadAfterTheFlagDoesNotCountAtTheFlag(t *testing.T) {
	// White makes its second move as the flag falls: the clock's reading
	// shows the flag, the next one (the same instant) White's press. The
	// move was not completed when the flag fell (6.3.1): one move, and the
	// move is noted as made without a press, whenever the press is
	// resolved.
	h := newHarness(t, Config{TimeControl: mustTC(t, "2/60:60")})
	h.opening("e4", "e5")
	h.play(60, "Nf3")
	h.flag(60.5, W)
	h.press(60.5, W)
	h.advance(70)
	f := h.of(TypeFlag)
	if len(f) != 1 || f[0].MovesCompleted != 1 || f[0].Verdict != VerdictLoss {
		t.Fatalf("flag %+v, want White's with 1 completed move, lost", f)
	}
	h.wantAnomalies(KindMoveWithoutPress)
}

func TestTheEndDecidesAWaitingResyncOnce(t *testing.T) {
	// Back from an absence the board shows what no sequence reaches, and
	// the capture ends before the wait to rebuild the record from it is
	// over. The end decides every deadline at once: the record is rebuilt
	// from the board (reported), once. (The deadline used to be judged by
	// the stamp of the end, earlier than itself, so it fell due again and
	// again, a resync search each time, up to the loop's guard.)
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.opening("e4")
	h.feed(h.g.Session(sec(6), "disconnected", "board"))
	h.feed(h.g.Session(sec(60), "connected", "board"))
	h.put(61, "d5", chess.WhiteQueen)
	h.end(70)
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
}

func TestResyncOnePlyIsAMove(t *testing.T) {
	// One ply made while the board was away is one move, explained
	// unambiguously: its press, seen meanwhile, completes it.
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.feed(h.g.Session(sec(2), "disconnected", "board"))
	h.press(3, W)
	h.feed(h.g.Session(sec(3.5), "connected", "board"))
	h.play(4, "e4")
	h.advance(8)
	h.wantCompleted(1, 0)
	h.wantAnomalies(KindBoardDisconnected)
}

func TestTwoMovesAnomaly(t *testing.T) {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(3, "e4")
	h.press(3.2, W)
	// White plays d4 as well, without Black moving.
	h.put(6, "d2", chess.NoPiece)
	h.put(6.1, "d4", chess.WhitePawn)
	h.advance(20)
	h.wantAnomalies(KindTwoMoves)
	if a := h.of(TypeAnomaly)[0]; a.Side != W || !strings.Contains(a.Detail, "d4") {
		t.Errorf("two-moves = %+v", a)
	}
}

func TestArbiterActions(t *testing.T) {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(3, "e4")
	h.press(3.2, W)
	h.play(5, "e5")
	h.press(5.2, B)
	h.advance(8)
	h.feed(h.g.Arbiter(sec(9), ArbiterAction{Kind: ActTakeBack, Ply: 1}))
	h.wantCompleted(1, 0)
	if r := h.of(TypeRetract); len(r) != 1 || r[0].Reason != ReasonTakeback || r[0].Ply != 2 {
		t.Fatalf("retract = %+v", r)
	}
	h.feed(h.g.Arbiter(sec(10), ArbiterAction{Kind: ActTakeBack, Ply: 7}))
	h.feed(h.g.Arbiter(sec(11), ArbiterAction{Kind: ActSetClock, Side: B, Time: 5000 * time.Second}))
	if c := h.g.State().Clock; c.Black != 5000*time.Second {
		t.Errorf("clock %+v", c)
	}
	h.feed(h.g.Arbiter(sec(12), ArbiterAction{Kind: ActSetClock, Side: B, Time: -1}))
	h.feed(h.g.Arbiter(sec(13), ArbiterAction{Kind: 99}))
	h.feed(h.g.Session(sec(14), "sleeping", "board"))
	h.wantAnomalies(KindBadInput, KindBadInput, KindBadInput, KindBadInput)
}

// FuzzBoard feeds arbitrary snapshots and clock events: the Game never
// panics, sequence numbers stay consecutive, and every event marshals to JSON.
func FuzzBoard(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3}, uint8(0))
	f.Add([]byte("some bytes that become squares and pieces"), uint8(7))
	f.Fuzz(func(t *testing.T, data []byte, kind uint8) {
		g, err := New(Config{TimeControl: clockd.TimeControl{Periods: []clockd.Period{{Moves: 2, Time: time.Minute}, {Time: time.Minute}}}})
		if err != nil {
			t.Fatal(err)
		}
		start := rules.SnapshotOf(chess.StartingPosition())
		var evs []Event
		evs = append(evs, g.Board(0, start)...)
		s := start
		at := time.Duration(0)
		for i := 0; i+1 < len(data); i += 2 {
			at += time.Duration(data[i]) * 10 * time.Millisecond
			sq := int(data[i] % 64)
			switch v := data[i+1]; {
			case v < 13:
				s.Squares[sq] = chess.Piece(v)
			case v < 16:
				s.Unknown ^= 1 << uint(sq)
			case v < 20:
				s = start
			}
			evs = append(evs, g.Board(at, s)...)
			if data[i+1]%5 == 0 {
				k := clockd.EventKind(int(kind+data[i])%10 + 1)
				evs = append(evs, g.Clock(clockd.ClockEvent{Kind: k, At: at, Side: clockd.Side(data[i] % 2), Period: int(data[i] % 4)})...)
			}
		}
		evs = append(evs, g.Session(at, "end", "board")...)
		for i, e := range evs {
			if e.Seq != i+1 {
				t.Fatalf("event %d has seq %d", i, e.Seq)
			}
			if !json.Valid(Marshal(e)) {
				t.Fatalf("invalid JSON %s", Marshal(e))
			}
		}
		_ = g.State()
	})
}

func TestReferenceClockInStep(t *testing.T) {
	h := newHarness(t, Config{TimeControl: mustTC(t, "40/5400+30:1800+30")})
	h.show(0)
	h.start(0)
	h.play(10, "e4")
	h.press(10, W)
	h.play(25, "e5")
	h.press(25, B)
	h.advance(30)
	// Fischer: 30 s before the first move and after each completed move;
	// White used 10 s, Black 15 s, and White's clock has run 5 s since.
	want := clockd.Times{White: 5400*time.Second + 60*time.Second - 15*time.Second, Black: 5400*time.Second + 60*time.Second - 15*time.Second}
	if got := h.g.State().Expected; got != want {
		t.Errorf("expected clock %v, want %v", got, want)
	}
}

func BenchmarkMarshalComplete(b *testing.B) {
	e := Event{Type: TypeComplete, Board: "12", At: 5321402113 * time.Microsecond, Seq: 811, Ply: 75, Side: W, By: ByPress, Moves: Moves{38, 37}, Clock: clockd.Times{White: 2 * time.Second, Black: 611 * time.Second}, SAN: "Qe2"}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = Marshal(e)
	}
}

func TestGapTooLongToReconstruct(t *testing.T) {
	// The board was away for six plies, more than the search between
	// scans reaches: a deeper search finds how many, arbiterd says which
	// plies it cannot verify, judges no press as an illegal move, gives no
	// flag verdict on the short count — and follows the game on: the moves
	// after the absence complete again, numbered on.
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(2, "d4")
	h.press(2.2, W)
	h.play(3, "d5")
	h.press(3.2, B)
	h.feed(h.g.Session(sec(4), "disconnected", "board"))
	for i := 0; i < 6; i++ {
		h.press(5+float64(i), clockd.Side(i%2))
	}
	h.feed(h.g.Session(sec(12), "connected", "board"))
	h.play(12.5, "c4", "e6", "Nc3", "Nf6", "Bg5", "Be7")
	h.play(15, "e3")
	h.press(15.5, W)
	h.play(17, "O-O")
	h.press(17.5, B)
	h.advance(20)
	h.flag(30, W)
	h.advance(40)
	h.wantCompleted(2, 2)
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	a := h.of(TypeAnomaly)[1]
	if !strings.Contains(a.Detail, "after ply 2") || !strings.Contains(a.Detail, "plies 3 to 8") {
		t.Errorf("unverified-moves detail: %s", a.Detail)
	}
	c := h.of(TypeComplete)
	if len(c) != 4 || c[2].Ply != 9 || c[2].SAN != "e3" || c[3].Ply != 10 || c[3].SAN != "O-O" {
		t.Errorf("completions %+v", c)
	}
	f := h.of(TypeFlag)
	if len(f) != 1 || f[0].Verdict != VerdictUnknown || !strings.Contains(f[0].Reason, "could not be verified") {
		t.Fatalf("flag %+v", f)
	}
	if len(h.of(TypeEnd)) != 0 {
		t.Error("the game was ended on an unverified count")
	}
}

func TestGapBeyondTheDeepSearchRebuildsTheRecord(t *testing.T) {
	// Ten plies while the board was away: no search reaches the position,
	// so arbiterd rebuilds its record from the board and follows the game
	// on: once the position has stood for UnexplainedAfter with a press
	// made while it stood (TestGapBeyondTheDeepSearchStoodStill), or, as
	// here, as soon as the board shows it with one legal move made — a
	// piece in the hand is put down, not moved, so the position was real.
	h := gapBeyondTheDeepSearch(t)
	h.advance(27)
	h.wantAnomalies(KindBoardDisconnected)
	h.play(28, "e5")
	h.press(28.4, B)
	h.advance(30)
	h.wantRebuiltAfterPly1("then showed a move made")
	h.play(40, "f3")
	h.press(40.3, W)
	h.play(43, "Nc6")
	h.press(43.2, B)
	h.advance(50)
	h.wantCompleted(2, 2) // e4, then e5, f3 and Nc6
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	c := h.of(TypeComplete)
	// e5 is the move the board showed made from the rebuilt position, by
	// Black, completed by its press; the fewest plies that fit are
	// numbered before it: at least 9, and an odd number since e4 was ply 1
	// and Black is to move.
	if len(c) != 4 || c[1].SAN != "e5" || c[1].By != ByPress || c[1].Ply%2 != 0 || c[1].Ply < 12 ||
		c[2].SAN != "f3" || c[2].Ply != c[1].Ply+1 || c[3].SAN != "Nc6" || c[3].Ply != c[2].Ply+1 {
		t.Errorf("completions %+v", c)
	}
	if st := h.g.State(); st.FEN != h.shadow.FEN() && !strings.HasPrefix(h.shadow.FEN(), strings.Join(strings.Fields(st.FEN)[:3], " ")) {
		t.Errorf("record %s, board %s", st.FEN, h.shadow.FEN())
	}
}

func TestGapBeyondTheDeepSearchStoodStill(t *testing.T) {
	// The same return; the board stands still, and nobody presses.
	// Rebuilding the record is final, and a piece held in a hand looks the
	// same: the position must stand for UnexplainedAfter with a press made
	// while it stood (the player had finished the move), or six times as
	// long without one.
	h := gapBeyondTheDeepSearch(t)
	h.advance(70)
	h.wantAnomalies(KindBoardDisconnected)
	h.advance(76)
	h.wantRebuiltAfterPly1("position the board shows")
	h.play(80, "e5")
	h.press(80.3, B)
	h.play(83, "f3")
	h.press(83.2, W)
	h.advance(90)
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	if got := h.completedAt("e5"); got < 12 || got%2 != 0 {
		t.Errorf("e5 completed at ply %d, want an even ply from 12 on\n%s", got, h.jsonl())
	}
	if h.completedAt("f3") != h.completedAt("e5")+1 {
		t.Errorf("f3 at ply %d after e5 at %d", h.completedAt("f3"), h.completedAt("e5"))
	}
}

// wantRebuiltAfterPly1 checks that the record was rebuilt from the board
// after the gap of gapBeyondTheDeepSearch: the disconnection and the
// unverified-moves anomaly, from ply 1, saying why (phrase).
func (h *harness) wantRebuiltAfterPly1(phrase string) {
	h.t.Helper()
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	if a := h.of(TypeAnomaly)[1]; !strings.Contains(a.Detail, "after ply 1") || !strings.Contains(a.Detail, phrase) {
		h.t.Errorf("unverified-moves detail: %s", a.Detail)
	}
}

// gapBeyondTheDeepSearch plays 1.e4, takes the board away for ten plies
// (10...Be3, every one pressed) and shows it again at 15.5 s.
func gapBeyondTheDeepSearch(t *testing.T) *harness {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(2, "e4")
	h.press(2.2, W)
	h.feed(h.g.Session(sec(3), "disconnected", "board"))
	sans := []string{"c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6", "Be3"}
	for i, s := range sans {
		if err := h.shadow.MoveSAN(s); err != nil {
			t.Fatal(err)
		}
		h.press(4+float64(i), clockd.Side((i+1)%2))
	}
	h.feed(h.g.Session(sec(15), "connected", "board"))
	h.board = rules.SnapshotOf(h.shadow.Position())
	h.show(15.5)
	return h
}

// immortal18 is the Immortal Game before 18.Bd6: lifting the bishop from
// f4 leaves a board that four plies also explain (18.Bc1 Qa3 19.Bb2 Qxb2,
// the bishop captured on b2).
const immortal18 = "rnb1k1nr/p2p1ppp/8/1pbN1N1P/4PBP1/3P1Q2/PqP5/R4KR1 w kq - 0 18"

func TestRestartLiftedPieceIsNoSequence(t *testing.T) {
	// The daemon was restarted (the board away and back, its dump the
	// same position); then White lifts the bishop and puts it on d6. The
	// lifted bishop must not be taken for four plies in which it was
	// captured (finding R3): 18.Bd6 is completed by White's press.
	h := newHarness(t, Config{TimeControl: mustTC(t, "900+10"), StartFEN: immortal18})
	h.show(0)
	h.start(1)
	h.feed(h.g.Session(sec(2), "disconnected", "board"))
	h.show(2.4) // the start-up dump, before the session says connected
	h.feed(h.g.Session(sec(2.5), "connected", "board"))
	h.put(3, "f4", chess.NoPiece)
	h.advance(3.3)
	h.put(3.5, "d6", chess.WhiteBishop)
	if err := h.shadow.MoveSAN("Bd6"); err != nil {
		t.Fatal(err)
	}
	h.press(3.8, W)
	h.advance(6)
	h.wantAnomalies(KindBoardDisconnected)
	c := h.of(TypeComplete)
	if len(c) != 1 || c[0].SAN != "Bd6" || c[0].Ply != 1 || c[0].By != ByPress {
		t.Fatalf("completions %+v\n%s", c, h.jsonl())
	}
}

func TestRestartHeldLongStillNoMoves(t *testing.T) {
	// As above, but the bishop stays in the hand for longer than the scan
	// lag: the four plies that explain the board are moves nobody saw, so
	// they are reported, never completed; then the bishop lands, and the
	// board (one move from the last verified position) is followed again.
	h := newHarness(t, Config{TimeControl: mustTC(t, "900+10"), StartFEN: immortal18})
	h.show(0)
	h.start(1)
	h.feed(h.g.Session(sec(2), "disconnected", "board"))
	h.feed(h.g.Session(sec(2.5), "connected", "board"))
	h.put(3, "f4", chess.NoPiece)
	h.advance(6)
	for _, c := range h.of(TypeComplete) {
		t.Errorf("completed %s, a move nobody made", c.SAN)
	}
	for _, m := range h.of(TypeMove) {
		t.Errorf("announced %s, a move nobody made", m.SAN)
	}
	if h.g.State().Completed != (Moves{White: 17, Black: 17}) {
		t.Errorf("counts %+v", h.g.State().Completed)
	}
	// The bishop lands: the plies that explained the hand are replaced by
	// the one move the board now shows, and White's press completes it.
	h.put(7, "d6", chess.WhiteBishop)
	if err := h.shadow.MoveSAN("Bd6"); err != nil {
		t.Fatal(err)
	}
	h.press(7.3, W)
	h.play(9, "Bxg1")
	h.press(9.4, B)
	h.advance(12)
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	c := h.of(TypeComplete)
	if len(c) != 2 || c[0].SAN != "Bd6" || c[0].Ply != 1 || c[1].SAN != "Bxg1" || c[1].Ply != 2 {
		t.Fatalf("completions %+v\n%s", c, h.jsonl())
	}
	if h.g.State().Completed != (Moves{White: 18, Black: 18}) {
		t.Errorf("counts %+v", h.g.State().Completed)
	}
	// the count is verified again: a flag gets its verdict
	h.flag(20, B)
	h.advance(25)
	if f := h.of(TypeFlag); len(f) != 1 || f[0].Verdict == VerdictUnknown {
		t.Errorf("flag %+v", f)
	}
}

func TestDumpContradictingTheImageResyncs(t *testing.T) {
	// Field updates were lost: arbiterd's image still shows 1.e4 e5 while
	// three more plies were played. The board dump that shows them is no
	// move: the plies are reported as unverified, no press is judged
	// illegal, and the next moves complete again (finding R2).
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(2, "e4")
	h.press(2.3, W)
	h.play(3, "e5")
	h.press(3.3, B)
	for i, s := range []string{"Nf3", "Nc6", "Bb5"} {
		if err := h.shadow.MoveSAN(s); err != nil {
			t.Fatal(err)
		}
		h.press(5+float64(i)/2, clockd.Side(i%2)) // the clock's presses are seen
	}
	// the keep-alive dump, within the scan lag of the first lost press
	h.board = rules.SnapshotOf(h.shadow.Position())
	h.feed(h.g.Dump(sec(6.3), h.board))
	h.advance(10)
	h.wantCompleted(1, 1)
	h.wantAnomalies(KindUnverified)
	if a := h.of(TypeAnomaly); len(a) == 1 && !strings.Contains(a[0].Detail, "plies 3 to 5") {
		t.Errorf("detail %s", a[0].Detail)
	}
	h.play(12, "a6")
	h.press(12.3, B)
	h.play(14, "Ba4")
	h.press(14.3, W)
	h.advance(20)
	h.wantCompleted(2, 2)
	h.wantAnomalies(KindUnverified)
	c := h.of(TypeComplete)
	if n := len(c); n != 4 || c[2].SAN != "a6" || c[2].Ply != 6 || c[3].SAN != "Ba4" || c[3].Ply != 7 {
		t.Errorf("completions %+v", c)
	}
}

func TestDumpOneLostUpdateIsAMove(t *testing.T) {
	// The update that put the knight on f3 was lost: the image shows it
	// lifted. The dump shows it on f3: one move, completed by the press.
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.put(2, "g1", chess.NoPiece)
	if err := h.shadow.MoveSAN("Nf3"); err != nil {
		t.Fatal(err)
	}
	h.board = rules.SnapshotOf(h.shadow.Position())
	h.press(2.5, W)
	h.feed(h.g.Dump(sec(2.8), h.board))
	h.advance(5)
	h.wantCompleted(1, 0)
	h.wantAnomalies()
	// a dump that agrees with the image changes nothing
	h.feed(h.g.Dump(sec(6), h.board))
	h.play(7, "Nf6")
	h.press(7.2, B)
	h.advance(9)
	h.wantCompleted(1, 1)
	h.wantAnomalies()
}

func TestOneReadSeveralPresses(t *testing.T) {
	// The host read late: three plies and their three presses arrive in
	// one read, all stamped with the same time, in the order they
	// happened. Each press completes the ply before it in that order —
	// plies in order, no press without a move (finding R1).
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(2, "e4")
	h.press(2.3, W)
	const read = 9.0
	h.put(read, "e7", chess.NoPiece)
	h.play(read, "e5")
	h.press(read, B)
	h.put(read, "g1", chess.NoPiece)
	h.play(read, "Nf3")
	h.press(read, W)
	h.put(read, "b8", chess.NoPiece)
	h.play(read, "Nc6")
	h.press(read, B)
	h.advance(12)
	h.wantAnomalies()
	h.wantCompleted(2, 2)
	var got []string
	for _, c := range h.of(TypeComplete) {
		got = append(got, fmt.Sprintf("%d:%s:%s:%d/%d", c.Ply, c.SAN, c.By, c.Moves.White, c.Moves.Black))
	}
	if want := "1:e4:press:1/0 2:e5:press:1/1 3:Nf3:press:2/1 4:Nc6:press:2/2"; strings.Join(got, " ") != want {
		t.Errorf("completions %s, want %s", strings.Join(got, " "), want)
	}
}

func TestResyncSideToMoveFromTheClock(t *testing.T) {
	// While the board was away White played Ra2, Rb2 and Black Kd8, Ke7:
	// four plies, White to move. The shortest sequence to the board's
	// position has three (Ra2/Rb1, Ke7, Rb2) and leaves Black to move,
	// but the clock's last press was Black's: the record is rebuilt from
	// the board with White to move, numbered after four plies.
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC), StartFEN: "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"})
	h.show(0)
	h.start(1)
	h.feed(h.g.Session(sec(2), "disconnected", "board"))
	for i, s := range []string{"Ra2", "Kd8", "Rb2", "Ke7"} {
		if err := h.shadow.MoveSAN(s); err != nil {
			t.Fatal(err)
		}
		h.press(3+float64(i), clockd.Side(i%2))
	}
	h.feed(h.g.Session(sec(7.5), "connected", "board"))
	h.board = rules.SnapshotOf(h.shadow.Position())
	h.dump(8) // the board read afresh on its return
	h.advance(11)
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	h.play(12, "Rb7+")
	h.press(12.3, W)
	h.advance(15)
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	c := h.of(TypeComplete)
	if len(c) != 1 || c[0].SAN != "Rb7+" || c[0].Ply != 5 || c[0].Side != W {
		t.Fatalf("completions %+v\n%s", c, h.jsonl())
	}
}

func TestSecondAbsenceIsSearchedAtOnce(t *testing.T) {
	// Back from a first absence, the board shows for a while a position
	// nothing reaches (a white pawn put on g1), then the real one, three
	// plies on: those are followed as unverified plies. The board goes
	// away again before any verified move; six plies later it is back.
	// The deep search reaches that position: arbiterd follows it a scan
	// lag after the board shows it, not after waiting as if the first
	// absence's unreachable position were still on the board.
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.show(0)
	h.start(1)
	h.play(2, "e4")
	h.press(2.2, W)
	away := func(from, back float64, sans ...string) {
		h.feed(h.g.Session(sec(from), "disconnected", "board"))
		for i, s := range sans {
			side := W
			if h.shadow.Position().Turn() == chess.Black {
				side = B
			}
			if err := h.shadow.MoveSAN(s); err != nil {
				t.Fatal(err)
			}
			h.press(from+0.5+float64(i)*0.5, side)
		}
		h.feed(h.g.Session(sec(back), "connected", "board"))
		h.board = rules.SnapshotOf(h.shadow.Position())
	}
	away(3, 6, "c5", "Nf3", "d6")
	h.put(6.5, "g1", chess.WhitePawn) // no legal position
	h.advance(9)
	h.put(9.5, "g1", chess.NoPiece)
	h.advance(12)
	if st := h.g.State(); !strings.HasPrefix(h.shadow.FEN(), strings.Join(strings.Fields(st.FEN)[:2], " ")) {
		t.Fatalf("after the first absence: record %s, board %s\n%s", st.FEN, h.shadow.FEN(), h.jsonl())
	}
	away(13, 17, "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6")
	h.show(17.5)
	h.advance(21)
	if st := h.g.State(); !strings.HasPrefix(h.shadow.FEN(), strings.Join(strings.Fields(st.FEN)[:2], " ")) {
		t.Errorf("3.5 s after the second absence: record %s, board %s\n%s", st.FEN, h.shadow.FEN(), h.jsonl())
	}
}

// parityHarness plays 1.e4 e5, then the board is away while 2.Nf3 Qe7
// 3.Nc3 Qf6 are played: four plies, White to move. The shortest sequence
// that reaches that position is three plies (the queen d8-f6 at once),
// which leaves Black to move.
func parityHarness(t *testing.T) *harness {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.opening("e4", "e5")
	h.feed(h.g.Session(sec(4), "disconnected", "board"))
	h.feed(h.g.Session(sec(20), "connected", "board"))
	return h
}

// playBc4Nc6 plays 4.Bc4 and 4...Nc6 of the parity scenario after the
// return, each pressed, and returns the plies they were completed at
// (0: never).
func (h *harness) playBc4Nc6() (bc4, nc6 int) {
	h.play(31, "Bc4")
	h.press(31.5, W)
	h.play(33, "Nc6")
	h.press(33.5, B)
	h.advance(40)
	return h.completedAt("Bc4"), h.completedAt("Nc6")
}

// completedAt returns the ply at which san was completed (0: never).
func (h *harness) completedAt(san string) int {
	for _, c := range h.of(TypeComplete) {
		if c.SAN == san {
			return c.Ply
		}
	}
	return 0
}

func TestResyncTakesTheSideToMoveFromTheClockReadAgain(t *testing.T) {
	// The clock, read again after the gap with no press to count, shows
	// White's time running, and the board, read afresh, then shows 3...Qf6: more plies
	// were made than the shortest sequence, so the record is rebuilt from
	// the board with White to move: 4.Bc4 is ply 7, 4...Nc6 ply 8.
	h := parityHarness(t)
	h.clock(clockd.ClockEvent{Kind: clockd.Running, At: sec(20.5), Side: W})
	h.unseen("Nf3", "Qe7", "Nc3", "Qf6")
	h.dump(21) // the board read afresh on its return
	h.advance(30)
	bc4, nc6 := h.playBc4Nc6()
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	if a := h.of(TypeAnomaly)[1]; a.Ply != 2 || a.Made != 4 {
		t.Errorf("unverified-moves: verified ply %d, made %d (want 2, 4): %s", a.Ply, a.Made, a.Detail)
	}
	if bc4 != 7 || nc6 != 8 {
		t.Errorf("Bc4 and Nc6 completed as plies %d and %d, want 7 and 8", bc4, nc6)
	}
}

func TestResyncTakesTheSideToMoveFromAPressReadAfterTheBoard(t *testing.T) {
	// Back from the absence the board shows 3...Qf6, then Black presses:
	// White is to move in that position. The shortest sequence leaves Black
	// to move, so more plies were made than it numbers: the record is
	// rebuilt from the board with White to move, numbered from the fewest
	// plies that give White the move (four): 4.Bc4 is ply 7, 4...Nc6 ply 8.
	h := parityHarness(t)
	h.play(21, "Nf3", "Qe7", "Nc3", "Qf6")
	h.press(21.5, B)
	h.advance(30)
	bc4, nc6 := h.playBc4Nc6()
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	if a := h.of(TypeAnomaly)[1]; a.Ply != 2 || a.Made != 4 || !strings.Contains(a.Detail, "with Black to move, while Black pressed the clock after the board showed it") {
		t.Errorf("unverified-moves: verified ply %d, made %d (want 2, 4): %s", a.Ply, a.Made, a.Detail)
	}
	if bc4 != 7 || nc6 != 8 {
		t.Errorf("Bc4 and Nc6 completed as plies %d and %d, want 7 and 8", bc4, nc6)
	}
}

func TestResyncIsNotMisledByAMoveNotYetPressed(t *testing.T) {
	// Back from the absence the board shows 3.Bc4 and White presses; then
	// Black sets down 3...Bc5 and has not pressed when the board has shown
	// it long enough to settle. White's press says Black is to move, but in
	// a position before Black's move: it says nothing of the one the board
	// shows now. The four plies stand, with White to move: 4.c3 is ply 7.
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.opening("e4", "e5")
	h.feed(h.g.Session(sec(4), "disconnected", "board"))
	h.feed(h.g.Session(sec(20), "connected", "board"))
	h.play(20.2, "Nf3", "Nc6", "Bc4")
	h.press(20.4, W)
	h.play(20.6, "Bc5")
	h.advance(25)
	h.press(26, B)
	h.play(28, "c3")
	h.press(28.5, W)
	h.advance(35)
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	if p := h.completedAt("c3"); p != 7 {
		t.Errorf("c3 completed as ply %d, want 7", p)
	}
}

func TestResyncOfTheWrongParityIsMendedWhenTheClockSpeaks(t *testing.T) {
	// No clock reading came before the board settled: the three plies of
	// the shortest sequence are recorded, unverified, with Black to move.
	// Then White presses with 4.Bc4 on the board, which only a move by the
	// side the record has not to move explains: the clock says the
	// unverified plies were laid with the wrong side to move. The ply
	// numbers from there on may be too low, never too high: 4...Nc6 is
	// ply 8 at most (it is ply 8 in the game).
	h := parityHarness(t)
	h.play(21, "Nf3", "Qe7", "Nc3", "Qf6")
	h.advance(30)
	if a := h.of(TypeAnomaly); len(a) != 2 || a[1].Made != 3 {
		t.Fatalf("before the press: %v, want the three plies of the shortest sequence reported", h.anomalies())
	}
	_, nc6 := h.playBc4Nc6()
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	if nc6 < 1 || nc6 > 8 {
		t.Errorf("Nc6 completed as ply %d, want 8 or fewer (and completed)", nc6)
	}
	for _, c := range h.of(TypeComplete) {
		if c.Ply > 2 && c.SAN != "Bc4" && c.SAN != "Nc6" {
			t.Errorf("a ply nobody saw completed: %+v", c)
		}
	}
}

func TestTheClocksWordBeforeAChangeIsStale(t *testing.T) {
	// The clock is read again before the board, which comes back with a
	// field update (a change, not the board read afresh): the clock's word
	// was about the position before that change, and the runner's own move
	// may be the change. It decides nothing: the shortest sequence is laid.
	h := parityHarness(t)
	h.clock(clockd.ClockEvent{Kind: clockd.Running, At: sec(20.5), Side: W})
	h.play(21, "Nf3", "Qe7", "Nc3", "Qf6")
	h.dump(21.2)
	h.advance(30)
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	if a := h.of(TypeAnomaly)[1]; a.Made != 3 || len(a.Plies) != 3 {
		t.Errorf("unverified-moves: made %d, plies %v; want the three plies of the shortest sequence: %s", a.Made, a.Plies, a.Detail)
	}
}

func TestLostUpdatesOfACaptureWaitForTheNextDump(t *testing.T) {
	// The field updates of 18...Bxg1 in the Immortal Game are lost: the
	// keep-alive dump shows the rook lifted off g1, the bishop still on
	// c5 (it is in the hand, already on its way). Black presses before the
	// next dump. Four plies explain the lifted rook (…Bxg1, a White move
	// and back, …Bc5) with Black to move, against the press; rebuilding
	// the record from that transient derailed the rest of the game. The
	// press came after the board's latest reading, so the board is read
	// again first: the next dump shows the capture made.
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	immortal := strings.Fields("e4 e5 f4 exf4 Bc4 Qh4+ Kf1 b5 Bxb5 Nf6 Nf3 Qh6 d3 Nh5 Nh4 Qg5 Nf5 c6 g4 Nf6 Rg1 cxb5 h4 Qg6 h5 Qg5 Qf3 Ng8 Bxf4 Qf6 Nc3 Bc5 Nd5 Qxb2 Bd6")
	h.opening(immortal...)
	at := float64(2 + len(immortal))
	h.dump(at) // the keep-alive dump agrees with the image
	// the rook lifted off g1, its update lost: the next dump shows it
	h.board.Squares[squareOf(t, "g1")] = chess.NoPiece
	h.dump(at + 1)
	h.press(at+1.9, B)
	if err := h.shadow.MoveSAN("Bxg1"); err != nil {
		t.Fatal(err)
	}
	h.board = rules.SnapshotOf(h.shadow.Position())
	h.dump(at + 2.6) // after ScanLag: the held plies fell due before it
	h.advance(at + 5)
	h.wantAnomalies()
	if p := h.completedAt("Bxg1"); p != 36 {
		t.Errorf("18...Bxg1 completed at ply %d, want 36\n%s", p, h.jsonl())
	}
}

func TestAPressAtTheDisconnectionsStampIsFromBeforeTheAbsence(t *testing.T) {
	// Black put the queen on g5 and pressed; the daemon was killed right
	// after, and the recovered journal stamps the disconnection at its last
	// record: the press. While it was down, 3.Nc3 Nc6 4.Bc4 Qh4 were played.
	// The press was read before the board went away, so Qg5 is pressed: the
	// board comes back four plies on from it, White to move, as the clock
	// says. Explained from below Qg5, four plies would do too (the queen
	// going d8-h4 at once) with Black to move, against the clock, and
	// White's next move would read as a second move in a row.
	h := queenOnG5Harness(t, true, 6)
	h.clock(clockd.ClockEvent{Kind: clockd.Running, At: sec(20.5), Side: W})
	h.advance(24)
	h.play(25, "d3")
	h.press(25.5, W)
	h.advance(30)
	h.wantCompletions("1.e4 2.e5 3.Nf3 4.Qg5 9.d3")
	h.wantUnverified(4, 4)
}

// queenOnG5Harness plays 1.e4 e5 2.Nf3 and Black's queen set down on g5
// (pressed at 6 s, or not), the daemon killed at down; while it was down
// 3.Nc3 Nc6 4.Bc4 Qh4 were played, and the board is read whole at 20 s.
func queenOnG5Harness(t *testing.T, pressed bool, down float64) *harness {
	h := newHarness(t, Config{TimeControl: mustTC(t, standardTC)})
	h.opening("e4", "e5", "Nf3")
	h.play(5, "Qg5")
	if pressed {
		h.press(6, B)
	}
	h.feed(h.g.Session(sec(down), "disconnected", "board"))
	h.feed(h.g.Session(sec(20), "connected", "board"))
	h.unseen("Nc3", "Nc6", "Bc4", "Qh4")
	h.dump(20)
	return h
}

// wantUnverified checks the anomalies are the disconnection and one
// unverified-moves report, from verified ply ply, made plies made.
func (h *harness) wantUnverified(ply, made int) {
	h.t.Helper()
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	if a := h.of(TypeAnomaly); len(a) == 2 && (a[1].Ply != ply || a[1].Made != made) {
		h.t.Errorf("unverified-moves from verified ply %d, %d made; want %d and %d: %s", a[1].Ply, a[1].Made, ply, made, a[1].Detail)
	}
}

func TestTheClocksTurnAfterTheNextMoveIsAboutTheBoardThen(t *testing.T) {
	// Black's queen was seen on g5, not pressed, when the daemon was killed;
	// while it was down Black pressed, and 3.Nc3 Nc6 4.Bc4 Qh4 were played.
	// Back, the board is read whole, and in one burst the clock names
	// White's clock running, White plays 5.d3 and presses. The shortest
	// sequence to the position read (Qd8-h4 at once, 3.Nc3 Nc6 4.Bc4) leaves
	// Black to move, where the clock's word, given after d3, says White was:
	// the word is about the board after d3, and one move of White's leads
	// there. So more plies were made than four, and d3 is the next move,
	// completed by its press: ply 9, as in the game.
	h := queenOnG5Harness(t, false, 5.5)
	h.clock(clockd.ClockEvent{Kind: clockd.Running, At: sec(21), Side: W})
	h.play(21, "d3")
	h.press(21, W)
	h.advance(30)
	h.wantCompletions("1.e4 2.e5 3.Nf3 9.d3")
	h.wantUnverified(3, 5)
}

func TestThePressOfTheNextMoveAfterAnAbsenceCompletesIt(t *testing.T) {
	// As above, but Black's 2...Qg5 was pressed before the daemon was
	// killed: the four plies to the position read (3.Nc3 Nc6 4.Bc4 Qh4)
	// leave White to move, as the clock says after 5.d3. They are laid
	// unverified; White's press, read after the board showed that position,
	// is d3's and completes it, with no alarm of a move without a press.
	h := queenOnG5Harness(t, true, 6.5)
	h.clock(clockd.ClockEvent{Kind: clockd.Running, At: sec(21), Side: W})
	h.play(21, "d3")
	h.press(21, W)
	h.advance(24)
	h.play(25, "a6")
	h.press(25.5, B)
	h.advance(30)
	h.wantCompletions("1.e4 2.e5 3.Nf3 4.Qg5 9.d3 10.a6")
	h.wantUnverified(4, 4)
}

func TestTheClocksWordBeforeTheFirstDumpIsAboutTheDump(t *testing.T) {
	// Back from the absence, the board first sends a field update (the
	// queen set down on f6), laid on the image of before the absence; then
	// the clock names White's clock running; then the board is read whole:
	// 2.Nf3 Qe7 3.Nc3 Qf6. The clock's word came after the board was back
	// but before it was read whole: it is about the position the dump
	// shows, not the stale image. The shortest sequence (2.Nf3 Qf6 3.Nc3)
	// leaves Black to move where the clock says White: at least four plies
	// were made, and 4.Bc4 and 4...Nc6 are plies 7 and 8, as in the game.
	h := parityHarness(t)
	h.put(20.1, "f6", chess.BlackQueen)
	h.clock(clockd.ClockEvent{Kind: clockd.Running, At: sec(20.3), Side: W})
	h.unseen("Nf3", "Qe7", "Nc3", "Qf6")
	h.dump(20.5)
	h.advance(30)
	if a := h.of(TypeAnomaly); len(a) != 2 || a[1].Made != 4 {
		t.Fatalf("after the dump: %v, want the unverified plies counted four (%+v)", h.anomalies(), a)
	}
	bc4, nc6 := h.playBc4Nc6()
	h.wantAnomalies(KindBoardDisconnected, KindUnverified)
	if bc4 != 7 || nc6 != 8 {
		t.Errorf("Bc4 and Nc6 completed as plies %d and %d, want 7 and 8", bc4, nc6)
	}
}
