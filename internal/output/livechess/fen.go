package livechess

import (
	"errors"
	"fmt"
	"strings"

	"github.com/arbiterd/arbiterd/rules"
)

// ErrBadFEN is the error of a setup whose position arbiterd cannot read.
var ErrBadFEN = errors.New("livechess: bad FEN")

// setupPosition checks the FEN of a setup call and returns it trimmed. It
// takes a whole FEN (6 fields, or 4 without the move counters) or only its
// piece placement; the position must be one a game can stand in (a king
// each, no pawn on the first or last rank, the side not to move not in
// check).
func setupPosition(fen string) (string, error) {
	fen = strings.TrimSpace(fen)
	f := strings.Fields(fen)
	switch len(f) {
	case 0:
		return "", fmt.Errorf("%w: the FEN is empty", ErrBadFEN)
	case 1:
		// the placement alone: either side may be to move
		_, errW := rules.NewGame(f[0] + " w - - 0 1")
		if errW == nil {
			return f[0], nil
		}
		if _, err := rules.NewGame(f[0] + " b - - 0 1"); err == nil {
			return f[0], nil
		}
		return "", fmt.Errorf("%w %q: %v", ErrBadFEN, fen, errW)
	}
	if _, err := rules.NewGame(strings.Join(f, " ")); err != nil {
		return "", fmt.Errorf("%w %q: %v", ErrBadFEN, fen, err)
	}
	return strings.Join(f, " "), nil
}

// samePosition reports whether two FENs (or piece placements) name the
// same position as LiveChess compares them: the same pieces on the same
// squares and, when both say, the same side to move. Castling rights, en
// passant and the counters do not matter: a client's FEN and arbiterd's
// may disagree on them for the same board.
func samePosition(a, b string) bool {
	fa, fb := strings.Fields(a), strings.Fields(b)
	if len(fa) == 0 || len(fb) == 0 || fa[0] != fb[0] {
		return false
	}
	return len(fa) < 2 || len(fb) < 2 || fa[1] == fb[1]
}
