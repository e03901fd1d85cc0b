package rules

import (
	"errors"
	"fmt"
	"strings"

	"github.com/notnil/chess"
)

// ErrGameOver is returned by Game.Move after the game has ended (5.1.1, 5.2.1, 5.2.2, 9.6).
var ErrGameOver = errors.New("rules: the game is over")

// ErrIllegalMove is returned (wrapped with the move) for a move that is not legal in the position.
var ErrIllegalMove = errors.New("rules: illegal move")

// Status is the state of the game after the last move.
type Status struct {
	Over      bool
	Result    string   // "1-0", "0-1", "1/2-1/2", "*"
	Reason    string   // "checkmate", "stalemate", "fivefold-repetition", "seventy-five-moves", "dead-position"
	Article   string   // "5.1.1", "5.2.1", "9.6.1", "9.6.2", "5.2.2"
	Claimable []string // "threefold-repetition" (9.2), "fifty-moves" (9.3)
}

// Game is the game record.
type Game struct {
	positions []*chess.Position
	moves     []*chess.Move
	counts    map[string]int
	keys      []string
	status    Status
}

func repKey(p *chess.Position) string {
	f := strings.Fields(p.XFENString())
	return strings.Join(f[:4], " ")
}

// NewGame starts a record from startFEN ("" = standard start).
func NewGame(startFEN string) (*Game, error) {
	pos := chess.StartingPosition()
	if startFEN != "" {
		if n := len(strings.Fields(startFEN)); n != 6 {
			return nil, fmt.Errorf("rules: FEN %q has %d fields, want 6", startFEN, n)
		}
		pos = &chess.Position{}
		if err := pos.UnmarshalText([]byte(startFEN)); err != nil {
			return nil, fmt.Errorf("rules: FEN %q: %w", startFEN, err)
		}
	}
	g := &Game{positions: []*chess.Position{pos}, counts: map[string]int{}}
	k := repKey(pos)
	g.keys = append(g.keys, k)
	g.counts[k]++
	g.updateStatus()
	return g, nil
}

func (g *Game) Ply() int                  { return len(g.moves) }
func (g *Game) Position() *chess.Position { return g.positions[len(g.positions)-1] }
func (g *Game) PositionAt(ply int) *chess.Position {
	if ply < 0 || ply >= len(g.positions) {
		return nil
	}
	return g.positions[ply]
}
func (g *Game) Moves() []*chess.Move { return append([]*chess.Move(nil), g.moves...) }
func (g *Game) SAN(ply int) string {
	if ply < 1 || ply > len(g.moves) {
		return ""
	}
	return chess.AlgebraicNotation{}.Encode(g.positions[ply-1], g.moves[ply-1])
}
func (g *Game) UCI(ply int) string {
	if ply < 1 || ply > len(g.moves) {
		return ""
	}
	return g.moves[ply-1].String()
}
func (g *Game) FEN() string { return g.Position().String() }

func (g *Game) Move(m *chess.Move) error {
	if m == nil {
		return fmt.Errorf("%w: nil move", ErrIllegalMove)
	}
	if g.status.Over {
		return fmt.Errorf("%w: %s (%s)", ErrGameOver, m, g.status.Reason)
	}
	pos := g.Position()
	for _, v := range pos.ValidMoves() {
		if v.S1() == m.S1() && v.S2() == m.S2() && v.Promo() == m.Promo() {
			np := pos.Update(v)
			g.moves = append(g.moves, v)
			g.positions = append(g.positions, np)
			k := repKey(np)
			g.keys = append(g.keys, k)
			g.counts[k]++
			g.updateStatus()
			return nil
		}
	}
	return fmt.Errorf("%w: %s in %s", ErrIllegalMove, m, pos)
}

func (g *Game) MoveUCI(s string) error {
	m, err := chess.UCINotation{}.Decode(g.Position(), s)
	if err != nil {
		return fmt.Errorf("%w: %q: not UCI notation", ErrIllegalMove, s)
	}
	return g.Move(m)
}

func (g *Game) MoveSAN(s string) error {
	m, err := chess.AlgebraicNotation{}.Decode(g.Position(), s)
	if err != nil {
		return fmt.Errorf("%w: %q", ErrIllegalMove, s)
	}
	return g.Move(m)
}

func (g *Game) TakeBack(ply int) error {
	if ply < 0 || ply > g.Ply() {
		return fmt.Errorf("rules: take back to ply %d: the record has plies 0..%d", ply, g.Ply())
	}
	for i := len(g.keys) - 1; i > ply; i-- {
		g.counts[g.keys[i]]--
	}
	g.keys = g.keys[:ply+1]
	g.moves = g.moves[:ply]
	g.positions = g.positions[:ply+1]
	g.updateStatus()
	return nil
}

func (g *Game) Status() Status {
	s := g.status
	s.Claimable = append([]string(nil), s.Claimable...)
	return s
}

func (g *Game) Repetitions() int { return g.counts[g.keys[len(g.keys)-1]] }

func (g *Game) updateStatus() {
	pos := g.Position()
	st := Status{Result: "*"}
	switch pos.Status() {
	case chess.Checkmate:
		st = Status{Over: true, Result: "1-0", Reason: "checkmate", Article: "5.1.1"}
		if pos.Turn() == chess.White {
			st.Result = "0-1"
		}
	case chess.Stalemate:
		st = Status{Over: true, Result: "1/2-1/2", Reason: "stalemate", Article: "5.2.1"}
	default:
		switch {
		case g.Repetitions() >= 5:
			st = Status{Over: true, Result: "1/2-1/2", Reason: "fivefold-repetition", Article: "9.6.1"}
		case pos.HalfMoveClock() >= 150:
			st = Status{Over: true, Result: "1/2-1/2", Reason: "seventy-five-moves", Article: "9.6.2"}
		default:
			if g.Repetitions() >= 3 {
				st.Claimable = append(st.Claimable, "threefold-repetition")
			}
			if pos.HalfMoveClock() >= 100 {
				st.Claimable = append(st.Claimable, "fifty-moves")
			}
		}
	}
	g.status = st
}
