// The board view: what the board shows of the game against the record —
// its latest snapshot and change, the plies held, whether what it shows
// is explained — and what it decides from the record, the presses and
// the absence it is given.

package reconcile

import (
	"time"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/rules"
)

// boardView is what the board shows of the game: its latest snapshot and
// when it last changed, the plies it shows that are held, not yet
// accepted, and whether what it shows is explained. The board's latest
// reading (boardRead) outlives a game; the rest is set anew with it.
type boardView struct {
	snap      rules.Snapshot // the last snapshot, in White-bottom frame
	changed   stamp          // when the board last changed, and by which input
	boardRead stamp          // the latest board input
	// shown is the snapshot the board changed to at changed (nil: none
	// since the board was last read afresh); a snapshot equal to it
	// changes nothing.
	shown *rules.Snapshot
	// placed is the last snapshot that was not made from the one before by
	// lifting pieces only: while pieces are lifted (in a hand, or a taken
	// piece lifted before the capturing one lands) the game's position is
	// the one they were lifted from (see movedOnFrom).
	placed      rules.Snapshot
	held        held             // several plies the board shows, not yet accepted
	unexplained unexplainedBoard // the board shows what no legal sequence explains
}

// held is several plies the board shows at once, not yet accepted.
type held struct {
	plies  []*chess.Move
	from   int // the ply they start from
	backTo int // ≥ 0: the held plies may instead be a take-back to this ply
	// kind: the held plies continue a recorded slide, or were found after
	// an absence (a resync search), or neither
	kind heldKind
	// replaces: the held plies replace a completed move the board shows
	// was another (see miscommitted), or merge two recorded moves of one
	// piece around a reply into one (see fitsMerge)
	replaces  replacement
	in        int  // the input that showed the position they reach (its changed.in)
	ambiguous bool // after an absence, several sequences explain the board equally well
	// tried: the board and record miscommitted last searched in vain; the
	// same board against the same record is not searched again.
	tried struct {
		done   bool
		snap   rules.Snapshot
		fen    string
		counts Moves
	}
}

// heldKind is where held plies come from.
type heldKind uint8

const (
	heldPlain heldKind = iota // the board, in step
	heldSlide                 // the board, continuing a recorded slide (see fewer)
	heldAway                  // a resync search after an absence
	// heldAwayInHand: after an absence, and they leave the other side to
	// move than the clock says, and the board is, but for one piece
	// lifted off it, a position the clock agrees with (see pieceInHand):
	// a move or a capture in the making, held until the board has shown
	// it for UnexplainedAfter.
	heldAwayInHand
)

// replacement is what held plies do to the completed moves of the record.
type replacement uint8

const (
	replacesNothing   replacement = iota // they follow the record (or its uncompleted plies)
	replacesCompleted                    // they replace a completed move the board shows was another
	mergesCompleted                      // two completed moves of one piece around a reply were one
)

// unexplainedBoard is a board that shows what no legal sequence from the
// record explains: whether it does, since which input, and whether the
// arbiter was told.
type unexplainedBoard struct {
	state unexplainedState
	since stamp
}

// unexplainedState is where an unexplained board stands.
type unexplainedState uint8

const (
	boardExplained           unexplainedState = iota // the board shows what the record explains
	boardUnexplained                                 // it shows what nothing explains, not yet reported
	boardUnexplainedReported                         // and the arbiter was told (or the press judged it)
)

// noteShown records that the board shows s at this time. A snapshot that
// repeats the last one (a keep-alive dump, a field reported again) shows
// nothing new: the board has shown its position since it last changed, and
// the waits that count from that change (held plies, a position to
// resynchronise to, a slide) are not restarted by it — with a dump each
// second they would never end.
func (v *boardView) noteShown(inputs int, at time.Duration, s rules.Snapshot) {
	if v.shown == nil || s != *v.shown {
		v.changed.at, v.changed.in, v.shown = at, inputs, &s
	}
}

// transient reports whether the board, back from an absence, is better
// explained as a move in the making than by moves (from ply from): the
// moves leave the other side to move than the clock says, and the board is,
// but for one piece lifted off it, a position the record reaches in at most
// two plies with the clock's side to move (pieceInHand). A capture is made
// by lifting the captured piece first: a dump read then shows a position
// that four plies explain (…Bxg1, a move and back, …Bc5) with the wrong
// side to move, and rebuilding the record from it derails the game.
func (v *boardView) transient(led *ledger, q *pressQueue, a *absence, from int, moves []*chess.Move) bool {
	turn, ok := q.clockTurn(a.at, v.snap)
	if !ok || v.snap.OccupancyOnly || v.snap.Unknown != 0 {
		return false
	}
	after := led.rec.PositionAt(from).Turn()
	if len(moves)%2 == 1 {
		after = after.Other()
	}
	return after != turn && pieceInHand(led.rec.Position(), v.snap, turn, 2)
}

// waitsForTheBoard reports whether a decision on what the board shows after
// lost updates (settling held plies, rebuilding the record) waits for the
// board to be read again, and until when at most: the clock spoke after
// the board's latest reading, so the board may have changed since without
// saying so (a capture whose updates were lost: the captured piece lifted,
// the capturing one not yet seen on its square, the press already made).
// The next dump shows it; the wait is bounded by twice ScanLag after the
// word, for a board that is not polled.
func (v *boardView) waitsForTheBoard(q *pressQueue, a *absence, scanLag time.Duration) (time.Duration, bool) {
	t := q.turn
	if a.search != unsettledLossy || !t.seen() || t.at <= v.boardRead.at {
		return 0, false
	}
	return t.at + 2*scanLag, true
}

// rebaseDue returns when the record may be rebuilt from what the board
// shows, back from an absence, when not even the deeper search reaches it.
// That is final, and a piece held in a hand (or knocked over) shows the
// same, so the board must have shown the position for UnexplainedAfter
// and a press must have been made while it stood — a player pressing
// has finished the move — and the board not changed for ScanLag after
// that press. Without a press (a game without a clock) the position must
// stand for six times UnexplainedAfter.
func (v *boardView) rebaseDue(cfg Config, q *pressQueue, a *absence) time.Duration {
	stood := v.changed.at + cfg.UnexplainedAfter
	if until, ok := v.waitsForTheBoard(q, a, cfg.ScanLag); ok {
		stood = max(stood, until)
	}
	for _, p := range q.presses {
		if p.ev.At >= v.changed.at {
			return max(stood, p.ev.At+cfg.ScanLag)
		}
	}
	return v.changed.at + 6*cfg.UnexplainedAfter
}

// hold keeps several plies the board shows until the board has shown them
// for ScanLag or a press needs them, because a piece in the hand can look
// like a short exchange nobody played.
func (v *boardView) hold(inputs int, at time.Duration, from int, moves []*chess.Move) {
	v.held.plies, v.held.from, v.held.backTo, v.held.replaces = moves, from, -1, replacesNothing
	v.held.in = v.changed.in
	switch v.held.kind {
	case heldSlide:
		v.held.kind = heldPlain
	case heldAwayInHand:
		v.held.kind = heldAway
	}
	if !v.unexplained.on() {
		v.unexplained.begin(stamp{at, inputs})
	}
}

// fewer looks for an explanation of the board that replaces the last,
// uncompleted ply and ends with fewer plies in the record than a forward
// sequence of n plies: a piece seen on its way (Qc7-c6, recorded) and then,
// in one scan, on its square and the opponent's reply is one move of the
// queen (Qc7-c5) and the reply, not two queen moves around a reply.
func (v *boardView) fewer(led *ledger, scanLag time.Duration, n int) (int, []*chess.Move, bool) {
	ply := led.rec.Ply()
	if ply == 0 || led.plies[ply-1].completed() {
		return 0, nil, false
	}
	alt := led.rec.Clone()
	if err := alt.TakeBack(ply - 1); err != nil {
		return 0, nil, false
	}
	r := rules.Reconstruct(alt, v.snap, rules.Options{MaxPlies: n})
	seq := r.Moves
	if r.Kind == rules.Ambiguous {
		seq = shortest(r.Candidates)
	}
	if (r.Kind != rules.Forward && r.Kind != rules.Ambiguous) || len(seq) == 0 || len(seq) > n {
		return 0, nil, false
	}
	// only a slide that went on: the same piece from the same square, the
	// recorded square strictly between it and the new one on a line
	if !v.slidOn(led, scanLag, ply-1, seq) {
		return 0, nil, false
	}
	return ply - 1, seq, true
}

// slidOn reports whether moves, replacing the plies after from, begin with
// the last recorded ply's piece going on along its line (a slide seen on
// its way), within ScanLag of the recorded square.
func (v *boardView) slidOn(led *ledger, scanLag time.Duration, from int, moves []*chess.Move) bool {
	ply := led.rec.Ply()
	if from != ply-1 || len(moves) == 0 {
		return false
	}
	last := led.rec.Moves()[ply-1]
	return v.changed.at-led.plies[ply-1].made.at <= scanLag &&
		moves[0].S1() == last.S1() && strictlyBetween(last.S1(), last.S2(), moves[0].S2())
}

// miscommitted looks for a completed move that the board shows was
// another: the press was read while the piece was on its way (a pawn
// that went on a square further, a castling pressed while only the rook
// had moved). One of the last two completed plies (the opponent may have
// replied and pressed meanwhile) is replaced by another move that vacates
// the same square and is not taken afterwards, the plies after it stay as
// they were, and one legal sequence from the position before it (with up
// to one more ply) reaches the board. It returns the ply's index and
// the sequence.
func (v *boardView) miscommitted(led *ledger, s rules.Snapshot) (int, []*chess.Move, bool, bool) {
	n := len(led.plies)
	if v.held.tried.done && s == v.held.tried.snap && led.rec.FEN() == v.held.tried.fen && led.counts == v.held.tried.counts {
		// Searched already for this board and this record: a piece held in
		// the hand is reported (and dumped) again and again.
		return 0, nil, false, false
	}
	last := n - 1 - countTrailing(led.plies)
	recorded := led.rec.Moves()
	for k := last; k >= 0 && k >= last-2; k-- {
		if !led.plies[k].completed() || led.plies[k].unverified() {
			return 0, nil, false, false
		}
		alt := led.rec.Clone()
		if alt.TakeBack(k) != nil {
			return 0, nil, false, false
		}
		r := rules.Reconstruct(alt, s, rules.Options{MaxPlies: min(n-k+1, 3)})
		if r.From != k {
			continue
		}
		seqs := r.Candidates // several orders may reach it: only one may fit
		if r.Kind == rules.Forward {
			seqs = [][]*chess.Move{r.Moves}
		} else if r.Kind != rules.Ambiguous {
			continue
		}
		var fit [][]*chess.Move
		merge := false
		for _, q := range seqs {
			switch {
			case k >= last-1 && fitsCorrection(q, recorded[k:n]):
				fit = append(fit, q)
			case fitsMerge(q, recorded[k:n]):
				fit, merge = append(fit, q), true
			}
		}
		if len(fit) == 1 {
			return k, fit[0], merge, true
		}
	}
	v.held.tried.done, v.held.tried.snap, v.held.tried.fen, v.held.tried.counts = true, s, led.rec.FEN(), led.counts
	return 0, nil, false, false
}

// awayInHand is heldAwayInHand when inHand, else heldAway.
func awayInHand(inHand bool) heldKind {
	if inHand {
		return heldAwayInHand
	}
	return heldAway
}

// away reports whether the held plies were found after an absence.
func (h *held) away() bool { return h.kind == heldAway || h.kind == heldAwayInHand }

// notAway: the held plies, if any, are not those of an absence.
func (h *held) notAway() {
	if h.away() {
		h.kind = heldPlain
	}
}

// slideOn says whether the held plies continue a recorded slide.
func (h *held) slideOn(slide bool) {
	if slide {
		h.kind = heldSlide
	} else if h.kind == heldSlide {
		h.kind = heldPlain
	}
}

func (u *unexplainedBoard) on() bool { return u.state != boardExplained }

func (u *unexplainedBoard) reported() bool { return u.state == boardUnexplainedReported }

// begin: the board shows what nothing explains, from s on.
func (u *unexplainedBoard) begin(s stamp) { u.state, u.since = boardUnexplained, s }

// clear: the board is explained again.
func (u *unexplainedBoard) clear() { u.state = boardExplained }

// report: the arbiter was told; an explained board has nothing to tell.
func (u *unexplainedBoard) report() {
	if u.on() {
		u.state = boardUnexplainedReported
	}
}

// dumped takes a dump (s, in the board's own frame) as the board read
// afresh, before it is shown: see Dump. It comes after the deadlines due
// by the dump's time were decided, so that what was laid on the image of
// before an absence and waits for the dump is not decided on that image
// at the dump's own input.
func (v *boardView) dumped(a *absence, followed bool, orient rules.Orientation, s rules.Snapshot) {
	first := a.undumped
	a.undumped = false // the board is read whole
	if !followed {
		return
	}
	r := s
	if orient == rules.BlackBottom {
		r = r.Rotated()
	}
	if first {
		// The first dump since the board was disconnected: plies
		// held on what field updates showed before it were laid on
		// the image of before the absence, and go.
		v.held.plies, v.held.ambiguous = nil, false
		v.held.notAway()
	}
	if r.Squares != v.snap.Squares || r.Unknown != v.snap.Unknown {
		a.resync()
		lossy := a.search == unsettledLossy || !a.disconnected
		if !a.unsettled() {
			a.search, a.warned, a.unchecked = unsettled, false, false
			if !first {
				// the image was last known right at the previous input
				a.at, a.in = v.boardRead.at, v.boardRead.in
			}
			// else the absence is the disconnection's, whatever field
			// updates laid on the image of before it seemed to say:
			// what was read since, presses included, was read after
			// it
		}
		if lossy {
			a.search = unsettledLossy
		}
	}
}

// first reports whether the held plies are to be settled before the
// press is judged: the board showed them around the press, or reported
// them up to two scans after it, or they replace the move the press would
// complete with one whose piece is not then taken (a piece in the hand
// looks like that).
func (h *held) first(pr pendingPress, cands []int, changed stamp) bool {
	if h.plies == nil || h.replaces != replacesNothing {
		return false
	}
	ev := pr.ev
	return len(cands) == 0 || changed.before(pr.stamp()) ||
		(!ev.Inferred && changed.at <= ev.At+boardReportLag) || h.kind == heldSlide ||
		(h.from <= cands[len(cands)-1] && !takenLater(h.plies)) // replaces
}

// warnUnexplained tells the arbiter that the board has shown, for
// UnexplainedAfter, something arbiterd cannot follow: not the start
// position yet, a second move by one side (7.5), or a position no legal
// sequence explains.
func (v *boardView) warnUnexplained(em *emitter, led *ledger, start *chess.Position, maxPlies int, oriented bool, out *[]Event, at time.Duration) {
	if !oriented {
		em.anomaly(out, at, KindUnexplainedPosition, 0, true, "–",
			say(TextNotOriented,
				spanWord(limitOf(at, v.unexplained.since.at)), start.String()))
		return
	}
	if side, san, ok := twoMoves(led.rec, v.snap); ok {
		em.anomaly(out, at, KindTwoMoves, side, false, "7.5",
			say(TextTwoMovesBoard,
				sideWord(side), san, sideWord(side.Other()), sideWord(side), led.rec.FEN()))
		return
	}
	em.anomaly(out, at, KindUnexplainedPosition, 0, true, "–",
		say(TextUnexplained,
			spanWord(limitOf(at, v.unexplained.since.at)), maxPlies, led.rec.FEN()))
}

// heldDue is when the held plies are settled: once the board has shown
// them for ScanLag; after an absence not before the board is read again
// in full, and a piece that may be in the hand not before
// UnexplainedAfter.
func (v *boardView) heldDue(cfg Config, q *pressQueue, a *absence) time.Duration {
	due := v.changed.at + cfg.ScanLag
	if until, ok := v.waitsForTheBoard(q, a, cfg.ScanLag); ok && v.held.away() {
		due = max(due, until)
	}
	if v.held.kind == heldAwayInHand {
		due = max(due, v.changed.at+cfg.UnexplainedAfter)
	}
	if v.held.away() && a.undumped && a.starting {
		// the plies were laid on the image of before the absence by
		// field updates the board sent while answering the driver's
		// start-up, whose dump replaces that image: it is waited for as
		// long as the board read after the clock's word (see
		// waitsForTheBoard). Settled before it, they are a stale
		// image's moves, and presses would complete them.
		due = max(due, v.changed.at+2*cfg.ScanLag)
	}
	return due
}

// stopDue is when the first stop of the clock is judged: ScanLag after
// it, or UnexplainedAfter while pieces are being moved (the kings put on
// the centre squares to signal a result, after the clock was stopped).
func (v *boardView) stopDue(cfg Config, at time.Duration) time.Duration {
	if v.unexplained.on() && v.held.plies == nil {
		return max(at+cfg.ScanLag, at+cfg.UnexplainedAfter)
	}
	return at + cfg.ScanLag
}

// settling reports whether the board, back from an absence, shows a
// position not yet settled: presses wait for it as they wait for the board
// to be back, so that they are judged on what the board settles on.
func (v *boardView) settling(a *absence) bool {
	return (v.held.plies != nil && v.held.away()) || (a.suspect && v.unexplained.on())
}
