// The board stage: a board snapshot against the record — which moves the
// board shows, and the plausibility rules that keep transient states from
// becoming moves. It changes the view and hands the rest back
// (boardChange) for the Game to apply. In the order a board reading goes
// through it: the snapshot taken (see), explained (read), and what it
// shows decided (forward, correct, notExplained).

package reconcile

import (
	"strings"
	"time"

	"github.com/notnil/chess"

	"github.com/arbiterd/arbiterd/rules"
)

// boardChange is what the board stage found the board to show (see
// boardView.read), for the orchestrator to apply to the other parts
// (Game.processOnce): plies to add or replace, plies taken back, a result
// signalled, or, after an absence, plies laid unchecked to check against
// the clock first. The plies the board shows that are held, and whether it
// is explained, the stage has taken on the view itself.
type boardChange struct {
	kind   changeKind
	from   int           // the ply the change starts from
	moves  []*chess.Move // changeReplace, changeCheckTurn: the plies the board shows after from
	signal string        // changeSignal: the result
	// inStep: the board, back from an absence, is in step with the
	// record again (absence.backInStep), before the change is applied;
	// suspect: it shows what nothing explains (see resyncFar).
	inStep, suspect bool
}

// changeKind is what a boardChange does to the record.
type changeKind uint8

const (
	changeNone     changeKind = iota // nothing: the plies are held, or nothing explains the board
	changeReplace                    // the plies after from are replaced by moves (none retracted when from is the record's end)
	changeTakeBack                   // the plies after from are taken back (7.1)
	changeSignal                     // the kings signal a result
	// changeCheckTurn: back from an absence, with plies laid while the
	// clock had not said whose turn it was, the side to move after moves
	// is checked against the clock first (rebuildOnTheClocksTurn); then
	// the board is read on (forwardInStep).
	changeCheckTurn
)

// boardInput is what the board stage reads besides the view, each value
// read by the Game from the part it belongs to: the record, the settings,
// the input, what the absence says of the board, and the press queue's
// answers about the record's last plies.
type boardInput struct {
	led    record
	cfg    Config
	inputs int
	at     time.Duration
	away   awayFacts
	plies  recordPlies // the press queue's answers about the record's last plies
}

// recordPlies is what the press queue says of the record's last plies and
// of the side to move (see pressFacts.ofRecord): how many plies follow the
// last completed one (trailing), how many a correction may replace
// (retractable), how many are above the last verified position (above),
// and the side to move by the clock in the position the board shows, when
// the clock has said (turnKnown, see clockTurn).
type recordPlies struct {
	trailing, retractable, above int
	turn                         chess.Color
	turnKnown                    bool
}

// see takes s (White at the bottom) as the board's latest snapshot: the
// last position in which a piece was put down too (placed), unless s was
// made from the snapshot before by lifting pieces off a legal position.
func (v *boardView) see(rec *rules.Game, s rules.Snapshot) {
	if s != v.snap && (lifted(v.snap, s) <= 0 || !legalBoard(rec, v.snap)) {
		v.placed = s // a piece taken off a position no game has is a correction
	}
	v.snap = s
}

// lifted counts the pieces s has lifted off p, or is -1 when anything else
// changed (a piece put down, unknown codes, a board of another kind).
func lifted(p, s rules.Snapshot) int {
	if p.Unknown != s.Unknown || p.OccupancyOnly != s.OccupancyOnly {
		return -1
	}
	n := 0
	for sq, pc := range p.Squares {
		switch s.Squares[sq] {
		case pc:
		case chess.NoPiece:
			n++
		default:
			return -1
		}
	}
	return n
}

// lifting reports whether the board shows pieces lifted off the last
// position in which a piece was put down (see boardView.placed): a piece in a
// hand, or a taken piece lifted before the capturing one lands — no
// position of the game.
func lifting(board, placed rules.Snapshot) bool { return board != placed }

// legalBoard reports whether s is a legal position with one side or the
// other to move.
func legalBoard(rec *rules.Game, s rules.Snapshot) bool {
	if s.OccupancyOnly || s.Unknown != 0 {
		return false
	}
	r, _ := legalPlacement(s, rec.Position(), chess.White)
	return r != nil
}

// legalPlacement is the game from the pieces of s (castling and en passant
// rights as far as old allows them) with turn to move, or the other side
// if that position is not legal; nil when neither is.
func legalPlacement(s rules.Snapshot, old *chess.Position, turn chess.Color) (*rules.Game, chess.Color) {
	for _, t := range []chess.Color{turn, turn.Other()} {
		if r, err := rules.NewGame(placementFEN(s, old, t, 1)); err == nil {
			return r, t
		}
	}
	return nil, turn
}

// placementFEN writes the FEN of the placement s with turn to move. Castling
// rights are those of the record's position old whose king and rook still
// stand on their squares; no en passant; move number moveNo.
func placementFEN(s rules.Snapshot, old *chess.Position, turn chess.Color, moveNo int) string {
	rights := old.CastleRights().String()
	at := func(sq chess.Square, p chess.Piece) bool { return s.Squares[sq] == p }
	var castling []byte
	for _, r := range []struct {
		ch         byte
		king, rook chess.Square
		k, rk      chess.Piece
	}{
		{'K', chess.E1, chess.H1, chess.WhiteKing, chess.WhiteRook},
		{'Q', chess.E1, chess.A1, chess.WhiteKing, chess.WhiteRook},
		{'k', chess.E8, chess.H8, chess.BlackKing, chess.BlackRook},
		{'q', chess.E8, chess.A8, chess.BlackKing, chess.BlackRook},
	} {
		if strings.IndexByte(rights, r.ch) >= 0 && at(r.king, r.k) && at(r.rook, r.rk) {
			castling = append(castling, r.ch)
		}
	}
	return s.FEN(turn, string(castling), moveNo)
}

// read explains the board's latest snapshot from the record (searched as
// deep as the absence allows, see searchBounds) and decides what it shows.
// It takes on the view the plies held and whether the board is explained,
// and hands back what the other parts are to do.
func (v *boardView) read(in boardInput) boardChange {
	s, inputs, at := v.snap, in.inputs, in.at
	depth, back := searchBounds(in.away.resyncing(), in.cfg.MaxPlies, in.plies.retractable, in.plies.trailing)
	res := explain(in.led, s, depth, back, in.plies.above)
	resync := in.away.resyncing()
	if v.held.plies != nil && (res.Kind == rules.Unexplained || res.Kind == rules.UnknownPieces) {
		// a transient (a piece in the hand) on top of the plies being held
		return boardChange{}
	}
	v.noteShown(inputs, at, s)
	v.held.plies = nil
	v.held.notAway()
	v.held.ambiguous = false
	switch res.Kind {
	case rules.NoChange:
		v.unexplained.clear()
		return boardChange{inStep: !in.away.unsure(in.led.plies)}
	case rules.Forward, rules.Ambiguous:
		v.unexplained.clear()
		return v.forward(in, res, resync)
	case rules.Correction:
		return v.correct(in, res, resync)
	case rules.TakeBack:
		v.unexplained.clear()
		return boardChange{kind: changeTakeBack, from: res.From, inStep: true}
	case rules.ResultSignal:
		v.unexplained.clear()
		return boardChange{kind: changeSignal, signal: res.Signal, inStep: true}
	}
	// Unexplained, UnknownPieces
	return v.notExplained(in, res, resync)
}

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

// notAway: the held plies, if any, are not those of an absence.
func (h *held) notAway() {
	if h.away() {
		h.kind = heldPlain
	}
}

// searchBounds is how many plies an explanation of the snapshot may add
// (depth) and how many of the record's it may replace (back).
//
// Between two scans of a connected board at most two plies are plausible
// (two quick moves in time trouble); longer sequences are searched only
// after the board was away (connect, resync, a dump that contradicted the
// image), or they would explain transient states by moves nobody made.
// Likewise only the last ply may be replaced (a slide that goes on, a
// change of mind before the press): replacing more lets a lifted piece be
// explained as an alternative history in which it was captured. After an
// absence the plies arbiterd could not verify stay replaceable until a
// verified move follows them: if they explained a piece in the hand, the
// board shows it when the piece lands.
func searchBounds(resync bool, maxPlies, retractable, trailing int) (depth, back int) {
	depth, back = maxPlies, retractable
	if !resync {
		depth, back = min(depth, 2), min(trailing, 1)
	}
	return depth, back
}

// explain reconstructs s from the record. When the record ends in plies
// arbiterd could not verify, the explanation from the last verified
// position is preferred if it needs fewer plies from there: those plies may
// have explained a piece in the hand, and the record's own cost order
// would rather replace one of them by a longer sequence than all of them
// by the one move the board shows.
func explain(led record, s rules.Snapshot, depth, back, u int) rules.Result {
	res := rules.Reconstruct(led.rec, s, rules.Options{MaxPlies: depth, Retractable: back})
	// u: the plies above the last verified position (see
	// pressFacts.above). The board's position is explained from below
	// them when that takes fewer plies.
	n := len(led.plies)
	if u == 0 || res.Kind == rules.ResultSignal || res.Kind == rules.UnknownPieces {
		return res
	}
	base := n - u
	cost := 1 << 30 // of res, in plies from the verified position
	switch res.Kind {
	case rules.NoChange:
		cost = u
	case rules.Forward, rules.Ambiguous, rules.Correction:
		l := len(res.Moves)
		if res.Kind == rules.Ambiguous {
			l = len(shortest(res.Candidates))
		}
		if res.From >= base {
			cost = res.From - base + l
		}
	case rules.TakeBack:
		if res.From >= base {
			cost = res.From - base
		}
	}
	alt := led.rec.Clone()
	if alt.TakeBack(base) != nil {
		return res
	}
	r := rules.Reconstruct(alt, s, rules.Options{MaxPlies: depth})
	switch r.Kind {
	case rules.NoChange:
		if cost > 0 {
			return rules.Result{Kind: rules.TakeBack, From: base}
		}
	case rules.Forward, rules.Ambiguous:
		l := len(r.Moves)
		if r.Kind == rules.Ambiguous {
			l = len(shortest(r.Candidates))
		}
		if l < cost {
			r.From = base
			if r.Kind == rules.Forward {
				r.Kind = rules.Correction
			}
			return r
		}
	}
	return res
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

// clear: the board is explained again.
func (u *unexplainedBoard) clear() { u.state = boardExplained }

// begin: the board shows what nothing explains, from s on.
func (u *unexplainedBoard) begin(s stamp) { u.state, u.since = boardUnexplained, s }

// report: the arbiter was told; an explained board has nothing to tell.
func (u *unexplainedBoard) report() {
	if u.on() {
		u.state = boardUnexplainedReported
	}
}

// forward takes a board that shows the record's position with plies added
// (or, ambiguous, several sequences that reach it): one ply is applied at
// once, several are held until the board has shown them for ScanLag (a
// piece in the hand can look like a sequence of exchanges), as a possible
// take-back when they lead back to an earlier position, or as a slide that
// goes on.
func (v *boardView) forward(in boardInput, res rules.Result, resync bool) boardChange {
	a, inputs, at := in.away, in.inputs, in.at
	moves := res.Moves
	if res.Kind == rules.Ambiguous {
		moves = shortest(res.Candidates)
	}
	if resync && (len(moves) >= 2 || a.fromStart || a.undumped) {
		// Back from an absence, the board is several plies on (or the
		// board is first read with the game under way, any ply on). A
		// piece in the hand can look like a sequence of exchanges,
		// so the explanation is held until the board has shown it
		// for ScanLag; then it is applied, or reported as moves that
		// cannot be verified (see settle).
		v.hold(inputs, at, res.From, moves)
		v.held.ambiguous = res.Kind == rules.Ambiguous
		v.held.kind = awayInHand(v.transient(in, res.From, moves))
		return boardChange{}
	}
	if resync && a.unchecked {
		return boardChange{kind: changeCheckTurn, from: res.From, moves: moves}
	}
	c := v.forwardInStep(in, res.From, moves)
	c.inStep = resync
	return c
}

// forwardInStep takes plies added (moves, after ply from) by a board in
// step with the record: one is applied at once, several are held.
func (v *boardView) forwardInStep(in boardInput, from int, moves []*chess.Move) boardChange {
	led, inputs, at := in.led, in.inputs, in.at
	if j, ok := earlierPosition(led.boards, v.snap); ok && len(moves) >= 2 {
		// The board is back at an earlier position of the game: a
		// take-back (7.1), or several quick moves that happen to lead
		// back to it. Held; presses around it mean play goes on.
		v.hold(inputs, at, from, moves)
		v.held.backTo = j
		return boardChange{}
	}
	if len(moves) >= 2 {
		start := from
		slide := false
		if from == led.rec.Ply() && in.plies.trailing >= 1 {
			if f, alt, ok := v.fewer(led, in.cfg.ScanLag, len(moves)); ok {
				start, moves, slide = f, alt, true
			}
		}
		v.hold(inputs, at, start, moves)
		v.held.slideOn(slide)
		return boardChange{}
	}
	return boardChange{kind: changeReplace, from: from, moves: moves}
}

// earlierPosition finds the most recent earlier position of the record
// that s shows.
func earlierPosition(boards []rules.Snapshot, s rules.Snapshot) (int, bool) {
	for j := len(boards) - 2; j >= 0; j-- {
		if sameBoard(boards[j], s) {
			return j, true
		}
	}
	return 0, false
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
func (v *boardView) fewer(led record, scanLag time.Duration, n int) (int, []*chess.Move, bool) {
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
func (v *boardView) slidOn(led record, scanLag time.Duration, from int, moves []*chess.Move) bool {
	ply := led.rec.Ply()
	if from != ply-1 || len(moves) == 0 {
		return false
	}
	last := led.rec.Moves()[ply-1]
	return v.changed.at-led.plies[ply-1].made.at <= scanLag &&
		moves[0].S1() == last.S1() && strictlyBetween(last.S1(), last.S2(), moves[0].S2())
}

// strictlyBetween reports whether mid lies on the line from a to b,
// strictly between them.
func strictlyBetween(a, mid, b chess.Square) bool {
	af, ar := int(a)%8, int(a)/8
	bf, br := int(b)%8, int(b)/8
	df, dr := oneIf(bf > af)-oneIf(bf < af), oneIf(br > ar)-oneIf(br < ar)
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

// transient reports whether the board, back from an absence, is better
// explained as a move in the making than by moves (from ply from): the
// moves leave the other side to move than the clock says, and the board is,
// but for one piece lifted off it, a position the record reaches in at most
// two plies with the clock's side to move (pieceInHand). A capture is made
// by lifting the captured piece first: a dump read then shows a position
// that four plies explain (…Bxg1, a move and back, …Bc5) with the wrong
// side to move, and rebuilding the record from it derails the game.
func (v *boardView) transient(in boardInput, from int, moves []*chess.Move) bool {
	led, turn := in.led, in.plies.turn
	if !in.plies.turnKnown || v.snap.OccupancyOnly || v.snap.Unknown != 0 {
		return false
	}
	after := led.rec.PositionAt(from).Turn()
	if len(moves)%2 == 1 {
		after = after.Other()
	}
	return after != turn && pieceInHand(led.rec.Position(), v.snap, turn, 2)
}

// awayInHand is heldAwayInHand when inHand, else heldAway.
func awayInHand(inHand bool) heldKind {
	if inHand {
		return heldAwayInHand
	}
	return heldAway
}

// pieceInHand reports whether s is a position that depth plies or fewer
// from p reach with turn to move, with one piece lifted off it.
func pieceInHand(p *chess.Position, s rules.Snapshot, turn chess.Color, depth int) bool {
	if p.Turn() == turn && lifted(rules.SnapshotOf(p), s) == 1 {
		return true
	}
	if depth == 0 {
		return false
	}
	for _, m := range p.ValidMoves() {
		if pieceInHand(p.Update(m), s, turn, depth-1) {
			return true
		}
	}
	return false
}

// slideOn says whether the held plies continue a recorded slide.
func (h *held) slideOn(slide bool) {
	if slide {
		h.kind = heldSlide
	} else if h.kind == heldSlide {
		h.kind = heldPlain
	}
}

// correct takes a board that shows the record with its last plies
// replaced: one replaced ply is retracted and the new one applied at once;
// a longer replacement is held (after an absence it may explain a piece in
// the hand; on a connected board, a slide that goes on).
func (v *boardView) correct(in boardInput, res rules.Result, resync bool) boardChange {
	if len(res.Moves) >= 2 {
		v.hold(in.inputs, in.at, res.From, res.Moves)
		if resync {
			v.held.kind = awayInHand(v.transient(in, res.From, res.Moves))
		} else {
			v.held.slideOn(v.slidOn(in.led, in.cfg.ScanLag, res.From, res.Moves))
		}
		return boardChange{}
	}
	v.unexplained.clear()
	return boardChange{kind: changeReplace, from: res.From, moves: res.Moves, inStep: resync}
}

// notExplained takes a board that no short sequence of legal moves
// explains: a completed move the board shows was another (held, see
// miscommitted), a position far on after an absence (suspect, see
// resyncFar), or a piece in the hand; the board is unexplained from now
// until it shows something that follows from the record.
func (v *boardView) notExplained(in boardInput, res rules.Result, resync bool) boardChange {
	a, inputs, at := in.away, in.inputs, in.at
	if res.Kind == rules.Unexplained && !resync {
		if k, moves, merge, ok := v.miscommitted(in.led, v.snap); ok {
			// Held until the board has shown it for ScanLag: a piece
			// in the hand must not rewrite a completed move.
			v.hold(inputs, at, k, moves)
			v.held.replaces = replacesCompleted
			if merge {
				v.held.replaces = mergesCompleted
			}
			return boardChange{}
		}
	}
	var c boardChange
	if resync && a.unsettled() && res.Kind == rules.Unexplained && !a.suspect {
		// Back from an absence, the board shows a position that no
		// short sequence reaches. A piece in a hand looks like that
		// too, for a moment; once the board has shown it for ScanLag
		// arbiterd resynchronises to it (see resyncFar).
		c.suspect = true
	}
	if !v.unexplained.on() {
		v.unexplained.begin(stamp{at, inputs})
	}
	return c
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
func (v *boardView) miscommitted(led record, s rules.Snapshot) (int, []*chess.Move, bool, bool) {
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

// countTrailing counts the uncompleted plies at the end of the record.
func countTrailing(plies []plyInfo) int {
	n := 0
	for i := len(plies) - 1; i >= 0 && !plies[i].completed(); i-- {
		n++
	}
	return n
}

// fitsMerge reports whether sequence q replaces the recorded plies old —
// a piece moved, the opponent's reply, the same piece moved on along the
// same line — by that piece's one move, the reply, and the move the board
// shows now. A board sends the squares one scan found changed one after
// the other, so a slide's last square can arrive after a quick reply's;
// the side then seems to move again, and the board contradicts the record
// only when it really moves again.
func fitsMerge(q, old []*chess.Move) bool {
	if len(old) != 3 || len(q) != 3 {
		return false
	}
	a, b, c := old[0].S1(), old[0].S2(), old[2].S2()
	if old[2].S1() != b || q[0].S1() != a || q[0].S2() != c || q[0].Promo() != old[2].Promo() || !strictlyBetween(a, b, c) {
		return false
	}
	return q[1].String() == old[1].String()
}

// fitsCorrection reports whether sequence q can replace the recorded plies
// old: its first move is another move that vacates the square the first
// recorded one left (the piece went on) and whose piece is not taken
// afterwards (that is how a piece in the hand looks), and the plies after
// it are the recorded ones.
func fitsCorrection(q, old []*chess.Move) bool {
	if len(q) < len(old) || len(old) == 0 {
		return false
	}
	m := q[0]
	if m.String() == old[0].String() || !vacates(m, old[0].S1()) {
		return false
	}
	if takenLater(q) {
		return false
	}
	for i := 1; i < len(old); i++ {
		if q[i].String() != old[i].String() {
			return false
		}
	}
	return true
}

// vacates reports whether move m leaves square sq empty: its piece's
// square, or a castling rook's.
func vacates(m *chess.Move, sq chess.Square) bool {
	if m.S1() == sq {
		return true
	}
	switch {
	case m.HasTag(chess.KingSideCastle):
		return sq == chess.H1 || sq == chess.H8
	case m.HasTag(chess.QueenSideCastle):
		return sq == chess.A1 || sq == chess.A8
	}
	return false
}

// accept takes the held plies off the view, to be settled (see
// Game.settle), and takes the board as explained; it returns them as they
// were held.
func (v *boardView) accept() held {
	h := v.held
	v.held.plies, v.held.replaces = nil, replacesNothing
	v.unexplained.clear()
	v.held.notAway()
	v.held.ambiguous = false
	return h
}

// settleKind is what held plies come to when they are settled.
type settleKind uint8

const (
	settleAdd        settleKind = iota // added to the record (replacing its last plies from where they start)
	settleRemerge                      // a piece's two moves around a reply are one move (see fitsMerge)
	settleRecommit                     // a completed move the board shows was another (see miscommitted)
	settleTakeBack                     // no press came: the board went back to an earlier position (7.1)
	settleLookAfresh                   // a press has settled a ply they would replace: the board is read afresh
	// settleUnverify: back from an absence, more than two plies, several
	// ways to get there, or the plies of a game first read under way:
	// moves nobody saw, reported and not completed (6.10)
	settleUnverify
	// settleCheckTurn: back from an absence with plies laid while the
	// clock had not said whose turn it was: the side to move after them is
	// checked against the clock first (rebuildOnTheClocksTurn), then they
	// are added
	settleCheckTurn
)

// decideSettle decides what the held plies h, taken off the view, come to,
// on the record's plies and what the absence says; pressed: a press came
// within ScanLag of the board's last change. It changes nothing.
func decideSettle(h held, pressed bool, plies []plyInfo, a awayFacts) settleKind {
	switch h.replaces {
	case mergesCompleted:
		return settleRemerge
	case replacesCompleted:
		return settleRecommit
	}
	if h.backTo >= 0 && !pressed {
		return settleTakeBack
	}
	for i := h.from; i < len(plies); i++ {
		if plies[i].completed() && !plies[i].unverified() {
			return settleLookAfresh
		}
	}
	away := h.away()
	switch {
	case away && (len(h.plies) > 2 || h.ambiguous || a.fromStart):
		return settleUnverify
	case away && a.unchecked:
		return settleCheckTurn
	}
	return settleAdd
}

// letGo lets the held plies go and takes the board as explained: it shows
// the starting position in the middle of the game (see boardReset).
func (v *boardView) letGo() {
	v.held.plies, v.held.backTo, v.held.kind, v.held.ambiguous = nil, -1, heldPlain, false
	v.unexplained.clear()
}

// turned takes s as the board's snapshot the other way round: another board
// put in its place stands turned (see boardReset).
func (v *boardView) turned(s rules.Snapshot) { v.snap = s }

// release lets the held plies go: the record they were held on is replaced.
func (h *held) release() { h.plies, h.backTo = nil, -1 }
