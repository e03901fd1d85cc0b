package pipeline

import (
	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules/bitboard"
	"github.com/arbiterd/arbiterd/rules/unwinnable"
)

// Analyzer answers the 6.9 question for flag verdicts with the
// rules/unwinnable analyzer: first in quick mode, and when that is not
// conclusive with a larger node budget. The budgets count positions, not
// time, so the answer — and the event stream — is the same on every machine
// and in every replay.
type Analyzer struct {
	// Retry is the node budget of the second try (0: DefaultRetryBudget).
	Retry int64
}

// DefaultRetryBudget bounds the second try: a few milliseconds of search.
const DefaultRetryBudget = 200_000

// CanMate implements reconcile.MateOracle.
func (a Analyzer) CanMate(fen string, side clockd.Side) (string, []string) {
	color := bitboard.White
	if side == clockd.Black {
		color = bitboard.Black
	}
	res, err := unwinnable.CanMate(fen, color, unwinnable.Options{Mode: unwinnable.Quick})
	if err == nil && res.Verdict == unwinnable.Undetermined {
		budget := a.Retry
		if budget <= 0 {
			budget = DefaultRetryBudget
		}
		res, err = unwinnable.CanMate(fen, color, unwinnable.Options{Mode: unwinnable.Full, NodeBudget: budget})
	}
	if err != nil {
		return "unknown", nil
	}
	switch res.Verdict {
	case unwinnable.Winnable:
		return "yes", res.Line
	case unwinnable.Unwinnable:
		return "no", nil
	}
	return "unknown", nil
}
