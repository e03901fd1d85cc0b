package livechess

import (
	"bytes"
	"slices"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/driver/dgt"
	"github.com/arbiterd/arbiterd/driver/drivertest"
	"github.com/arbiterd/arbiterd/internal/boards/pipeline"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
	"github.com/arbiterd/arbiterd/internal/testkit/feedtest"
	"github.com/arbiterd/arbiterd/rules"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// played is a game on an emulated board, as a live host reads it.
type played struct {
	start   string // FEN of a set-up start position ("" the standard start)
	moves   []string
	noClock bool          // no clock on the board: moves completed by the next move
	from    int           // unplugged as this ply begins (its previous ply's press; 0: never)
	away    time.Duration // and plugged back in after this long
}

// events plays p on an emulated board (with its clock, unless noClock) and
// returns the events a live host derives from it: the host polls the board
// once a second, as the live session does, and each answer is a dump of
// the board's squares. Unplugged, the board answers nothing: a poll not
// answered by the next marks it disconnected, and the first answer after
// it is plugged back in marks it connected, with a dump of whatever was
// played meanwhile (the board comes back idle, sending nothing until that
// poll sets its mode again).
func (p played) events(t *testing.T) []reconcile.Event {
	t.Helper()
	var evs []reconcile.Event
	for _, r := range p.readings(t) {
		if r.ev != nil {
			evs = append(evs, *r.ev)
		}
	}
	return evs
}

// readings are events with the board's squares as they changed, in the
// order the daemon publishes them.
func (p played) readings(t *testing.T) []reading {
	t.Helper()
	periods, err := emulator.ParseTimeControl(tc)
	if err != nil {
		t.Fatal(err)
	}
	begins := []time.Duration{0}
	em, err := emulator.New(emulator.Config{Game: p.moves, StartFEN: p.start, NoClock: p.noClock, Periods: periods,
		ThinkTime: feedtest.Think, Observe: func(n emulator.Note) {
			if n.Kind == "press" && n.Ply == len(begins) {
				begins = append(begins, n.At)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	chunks := em.Play()
	gone, replug := time.Duration(1<<62), time.Duration(1<<62)
	if p.from > 0 {
		if p.from > len(begins) {
			t.Fatalf("ply %d: the game has %d", p.from, len(begins))
		}
		gone, replug = begins[p.from-1], begins[p.from-1]+p.away
	}
	var buf bytes.Buffer
	w, err := capture.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(w.Port("board", "dgt"))
	must(w.Meta("board", "1"))
	must(w.Meta("timecontrol", tc))
	image := drivertest.DGTStartPosition()
	if p.start != "" {
		must(w.Meta(capture.MetaStartFEN, p.start))
		image, err = drivertest.DGTFields(p.start)
		must(err)
	}
	must(w.Data(0, "board", capture.Read, drivertest.DGTBoardDump(image)))
	var reply time.Duration = -1
	disconnected := false
	dec := dgt.NewDecoder()
	const poll = time.Second
	next := poll / 2
	end := chunks[len(chunks)-1].At + 3*time.Second
	for i := 0; i < len(chunks) || next <= end; {
		if i < len(chunks) && chunks[i].At < next {
			c := chunks[i]
			i++
			dec.FeedFunc(c.Data, func(m dgt.Message) {
				if f, ok := m.(dgt.FieldUpdate); ok && int(f.Field) < len(image) {
					image[f.Field] = f.Piece
				}
			})
			if c.At > gone && (reply < 0 || c.At < reply) {
				continue // unplugged, or back but idle until a poll
			}
			must(w.Data(c.At, "board", capture.Read, c.Data))
			continue
		}
		at := next
		next += poll
		if at >= gone && reply < 0 {
			if at < replug {
				if at-poll >= gone && !disconnected {
					disconnected = true
					must(w.Marker(capture.Session(at, "board", "disconnected")))
				}
				continue
			}
			reply = at
			if disconnected {
				must(w.Marker(capture.Session(at, "board", "connected")))
			}
		}
		must(w.Data(at, "board", capture.Read, append(drivertest.DGTBoardDump(image), drivertest.DGTSerial("20260")...)))
	}
	var out []reading
	opts := pipeline.Options{OnSquares: func(at time.Duration, port string, s rules.Snapshot) {
		out = append(out, reading{at: at, squares: s})
	}}
	if _, err := pipeline.Replay(bytes.NewReader(buf.Bytes()), opts, func(e reconcile.Event) error {
		out = append(out, reading{ev: &e})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestLiveChessBackSeveralPliesOn: the board is unplugged while plies are
// made and pressed, and comes back several plies on. The reconciler does
// not complete plies it could not see (an unverified-moves anomaly), but
// the board shows them, and LiveChess lists what the board shows: the
// first message after the board is back has san extended by the plies
// that lead to the board's position, board that position and match true —
// before the next move, which a client then gets as one new ply. A client
// that joined with setup before the absence keeps following: its san never
// starts again. When no sequence the reconciler can check reaches the
// board's position, board shows it at once, san stays [] with match false,
// and a client that sends setup again (the lichess page reloaded) follows
// from there.
func TestLiveChessBackSeveralPliesOn(t *testing.T) {
	const join = 4 // the client joins after ply 4, before the absence
	for _, tt := range []struct {
		name   string
		from   int           // the board goes as this ply begins
		away   time.Duration // and comes back after this long
		gap    int           // plies the board is on when the reconciler has its position (at least, rebuilt)
		rebase bool          // no sequence of moves the reconciler checks reaches the board
	}{
		{"two plies, completed", 6, 25 * time.Second, 2, false},        // the one sequence, short: completed
		{"three plies, two sequences", 6, 30 * time.Second, 3, false},  // Bc5 c3 Nf6 or Nf6 c3 Bc5
		{"four plies, one sequence", 8, 40 * time.Second, 4, false},    // Nf6 d4 exd4 cxd4
		{"nine plies or more, rebuilt", 6, 100 * time.Second, 9, true}, // beyond the reconciler's search
	} {
		t.Run(tt.name, func(t *testing.T) {
			h, _ := setup(t)
			evs := played{moves: italian, from: tt.from, away: tt.away}.events(t)
			rest := publishUpTo(h, "1", evs, join)
			srv := serve(t, madeAPI(h))
			c := dial(t, srv, nil)
			call(t, c, subscribe1)
			readFeed(t, c, "1")
			setupAt := func(ply int) string {
				fen := fenAfterPlies(t, italian, ply)
				if m := call(t, c, `{"id":3,"call":"call","param":{"id":1,"method":"setup","param":{"fen":"`+fen+`"}}}`); m.Response != "call" {
					t.Fatalf("setup: %s %s", m.Response, m.Param)
				}
				return fen
			}
			fen := setupAt(join)
			final := placement(fenAfterPlies(t, italian, len(italian)))
			// ply is the number of the game's plies after which board
			// stands (-1: none, a move being made)
			ply := func(board string) int {
				for k := len(italian); k >= 0; k-- {
					if placement(fenAfterPlies(t, italian, k)) == board {
						return k
					}
				}
				return -1
			}
			// The messages until the board is back: the first that shows
			// the board on from where it went away. (When the record is
			// rebuilt, the events after it wait for the client's setup.)
			var after []reconcile.Event
			if tt.rebase {
				i := slices.IndexFunc(rest, func(e reconcile.Event) bool { return e.Kind == reconcile.KindUnverified })
				if i < 0 {
					t.Fatal("no unverified-moves anomaly")
				}
				rest, after = rest[:i+1], rest[i+1:]
			}
			got := follow(t, c, h, rest, func(m feedMsg) bool { return ply(m.Board) > tt.from-1 })
			m := got[len(got)-1]
			back := ply(m.Board)
			if back-(tt.from-1) < tt.gap || !tt.rebase && back-(tt.from-1) != tt.gap {
				t.Fatalf("the board came back %d plies on, want %d: %s", back-(tt.from-1), tt.gap, m.Raw)
			}
			if tt.rebase {
				if !m.HasSAN || len(m.SAN) != 0 || m.Match || m.Start != fen {
					t.Fatalf("back, the record rebuilt: %s; want san [] and match false", m.Raw)
				}
				// the page reloads: setup with the board's position
				fen = setupAt(back)
				for m = readFeed(t, c, "1"); !m.Match; m = readFeed(t, c, "1") {
				}
				got = follow(t, c, h, after, func(m feedMsg) bool { return m.Match && m.Board == final })
				if m := got[len(got)-1]; m.Start != fen || !slices.Equal(m.SAN, italian[back:]) {
					t.Errorf("after setup again: %s; want san %v", m.Raw, italian[back:])
				}
				return
			}
			// the plies made meanwhile at once, in an order that leads to
			// the board (several may: the reconciler's record has one)
			if !m.Match || len(m.SAN) != back-join || !slices.Equal(m.SAN[:tt.from-1-join], italian[join:tt.from-1]) {
				t.Fatalf("back %d plies on: %s; want san the %d plies to the board and match true", tt.gap, m.Raw, back-join)
			}
			got = follow(t, c, h, nil, func(m feedMsg) bool { return m.HasSAN && m.Match && m.Board == final })
			for i, m := range got {
				if m.Start != fen {
					t.Fatalf("message %d: start %q, want the setup's %q: %s", i, m.Start, fen, m.Raw)
				}
				if n := len(m.SAN) - back + join; n < 0 || n > 0 && !slices.Equal(m.SAN[back-join:], italian[back:back+n]) {
					t.Fatalf("after the absence: %s; want san the plies to the board, then %v", m.Raw, italian[back:])
				}
			}
		})
	}
}
