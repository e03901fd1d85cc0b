package rules

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/notnil/chess"
)

// ErrGameOver is returned by Game.Move once the game has ended (5.1.1, 5.2.1,
// 5.2.2, 9.6.1, 9.6.2): no move can be added to a finished game.
var ErrGameOver = errors.New("rules: the game is over")

// ErrIllegalMove is returned, wrapped with the move, for a move that is not
// legal in the current position or cannot be read.
var ErrIllegalMove = errors.New("rules: illegal move")

// Status is the state of the game after the last recorded move.
type Status struct {
	Over      bool
	Result    string   // "1-0", "0-1", "1/2-1/2", or "*" while the game goes on
	Reason    string   // "checkmate", "stalemate", "fivefold-repetition", "seventy-five-moves", "dead-position"
	Article   string   // "5.1.1", "5.2.1", "9.6.1", "9.6.2", "5.2.2"
	Claimable []string // "threefold-repetition" (9.2), "fifty-moves" (9.3): draws a player may claim; the game goes on
}

// Game is the game record: the positions from the start, the moves between
// them, and the game state the Laws derive from them.
//
// The record keeps its positions as rules/bitboard positions; notnil/chess
// positions and moves are built on demand (Position, PositionAt, Moves) and
// then cached. A Game is not safe for concurrent use, not even for reading:
// those caches are filled by the read methods and by Reconstruct.
type Game struct {
	positions []position // ply 0 … Ply()
	moves     []move     // moves[i] leads from positions[i] to positions[i+1]
	keys      []repKey   // 9.2.3 identity of each position
	counts    map[repKey]int
	maxCount  int    // at least the highest repetition count in the record (a search hint)
	legal     []move // legal moves of the current position
	status    Status

	chessPos  []*chess.Position // built lazily, len Ply()+1
	chessMove []*chess.Move     // built lazily, len Ply()
}

// NewGame starts a record from startFEN; "" means the standard starting
// position. A FEN that cannot be read, or describes an impossible position
// (missing king, pawn on the first rank, side not to move in check, castling
// right without king and rook at home, impossible en-passant square) gets an
// error naming the field.
func NewGame(startFEN string) (*Game, error) {
	if startFEN == "" {
		startFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	}
	p, err := parseFEN(startFEN)
	if err != nil {
		return nil, err
	}
	g := &Game{counts: make(map[repKey]int)}
	g.reset(p)
	return g, nil
}

func (g *Game) reset(p position) {
	g.positions = append(g.positions[:0], p)
	g.moves = g.moves[:0]
	g.chessPos = append(g.chessPos[:0], nil)
	g.chessMove = g.chessMove[:0]
	g.keys = g.keys[:0]
	clear(g.counts)
	g.maxCount = 0
	g.legal = p.genLegal(make([]move, 0, 48))
	g.enter()
}

// enter records the current position's key and derives the status.
func (g *Game) enter() {
	k := keyOf(&g.positions[len(g.positions)-1])
	g.keys = append(g.keys, k)
	g.counts[k]++
	g.maxCount = max(g.maxCount, g.counts[k])
	g.status = g.deriveStatus()
}

// Ply returns the number of plies played.
func (g *Game) Ply() int { return len(g.moves) }

// Position returns the current position.
func (g *Game) Position() *chess.Position { return g.PositionAt(g.Ply()) }

// PositionAt returns the position after ply plies (0 = the start position), or
// nil when ply is outside 0..Ply().
func (g *Game) PositionAt(ply int) *chess.Position {
	if ply < 0 || ply > g.Ply() {
		return nil
	}
	if cp := g.chessPos[ply]; cp != nil {
		return cp
	}
	// Walk back to the nearest position already built, then forward.
	from := ply
	for from > 0 && g.chessPos[from] == nil {
		from--
	}
	if g.chessPos[from] == nil {
		g.chessPos[from] = chessPosition(&g.positions[from])
	}
	for i := from + 1; i <= ply; i++ {
		g.chessPos[i] = g.chessPos[i-1].Update(g.chessMoveAt(i))
	}
	return g.chessPos[ply]
}

// chessMoveAt returns the notnil move of ply (1-based).
func (g *Game) chessMoveAt(ply int) *chess.Move {
	if cm := g.chessMove[ply-1]; cm != nil {
		return cm
	}
	cm := toChessMove(g.moves[ply-1])
	g.chessMove[ply-1] = cm
	return cm
}

// Moves returns the moves played, in order.
func (g *Game) Moves() []*chess.Move {
	out := make([]*chess.Move, g.Ply())
	for i := range out {
		out[i] = g.chessMoveAt(i + 1)
	}
	return out
}

// SAN returns the Standard Algebraic Notation of the move that produced ply
// (1-based), or "" when there is no such ply.
func (g *Game) SAN(ply int) string {
	if ply < 1 || ply > g.Ply() {
		return ""
	}
	return sanOf(&g.positions[ply-1], g.moves[ply-1])
}

// UCI returns the UCI (long algebraic) form of the move that produced ply
// (1-based), or "" when there is no such ply.
func (g *Game) UCI(ply int) string {
	if ply < 1 || ply > g.Ply() {
		return ""
	}
	return g.moves[ply-1].uci()
}

// FEN returns the FEN of the current position.
func (g *Game) FEN() string { return g.positions[g.Ply()].FEN() }

// Move adds m to the record. It returns ErrGameOver once the game has ended and
// ErrIllegalMove when m is not legal here (both wrapped with the move).
func (g *Game) Move(m *chess.Move) error {
	if m == nil {
		return fmt.Errorf("%w: no move given", ErrIllegalMove)
	}
	if g.status.Over {
		return fmt.Errorf("%w (%s, %s): cannot play %s", ErrGameOver, g.status.Reason, g.status.Article, m)
	}
	for _, im := range g.legal {
		if chess.Square(im.from) == m.S1() && chess.Square(im.to) == m.S2() && im.promo == m.Promo() {
			if !sameTags(m, im) {
				m = nil // built elsewhere with other tags: rebuild on demand
			}
			g.push(im, m)
			return nil
		}
	}
	return fmt.Errorf("%w: %s in %s", ErrIllegalMove, m, g.FEN())
}

// MoveUCI plays a move given in UCI notation, such as "e2e4" or "e7e8q".
func (g *Game) MoveUCI(s string) error {
	if g.status.Over {
		return fmt.Errorf("%w (%s, %s): cannot play %q", ErrGameOver, g.status.Reason, g.status.Article, s)
	}
	lower := strings.ToLower(s)
	for _, im := range g.legal {
		if im.uci() == lower {
			g.push(im, nil)
			return nil
		}
	}
	if len(s) < 4 || len(s) > 5 {
		return fmt.Errorf("%w: %q is not UCI notation (from square, to square, optional promotion letter)", ErrIllegalMove, s)
	}
	return fmt.Errorf("%w: %q in %s", ErrIllegalMove, s, g.FEN())
}

// MoveSAN plays a move given in Standard Algebraic Notation, such as "Nf3",
// "exd5", "O-O" or "e8=Q+".
func (g *Game) MoveSAN(s string) error {
	if g.status.Over {
		return fmt.Errorf("%w (%s, %s): cannot play %q", ErrGameOver, g.status.Reason, g.status.Article, s)
	}
	im, err := parseSAN(&g.positions[g.Ply()], g.legal, s)
	if err != nil {
		return err
	}
	g.push(im, nil)
	return nil
}

func (g *Game) push(im move, cm *chess.Move) {
	next := g.positions[g.Ply()]
	next.apply(im)
	g.positions = append(g.positions, next)
	g.moves = append(g.moves, im)
	g.chessMove = append(g.chessMove, cm)
	g.chessPos = append(g.chessPos, nil)
	g.legal = next.genLegal(g.legal[:0])
	g.enter()
}

// TakeBack truncates the record back to ply (Law 7.1: an earlier position is
// restored); the moves after it are forgotten.
func (g *Game) TakeBack(ply int) error {
	if ply < 0 || ply > g.Ply() {
		return fmt.Errorf("rules: take back to ply %d: the record has plies 0..%d", ply, g.Ply())
	}
	for i := len(g.keys) - 1; i > ply; i-- {
		g.counts[g.keys[i]]--
		if g.counts[g.keys[i]] == 0 {
			delete(g.counts, g.keys[i])
		}
	}
	g.keys = g.keys[:ply+1]
	g.positions = g.positions[:ply+1]
	g.moves = g.moves[:ply]
	g.chessPos = g.chessPos[:ply+1]
	g.chessMove = g.chessMove[:ply]
	// maxCount stays as it was: it is an upper bound, used only to decide
	// whether the search must watch for a fivefold repetition.
	g.legal = g.positions[ply].genLegal(g.legal[:0])
	g.status = g.deriveStatus()
	return nil
}

// Status returns the state of the game after the last recorded move.
func (g *Game) Status() Status {
	s := g.status
	s.Claimable = append([]string(nil), s.Claimable...)
	return s
}

// Repetitions returns how often the current position has occurred in the
// record, the current occurrence included, under the identity of Law 9.2.3.
func (g *Game) Repetitions() int { return g.counts[g.keys[g.Ply()]] }

// Clone returns an independent copy of the record.
func (g *Game) Clone() *Game {
	c := *g
	c.positions = slices.Clone(g.positions)
	c.moves = slices.Clone(g.moves)
	c.keys = slices.Clone(g.keys)
	c.counts = maps.Clone(g.counts)
	c.legal = slices.Clone(g.legal)
	c.status.Claimable = slices.Clone(g.status.Claimable)
	c.chessPos = slices.Clone(g.chessPos)
	c.chessMove = slices.Clone(g.chessMove)
	return &c
}
