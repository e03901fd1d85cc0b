package broadcast

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/internal/output/pgn"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// Meta holds the tags every game of the event shares.
type Meta struct {
	Event string // the Event tag, and the tournament's name
	Site  string
	Date  string // PGN date, YYYY.MM.DD; keep it fixed so the tags stay stable
	// DefaultRound is the round of boards that have none (default "1").
	DefaultRound string
}

// Game is one board's game as the feeds publish it.
type Game struct {
	Board       string
	Round       string
	White       string
	Black       string
	TimeControl string
	Result      string // "*" while the game goes on
	Plies       int    // completed moves (plies) in the record
	PGN         []byte // the game rendered by internal/output/pgn
}

// Games turns the hub's event streams into the PGN of every board's game.
// It is not safe for concurrent use: one runner owns it.
type Games struct {
	h      *hub.Hub
	meta   Meta
	boards map[string]*tracked
}

type tracked struct {
	info  hub.Info
	round string // the round, DefaultRound when the board has none
	game  *pgn.Game
	seq   int // last event fed
	out   Game
	tcErr error // the board's time control does not parse
}

// NewGames returns a tracker over the hub's boards.
func NewGames(h *hub.Hub, m Meta) *Games {
	return &Games{h: h, meta: m, boards: map[string]*tracked{}}
}

func infoOf(b hub.Board) hub.Info {
	return hub.Info{ID: b.ID, Round: b.Round, White: b.White, Black: b.Black, TimeControl: b.TimeControl,
		WhitePlayer: b.WhitePlayer, BlackPlayer: b.BlackPlayer, Date: b.Date}
}

// Load (re)builds a board's game from every event the hub holds for it: on
// start, after a new game began on the board, or after the hub dropped the
// subscription. It reports whether the PGN differs from what was there.
func (gs *Games) Load(id string) (bool, error) {
	b, err := gs.h.Board(id)
	if err != nil {
		return false, fmt.Errorf("broadcast: board %q: %w", id, err)
	}
	evs, err := gs.h.Events(id, 0)
	if err != nil {
		return false, fmt.Errorf("broadcast: board %q: %w", id, err)
	}
	t := &tracked{info: infoOf(b), round: b.Round}
	if t.round == "" {
		t.round = gs.meta.DefaultRound
	}
	if t.round == "" {
		t.round = "1"
	}
	tags := pgn.Tags{Event: gs.meta.Event, Site: gs.meta.Site, Date: gs.meta.Date,
		Round: t.round, Board: b.ID, White: b.White, Black: b.Black,
		WhitePlayer: pgn.Player(b.WhitePlayer), BlackPlayer: pgn.Player(b.BlackPlayer)}
	if b.Date != "" {
		tags.Date = b.Date // the round's own date (a round loaded on a later day)
	}
	if b.TimeControl != "" {
		tc, err := clockd.ParseTimeControl(b.TimeControl)
		if err != nil {
			// The game is still published, without clock tags it cannot
			// know; the caller hears about the bad setting.
			t.tcErr = fmt.Errorf("broadcast: board %q: time control %q: %w", id, b.TimeControl, err)
		} else {
			tags.TimeControl = tc
		}
	}
	t.game = pgn.New(tags)
	for _, e := range evs {
		t.game.Add(e)
		t.seq = e.Seq
	}
	old := gs.boards[id]
	gs.boards[id] = t
	if err := t.render(); err != nil {
		return false, err
	}
	changed := old == nil || !bytes.Equal(old.out.PGN, t.out.PGN)
	return changed, t.tcErr
}

// affects reports whether an event can change the PGN: presses and moves
// not yet completed do not (6.2.1), nor do anomalies.
func affects(t reconcile.Type) bool {
	switch t {
	case reconcile.TypeComplete, reconcile.TypeRetract, reconcile.TypeFlag, reconcile.TypeEnd, reconcile.TypePosition:
		return true
	}
	return false
}

// Apply feeds one hub update to its board's game and reports whether the
// board's PGN changed.
func (gs *Games) Apply(u hub.Update) (bool, error) {
	t := gs.boards[u.Board]
	switch {
	case t == nil, infoOf(u.State) != t.info, u.Event.Seq <= t.seq:
		// A board not seen yet, new players or round, or a stream that
		// started again (a new game): rebuild from the hub. Updates the
		// rebuild already covered come out unchanged.
		return gs.Load(u.Board)
	}
	t.game.Add(u.Event)
	t.seq = u.Event.Seq
	if !affects(u.Event.Type) {
		return false, nil
	}
	old := t.out.PGN
	if err := t.render(); err != nil {
		return false, err
	}
	return !bytes.Equal(old, t.out.PGN), nil
}

func (t *tracked) render() error {
	var b bytes.Buffer
	if err := t.game.Write(&b); err != nil {
		return fmt.Errorf("broadcast: board %q: %w", t.info.ID, err)
	}
	t.out = Game{Board: t.info.ID, Round: t.round, White: t.info.White, Black: t.info.Black,
		TimeControl: t.info.TimeControl, Result: t.game.Result(), Plies: len(t.game.Moves()), PGN: b.Bytes()}
	return nil
}

// Game returns a board's game as last rendered.
func (gs *Games) Game(id string) (Game, bool) {
	t := gs.boards[id]
	if t == nil {
		return Game{}, false
	}
	return t.out, true
}

// Boards returns the ids of the boards tracked, in board order.
func (gs *Games) Boards() []string {
	ids := make([]string, 0, len(gs.boards))
	for id := range gs.boards {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return LessBoard(ids[i], ids[j]) })
	return ids
}

// LessBoard orders board ids numerically when both are numbers, else as
// text: board 2 before board 10. It is the one order of board ids: the
// round folders and the audit's table list boards by it.
func LessBoard(a, b string) bool {
	x, okx := number(a)
	y, oky := number(b)
	if okx && oky && x != y {
		return x < y
	}
	return a < b
}

func number(s string) (int, bool) {
	if s == "" || len(s) > 9 || strings.TrimLeft(s, "0123456789") != "" {
		return 0, false
	}
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n, true
}
