// Board snapshots against the record: which moves the board shows, and
// the plausibility rules that keep transient states from becoming moves.

package reconcile

import (
	"fmt"
	"time"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/rules"
)

// process reconciles the latest snapshot with the record.
func (g *Game) process(out *[]Event, at time.Duration) {
	s := g.snap
	// Between two scans of a connected board at most two plies are
	// plausible (two quick moves in time trouble); longer sequences are
	// searched only after the board was away (connect, resync), or they
	// would explain transient states by moves nobody made.
	// Likewise only the last ply may be replaced (a slide that goes on, a
	// change of mind before the press): replacing more lets a lifted piece
	// be explained as an alternative history in which it was captured.
	depth, back := g.cfg.MaxPlies, g.trailing()
	if !g.resync {
		depth, back = min(depth, 2), min(back, 1)
	}
	resync := g.resync
	if g.gap {
		// The record is stale; nothing the board shows can be checked
		// against it.
		return
	}
	res := rules.Reconstruct(g.rec, s, rules.Options{MaxPlies: depth, Retractable: back})
	if g.multi != nil && (res.Kind == rules.Unexplained || res.Kind == rules.UnknownPieces) {
		// a transient (a piece in the hand) on top of the plies being held
		return
	}
	g.snapAt, g.multi = at, nil
	if res.Kind != rules.Unexplained && res.Kind != rules.UnknownPieces {
		g.resync, g.wasAway, g.suspect = false, false, false
	}
	switch res.Kind {
	case rules.NoChange:
		g.unexplained = false
	case rules.Forward, rules.Ambiguous:
		g.unexplained = false
		moves := res.Moves
		if res.Kind == rules.Ambiguous {
			moves = shortest(res.Candidates)
		}
		if j, ok := g.earlier(s); ok && len(moves) >= 2 && !resync {
			// The board is back at an earlier position of the game: a
			// take-back (7.1), or several quick moves that happen to lead
			// back to it. Held; presses around it mean play goes on.
			g.hold(at, res.From, moves)
			g.backTo = j
			break
		}
		if len(moves) >= 2 && !resync {
			from := res.From
			slide := false
			if res.From == g.rec.Ply() && back >= 1 {
				if f, alt, ok := g.fewer(len(moves)); ok {
					from, moves, slide = f, alt, true
				}
			}
			g.hold(at, from, moves)
			g.multiSlide = slide
			break
		}
		if res.From < g.rec.Ply() {
			g.retract(out, at, res.From, moves, false)
		}
		g.apply(out, at, moves)
	case rules.Correction:
		if len(res.Moves) >= 2 && !resync {
			g.hold(at, res.From, res.Moves)
			g.multiSlide = g.slidOn(res.From, res.Moves)
			break
		}
		g.unexplained = false
		g.retract(out, at, res.From, res.Moves, false)
		g.apply(out, at, res.Moves)
	case rules.TakeBack:
		g.unexplained = false
		g.retract(out, at, res.From, nil, false)
	case rules.ResultSignal:
		g.unexplained = false
		g.advance(out, at, time.Duration(1<<62))
		if !g.ended {
			g.finish(out, at, res.Signal, "result-signalled", "–")
		}
	default: // Unexplained, UnknownPieces
		if resync && g.wasAway && res.Kind == rules.Unexplained && !g.gap {
			// Back from an absence, the board shows a position that no
			// short sequence reaches. A piece in a hand looks like that
			// too, for a moment; if it lasts a scan lag, more moves were
			// made than can be reconstructed, and searching every later
			// transient that deep would only find moves nobody made.
			if !g.suspect {
				g.suspect, g.suspectAt = true, at
			}
			if at-g.suspectAt >= g.cfg.ScanLag {
				g.openGap(out, at)
			}
		}
		if !g.unexplained {
			g.unexplained, g.unexplSince, g.unexplWarned = true, at, false
		}
	}
}

// openGap stops the count at the last verified ply and tells the arbiter,
// once, which moves cannot be verified.
func (g *Game) openGap(out *[]Event, at time.Duration) {
	if g.gap {
		return
	}
	g.gap, g.gapFrom, g.resync, g.suspect = true, g.rec.Ply(), false, false
	if g.gapWarned {
		return
	}
	g.gapWarned = true
	g.anomaly(out, at, KindUnverified, 0, true, "6.10",
		fmt.Sprintf("The board came back in a position that no sequence of up to %d moves reaches from the last position arbiterd verified (after ply %d: White %d, Black %d completed moves). "+
			"The moves made while the board was not read cannot be verified, and arbiterd stops counting: establish the moves from ply %d on (scoresheets, the players) before ruling on a flag or a move count (6.10, 6.12.2).",
			g.cfg.MaxPlies, g.gapFrom, g.counts.White, g.counts.Black, g.gapFrom+1))
}

// hold keeps several plies the board shows until the board has shown them
// for ScanLag or a press needs them, because a piece in the hand can look
// like a short exchange nobody played.
func (g *Game) hold(at time.Duration, from int, moves []*chess.Move) {
	g.multi, g.multiFrom, g.backTo, g.multiSlide = moves, from, -1, false
	if !g.unexplained {
		g.unexplained, g.unexplSince, g.unexplWarned = true, at, false
	}
}

// fewer looks for an explanation of the board that replaces the last,
// uncompleted ply and ends with fewer plies in the record than a forward
// sequence of n plies: a piece seen on its way (Qc7-c6, recorded) and then,
// in one scan, on its square and the opponent's reply is one move of the
// queen (Qc7-c5) and the reply, not two queen moves around a reply.
func (g *Game) fewer(n int) (int, []*chess.Move, bool) {
	ply := g.rec.Ply()
	if ply == 0 || g.plies[ply-1].completed {
		return 0, nil, false
	}
	alt := g.rec.Clone()
	if err := alt.TakeBack(ply - 1); err != nil {
		return 0, nil, false
	}
	r := rules.Reconstruct(alt, g.snap, rules.Options{MaxPlies: n})
	seq := r.Moves
	if r.Kind == rules.Ambiguous {
		seq = shortest(r.Candidates)
	}
	if (r.Kind != rules.Forward && r.Kind != rules.Ambiguous) || len(seq) == 0 || len(seq) > n {
		return 0, nil, false
	}
	// only a slide that went on: the same piece from the same square, the
	// recorded square strictly between it and the new one on a line
	if !g.slidOn(ply-1, seq) {
		return 0, nil, false
	}
	return ply - 1, seq, true
}

// slidOn reports whether moves, replacing the plies after from, begin with
// the last recorded ply's piece going on along its line (a slide seen on
// its way), within ScanLag of the recorded square.
func (g *Game) slidOn(from int, moves []*chess.Move) bool {
	ply := g.rec.Ply()
	if from != ply-1 || len(moves) == 0 {
		return false
	}
	last := g.rec.Moves()[ply-1]
	return g.snapAt-g.plies[ply-1].madeAt <= g.cfg.ScanLag &&
		moves[0].S1() == last.S1() && strictlyBetween(last.S1(), last.S2(), moves[0].S2())
}

// strictlyBetween reports whether mid lies on the line from a to b,
// strictly between them.
func strictlyBetween(a, mid, b chess.Square) bool {
	af, ar := int(a)%8, int(a)/8
	bf, br := int(b)%8, int(b)/8
	df, dr := b2i(bf > af)-b2i(bf < af), b2i(br > ar)-b2i(br < ar)
	if (df == 0 && dr == 0) || !(af == bf || ar == br || af-bf == ar-br || af-bf == br-ar) {
		return false
	}
	for f, r := af+df, ar+dr; f != bf || r != br; f, r = f+df, r+dr {
		if chess.Square(r*8+f) == mid {
			return true
		}
	}
	return false
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// earlier finds the most recent earlier position of the record that s shows.
func (g *Game) earlier(s rules.Snapshot) (int, bool) {
	for j := len(g.boards) - 2; j >= 0; j-- {
		if sameBoard(g.boards[j], s) {
			return j, true
		}
	}
	return 0, false
}

// sameBoard compares two snapshots (by occupancy when either senses only that).
func sameBoard(a, b rules.Snapshot) bool {
	if a.Unknown != 0 || b.Unknown != 0 {
		return false
	}
	occ := a.OccupancyOnly || b.OccupancyOnly
	for i := range a.Squares {
		if occ {
			if (a.Squares[i] == chess.NoPiece) != (b.Squares[i] == chess.NoPiece) {
				return false
			}
		} else if a.Squares[i] != b.Squares[i] {
			return false
		}
	}
	return true
}

func shortest(c [][]*chess.Move) []*chess.Move {
	var best []*chess.Move
	for i, m := range c {
		if i == 0 || len(m) < len(best) {
			best = m
		}
	}
	return best
}

// trailing is the number of plies after the last completed one.
// A ply its side has already pressed for (the press is waiting to be
// resolved) stays replaceable only while it is the last ply: a slide may
// still end after the press is read, but once the opponent has replied
// the pressed move is settled.
func (g *Game) trailing() int {
	n := 0
	for i := len(g.plies) - 1; i >= 0 && !g.plies[i].completed; i-- {
		if i < len(g.plies)-1 && g.pressedFor(i) {
			break
		}
		n++
	}
	return n
}

// pressedFor reports whether a pending press of the ply's side came after
// the ply was made.
func (g *Game) pressedFor(i int) bool {
	p := g.plies[i]
	for _, pr := range g.presses {
		if pr.ev.Side == p.side && pr.ev.At >= p.madeAt {
			return true
		}
	}
	return false
}

// apply adds moves made on the board to the record, provisionally.
func (g *Game) apply(out *[]Event, at time.Duration, moves []*chess.Move) {
	for _, m := range moves {
		side := sideOf(g.rec.Position().Turn())
		if err := g.rec.Move(m); err != nil {
			g.anomaly(out, at, KindUnexplainedPosition, side, false, "–",
				fmt.Sprintf("arbiterd could not add the move %s to its record: %v.", m, err))
			return
		}
		g.plies = append(g.plies, plyInfo{side: side, madeAt: at})
		g.boards = append(g.boards, rules.SnapshotOf(g.rec.Position()))
		p := g.rec.Ply()
		g.emit(out, at, Event{Type: TypeMove, Ply: p, Side: side, SAN: g.rec.SAN(p), UCI: g.rec.UCI(p), FEN: g.rec.FEN()})
	}
}

// retract takes the record back to ply from. replacement, when given, is
// the sequence that replaces the retracted plies (a slide or correction).
func (g *Game) retract(out *[]Event, at time.Duration, from int, replacement []*chess.Move, byArbiter bool) {
	if from < 0 || from >= g.rec.Ply() {
		return
	}
	moves := g.rec.Moves()
	for p := g.rec.Ply(); p > from; p-- {
		info := g.plies[p-1]
		reason := ReasonCorrection
		switch {
		case info.completed:
			reason = ReasonTakeback
			g.counts.add(info.side, -1)
		case byArbiter:
			reason = ReasonTakeback
		case p == from+1 && len(replacement) > 0 && replacement[0].S1() == moves[p-1].S1():
			reason = ReasonSlide
		}
		g.emit(out, at, Event{Type: TypeRetract, Ply: p, Reason: reason, SAN: g.rec.SAN(p), UCI: g.rec.UCI(p)})
	}
	if err := g.rec.TakeBack(from); err != nil {
		return
	}
	g.plies = g.plies[:from]
	g.boards = g.boards[:from+1]
}
