package livechess

import (
	"github.com/arbiterd/arbiterd/rules"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// line is a board's game as the board shows it — every move made, completed
// or not — folded from its event stream: the position it starts from, and
// each made ply's SAN and the position after it. A retract (a slide, a
// take-back) shortens it, so it is what LiveChess calls the game: the moves
// that lead from the start to the board.
//
// The fold is pure: the same events give the same line.
type line struct {
	origin string   // FEN of the game's start (the last position event)
	base   int      // ply number of the start (non-zero after plies arbiterd could not verify)
	start  string   // FEN of the start ("" until the stream shows one)
	san    []string // san[i]: ply base+i+1
	fens   []string // fens[i]: the FEN after san[i]
	// board is the board's position when the line knows it and the hub's
	// state does not: after plies made while the board was not read,
	// which the stream gives only in an unverified-moves anomaly (the
	// hub's board then shows the position from before the absence until
	// the next move). "" when the hub's board is the board.
	board string
}

// apply folds one event.
func (l *line) apply(ev reconcile.Event) {
	switch ev.Type {
	case reconcile.TypePosition:
		// the start position recognised: a new game, or the board reset to
		// the start
		*l = line{origin: ev.FEN, start: ev.FEN}
	case reconcile.TypeAnomaly:
		if ev.Kind == reconcile.KindUnverified {
			l.away(ev)
		}
	case reconcile.TypeMove:
		l.board = ""         // the hub's board shows the move
		n := ev.Ply - l.base // index + 1 of the ply in the line
		switch {
		case l.start != "" && n > len(l.san)+1 && l.fill(ev):
			return
		case l.start == "" || n < 1 || n > len(l.san)+1:
			// Plies made while the board was not read (arbiterd could not
			// verify them, an unverified-moves anomaly says so) that no
			// single sequence explains, or plies before the events the hub
			// keeps: the line starts again at the first position known
			// after them.
			*l = line{origin: l.origin, base: ev.Ply, start: ev.FEN}
			return
		}
		l.san = append(l.san[:n-1], ev.SAN)
		l.fens = append(l.fens[:n-1], ev.FEN)
	case reconcile.TypeRetract:
		n := ev.Ply - l.base
		if n >= 1 && n <= len(l.san) {
			l.san, l.fens = l.san[:n-1], l.fens[:n-1]
		}
		if l.board != "" {
			// a ply the hub never saw made is taken back: the board is
			// where the line is now
			l.board = l.fen()
		}
	}
}

// away folds an unverified-moves anomaly: the board came back from an
// absence several plies on, and the reconciler follows the game from the
// board's position. The anomaly names the plies (one sequence of legal
// moves that leads there; when several do, the one its record has), and
// the line takes them, so a client following the board is given them at
// once, as LiveChess lists what the board shows; or, when the reconciler
// rebuilt its record from the board's position (no sequence it can check
// reaches it), the line starts again there. Either way the line knows the
// board's position before the hub does. An anomaly that does not follow on
// from the line changes nothing: the first move after the absence closes
// the gap then (fill), as far as it can.
func (l *line) away(ev reconcile.Event) {
	if l.start == "" || ev.FEN == "" {
		return
	}
	if len(ev.Plies) == 0 { // rebuilt from the board's position
		if _, err := rules.NewGame(ev.FEN); err != nil {
			return
		}
		*l = line{origin: l.origin, base: ev.Ply + ev.Made, start: ev.FEN, board: ev.FEN}
		return
	}
	if ev.Ply != l.base+len(l.san) {
		return
	}
	g, err := rules.NewGame(l.fen())
	if err != nil {
		return
	}
	var sans, fens []string
	for _, san := range ev.Plies {
		if g.MoveSAN(san) != nil {
			return
		}
		sans, fens = append(sans, g.SAN(g.Ply())), append(fens, g.FEN())
	}
	l.san, l.fens = append(l.san, sans...), append(l.fens, fens...)
	l.board = l.fen()
}

// maxFill is the most plies fill looks for between the line's last
// position and a move after a gap.
const maxFill = 3

// fill closes a gap before move ev — plies the board made while it was not
// read, which arbiterd's record leaves unverified — with the one sequence
// of that many legal moves that leads from the line's last position to ev
// (ev's move last, to ev's position). The board showed those moves as far
// as anything can tell: a LiveChess client is given them, as LiveChess
// would. With no such sequence, or several, it reports false.
func (l *line) fill(ev reconcile.Event) bool {
	gap := ev.Ply - l.base - len(l.san) - 1
	if gap < 1 || gap > maxFill {
		return false
	}
	g, err := rules.NewGame(l.fen())
	if err != nil {
		return false
	}
	target, err := rules.NewGame(ev.FEN)
	if err != nil {
		return false
	}
	res := rules.Reconstruct(g, rules.SnapshotOf(target.Position()), rules.Options{MaxPlies: gap + 1})
	cands := res.Candidates
	if res.Kind == rules.Forward {
		cands = append(cands, res.Moves)
	}
	var sans, fens []string
	found := 0
	for _, seq := range cands {
		if len(seq) != gap+1 {
			continue
		}
		c := g.Clone()
		var ss, fs []string
		for _, m := range seq {
			if c.Move(m) != nil {
				break
			}
			ss, fs = append(ss, c.SAN(c.Ply())), append(fs, c.FEN())
		}
		if len(ss) == gap+1 && ss[gap] == ev.SAN && samePosition(fs[gap], ev.FEN) {
			sans, fens = ss, fs
			found++
		}
	}
	if found != 1 {
		return false
	}
	fens[gap] = ev.FEN
	l.san, l.fens = append(l.san, sans...), append(l.fens, fens...)
	return true
}

// fen is the position after the line's last ply ("" when unknown).
func (l *line) fen() string {
	if len(l.fens) > 0 {
		return l.fens[len(l.fens)-1]
	}
	return l.start
}

// index finds where a position stands in the line: the number of the line's
// plies after which the board showed pos (0: the start), the latest such
// when it stood there more than once; -1 when it never did. pos is a FEN
// or the piece placement of one.
func (l *line) index(pos string) int {
	for i := len(l.fens); i >= 0; i-- {
		f := l.start
		if i > 0 {
			f = l.fens[i-1]
		}
		if f != "" && samePosition(f, pos) {
			return i
		}
	}
	return -1
}

// fenAt is the position after the line's first n plies.
func (l *line) fenAt(n int) string {
	switch {
	case n == 0:
		return l.start
	case n < 0 || n > len(l.fens):
		return ""
	}
	return l.fens[n-1]
}
